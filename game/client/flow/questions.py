"""A question the app's flow puts to the player before it replaces or leaves anything, in the
same words for every front end: the window shows it as a card with buttons
(:class:`game.scenes.ask.AskScene`), the text client as a numbered list."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Answer:
    """One answer: ``key`` is what the flow is told, ``label`` what the player reads."""

    key: str
    label: str
    tip: str | None = None


@dataclass(frozen=True)
class Question:
    """``title`` explained by ``text``, with ``answers`` (the last changes nothing: Esc, or
    *cancel*, gives it); ``default`` is the answer Enter gives."""

    title: str
    text: str
    answers: tuple[Answer, ...]
    default: str | None = None
    warning: bool = False

    def __post_init__(self) -> None:
        if not self.answers:
            raise ValueError("a question needs at least one answer")

    @property
    def keys(self) -> list[str]:
        return [a.key for a in self.answers]

    def triples(self) -> list[tuple[str, str, str | None]]:
        """The answers as (key, label, tip), as the window's question card takes them."""
        return [(a.key, a.label, a.tip) for a in self.answers]

    def pick(self, said: str) -> str | None:
        """The answer a typed line gives: its number in :attr:`answers` (from 1), or the first
        word of a label ("continue", "new"), or "cancel"; None when it says none of them."""
        said = said.strip().lower()
        if not said:
            return None
        if said.isdigit():
            n = int(said)
            return self.answers[n - 1].key if 1 <= n <= len(self.answers) else None
        if said in ("cancel", "back", "menu", "no"):
            return self.answers[-1].key
        for a in self.answers:
            if said in (a.key, a.label.lower()) or a.label.lower().split()[0].strip(",") == said:
                return a.key
        return None

    def lines(self) -> list[str]:
        """The question in lines of text: its title and explanation, then the numbered answers."""
        title = self.title if self.title.endswith(("?", "!", ".")) else f"{self.title}."
        return [f"{title} {self.text}",
                *(f"{i + 1}. {a.label}" for i, a in enumerate(self.answers))]
