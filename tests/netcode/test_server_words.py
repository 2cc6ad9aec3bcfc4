"""The server's words as codes (issue 29): a refusal keeps its English words for any client and
carries them as a code with its arguments (the ``say`` extension field); our client says them in
its player's language; every code the server uses has its sentence."""
from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from game import i18n
from game.client.lobby import Lobby
from game.client.server_words import server_said
from game.netcode.server_words import SAY, WORDS, said

from conftest import Peer, start_game

ROOT = Path(__file__).resolve().parents[2]


def sit(p: Peer, nick: str, **table) -> dict:
    p.send({"type": "ReqJoin", "nickname": nick, "token": "", "table": table})
    return p.until(lambda m: m["type"] in ("UpdateBookedSeats", "ErrTable", "UpdateGame"))[-1]


def test_every_code_the_server_says_has_its_sentence():
    used = set()
    for path in (ROOT / "game" / "netcode").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "said"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                used.add(node.args[0].value)
    assert used and not used - set(WORDS), sorted(used - set(WORDS))


def test_no_refusal_nor_notice_of_the_server_is_worded_without_a_code():
    """The server's words for a player go through ``said`` (a code): none is written in place, as
    a literal, an f-string or a ``.format`` (the client could only show such words in English)."""
    senders = {"err_table": 1, "err_watch": 1, "err_key": 1, "err_ratings": 1, "err_my_games": 1, "err_new_game": 1,
               "err_protocol": 0, "update_chat": 1, "turn_out": 1, "_refuse": 2, "_notice": 0}
    worded = []
    for path in sorted((ROOT / "game" / "netcode").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in senders and len(node.args) > senders[name]:
                words = node.args[senders[name]]
                if (isinstance(words, ast.JoinedStr) or isinstance(words, ast.Constant) and isinstance(words.value, str)
                        and " " in words.value
                        or isinstance(words, ast.Call) and getattr(words.func, "attr", "") == "format"
                        and getattr(words.func.value, "attr", "") != "UNKNOWN_TYPE"):   # (the reference's own text)
                    worded.append(f"{path.name}:{node.lineno}")
    assert not worded, worded


def test_every_code_the_server_can_send_is_said_in_english_and_in_italian():
    """Each code's sentence, with its arguments, in English as the server sends it and in Italian
    from the catalogue (translated: not the English words again), with every argument in it."""
    untranslated, lost = [], []
    for code, sentence in WORDS.items():
        forms = sentence if isinstance(sentence, tuple) else (sentence,)
        args = {f: 2 if f == "n" else f"<{f}>" for form in forms for _lit, f, _spec, _conv in string.Formatter().parse(form)
                if f}
        english = server_said({SAY: {"code": code, "args": args}}, "?")
        assert english == forms[-1].format(**args) == str(said(code, **args))
        i18n.use("it")
        italian = server_said({SAY: {"code": code, "args": args}}, "?")
        i18n.use("en")
        if italian in (english, "?"):
            untranslated.append(code)
        if any(str(v) not in italian for v in args.values()):
            lost.append(code)
    assert not untranslated and not lost, (untranslated, lost)


@pytest.mark.timeout(20)
def test_a_refusal_travels_as_a_code_and_is_said_in_the_players_language(server, peers):
    ada = peers(server.address).welcome()
    sit(ada, "Ada", create="Amici", playersCount=2, private=True)
    bea = peers(server.address).welcome()
    refused = sit(bea, "Bea", name="Amici")
    assert refused["type"] == "ErrTable" and refused["reason"] == "PRIVATE"
    english = "\u201cAmici\u201d is private: join it with the invite code its host shares."
    assert refused["msg"] == english                                   # what any client reads, as before
    assert refused[SAY] == {"code": "table.private", "args": {"name": "Amici"}}
    taken = sit(bea, "Bea", create="amici", playersCount=3, private=False)
    assert taken[SAY]["code"] == "table.name_taken"
    try:
        i18n.use("it")
        assert Lobby().take(refused) == "\u00abAmici\u00bb \u00e8 privato: entra con il codice d'invito che condivide chi lo ospita."
        assert Lobby().take(taken).startswith("Un tavolo chiamato \u00abamici\u00bb \u00e8 gi\u00e0 aperto")
        assert Lobby().take({**refused, SAY: {"code": "from.a.newer.server", "args": {}}}) == english
        assert Lobby().take({**refused, SAY: {"code": "table.private", "args": {}}}) == english   # args missing
    finally:
        i18n.use("en")
    assert Lobby().take(refused) == english


def _answer(p: Peer, request: dict, type_: str) -> dict:
    p.send(request)
    return p.until(lambda m: m["type"] == type_)[-1]


@pytest.mark.timeout(20)
def test_the_refusals_of_watching_keys_leaderboards_and_my_games_are_said_in_the_players_language(server, peers):
    """ErrWatch, ErrKey, ErrRatings and ErrMyGames carry their words as a code: an Italian player
    reads them in Italian (the server's English ``msg`` is for other clients)."""
    from game.client.my_games_words import NOT_OURS
    from game.client.rating_words import unrated_line
    from game.client.watch_news import WatchNews
    from game.netcode.ratings_wire import make_key
    watch = _answer(peers(server.address).welcome(), {"type": "ReqWatch", "nickname": "Eve", "name": "Nowhere"},
                    "ErrWatch")
    key = _answer(peers(server.address).welcome(), {"type": "ReqJoin", "nickname": "Dee", "token": "",
                                                    "key": make_key()}, "ErrKey")
    mine = _answer(peers(server.address).welcome(), {"type": "ReqMyGames", "key": make_key()}, "ErrMyGames")
    asker = peers(server.address).welcome()
    for _i in range(4):                  # a burst of 3, then too fast
        asker.send({"type": "ReqRatings"})
    ratings = asker.until(lambda m: m["type"] == "ErrRatings")[-1]
    assert [m[SAY]["code"] for m in (watch, key, mine, ratings)] == [
        "watch.no_such_name", "key.not_tls", "my_games.no_key", "ratings.too_fast"]
    assert watch[SAY]["args"] == {"name": "Nowhere"} and watch["msg"] == "No table is called \u201cNowhere\u201d, or its game is over."
    i18n.use("it")
    news = WatchNews()
    news.take(watch)
    assert news.refused == "Nessun tavolo si chiama \u00abNowhere\u00bb, o la sua partita \u00e8 finita."
    assert unrated_line(key) == ("Qui giochi senza punteggio: Una chiave di giocatore viaggia solo su una connessione "
                                 "cifrata: giochi senza punteggio.")
    assert server_said(mine, i18n._(NOT_OURS)).startswith("Le tue partite si trovano con la tua chiave")
    assert server_said(ratings, "?") == "La classifica viene chiesta troppo spesso: aspetta un momento."


def test_why_a_key_pasted_in_is_not_one_is_said_in_the_players_language():
    from game.client.keys import check_key
    i18n.use("it")
    assert check_key("abc") == ("Una chiave \u00e8 fatta di 48 caratteri: 43 lettere, cifre, - o _, un punto, poi "
                                "altri 4; copiala per intero.")


@pytest.mark.timeout(20)
def test_a_quick_game_watched_is_named_in_the_players_language(server, peers, players):
    """The server names a Quick game being played ("Quick game 1", the name to ask for it by, counted from 1
    as players count, not from the server's game id 0);
    our client names it in its player's words from the game's number beside it."""
    from game.client.tables import PlayingTable
    from game.client.watch_news import WatchNews
    start_game(*players(server.address, "Ada", "Bea"))
    eve = peers(server.address).welcome()
    listed = _answer(eve, {"type": "ReqWatchList", "from": 0}, "UpdateWatchList")
    (row,) = listed["tables"]
    assert row["name"] == "Quick game 1" and row["quick"] == 1
    watching = _answer(eve, {"type": "ReqWatch", "nickname": "Eve", "name": row["name"]}, "UpdateWatching")
    assert watching["table"] == "Quick game 1" and watching["quick"] == 1
    i18n.use("it")
    (table,) = PlayingTable.page(listed)
    assert (table.name, table.title) == ("Quick game 1", "Partita rapida 1")
    news = WatchNews()
    news.take(watching)
    assert news.table == "Partita rapida 1"
