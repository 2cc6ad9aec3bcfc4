"""Games on this computer (solo, against the computer): a new one never replaces a saved one
without asking (:func:`new_solo_question`, :func:`new_versus_question`)."""
from __future__ import annotations

from pathlib import Path

from game.i18n import _

from ..games import GameConfig, GameNotOpened, describe_solo_save, open_solo, saved_opponents
from ..session import GameSession
from .questions import Answer, Question

__all__ = ["DAMAGED_SUFFIX", "new_solo_question", "new_versus_question", "start_new_solo"]

DAMAGED_SUFFIX = ".damaged.json"
"""A solo save that cannot be opened is put aside under this name when a new game replaces it."""


def new_solo_question(config: GameConfig, path: Path) -> Question | None:
    """What to ask before a new solo game is saved at ``path`` (None: nothing is saved there).
    Answers: ``continue`` (the saved game; not offered when it cannot be opened), ``new`` (a new
    game replaces it), ``cancel``."""
    if not path.exists():
        return None
    what = describe_solo_save(config, path)
    if what is None:
        return Question(
            _("Your saved solo game cannot be opened"),
            _("The saved game cannot be opened: the file is damaged, or was saved by another version. Starting a new game puts it aside (as {stem}{suffix}) and saves the new one in its place.").format(stem=path.stem, suffix=DAMAGED_SUFFIX),
            (Answer("new", _("Start a new game")), Answer("cancel", _("Cancel"))), warning=True)
    return Question(_("You have a solo game saved"), _("{what} Starting a new game replaces it: the saved game is lost.").format(what=what),
                    (Answer("continue", _("Continue it")), Answer("new", _("New game, lose it")), Answer("cancel", _("Cancel"))),
                    warning=True)


def new_versus_question(config: GameConfig, path: Path) -> Question | None:
    """What to ask before a new game against the computer is saved at ``path`` (None: nothing
    is saved there). Answers: ``continue`` (when the save can be read), ``new``, ``cancel``."""
    names, problem = saved_opponents(path, config)
    if names is None and problem is None:
        return None
    if names is None:
        return Question(_("Your saved game against the computer cannot be read"),
                        _("{problem} Starting a new game replaces it.").format(problem=problem),
                        (Answer("new", _("Start a new game")), Answer("cancel", _("Cancel"))), warning=True)
    # (the title says it is saved: the words under it say whom it is against, not that again)
    return Question(_("You have a game against the computer saved"),
                    _("It is against {names}. Starting a new game replaces it: the saved game is lost.").format(
                        names=names),
                    (Answer("continue", _("Continue it")), Answer("new", _("New game, lose it")), Answer("cancel", _("Cancel"))),
                    warning=True)


def start_new_solo(config: GameConfig, path: Path, nickname: str) -> GameSession:
    """A new solo game for ``nickname`` saved at ``path``, once the player chose it over what was
    saved there (see :func:`new_solo_question`): a save that cannot be opened is put aside first.

    :raises GameNotOpened: the game cannot start (the message says why).
    """
    if path.exists() and describe_solo_save(config, path) is None:
        try:
            path.replace(path.with_name(path.stem + DAMAGED_SUFFIX))
        except OSError as e:
            raise GameNotOpened(_("the damaged save could not be put aside ({why})").format(why=e.strerror or e)) from e
    return open_solo(config, path, nickname)
