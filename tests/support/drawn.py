"""The words a window draws: every ``fonts.render`` (and ``backdrop.tracked``) while a test listens."""
from __future__ import annotations


class Words:
    """The words drawn by the frames run after ``Words(monkeypatch)`` (until the test ends)."""

    def __init__(self, monkeypatch, tracked: bool = False) -> None:
        from game.scenes.art import fonts
        self.seen: list[str] = []
        real = fonts.render

        def render(text, *args, **kw):
            self.seen.append(str(text))
            return real(text, *args, **kw)
        monkeypatch.setattr(fonts, "render", render)
        if tracked:
            on_tracked(monkeypatch, lambda text, img: self.seen.append(str(text)))

    def __contains__(self, text: str) -> bool:
        return any(text in s for s in self.seen)

    def drawn(self) -> str:
        return " ".join(self.seen)


def on_tracked(monkeypatch, seen) -> None:
    """``seen(text, image)`` for every text set in small capitals letter by letter
    (``backdrop.tracked``, wherever a scene took it: such a text never goes through ``fonts.render``)."""
    import sys

    from game.scenes import backdrop
    real = backdrop.tracked

    def tracked(text, *args, **kw):
        img = real(text, *args, **kw)
        seen(text, img)
        return img
    for name, module in list(sys.modules.items()):
        if name.startswith("game.scenes") and getattr(module, "tracked", None) is real:
            monkeypatch.setattr(module, "tracked", tracked)
