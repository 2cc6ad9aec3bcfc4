"""The log of a game as a player reads it: the moves told in words, what was said at the table
(each line heard once, even when a rejoin sends the table's recent lines again), the client's own
notes, and a history from the server merged in where it belongs.

Pure Python; one :class:`GameLog` per :class:`~game.client.session.GameSession`.
"""
from __future__ import annotations

import logging
import re
from typing import Any, Mapping

from game.i18n import _, ngettext

from .narration import Narrator
from .server_words import chat_said
from .view_model import ViewModel
from .words import player_name, skipped_words

Msg = dict[str, Any]
log = logging.getLogger("mor.session")

CHAT_KEPT = 40
"""Lines said at the table remembered to know them again when a rejoin repeats them."""


class ChatLine(str):
    """A line of the log that a player said (drawn apart from the game's own lines)."""

    speaker: str = ""

    @classmethod
    def of(cls, speaker: str, text: str) -> "ChatLine":
        line = cls(f"{speaker}: {text}")
        line.speaker = speaker
        return line

    @property
    def said(self) -> tuple[str, str]:
        """(speaker, text)."""
        return self.speaker, self[len(self.speaker) + 2:]


class Note(str):
    """A line of the log that this client adds (not a move of the game): reconnections, skipped turns."""


YOU = ""
"""Who rearranged, in :func:`_rearranged`'s answer, when it was the reader ("You rearranged...")."""


def _rearranged(line: str) -> tuple[str, int] | None:
    """(who, how many moves) of a line that says a player rearranged the warehouse, in the
    current language (who: :data:`YOU` for the reader's own); None for any other line."""
    mine = re.escape(_("You rearranged the warehouse")) + "|" + re.escape(ngettext(
        "You rearranged the warehouse ({n} moves)", "You rearranged the warehouse ({n} moves)", 2).format(
        n="@N@")).replace("@N@", r"(?P<n>\d+)")
    m = re.fullmatch(f"(?:{mine})\\.", line)
    if m is not None:
        return YOU, int(m["n"] or 1)
    one = re.escape(_("{name} rearranged the warehouse").format(name="@WHO@")).replace("@WHO@", "(?P<who>.+)")
    many = re.escape(ngettext("{name} rearranged the warehouse ({n} moves)", "{name} rearranged the warehouse "
                              "({n} moves)", 2).format(name="@WHO@", n="@N@"))
    many = many.replace("@WHO@", "(?P<who2>.+)").replace("@N@", r"(?P<n>\d+)")
    m = re.fullmatch(f"(?:{one}|{many})\\.", line)
    if m is None:
        return None
    return m["who"] or m["who2"], int(m["n"] or 1)


def add_line(lines: list, line: str) -> None:
    """Put a told line at the end of a log. A player's moves in the warehouse one after another
    are one line, with their count ("Bea rearranged the warehouse (3 moves)."), as a plan sends
    its rearrangement: a request per move."""
    if type(line) is str and lines and type(lines[-1]) is str:
        new, last = _rearranged(line), _rearranged(lines[-1])
        if new is not None and last is not None and new[0] == last[0]:
            n = last[1] + 1
            if new[0] == YOU:
                lines[-1] = ngettext("You rearranged the warehouse ({n} moves)",
                                     "You rearranged the warehouse ({n} moves)", n).format(n=n) + "."
                return
            lines[-1] = ngettext("{name} rearranged the warehouse ({n} moves)",
                                 "{name} rearranged the warehouse ({n} moves)", n).format(name=new[0], n=n) + "."
            return
    lines.append(line)


def tell(nickname: str, messages: list[Msg], levels: Mapping[str, str] | None = None) -> list[str]:
    """A history in words, as it would have been told live (a scratch view model and narrator);
    what was said at the table where it was said. A history this client cannot follow is told
    up to where it could. ``levels``: the bots' levels, when the history's own ``UpdateGame`` does
    not say them (a game on this machine)."""
    vm = ViewModel(nickname)

    def name(nick: str) -> str:       # (a bot with its level, as the history's UpdateGame says)
        return player_name(nick, levels or vm.bot_levels)
    narrator = Narrator(vm, name, you=True)
    told: list[str] = []
    for m in messages:
        if m.get("type") == "UpdateChat":
            who, text = chat_said(m)
            told.append(ChatLine.of(name(who), text))
            continue
        try:
            vm.feed(m)
            line = narrator.take(m)
        except Exception:
            log.exception("cannot tell the history at %.200r", m)
            break
        if line:
            add_line(told, line)
    return told


class GameLog:
    """The lines of a game's log (:attr:`lines`, read by every front end) and what it takes to
    keep each line once."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._heard: list[tuple[str, str]] = []           # the last lines said at the table
        self._repeated: list[tuple[str, str]] | None = None   # after a rejoin: the lines it may send again
        self._history: list[Msg] = []                     # the parts of an UpdateHistory so far

    # ------------------------------------------------------------------ the game's own lines
    def told(self, line: str | None) -> None:
        """A line the narrator told of a message of the game (nothing for None)."""
        if line:
            add_line(self.lines, line)

    def note(self, words: str) -> None:
        self.lines.append(Note(words))

    def game_message(self, kind: str) -> None:
        """A message of the game arrived: a rejoin's ``UpdateGame`` is followed by the last lines
        said at the table, which are skipped when already heard; any other ends that window."""
        self._repeated = list(self._heard) if kind == "UpdateGame" else None

    # ------------------------------------------------------------------ chat
    def heard(self, player: str, text: str) -> bool:
        """A line said at the table; False when it is one a rejoin repeats (already in the log)."""
        said = (player, text)
        if self._repeated is not None and said in self._repeated:
            self._repeated.remove(said)
            return False
        self._remember([said])
        self.lines.append(ChatLine.of(*said))
        return True

    def _remember(self, said: list[tuple[str, str]]) -> None:
        self._heard.extend(said)
        del self._heard[:-CHAT_KEPT]

    # ------------------------------------------------------------------ history
    def history_part(self, m: Msg) -> list[Msg] | None:
        """One part of an ``UpdateHistory``; the whole history's messages once its last part came."""
        self._history.extend(m.get("messages") or [])
        if not m.get("last", True):
            return None
        whole, self._history = self._history, []
        return whole

    def merge(self, told: list[str], skipped: list[int]) -> None:
        """Put the lines of a told history that this log lacks where they belong: all of them
        before anything else when the log has none of the game's lines yet (a resume, a new
        client), else those after the last line the log already has (what was said at the table
        and is already here, left out). Then say which of this player's turns were skipped."""
        ours = [line for line in self.lines if not isinstance(line, (ChatLine, Note))]
        if not ours:
            self.lines[:0] = told
            new = told
        else:
            moves = [j for j, line in enumerate(told) if not isinstance(line, ChatLine)]
            plain = [told[j] for j in moves]
            new = told
            for k in range(min(len(ours), 6), 0, -1):   # the longest tail of ours found in the history
                tail = ours[-k:]
                at = [j for j in range(len(plain) - k + 1) if plain[j:j + k] == tail]
                if at:
                    new = told[moves[at[-1] + k - 1] + 1:]
                    break
            heard = {str(line) for line in self.lines[-60:] if isinstance(line, ChatLine)}
            new = [line for line in new if not (isinstance(line, ChatLine) and str(line) in heard)]
            self.lines.extend(new)
        self._remember([line.said for line in new if isinstance(line, ChatLine)])
        if skipped:
            self.note(skipped_words(skipped))
