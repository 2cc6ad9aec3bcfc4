"""A finished game read again move by move, in typed commands: next, back, turn, start, end, and
the questions of a game (market, board, score…) answered at each move."""
from __future__ import annotations

from typing import Any, Callable

from game.client.replay import ReplayFeed
from game.client.session import GameSession
from game.i18n import _, ngettext

from .play import GameShell

QUESTIONS = ("market", "grid", "board", "leaders", "track", "lorenzo", "score", "log")
WORDS = ["next", "back", "turn", "start", "end", *QUESTIONS, "leave"]
"""The words that complete in a replay."""


class ReplayReader:
    """One replay (:func:`game.client.replay.open_replay`'s), said through ``say``: :meth:`start`
    says the table as dealt, :meth:`command` takes a typed line."""

    def __init__(self, replay: Any, say: Callable[[str], None]) -> None:
        self.replay = replay
        self.say = say
        self.step = 0
        self.session = GameSession(ReplayFeed(replay.viewer, replay.bots), replay.config, replay.viewer)
        self.shell = GameShell(self.session, say)      # its questions only: a replay has no moves of its own

    def start(self) -> None:
        self.say(ngettext("A replay of {n} move.", "A replay of {n} moves.", len(self.replay)).format(n=len(self.replay))
                 + " " + _("Say next (or Enter), back, turn, start, end to move through it; market, board, score and "
                           "the other questions answer at each step; leave to stop."))
        self.at(0)

    def at(self, step: int) -> None:
        """Go to move ``step`` (0: the table as dealt) and say it."""
        self.step = max(0, min(step, len(self.replay)))
        self.session.match.out.append(self.replay.view_at(self.step))
        self.session.pump()
        lines = self.replay.lines_until(self.step)
        self.session.log = lines
        self.say(_("Move {n} of {total}.").format(n=self.step, total=len(self.replay)) + " "
                 + (lines[-1] if lines and self.step else _("The table as dealt.")))

    def command(self, text: str) -> bool:
        """One typed line; False when the player leaves the replay."""
        word = text.split()[0].lower() if text else "next"
        if word in ("leave", "quit", "menu", "q"):
            self.shell.close()
            return False
        if word in ("next", "n"):
            self.at(self.step + 1)
        elif word in ("back", "b", "previous"):
            self.at(self.step - 1)
        elif word == "turn":
            self.at(self.replay.next_turn(self.step))
        elif word == "start":
            self.at(0)
        elif word == "end":
            self.at(len(self.replay))
        elif word in QUESTIONS:
            self.shell.ask(text)       # a question only: a replay has no moves of its own
        elif word in ("help", "?", "h"):
            self.say(_("In a replay: next (or Enter) and back go one move, turn to the next turn, start and end to "
                       "either end; the questions {questions} answer at each move; leave goes back to the menu.").format(
                questions=", ".join(QUESTIONS)))
        else:
            self.say(_("Say next, back, turn, start, end, a question (market, board, score and the others), or leave."))
        return True
