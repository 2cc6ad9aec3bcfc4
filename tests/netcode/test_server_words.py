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

from conftest import Peer

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


def test_every_code_the_server_can_send_is_said_in_english_and_in_italian():
    """Each code's sentence, with its arguments, in English as the server sends it and in Italian
    from the catalogue (translated: not the English words again), with every argument in it."""
    untranslated, lost = [], []
    for code, sentence in WORDS.items():
        args = {f: f"<{f}>" for _lit, f, _spec, _conv in string.Formatter().parse(sentence) if f}
        english = server_said({SAY: {"code": code, "args": args}}, "?")
        assert english == sentence.format(**args) == str(said(code, **args))
        i18n.use("it")
        italian = server_said({SAY: {"code": code, "args": args}}, "?")
        i18n.use("en")
        if italian in (english, "?"):
            untranslated.append(code)
        if any(v not in italian for v in args.values()):
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
