"""config/default.json and game.rules.components: content, reference ids, validation errors.

``tests/rules/data/game-data.json`` is a copy of the public reference data the default config
is generated from (``tools/build_config.py``); the full comparison reads it from there.
"""
from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from types import MappingProxyType

import pytest

from game.rules.components import (
    DEFAULT_CONFIG_PATH, ConfigError, DevCard, GameConfig, LeaderCard, Production, default_config,
    load_config,
)

GAME_DATA = Path(__file__).parent / "data" / "game-data.json"


@pytest.fixture(scope="module")
def cfg() -> GameConfig:
    return default_config()


@pytest.fixture(scope="module")
def by_key(cfg):
    return {c.key: c for c in (*cfg.dev_cards, *cfg.leaders, *cfg.solo_tokens)}


def raw() -> dict:
    return json.loads(DEFAULT_CONFIG_PATH.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- content


def test_default_config_loads_with_expected_counts(cfg):
    assert cfg.path == str(DEFAULT_CONFIG_PATH)
    assert load_config() is cfg or load_config() == cfg
    assert len(cfg.dev_cards) == 48 and len(cfg.leaders) == 16 and len(cfg.solo_tokens) == 7
    assert [t.kind for t in cfg.solo_tokens].count("move") == 2
    assert all(t.spaces == 2 for t in cfg.solo_tokens if t.kind == "move")
    assert len(cfg.marbles) == 13 == cfg.market_rows * cfg.market_columns + 1
    assert cfg.marbles.count("Zero") == 4 and cfg.marbles.count("Faith") == 1
    assert cfg.resources == ("Coin", "Servant", "Shield", "Stone")
    assert cfg.colors == ("Green", "Blue", "Yellow", "Purple")
    assert cfg.levels == (1, 2, 3)
    assert (cfg.min_players, cfg.max_players) == (1, 4)
    assert cfg.shelf_capacities == (1, 2, 3) and cfg.dev_slots == 3
    assert (cfg.leaders_dealt, cfg.leaders_kept) == (4, 2)
    assert [(s.bonus_resources, s.starting_faith) for s in cfg.seats] == [(0, 0), (1, 0), (1, 1), (2, 1)]
    assert cfg.last_space == 24
    assert cfg.vp_squares == ((3, 1), (6, 2), (9, 4), (12, 6), (15, 9), (18, 12), (21, 16), (24, 20))
    assert [(s.first_space, s.pope_space, s.favor_vp) for s in cfg.vatican_sections] == [
        (5, 8, 2), (12, 16, 3), (19, 24, 4)]
    assert cfg.base_production == Production(0, {}, 2, {}, 1)
    assert (cfg.end_game_cards, cfg.resources_per_vp) == (7, 5)


def test_components_are_immutable_and_indexed_by_id(cfg):
    assert all(c.id == i for i, c in enumerate(cfg.dev_cards))
    assert all(c.id == i for i, c in enumerate(cfg.leaders))
    assert all(t.id == i for i, t in enumerate(cfg.solo_tokens))
    assert sorted(cfg.productions) == list(range(53))
    assert all(cfg.productions[c.production.id] is c.production for c in cfg.dev_cards)
    card = cfg.dev_cards[0]
    assert isinstance(card.cost, MappingProxyType) and isinstance(card.production.output, MappingProxyType)
    with pytest.raises(AttributeError):
        card.victory_points = 99  # type: ignore[misc]
    with pytest.raises(TypeError):
        card.cost["Coin"] = 1  # type: ignore[index]
    assert len({card, cfg.leaders[0], cfg.base_production}) == 3  # hashable
    assert copy.deepcopy(cfg) is cfg
    assert pickle.loads(pickle.dumps(cfg)) == cfg


def test_am49_data_errors_are_not_repeated(by_key):
    assert by_key["dev_green_l1_vp1"].production.input == {"Coin": 1}
    assert by_key["dev_blue_l1_vp3"].production.output == {"Coin": 1, "Servant": 1, "Shield": 1}
    assert by_key["dev_blue_l2_vp5"].cost == {"Coin": 4}
    assert by_key["dev_yellow_l2_vp5"].cost == {"Stone": 4}
    assert by_key["dev_green_l3_vp12"].production.output == {"Coin": 3, "Shield": 1}
    assert by_key["dev_green_l3_vp9"].production.input == {"Coin": 2}


def test_every_card_equals_the_reference_game_data(cfg, by_key):
    data = json.loads(GAME_DATA.read_text(encoding="utf-8"))
    assert len(data["development_cards"]) == len(cfg.dev_cards)
    for ref in data["development_cards"]:
        card = by_key[ref["id"]]
        assert isinstance(card, DevCard)
        assert (card.color, card.level, card.victory_points) == (ref["color"], ref["level"], ref["victory_points"])
        assert card.cost == ref["cost"], ref["id"]
        p = ref["production"]
        assert (card.production.input, card.production.input_choice, card.production.output,
                card.production.output_choice) == (p["input"], p.get("input_choice", 0), p["output"],
                                                   p.get("output_choice", 0)), ref["id"]
    kinds = {"discount": "discount", "extra_depot": "extra_depot",
             "white_marble_conversion": "white_marble", "extra_production": "production"}
    assert len(data["leader_cards"]) == len(cfg.leaders)
    for ref in data["leader_cards"]:
        leader = by_key[ref["id"]]
        assert isinstance(leader, LeaderCard)
        assert leader.kind == kinds[ref["kind"]] and leader.victory_points == ref["victory_points"]
        req, eff = ref["requirement"], ref["effect"]
        assert [(r.color, r.level, r.count) for r in leader.requires_cards] == [
            (r["color"], r["level"], r["count"]) for r in req.get("cards", [])]
        assert leader.requires_resources == req.get("resources", {})
        assert leader.discount == eff.get("amount", 0)
        assert leader.depot_capacity == eff.get("capacity", 0)
        if "production" in eff:
            p = eff["production"]
            assert leader.resource in p["input"]
            assert (leader.production.input, leader.production.input_choice, leader.production.output,
                    leader.production.output_choice) == (p["input"], p.get("input_choice", 0), p["output"],
                                                         p.get("output_choice", 0))
        else:
            assert leader.resource == eff["resource"] and leader.production is None
    for ref in data["solo"]["action_tokens"]:
        token = by_key[ref["id"]]
        assert (token.color, token.amount, token.spaces) == (
            ref.get("color"), ref.get("amount", 0), ref.get("spaces", 0))
    assert cfg.vp_squares == tuple((q["space"], q["vp"]) for q in data["faith_track"]["victory_point_squares"])
    assert [(s.first_space, s.pope_space, s.favor_vp) for s in cfg.vatican_sections] == [
        (s["first_space"], s["pope_space"], s["favor_tile_vp"])
        for s in data["faith_track"]["vatican_report_sections"]]


# --------------------------------------------------------------------------- reference (AM49) ids

# From the first UpdateGame of the AM49 transcript solo-opening.jsonl.
REFERENCE_LEADERS = {
    "leader_discount_servant": (0, None), "leader_discount_shield": (1, None),
    "leader_discount_stone": (2, None), "leader_discount_coin": (3, None),
    "leader_depot_stone": (4, None), "leader_depot_servant": (5, None),
    "leader_depot_shield": (6, None), "leader_depot_coin": (7, None),
    "leader_white_marble_servant": (8, None), "leader_white_marble_shield": (9, None),
    "leader_white_marble_stone": (10, None), "leader_white_marble_coin": (11, None),
    "leader_production_shield": (12, 1), "leader_production_servant": (13, 2),
    "leader_production_stone": (14, 3), "leader_production_coin": (15, 4),
}
REFERENCE_TOKENS = {
    "token_black_cross_plus1_shuffle": 0, "token_black_cross_plus2_a": 1, "token_black_cross_plus2_b": 2,
    "token_discard_blue": 3, "token_discard_green": 4, "token_discard_purple": 5, "token_discard_yellow": 6,
}


def test_dev_card_ids_match_the_reference(cfg, by_key):
    first = cfg.dev_cards[0]
    assert (first.color, first.level, first.victory_points, first.production.id) == ("Green", 1, 1, 5)
    assert (by_key["dev_purple_l1_vp1"].id, by_key["dev_purple_l1_vp1"].production.id) == (1, 6)
    assert (by_key["dev_blue_l2_vp5"].id, by_key["dev_blue_l2_vp5"].production.id) == (18, 23)
    assert (by_key["dev_yellow_l3_vp12"].id, by_key["dev_yellow_l3_vp12"].production.id) == (47, 52)
    # The reference numbers cards by VP, then Green, Purple, Blue, Yellow; productions follow at +5.
    order = ("Green", "Purple", "Blue", "Yellow")
    for card in cfg.dev_cards:
        assert card.id == (card.victory_points - 1) * 4 + order.index(card.color), card.key
        assert card.production.id == card.id + 5, card.key


def test_leader_token_and_section_ids_match_the_reference(cfg, by_key):
    for key, (lid, pid) in REFERENCE_LEADERS.items():
        leader = by_key[key]
        assert leader.id == lid and (leader.production.id if leader.production else None) == pid, key
    for key, tid in REFERENCE_TOKENS.items():
        assert by_key[key].id == tid, key
    assert cfg.base_production.id == 0
    # AM49 numbers the sections 0 (pope space 8), 2 (16), 1 (24).
    assert {s.pope_space: s.id for s in cfg.vatican_sections} == {8: 0, 16: 2, 24: 1}


# --------------------------------------------------------------------------- custom files


@pytest.mark.parametrize("as_str", [True, False])
def test_load_config_from_a_custom_path(tmp_path, as_str):
    data = raw()
    data["players"]["max"] = 2
    data["seats"] = data["seats"][:2]
    data["scoring"]["resources_per_vp"] = 3
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    cfg = load_config(str(path) if as_str else path)
    assert cfg.path == str(path.resolve())
    assert cfg.max_players == 2 and len(cfg.seats) == 2 and cfg.resources_per_vp == 3
    assert cfg.dev_cards == default_config().dev_cards


def test_config_error_format():
    e = ConfigError("x.json", "development_cards[12].cost.Coin", "must be >= 1, got 0")
    assert str(e) == "x.json: development_cards[12].cost.Coin: must be >= 1, got 0"
    assert isinstance(e, ValueError) and (e.file, e.field, e.problem) == (
        "x.json", "development_cards[12].cost.Coin", "must be >= 1, got 0")


def _set(path: str, value):
    """Mutation: set the value at a dotted path (list indexes as numbers)."""
    def mutate(d):
        *parents, last = path.split(".")
        for p in parents:
            d = d[int(p)] if isinstance(d, list) else d[p]
        if isinstance(d, list):
            d[int(last)] = value
        else:
            d[last] = value
    return mutate


def _del(path: str):
    def mutate(d):
        *parents, last = path.split(".")
        for p in parents:
            d = d[int(p)] if isinstance(d, list) else d[p]
        del d[int(last) if isinstance(d, list) else last]
    return mutate


BROKEN = [
    # (id, mutation, field, substring of the problem)
    ("missing_top_field", _del("dev_slots"), "dev_slots", "missing field"),
    ("missing_nested_field", _del("development_cards.3.cost"), "development_cards[3].cost", "missing field"),
    ("wrong_type", _set("market.rows", "3"), "market.rows", "expected an integer, got a string"),
    ("wrong_container_type", _set("warehouse.shelves", {"a": 1}), "warehouse.shelves", "expected a list"),
    ("bool_as_int", _set("development_cards.12.victory_points", True),
     "development_cards[12].victory_points", "expected an integer, got a boolean"),
    ("float_as_int", _set("dev_slots", 3.0), "dev_slots", "expected an integer, got a number"),
    ("negative", _set("seats.1.bonus_resources", -1), "seats[1].bonus_resources", "must not be negative"),
    ("zero_capacity", _set("warehouse.shelves.0", 0), "warehouse.shelves[0]", "must be >= 1"),
    ("zero_cost", _set("development_cards.12.cost", {"Coin": 0}), "development_cards[12].cost.Coin",
     "must be >= 1"),
    ("unknown_resource", _set("development_cards.12.cost", {"Gold": 2}), "development_cards[12].cost.Gold",
     'unknown resource "Gold"'),
    ("unknown_leader_resource", _set("leader_cards.3.resource", "Gold"), "leader_cards[3].resource",
     "unknown resource"),
    ("unknown_colour", _set("leader_cards.3.requires_cards.0.color", "Red"),
     "leader_cards[3].requires_cards[0].color", 'unknown colour "Red"'),
    ("unknown_card_colour", _set("development_cards.0.color", "Red"), "development_cards[0].color",
     "unknown colour"),
    ("faith_in_cost", _set("development_cards.0.cost", {"Faith": 1}), "development_cards[0].cost.Faith",
     "only in production outputs"),
    ("faith_in_input", _set("development_cards.0.production.input", {"Faith": 1}),
     "development_cards[0].production.input.Faith", "only in production outputs"),
    ("faith_as_resource", _set("resources", ["Coin", "Faith"]), "resources[1]", "reserved"),
    ("duplicate_card_id", _set("development_cards.1.id", 0), "development_cards[1].id", "duplicate id 0"),
    ("duplicate_leader_id", _set("leader_cards.5.id", 4), "leader_cards[5].id", "duplicate id 4"),
    ("duplicate_production_id", _set("development_cards.1.production.id", 5),
     "development_cards[1].production.id", "duplicate production id 5"),
    ("production_id_gap", _set("base_production.id", 99), "$", "missing 0"),
    ("card_id_gap", _set("development_cards.47.id", 48), "development_cards", "missing 47"),
    ("token_id_gap", _set("solo.tokens.6.id", 9), "solo.tokens", "missing 6"),
    ("card_removed", _del("development_cards.12"), "development_cards", "deck has 3 cards"),
    ("duplicate_key", _set("development_cards.1.key", "dev_green_l1_vp1"), "development_cards[1].key",
     "duplicate key"),
    ("marble_count", _set("market.marbles.Zero", 5), "market.marbles", "rows*columns+1"),
    ("unknown_marble", _set("market.marbles", {"Gold": 13}), "market.marbles.Gold", "unknown marble"),
    ("unknown_top_key", _set("dev_slot", 3), "dev_slot", "unknown key"),
    ("unknown_nested_key", _set("development_cards.5.vp", 1), "development_cards[5].vp", "unknown key"),
    ("seats_length", _del("seats.3"), "seats", "players.max"),
    ("leader_without_production", _set("leader_cards.12.production", None), "leader_cards[12].production",
     "leaders need a production"),
    ("depot_without_capacity", _set("leader_cards.4.depot_capacity", 0), "leader_cards[4].depot_capacity",
     "leaders need a depot capacity"),
    ("discount_without_amount", _set("leader_cards.0.discount", 0), "leader_cards[0].discount",
     "leaders need a discount"),
    ("foreign_kind_data", _set("leader_cards.8.discount", 1), "leader_cards[8].discount",
     'must be 0 for "white_marble" leaders'),
    ("unknown_leader_kind", _set("leader_cards.0.kind", "magic"), "leader_cards[0].kind", "unknown leader kind"),
    ("requirement_level", _set("leader_cards.12.requires_cards.0.level", 4),
     "leader_cards[12].requires_cards[0].level", "no level 4 cards"),
    ("discard_token_without_colour", _set("solo.tokens.3.color", None), "solo.tokens[3].color",
     'must be a colour for a "discard" token'),
    ("move_token_without_spaces", _set("solo.tokens.1.spaces", 0), "solo.tokens[1].spaces", "must be >= 1"),
    ("kept_over_dealt", _set("leaders.kept", 5), "leaders.kept", "<= leaders.dealt"),
    ("too_few_leaders", _set("leaders.dealt", 5), "leaders.dealt",
     "needs more than the 16 leader cards"),
    ("sections_out_of_order", _set("faith_track.vatican_sections.1.first_space", 7),
     "faith_track.vatican_sections[1]", "ascending"),
    ("section_off_track", _set("faith_track.vatican_sections.2.pope_space", 25),
     "faith_track.vatican_sections[2]", "within the track"),
    ("vp_squares_not_ascending", _set("faith_track.vp_squares.2", [5, 4]), "faith_track.vp_squares[2]",
     "ascending"),
    ("empty_production", _set("base_production.input_choice", 0), "base_production", "consume"),
    ("players_min_over_max", _set("players.min", 5), "players.max", ">= players.min"),
    ("schema_version", _set("schema", "mor-config/2"), "schema", "mor-config/1"),
]


@pytest.mark.parametrize("mutate,field,problem", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_config_names_field_and_problem(tmp_path, mutate, field, problem):
    data = raw()
    mutate(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    err = info.value
    assert (err.file, err.field) == (str(path.resolve()), field), str(err)
    assert problem in err.problem, str(err)
    assert str(err) == f"{err.file}: {field}: {err.problem}"


BROKEN_FILES = [
    ("missing_file", None, "<file>", "file not found"),
    ("invalid_json", b'{\n  "schema": "mor-config/1",\n  "resources": [1 2]\n}', "$", "line 3 column"),
    ("empty_file", b"", "$", "invalid JSON"),
    ("not_an_object", b"[]", "$", "expected an object, got a list"),
    ("duplicate_json_key", b'{"schema": "a", "schema": "b"}', "$", 'duplicate key "schema"'),
    ("nan", b'{"schema": NaN}', "$", "NaN is not allowed"),
    ("not_utf8", b'{"schema": "\xff"}', "<file>", "not UTF-8"),
]


@pytest.mark.parametrize("content,field,problem", [b[1:] for b in BROKEN_FILES], ids=[b[0] for b in BROKEN_FILES])
def test_unreadable_config_file(tmp_path, content, field, problem):
    path = tmp_path / "config.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ConfigError) as info:
        load_config(str(path))
    assert (info.value.field, info.value.file) == (field, str(path.resolve())), str(info.value)
    assert problem in info.value.problem, str(info.value)
