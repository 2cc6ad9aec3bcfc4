"""The message catalogue: parsing client messages, refusing the rest, building server messages."""
from __future__ import annotations

import doctest

import pytest

import game.netcode.client
import game.netcode.client_messages
import game.netcode.framing
import game.netcode.protocol
import game.netcode.server_messages
from game.netcode import protocol as p
from game.netcode.client_messages import (
    ReqHeartbeat,
    ReqJoin,
    ReqNewGame,
    ReqQuit,
    parse_client_message,
    validate_nickname,
)
from game.netcode.server_messages import (
    err_new_game,
    err_nickname,
    err_protocol,
    req_goodbye,
    req_heartbeat,
    req_welcome,
    res_goodbye,
    res_heartbeat,
    res_quit,
    res_welcome,
    update_booked_seats,
    update_join_game,
    update_player_status,
    visible_to,
)
from game.netcode.framing import ProtocolError, decode_line, encode
from game.rules import actions as a

# One well-formed example of every client message type, written as on the wire.
CLIENT_EXAMPLES = [
    {"type": "ReqWelcome"},
    {"type": "ResWelcome"},
    {"type": "ReqHeartbeat"},
    {"type": "ResHeartbeat"},
    {"type": "ReqGoodbye"},
    {"type": "ReqQuit"},
    {"type": "ReqJoin", "nickname": "alice"},
    {"type": "ReqJoin", "nickname": "alice", "token": "s3cr3t"},
    {"type": "ReqJoin"},
    {"type": "ReqNewGame", "playersCount": 2},
    {"type": "ReqChooseLeaders", "leaders": [6, 15]},
    {"type": "ReqChooseResources", "shelves": {"6": {"Coin": 1}}},
    {"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 1},
    {"type": "ReqLeaderAction", "leader": 11, "isActivate": False},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 1, "replacements": {},
     "shelves": {"1": {"Shield": 2}, "0": {"Servant": 1}}},
    {"type": "ReqBuyDevCard", "color": "Blue", "level": 1, "devSlot": 0, "resContainers": {"2": {"Coin": 2}}},
    {"type": "ReqActivateProductions", "prodRequests": [
        {"production": 0, "inputContainers": {"1": {"Stone": 2}}, "inputNonStorableRep": {},
         "outputRep": {"Coin": 1}}]},
    {"type": "ReqEndTurn"},
]


def test_every_catalogued_client_type_has_an_example():
    assert {d["type"] for d in CLIENT_EXAMPLES} == p.CLIENT_TYPES


@pytest.mark.parametrize("wire", CLIENT_EXAMPLES, ids=lambda d: d["type"])
def test_client_messages_round_trip(wire):
    msg = parse_client_message(wire)
    assert msg.TYPE == wire["type"]
    assert msg.to_dict() == wire
    assert parse_client_message(decode_line(encode(msg.to_dict()))) == msg


def test_network_messages_are_values_and_game_requests_are_actions():
    assert parse_client_message({"type": "ReqJoin", "nickname": "bob"}) == ReqJoin("bob")
    assert parse_client_message({"type": "ReqNewGame", "playersCount": 3}) == ReqNewGame(3)
    assert parse_client_message({"type": "ReqHeartbeat"}) == ReqHeartbeat()
    msg = parse_client_message({"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 2})
    assert msg == a.ReqSwapShelves(0, 2)
    assert isinstance(msg, a.Action)


def test_client_message_dicts_put_type_last_like_the_server_does():
    assert list(ReqNewGame(2).to_dict()) == ["playersCount", "type"]
    assert list(ReqJoin("a", "t").to_dict()) == ["nickname", "token", "type"]


def test_engine_extensions_parse_too():
    msg = parse_client_message({"type": "ReqMoveResources", "from": 0, "to": 1, "resType": "Coin", "count": 1})
    assert isinstance(msg, a.ReqMoveResources)


def test_unknown_extra_fields_are_ignored():
    assert parse_client_message({"type": "ReqSwapShelves", "shelf1": 0, "shelf2": 1, "extra": [1, 2]}) == \
        a.ReqSwapShelves(0, 1)
    assert parse_client_message({"type": "ReqQuit", "why": "bored"}) == ReqQuit()


@pytest.mark.parametrize("t", sorted(p.SERVER_TYPES - p.CLIENT_TYPES) + ["ReqNope", "ConnectionLost", "", "reqwelcome"])
def test_types_a_client_may_not_send_are_refused(t):
    with pytest.raises(ProtocolError) as info:
        parse_client_message({"type": t})
    assert info.value.msg == f'Event type "{t}" as subclass of "VCEvent" does not exist.'


@pytest.mark.parametrize("wire", [
    {"type": "ReqSwapShelves", "shelf1": "x", "shelf2": 1},
    {"type": "ReqSwapShelves", "shelf1": 0},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 0, "replacements": {}, "shelves": [{"2": {"Coin": 1}}]},
    {"type": "ReqTakeFromMarket", "isRow": True, "index": 0},
    {"type": "ReqTakeFromMarket"},
    {"type": "ReqLeaderAction", "leader": 1, "isActivate": 1},
    {"type": "ReqChooseLeaders", "leaders": "1,2"},
    {"type": "ReqNewGame"},
    {"type": "ReqNewGame", "playersCount": "2"},
    {"type": "ReqNewGame", "playersCount": 2.0},
    {"type": "ReqNewGame", "playersCount": True},
    {"type": "ReqJoin", "nickname": 5},
    {"type": "ReqJoin", "nickname": ["a"]},
    {"type": "ReqJoin", "nickname": "a", "token": 7},
], ids=repr)
def test_wrong_field_types_are_invalid_attribute_types(wire):
    with pytest.raises(ProtocolError) as info:
        parse_client_message(wire)
    assert info.value.msg == "Invalid attribute types."
    assert info.value.detail  # the precise reason is kept for the logs


@pytest.mark.parametrize("wire", [{}, {"type": None}, {"type": {}}, {"type": 3}], ids=repr)
def test_missing_or_non_string_type(wire):
    with pytest.raises(ProtocolError) as info:
        parse_client_message(wire)
    assert info.value.msg == 'Field "type" not found.'


def test_join_with_null_nickname_parses_so_the_server_can_answer_not_set():
    assert parse_client_message({"type": "ReqJoin", "nickname": None}) == ReqJoin(None)
    assert parse_client_message({"type": "ReqJoin", "nickname": "  "}) == ReqJoin("  ")


class TestServerBuilders:
    @pytest.mark.parametrize("built, wire", [
        (req_welcome(), '{"type":"ReqWelcome"}'),
        (res_welcome(), '{"type":"ResWelcome"}'),
        (req_heartbeat(), '{"type":"ReqHeartbeat"}'),
        (res_heartbeat(), '{"type":"ResHeartbeat"}'),
        (req_goodbye(), '{"type":"ReqGoodbye"}'),
        (res_goodbye(), '{"type":"ResGoodbye"}'),
        (res_quit(), '{"type":"ResQuit"}'),
        (update_booked_seats(2, "alice"), '{"bookedSeats":2,"canPrepareNewGame":"alice","type":"UpdateBookedSeats"}'),
        (update_join_game(2), '{"playersCount":2,"type":"UpdateJoinGame"}'),
        (update_player_status("bob", False), '{"player":"bob","isActive":false,"type":"UpdatePlayerStatus"}'),
        (err_protocol("Empty input."), '{"msg":"Empty input.","type":"ErrProtocol"}'),
        (err_nickname(p.TAKEN), '{"reason":"TAKEN","type":"ErrNickname"}'),
        (err_new_game(True), '{"isInvalidPlayersCount":true,"type":"ErrNewGame"}'),
    ])
    def test_exact_reference_bytes(self, built, wire):
        assert encode(built) == wire.encode() + b"\n"
        assert list(built)[-1] == "type"
        assert built["type"] in p.SERVER_TYPES

    @pytest.mark.parametrize("reason", ["NOT_SET", "ALREADY_SET", "TAKEN", "NOT_IN_GAME"])
    def test_nickname_reasons(self, reason):
        assert err_nickname(reason) == {"reason": reason, "type": "ErrNickname"}

    def test_unknown_nickname_reason_is_a_bug(self):
        with pytest.raises(ValueError):
            err_nickname("GAME_FULL")

    def test_protocol_error_to_dict_matches_the_builder(self):
        assert ProtocolError("Line too long.").to_dict() == err_protocol("Line too long.")


class TestVisibility:
    def test_private_hand_goes_only_to_its_owner(self):
        msg = {"player": "alice", "leaders": [1, 2], "type": "UpdateLeadersHand"}
        assert visible_to(msg, "alice")
        assert not visible_to(msg, "bob")
        assert p.PRIVATE_UPDATES == {"UpdateLeadersHand", "UpdateGame"}

    @pytest.mark.parametrize("msg", [
        {"player": "alice", "leadersHandCount": 2, "type": "UpdateLeadersHandCount"},
        {"player": "alice", "action": "END_TURN", "type": "UpdateAction"},
        {"type": "UpdateSetupDone"},
    ])
    def test_everything_else_goes_to_everyone(self, msg):
        assert visible_to(msg, "alice") and visible_to(msg, "bob")


class TestNickname:
    @pytest.mark.parametrize("raw, clean", [
        ("alice", "alice"),
        ("  bob  ", "bob"),
        ("Zoë<&='>", "Zoë<&='>"),
        ("two words", "two words"),
        ("x" * 24, "x" * 24),
        (" " + "y" * 24 + "\t", "y" * 24),
    ])
    def test_accepted(self, raw, clean):
        assert validate_nickname(raw) == clean

    @pytest.mark.parametrize("raw", [
        "", "   ", "\t\n", "x" * 25, "a\tb", "a\nb", "a\x00b", "bell\x07", "zero\u200bwidth",
        "line\u2028sep", "del\x7f", None, 5, b"bytes",
    ])
    def test_refused(self, raw):
        assert validate_nickname(raw) is None

    def test_limit_constant(self):
        assert p.NICKNAME_MAX == 24


def test_docstring_examples():
    for module in (game.netcode.client, game.netcode.framing, game.netcode.protocol,
                   game.netcode.client_messages, game.netcode.server_messages):
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__


def test_fixed_error_texts():
    assert p.ERR_PROTOCOL_TEXTS == {"Empty input.", "Invalid syntax.", 'Field "type" not found.',
                                    "Invalid attribute types.", "Line too long.",
                                    "Too many chat messages; wait a moment."}   # the last one: our chat
