"""The server's words for a player, each under a code with its arguments, so that every client
says them in its player's language (issue 29).

The server never assumes a language. A refusal or a limit it words (``ErrTable.msg``,
``ErrNewGame.reason``, ...) keeps today's English text in its field, for any client, and also
travels as ``"say": {"code": CODE, "args": {...}}`` (:data:`SAY`), an extension field that
reference clients never see or ignore (see ``docs/compatibility.md``). Our clients look the code
up in :data:`WORDS` and say its sentence, translated, with the arguments
(:func:`game.client.server_words.server_said`); a code they do not know (a newer server) leaves
the English text.

The sentences are marked for the catalogues here (``N_``: nothing is translated on the server),
once: the English text sent and the client's sentence are the same words.

>>> s = said("table.name_taken", name="Bea")
>>> str(s)
'A table called “Bea” is already open: choose another name, or join that one.'
>>> say_field(s)
{'code': 'table.name_taken', 'args': {'name': 'Bea'}}
>>> say_field("any other words") is None
True
"""
from __future__ import annotations

from typing import Any, Mapping

from game.bots.turn_policy import COULD_NOT_DECIDE, NOTHING_ACCEPTED, Leave
from game.i18n import N_, NN_

__all__ = ["SAY", "SERVER_VOICE", "WORDS", "Said", "bot_farewell", "said", "said_again", "said_in", "say_field",
           "with_say"]

SERVER_VOICE = "Server"
"""The ``player`` of the server's own notices in ``UpdateChat`` (only ever sent to our clients)."""

SAY = "say"
"""The extension field of a message that carries its words as a code: ``{"code", "args"}``."""

WORDS: dict[str, str | tuple[str, str]] = {
    # the tables (ErrTable.msg)
    "table.extension": N_("Tables are an extension of this server: join with a token to use them."),
    "table.no_such_code": N_("No open table has that invite code: its game may have started, or it was closed."),
    "table.no_such_name": N_("No open table is called \u201c{name}\u201d: its game may have started, or it was closed."),
    "table.private": N_("\u201c{name}\u201d is private: join it with the invite code its host shares."),
    "table.nickname_taken": N_("Someone at \u201c{name}\u201d is called {nickname} already (or by a name that "
                               "reads the same): choose another name to sit there."),
    "table.key_seated": N_("You sit at \u201c{name}\u201d already (in another window?): one player, known by "
                           "their player key, has one seat at a table."),
    "table.no_such": N_("No such table."),
    "game.no_such": N_("No such game."),
    "table.bad_name": N_("A table's name is 1 to {most} letters, digits, spaces or signs."),
    "table.name_taken": N_("A table called \u201c{name}\u201d is already open: choose another name, or join that one."),
    "table.seats": N_("A table has {least} to {most} seats."),
    "table.bots_refused": N_("Those computer players cannot be seated."),
    # the limits of an address and of the server's computer players (ErrTable.msg, ErrNewGame.reason)
    "limits.tables": N_("Too many games in progress from your address (at most {most}): finish one first."),
    "limits.bots": N_("Too many computer players in games from your address (at most {most}): finish a game first."),
    "limits.bots_busy": N_("The server's computer players are all busy ({most} seats taken): try again later, or "
                           "play with people."),
    "limits.bots_warming": NN_("A game with computer players began here a moment ago: the server sees how busy its "
                               "bots keep it before it takes another. Try again in {n} second, or play with people.",
                               "A game with computer players began here a moment ago: the server sees how busy its "
                               "bots keep it before it takes another. Try again in {n} seconds, or play with people."),
    "limits.bots_at_pace": N_("The server's computer players are as busy as they can be while keeping their pace: "
                              "try again in a few minutes, or play with people."),
    # a new game's computer players (ErrNewGame.reason)
    "bots.unknown_level": N_("Unknown bot level {level}: choose among {levels}."),
    "bots.too_many": N_("A game of {count} has one seat for you: computer players can take at most {room} of the "
                        "others."),
    "bots.pace_extension": N_("botPace is an extension of this server: join with a token to ask for it."),
    "bots.pace_bad": N_("botPace must be a number of seconds from 0 to {most}, not {value}."),
    # turn-based tables and seats taken back by key (ErrTable.msg)
    "turns.needs_key": N_("A turn-based table keeps your seat by your player key, and you joined without one: join "
                          "over an encrypted connection (our client does it by itself) to open or sit at one."),
    "turns.bad_move_time": N_("A turn-based table gives each move 1 hour, 1 day or 3 days (moveTime 3600, 86400 or "
                              "259200)."),
    "turns.not_your_game": N_("No game of yours has that number on this server: it may be over."),
    "turns.seat_in_use": N_("You are connected to that game already (in another window?): close it there first."),
    "limits.turn_tables": N_("Too many turn-based tables and games from your address (at most {most}): finish one "
                             "first."),
    "limits.games_per_key": N_("You have as many games on this server as it keeps for one player ({most}): finish "
                               "one first."),
    # the computer's turns for a player out of time at a turn-based table (UpdateChat.text from
    # "Server", beside its notice; the last also ErrTable.msg for that seat)
    "turns.stood_now": N_("Your time for this move ran out: the computer ({level} level) plays this turn for you. "
                          "Your next turn is yours again."),
    "turns.stood": NN_("While you were away the computer played one of your turns ({level} level), as your time "
                       "ran out: welcome back, the game is yours again.",
                       "While you were away the computer played {n} of your turns ({level} level), as your time "
                       "ran out: welcome back, the game is yours again."),
    "turns.given_to_bot": NN_("{nick} let {n} turn run out: the computer ({level} level) plays that seat to the end, "
                              "and its points stay the seat's.",
                              "{nick} let {n} turns run out in a row: the computer ({level} level) plays that seat to "
                              "the end, and its points stay the seat's."),
    # the seats of a game asked for (ErrNewGame.reason)
    "bots.only_the_head": N_("Only the first player in the waiting room may ask for bots."),
    "bots.extension": N_("Bots are an extension of this server: join with a token to ask for them."),
    "table.host_chooses": N_("Only the host of the table chooses its seats."),
    "table.too_few_seats": NN_("{n} person sits at this table: it needs {seats} seats at least.",
                               "{n} people sit at this table: it needs {seats} seats at least."),
    # watching a table (ErrWatch.msg)
    "watch.no_such_name": N_("No table is called \u201c{name}\u201d, or its game is over."),
    "watch.no_such_code": N_("No table has that invite code, or its game is over."),
    "watch.private": N_("\u201c{name}\u201d is private: watch it with the invite code its players share."),
    "watch.full": N_("\u201c{name}\u201d has as many watchers as it takes ({most}): try again later."),
    "watch.busy": N_("The server has as many watchers as it takes ({most}): try again later."),
    "watch.too_fast": N_("Too many watch requests from your address: wait a moment."),
    "watch.bad_name": N_("A watcher's name is 1 to 24 letters, digits, spaces or signs."),
    "watch.playing": N_("You play at this server on this connection: watch from another one."),
    "watch.not_playing": N_("You play at no table here: there are no watchers to hide."),
    # a player's key (ErrKey.msg; check_key's words, also said by our client of a key pasted in)
    "key.not_text": N_("A key is a line of letters and digits."),
    "key.length": N_("A key is {length} characters: {body} letters, digits, - or _, a dot, then {check} more; copy "
                     "it whole."),
    "key.mistake": N_("That key has a mistake in it (its last four characters do not match the rest): copy it "
                      "again."),
    "key.limit": N_("Too many new players from your address lately (at most {most} an hour): you play unrated for "
                    "now."),
    "key.store_full": N_("The server keeps no more new players: you play unrated."),
    "key.cannot_save": N_("The server cannot save a new player right now (its disk is full): you play unrated for "
                          "now."),
    "key.not_tls": N_("A player key is taken over an encrypted connection only: you play unrated."),
    # the leaderboard (ErrRatings.msg) and a player's games (ErrMyGames.msg)
    "ratings.too_fast": N_("Leaderboards are asked too often: wait a moment."),
    "my_games.no_key": N_("Your games are found by your player key, over an encrypted connection."),
    # a connection past a limit, told why before it is closed; a game at its length (ErrProtocol.msg)
    "limits.server_full": N_("The server is full: try again later."),
    "limits.connections": N_("Too many connections from your address (at most {most}): close one and try again."),
    "limits.network_connections": N_("Too many connections from your network (at most {most}): close one and try "
                                     "again."),
    "limits.no_join": N_("No ReqJoin within {seconds} s: closing the connection."),
    "limits.no_game": N_("No game joined within {seconds} s: closing the connection."),
    "limits.turn_length": N_("You have made {most} moves in a row that can still be taken back, as many as the "
                             "server keeps: end your turn, or take one back."),
    "limits.game_length": N_("This game has reached the length the server keeps for one game ({most} moves): only "
                             "ending your turn is taken now, and the computer plays what is left of a turn when its "
                             "time runs out."),
    # the server's notices at a table, as chat from "Server" (UpdateChat.text)
    "save.cannot_start": N_("The server cannot save a new game right now (its disk is full): it starts as soon as "
                            "it can."),
    "save.cannot_save": N_("The server cannot save the game right now (its disk is full): nothing was played. Try "
                           "again in a moment."),
    "save.again": N_("The server can save the game again: play on."),
    # a computer player that cannot go on says so as it leaves (UpdateChat.text, from the bot)
    "bot.could_not_decide": N_("Sorry, I could not decide on a move, so I leave the table: the game goes on "
                               "without me."),
    "bot.nothing_accepted": N_("Sorry, I cannot find a move the rules accept, so I leave the table: the game goes "
                               "on without me."),
}
"""Every code the server words, with its sentence (in English, marked for the catalogues): two
forms where a number meets a noun, the argument ``n`` choosing. An argument named ``level`` is a
bot's level ("easy", "medium", "hard"), which a client says in its own words."""


class Said(str):
    """Words of the server: the English sentence (a ``str``), with the ``code`` and ``args`` it
    was said from."""

    code: str
    args: dict[str, Any]

    def __new__(cls, code: str, args: dict[str, Any]) -> "Said":
        words = WORDS[code]
        if isinstance(words, tuple):    # English has one form for 1, one for the rest
            words = words[0] if args["n"] == 1 else words[1]
        text = super().__new__(cls, words.format(**args))
        text.code, text.args = code, args
        return text


def said(code: str, **args: Any) -> Said:
    """The sentence of ``code`` with ``args`` (numbers, names: kept as they are, to be said again
    in the client's language).

    :raises KeyError: an unknown code (a typo in the server: the tests say every code used is known)."""
    return Said(code, args)


def said_in(m: Mapping[str, Any], text: str) -> str:
    """``text``, the words of message ``m`` (e.g. its ``msg``), as a :class:`Said` when ``m``
    carries a code this version knows with arguments that fit (so that they can be said again
    in a player's language further on), else as it is.

    >>> say_field(said_in({"say": {"code": "limits.server_full", "args": {}}}, "The server is full: try again later."))
    {'code': 'limits.server_full', 'args': {}}
    >>> said_in({"say": {"code": "a.newer.code", "args": {}}}, "Newer words.")
    'Newer words.'
    """
    say = m.get(SAY)
    if isinstance(say, dict) and say.get("code") in WORDS and isinstance(say.get("args", {}), dict):
        try:
            return Said(str(say["code"]), dict(say.get("args", {})))
        except (KeyError, IndexError, ValueError, TypeError):
            pass
    return text


def say_field(text: object) -> dict[str, Any] | None:
    """The :data:`SAY` field for words of the server (None for words said without a code)."""
    if isinstance(text, Said):
        return {"code": text.code, "args": dict(text.args)}
    return None


def with_say(message: dict[str, Any], text: object) -> dict[str, Any]:
    """``message`` with the :data:`SAY` field of ``text`` when it has one."""
    field = say_field(text)
    if field is not None:
        message[SAY] = field
    return message


_FAREWELLS = {COULD_NOT_DECIDE: "bot.could_not_decide", NOTHING_ACCEPTED: "bot.nothing_accepted"}
"""Why a bot leaves its table (:class:`game.bots.turn_policy.Leave`) -> the code of its farewell."""


def bot_farewell(leave: Leave) -> str:
    """What a bot says at the table as it leaves (``leave.farewell``), with its code when it has one."""
    code = _FAREWELLS.get(leave.why)
    return said(code) if code is not None else leave.farewell


_AGAIN = {WORDS[code]: code for code in _FAREWELLS.values()}


def said_again(text: str) -> str:
    """A line kept at a table (``Room.chat``, a game's log: words only) said again with its code
    when the server wrote it (a bot's farewell), else as it is.

    >>> say_field(said_again(Leave(COULD_NOT_DECIDE).farewell))
    {'code': 'bot.could_not_decide', 'args': {}}
    >>> said_again("hello") == "hello" and say_field(said_again("hello")) is None
    True
    """
    code = _AGAIN.get(text)
    return said(code) if code is not None else text
