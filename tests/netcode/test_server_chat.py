"""Chat, our extension: a line of ``ReqChat`` reaches the players of the sender's game who joined
with our client (``UpdateChat``), never a reference client, never another game; bad lines and
floods are refused with one error each."""
from __future__ import annotations

import pytest

from game.netcode import protocol as P
from game.netcode.client_messages import ReqChat
from game.netcode.server_messages import err_protocol, update_chat

from conftest import room_of, start_game

pytestmark = pytest.mark.timeout(30)


def chat_lines(p) -> list[tuple[str, str]]:
    return [(m["player"], m["text"]) for m in p.received if m["type"] == P.UPDATE_CHAT]


def test_a_line_reaches_the_table_and_only_it(server, players):
    a, b = players(server.address, "ca", "cb")
    start_game(a, b)
    c, d = players(server.address, "cc", "cd")
    start_game(c, d)
    a.send(ReqChat("  buon   giorno  "))
    a.until_type(P.UPDATE_CHAT)
    b.until_type(P.UPDATE_CHAT)
    assert chat_lines(a) == chat_lines(b) == [("ca", "buon giorno")]   # cleaned, and echoed to its sender
    c.probe()
    d.probe()
    assert chat_lines(c) == chat_lines(d) == []                       # another game hears nothing


def test_a_reference_client_is_never_sent_chat(server, players):
    a, b = players(server.address, "ra", "rb")
    start_game(a, b, token=None)   # b, like a, joins without a token: a reference client
    ours, = players(server.address, "ours")
    room = room_of(server, "ra")
    a.send(ReqChat("hello"))
    assert a.until_type(P.UPDATE_CHAT)[-1] == update_chat("ra", "hello")   # the sender still gets its answer
    b.probe()
    assert chat_lines(b) == []
    assert room.nicknames == ("ra", "rb") and not chat_lines(ours)


@pytest.mark.parametrize("text", ["", "   ", "x" * (P.CHAT_MAX + 1), "bell\x07", 42, None, ["hi"]])
def test_bad_lines_get_one_error_and_nothing_is_sent(server, players, text):
    a, b = players(server.address, "ba", "bb")
    start_game(a, b)
    a.send({"type": P.REQ_CHAT, "text": text} if text is not None else {"type": P.REQ_CHAT})
    err = a.until(lambda m: m["type"].startswith("Err"))[-1]
    assert err == err_protocol(P.INVALID_TYPES)
    a.probe()
    b.probe()
    assert chat_lines(a) == chat_lines(b) == []


def test_the_waiting_room_talks_among_itself(server, players):
    w1, w2 = players(server.address, "w1", "w2")
    w1.join()
    w2.join()
    old = players(server.address, "r1")[0]
    old.join(token=None)   # a reference client waiting too
    w2.send(ReqChat("who else is coming?"))
    for p in (w1, w2):
        p.until_type(P.UPDATE_CHAT)
        assert chat_lines(p) == [("w2", "who else is coming?")]
    old.probe()
    assert chat_lines(old) == []


def test_before_joining_there_is_no_one_to_talk_to(server, peers):
    raw = peers(server.address)
    raw.expect("ReqWelcome")
    raw.send(ReqChat("before joining").to_dict())
    assert raw.expect("ErrNickname")["reason"] == P.NOT_SET


def test_a_flood_is_slowed_down(server, players):
    a, b = players(server.address, "fa", "fb")
    start_game(a, b)
    for i in range(8):
        a.send(ReqChat(f"line {i}"))
    a.until(lambda m: sum(x["type"] == "ErrProtocol" for x in a.received) == 3)
    a.probe()   # and nothing more
    errors = [m for m in a.received if m["type"] == "ErrProtocol"]
    assert [t for _, t in chat_lines(a)] == [f"line {i}" for i in range(5)]
    assert errors == [err_protocol(P.CHAT_TOO_FAST)] * 3


def test_who_comes_back_hears_what_was_said_lately(server, players):
    a, b = players(server.address, "ha", "hb")
    start_game(a, b)
    for i in range(25):   # more than the room keeps (the flood limit lifted between lines)
        a.send(ReqChat(f"line {i}"))
        a.until_type(P.UPDATE_CHAT)
        with server.lock:
            for s in server.sessions:
                s.chat_times.clear()
    token = b.token
    b.close()
    (back,) = players(server.address, "hb")
    answer = back.join(token=token)
    assert answer[-1]["type"] == "UpdateGame"
    told = [m for h in _history(back) for m in h["messages"]]        # inside the game's history
    assert [m["text"] for m in told if m["type"] == P.UPDATE_CHAT] == [f"line {i}" for i in range(5, 25)]


def _history(p) -> list[dict]:
    """The ``UpdateHistory`` lines a returning player gets, up to the last one."""
    got = p.until(lambda m: m["type"] == "UpdateHistory" and m.get("last", True))
    return [m for m in got if m["type"] == "UpdateHistory"]


def test_who_comes_back_reads_the_chat_where_it_was_said_among_the_moves(server, players):
    from game.rules.actions import ReqChooseLeaders
    a, b = players(server.address, "ha", "hb")
    start_game(a, b)
    a.send(ReqChat("before the choice"))
    a.until_type(P.UPDATE_CHAT)
    hand = room_of(server, "ha").game.player("ha").hand
    a.send(ReqChooseLeaders(tuple(hand[:2])))
    a.until(lambda m: m["type"] == "UpdateAction")
    a.send(ReqChat("after the choice"))
    a.until(lambda m: m["type"] == P.UPDATE_CHAT and m["text"] == "after the choice")
    token = b.token
    b.close()
    (back,) = players(server.address, "hb")
    back.join(token=token)
    told = [m for h in _history(back) for m in h["messages"]]
    order = [m.get("text") or m.get("action") for m in told
             if m["type"] == P.UPDATE_CHAT or (m["type"] == "UpdateAction" and m.get("player") == "ha")]
    assert order == ["before the choice", "CHOOSE_LEADERS", "after the choice"], order
    assert not [m for m in back.received[-5:] if m["type"] == P.UPDATE_CHAT]   # not told twice


def test_what_was_said_comes_back_after_a_restart_where_it_was_said(make_server, players):
    """The host restarts (the server stops and starts again on its data directory): the lines
    said at the table come back to whoever rejoins, among the moves where they were said (they
    were kept in memory only, and a restarted host's log had lost them)."""
    from game.rules.actions import ReqChooseLeaders
    from game.replays import record_from_log
    srv = make_server()
    a, b = players(srv.address, "ra", "rb")
    start_game(a, b)
    a.send(ReqChat("before the choice"))
    a.until_type(P.UPDATE_CHAT)
    hand = room_of(srv, "ra").game.player("ra").hand
    a.send(ReqChooseLeaders(tuple(hand[:2])))
    a.until(lambda m: m["type"] == "UpdateAction")
    b.send(ReqChat("after the choice"))
    a.until(lambda m: m["type"] == P.UPDATE_CHAT and m["text"] == "after the choice")
    log_file = room_of(srv, "ra").log.path
    tokens = a.token, b.token
    srv.stop()
    srv2 = make_server()                                       # the same data directory
    back_a, back_b = players(srv2.address, "ra", "rb")
    for p, token in zip((back_a, back_b), tokens):
        p.join(token=token)
        told = [m for h in _history(p) for m in h["messages"]]
        order = [m.get("text") or m.get("action") for m in told
                 if m["type"] == P.UPDATE_CHAT or (m["type"] == "UpdateAction" and m.get("player") == "ra")]
        assert order == ["before the choice", "CHOOSE_LEADERS", "after the choice"], order
    record = record_from_log(log_file.read_bytes())           # a replay of the log plays the moves only
    assert [e[0] for e in record["history"]] == ["apply"]
