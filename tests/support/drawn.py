"""The words a window draws: every ``fonts.render`` while a test listens."""
from __future__ import annotations


class Words:
    """The words drawn by the frames run after ``Words(monkeypatch)`` (until the test ends)."""

    def __init__(self, monkeypatch) -> None:
        from game.scenes.art import fonts
        self.seen: list[str] = []
        real = fonts.render

        def render(text, *args, **kw):
            self.seen.append(str(text))
            return real(text, *args, **kw)
        monkeypatch.setattr(fonts, "render", render)

    def __contains__(self, text: str) -> bool:
        return any(text in s for s in self.seen)

    def drawn(self) -> str:
        return " ".join(self.seen)
