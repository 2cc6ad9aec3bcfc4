"""Putting one of the app flow's questions (:class:`game.client.flow.questions.Question`) over
the page, the one way every page of the window asks it: the question card (``"ask"`` in the
registry, :class:`.ask.AskScene`), with the question's title, words, answers, default and tone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from game.client.flow.questions import Question

    from .app_port import AppPort


def ask(app: "AppPort", question: "Question", then: Callable[[str], None]) -> None:
    """Put ``question`` over the page; once answered, the card goes and ``then(answer key)`` runs
    (Esc gives the last answer, which changes nothing)."""
    app.stack.push(app.scene("ask", question.title, question.text, question.triples(), then,
                             warning=question.warning, default=question.default))
