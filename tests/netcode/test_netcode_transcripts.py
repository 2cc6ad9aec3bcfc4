"""Every line a client sent to the reference server, replayed through our framing and parser.

The transcripts are public captures of the AM49 reference server, copied byte for byte from
``shared/protocol/reference-transcripts/`` into ``tests/data/reference-transcripts/`` so this test
runs on a clean clone. For each client line we look at what the reference answered on that
connection:

* ``ErrProtocol {msg}``: we must refuse the line with the same ``msg``;
* anything else (a success, a lobby or game error, or silence): the line must parse, into the
  message or ``Action`` of its type. Game and lobby errors are the engine's and server's business.

Lines where we deliberately answer differently are listed in ``DEVIATIONS`` with the reason.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from game.netcode import protocol as p
from game.netcode.client_messages import parse_client_message
from game.netcode.server_messages import (
    err_new_game,
    err_nickname,
    err_protocol,
    req_heartbeat,
    req_welcome,
    res_goodbye,
    res_heartbeat,
    res_quit,
    res_welcome,
    update_booked_seats,
    update_join_game,
    update_player_status,
)
from game.netcode.framing import LineReader, ProtocolError, decode_line, encode

DATA = Path(__file__).resolve().parents[1] / "data" / "reference-transcripts"
TRANSCRIPTS = sorted(DATA.glob("*.jsonl"))

DEVIATIONS = {
    "{type:ReqWelcome}": (
        "Invalid syntax.", "reference (lenient Gson) accepted unquoted names and answered ResWelcome; "
        "we accept strict JSON only"),
    "{'type':'ReqHeartbeat'}": (
        "Invalid syntax.", "reference (lenient Gson) accepted single quotes and answered ResHeartbeat; "
        "we accept strict JSON only"),
    '{"type":null}': (
        'Field "type" not found.', "reference dropped the connection without a word; we answer and keep it"),
    '{"type":{}}': (
        'Field "type" not found.', "reference dropped the connection without a word; we answer and keep it"),
    '{"type":"ReqTakeFromMarket"}': (
        "Invalid attribute types.", "reference filled Java defaults and answered ErrNickname NOT_SET "
        "(sent before joining); we refuse missing fields before any lobby check"),
    '{"type":"ReqTakeFromMarket","isRow":true,"index":0}': (
        "Invalid attribute types.", "reference crashed on the missing replacements/shelves and sent "
        "nothing; we refuse missing fields"),
}


def load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def client_lines():
    """(file, index, line, reference reply) for every c2s record; the reply is the next record of
    the same connection (an s2c line, the client's next line, or an event such as eof)."""
    for path in TRANSCRIPTS:
        records = load(path)
        for i, rec in enumerate(records):
            if rec["dir"] != "c2s":
                continue
            reply = next((r for r in records[i + 1:] if r["conn"] == rec["conn"] and r["dir"] != "note"), None)
            yield path.name, i, rec["line"], reply


CASES = list(client_lines())


def test_the_transcripts_are_there():
    assert [t.name for t in TRANSCRIPTS] == [
        "buy-and-produce.jsonl", "errors.jsonl", "heartbeat.jsonl", "lobby-negative-count.jsonl",
        "reconnect.jsonl", "solo-opening.jsonl", "solo-to-end.jsonl", "two-players.jsonl"]
    assert len(CASES) > 250


def reference_protocol_error(reply: dict | None) -> str | None:
    if reply is None or reply["dir"] != "s2c":
        return None
    msg = json.loads(reply["line"])
    return msg["msg"] if msg["type"] == "ErrProtocol" else None


def through_the_wire(line: str):
    """Frame the recorded line as the client sent it (plus its LF), then decode and parse it."""
    reader = LineReader(io.BytesIO(line.encode("utf-8") + b"\n"))
    framed = list(reader)
    assert len(framed) == 1 and isinstance(framed[0], bytes), framed
    return parse_client_message(decode_line(framed[0]))


@pytest.mark.parametrize("name, index, line, reply", CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_client_line(name, index, line, reply):
    if line in DEVIATIONS:
        expected, _reason = DEVIATIONS[line]
    else:
        expected = reference_protocol_error(reply)
    if expected is not None:
        with pytest.raises(ProtocolError) as info:
            through_the_wire(line)
        assert info.value.msg == expected
        return
    msg = through_the_wire(line)
    wire = json.loads(line)
    assert msg.TYPE == wire["type"]
    rebuilt = msg.to_dict()
    # What we would send back is what was sent, minus fields we ignore (e.g. "extra").
    assert {k: wire[k] for k in rebuilt} == rebuilt
    assert parse_client_message(rebuilt) == msg


def test_every_deviation_occurs_and_really_differs():
    seen = {line: reply for _, _, line, reply in CASES if line in DEVIATIONS}
    assert set(seen) == set(DEVIATIONS)
    for line, reply in seen.items():
        assert reference_protocol_error(reply) != DEVIATIONS[line][0]


def test_every_reference_protocol_error_text_is_covered():
    texts = {reference_protocol_error(r) for _, _, _, r in CASES} - {None}
    assert texts == {"Invalid syntax.", "Empty input.", 'Field "type" not found.',
                     'Event type "ReqNope" as subclass of "VCEvent" does not exist.',
                     'Event type "UpdateGame" as subclass of "VCEvent" does not exist.',
                     "Invalid attribute types."}


def server_lines():
    for path in TRANSCRIPTS:
        for rec in load(path):
            if rec["dir"] == "s2c":
                yield rec["line"]


def test_every_server_type_seen_is_in_the_catalogue():
    seen = {json.loads(line)["type"] for line in server_lines()}
    assert seen <= p.SERVER_TYPES
    assert not seen & {"ReqGoodbye", "UpdateActivateLeader"}  # catalogued from the source only


def test_server_lines_decode_and_end_with_type():
    for line in server_lines():
        msg = decode_line(line.encode("utf-8"))
        assert list(msg)[-1] == "type"


BUILDERS = {
    "ReqWelcome": lambda m: req_welcome(),
    "ResWelcome": lambda m: res_welcome(),
    "ReqHeartbeat": lambda m: req_heartbeat(),
    "ResHeartbeat": lambda m: res_heartbeat(),
    "ResGoodbye": lambda m: res_goodbye(),
    "ResQuit": lambda m: res_quit(),
    "UpdateBookedSeats": lambda m: update_booked_seats(m["bookedSeats"], m["canPrepareNewGame"]),
    "UpdateJoinGame": lambda m: update_join_game(m["playersCount"]),
    "UpdatePlayerStatus": lambda m: update_player_status(m["player"], m["isActive"]),
    "ErrProtocol": lambda m: err_protocol(m["msg"]),
    "ErrNickname": lambda m: err_nickname(m["reason"]),
    "ErrNewGame": lambda m: err_new_game(m["isInvalidPlayersCount"]),
}


def test_builders_reproduce_the_reference_messages_key_for_key():
    counts = dict.fromkeys(BUILDERS, 0)
    for line in server_lines():
        msg = decode_line(line.encode("utf-8"))
        build = BUILDERS.get(msg["type"])
        if build is None:
            continue
        built = build(msg)
        assert list(built.items()) == list(msg.items())
        if line.isascii() and "\\u" not in line:  # the reference HTML-escapes <>&=' ; we do not
            assert encode(built) == line.encode() + b"\n"
        counts[msg["type"]] += 1
    assert all(counts.values()), counts  # each builder was checked against at least one capture
