#!/usr/bin/env python3
"""Generate ``config/default.json`` from the reference game data and the AM49 ids.

The card values (costs, productions, requirements, numbers) come from
``game-data.json``, which already corrects the AM49 data-set errors listed in its
``source_disagreements``. Only the *ids* come from the recorded AM49 transcript
(the first ``UpdateGame`` of a freshly started server), so that our wire ids match
the reference server:

* development card ``id`` and its ``production`` id: matched on (colour, level, VP);
* leader ``id`` (and production id for production leaders): matched on
  (leaderType, resourceType);
* solo token ids: matched on (kind, colour), the two "+2" tokens in key order;
* vatican section ids: matched on the pope space (``faithPointsEnd``).

The script checks that the match is one-to-one, that production ids 0..n-1 are all
used exactly once, and that the reference values differ from ours only where
``source_disagreements`` says AM49 is wrong. It then writes the file and loads it
with :func:`game.rules.components.load_config` to make sure it validates.

Usage::

    python3 tools/build_config.py                 # write config/default.json
    python3 tools/build_config.py --check         # exit 1 if the file is out of date
    python3 tools/build_config.py --game-data X --transcript Y --out Z

:raises SystemExit: with a message when an input is missing or the ids do not map.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
DEFAULT_GAME_DATA = SHARED / "reference" / "game-data.json"
DEFAULT_TRANSCRIPT = SHARED / "protocol" / "reference-transcripts" / "solo-opening.jsonl"
DEFAULT_OUT = REPO / "config" / "default.json"

LEADER_KINDS = {  # game-data kind -> (our kind, AM49 leaderType)
    "discount": ("discount", "DISCOUNT"),
    "extra_depot": ("extra_depot", "DEPOT"),
    "white_marble_conversion": ("white_marble", "ZERO"),
    "extra_production": ("production", "PRODUCTION"),
}
TOKEN_KINDS = {  # game-data kind -> (our kind, AM49 kind)
    "discard_development_cards": ("discard", "ActionTokenDiscardTwo"),
    "move_black_cross": ("move", "ActionTokenBlackMoveTwo"),
    "move_black_cross_then_reshuffle_all": ("move_shuffle", "ActionTokenBlackMoveOneShuffle"),
}
# AM49 values that game-data.json's source_disagreements marks as AM49 errors.
KNOWN_AM49_ERRORS = {
    ("dev_green_l1_vp1", "production.input"),
    ("dev_blue_l1_vp3", "production.output"),
    ("dev_blue_l2_vp5", "cost"),
    ("dev_yellow_l2_vp5", "cost"),
}


def fail(msg: str) -> None:
    raise SystemExit(f"build_config: {msg}")


def first_update_game(transcript: Path) -> dict:
    """Return the first s2c ``UpdateGame`` message of a transcript."""
    for line in transcript.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec.get("dir") != "s2c":
            continue
        try:
            msg = json.loads(rec["line"])
        except ValueError:
            continue
        if isinstance(msg, dict) and msg.get("type") == "UpdateGame":
            return msg
    fail(f"no UpdateGame in {transcript}")
    raise AssertionError  # unreachable


def production(pid: int, p: dict) -> dict:
    return {"id": pid, "input": dict(p.get("input", {})), "input_choice": p.get("input_choice", 0),
            "output": dict(p.get("output", {})), "output_choice": p.get("output_choice", 0)}


def unique_index(items, keyfn, what: str) -> dict:
    out: dict = {}
    for item in items:
        k = keyfn(item)
        if k in out:
            fail(f"reference {what} key {k} is not unique")
        out[k] = item
    return out


def build(data: dict, ref: dict) -> tuple[dict, list[str]]:
    """Build the config dict; return it and a list of human-readable sanity notes."""
    notes: list[str] = []
    if ref["productions"][0]["id"] != 0:
        fail("transcript UpdateGame is not from a fresh server (production ids do not start at 0)")
    ref_prods = unique_index(ref["productions"], lambda p: p["id"], "production")
    ref_devs = unique_index(ref["developmentCards"],
                            lambda c: (c["color"], c["level"], c["victoryPoints"]), "dev card")
    ref_leaders = unique_index(ref["leaderCards"],
                               lambda c: (c["leaderType"], c["resourceType"]), "leader")
    used_prods: dict[int, str] = {}

    def use_prod(pid: int, owner: str) -> None:
        if pid in used_prods:
            fail(f"production id {pid} used by {used_prods[pid]} and {owner}")
        if pid not in ref_prods:
            fail(f"production id {pid} of {owner} is not in the reference productions")
        used_prods[pid] = owner

    def diff(key: str, field: str, ours: dict, theirs: dict) -> None:
        if ours != theirs:
            known = (key, field) in KNOWN_AM49_ERRORS
            notes.append(f"{'known AM49 error' if known else 'UNEXPECTED difference'}: "
                         f"{key} {field}: ours {ours} vs AM49 {theirs}")
            if not known:
                fail(notes[-1])

    # Base production.
    bp = data["player_board"]["base_production"]
    base = production(ref["players"][0]["baseProduction"], bp)
    use_prod(base["id"], "base production")

    # Development cards.
    dev_cards = []
    for c in data["development_cards"]:
        r = ref_devs.pop((c["color"], c["level"], c["victory_points"]), None)
        if r is None:
            fail(f"no reference dev card for {c['id']}")
        prod = production(r["production"], c["production"])
        use_prod(prod["id"], c["id"])
        rp = ref_prods[prod["id"]]
        diff(c["id"], "cost", c["cost"], r["cost"]["requirements"])
        diff(c["id"], "production.input", prod["input"], rp["input"])
        diff(c["id"], "production.output", prod["output"], rp["output"])
        if (rp["inputBlanks"], rp["outputBlanks"]) != (0, 0):
            fail(f"{c['id']}: reference production has blanks")
        dev_cards.append({"id": r["id"], "key": c["id"], "color": c["color"], "level": c["level"],
                          "victory_points": c["victory_points"], "cost": dict(c["cost"]),
                          "production": prod})
    if ref_devs:
        fail(f"reference dev cards left unmatched: {sorted(ref_devs)}")
    dev_cards.sort(key=lambda c: c["id"])

    # Leaders.
    leaders = []
    for c in data["leader_cards"]:
        kind, ltype = LEADER_KINDS[c["kind"]]
        eff, req = c["effect"], c["requirement"]
        resource = (next(iter(eff["production"]["input"])) if kind == "production" else eff["resource"])
        r = ref_leaders.pop((ltype, resource), None)
        if r is None:
            fail(f"no reference leader for {c['id']}")
        if r["victoryPoints"] != c["victory_points"]:
            fail(f"{c['id']}: VP differ from the reference")
        prod = None
        if kind == "production":
            prod = production(r["production"], eff["production"])
            use_prod(prod["id"], c["id"])
            rp = ref_prods[prod["id"]]
            diff(c["id"], "production.input", prod["input"], rp["input"])
            diff(c["id"], "production.output", prod["output"], rp["output"])
        elif r["production"] != -1:
            fail(f"{c['id']}: reference leader {r['id']} has a production")
        cards = req.get("cards", []) if req["type"] == "development_cards" else []
        res = dict(req.get("resources", {})) if req["type"] == "resources" else {}
        ref_entries = sorted((e["color"], e["level"] or None, e["quantity"])
                             for e in r.get("devCardRequirement", {}).get("entries", []))
        if ref_entries != sorted((e["color"], e["level"], e["count"]) for e in cards):
            fail(f"{c['id']}: card requirement differs from the reference")
        diff(c["id"], "requires_resources", res, r.get("resourceRequirement", {}).get("requirements", {}))
        leaders.append({
            "id": r["id"], "key": c["id"], "kind": kind, "victory_points": c["victory_points"],
            "resource": resource,
            "requires_cards": [{"color": e["color"], "level": e["level"], "count": e["count"]} for e in cards],
            "requires_resources": res,
            "discount": eff.get("amount", 0) if kind == "discount" else 0,
            "depot_capacity": eff.get("capacity", 0) if kind == "extra_depot" else 0,
            "production": prod,
        })
    if ref_leaders:
        fail(f"reference leaders left unmatched: {sorted(ref_leaders)}")
    leaders.sort(key=lambda c: c["id"])

    if sorted(used_prods) != list(range(len(ref_prods))):
        fail(f"production ids used {sorted(used_prods)} are not 0..{len(ref_prods) - 1}")
    notes.append(f"production ids 0..{len(ref_prods) - 1}: each used exactly once "
                 f"(base {base['id']}, leaders "
                 f"{sorted(l['production']['id'] for l in leaders if l['production'])}, "
                 f"dev cards {min(c['production']['id'] for c in dev_cards)}.."
                 f"{max(c['production']['id'] for c in dev_cards)})")

    # Solo tokens: (AM49 kind, colour) -> ids ascending; same-kind tokens taken in key order.
    ref_tokens: dict[tuple, list[int]] = {}
    for t in ref.get("actionTokens") or fail("transcript has no actionTokens"):
        ref_tokens.setdefault((t["kind"], t.get("discardedDevCardColor")), []).append(t["id"])
    for ids in ref_tokens.values():
        ids.sort()
    tokens = []
    for t in sorted(data["solo"]["action_tokens"], key=lambda t: t["id"]):
        kind, am_kind = TOKEN_KINDS[t["kind"]]
        pool = ref_tokens.get((am_kind, t.get("color")))
        if not pool:
            fail(f"no reference token for {t['id']}")
        tokens.append({"id": pool.pop(0), "key": t["id"], "kind": kind, "color": t.get("color"),
                       "amount": t.get("amount", 0), "spaces": t.get("spaces", 0)})
    if any(ref_tokens.values()):
        fail(f"reference tokens left unmatched: {ref_tokens}")
    tokens.sort(key=lambda t: t["id"])

    # Vatican sections: ids by pope space.
    ref_sections = {int(k): v for k, v in ref["faithTrack"]["vaticanSections"].items()}
    sections = []
    for s in data["faith_track"]["vatican_report_sections"]:
        r = ref_sections.pop(s["pope_space"], None)
        if r is None or (r["faithPointsBeginning"], r["victoryPoints"]) != (s["first_space"], s["favor_tile_vp"]):
            fail(f"vatican section {s} does not match the reference")
        sections.append({"id": r["id"], "first_space": s["first_space"], "pope_space": s["pope_space"],
                         "favor_vp": s["favor_tile_vp"]})
    if [s["id"] for s in sections] != list(range(len(sections))):
        notes.append("NOTE: reference vatican section ids by ascending pope space are "
                     f"{[s['id'] for s in sections]} (not 0,1,2); kept as in the reference")

    market = data["market"]
    marbles = {}
    for m in market["marbles"]:
        marbles["Zero" if m["yields"] is None else m["yields"]] = m["count"]
    trig = data["end_game"]["multiplayer"]["triggers"][1]
    if trig["type"] != "player_owns_development_cards":
        fail("unexpected end-game trigger layout in game-data.json")
    if "/ 5" not in data["scoring"]["sources"][-1]["rule"]:
        fail("resources-per-VP rule changed in game-data.json")
    ft = data["faith_track"]
    grid = data["development_card_grid"]
    cfg = {
        "schema": "mor-config/1",
        "resources": list(data["resources"]["storable"]),
        "colors": list(grid["colors"]),
        "players": dict(data["game"]["players"]),
        "market": {"rows": market["rows"], "columns": market["columns"], "marbles": marbles},
        "warehouse": {"shelves": [d["capacity"] for d in data["player_board"]["warehouse_depots"]]},
        "dev_slots": data["player_board"]["development_slots"],
        "leaders": {"dealt": data["setup"]["leader_cards_dealt_per_player"],
                    "kept": data["setup"]["leader_cards_kept_per_player"]},
        "seats": [{"bonus_resources": s["bonus_resources"], "starting_faith": s["starting_faith"]}
                  for s in data["setup"]["seats"]],
        "faith_track": {"last_space": ft["last_space"],
                        "vp_squares": [[q["space"], q["vp"]] for q in ft["victory_point_squares"]],
                        "vatican_sections": sections},
        "base_production": base,
        "development_cards": dev_cards,
        "leader_cards": leaders,
        "solo": {"tokens": tokens},
        "end_game": {"dev_cards": trig["count"]},
        "scoring": {"resources_per_vp": 5},
    }
    return cfg, notes


def dumps(value, indent: str = "", depth: int = 0) -> str:
    """JSON with one card/token/section per line: readable and diff-friendly."""
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    inner = indent + "  "
    if isinstance(value, dict) and depth < 2 and any(isinstance(v, (dict, list)) for v in value.values()):
        if depth == 0 or len(compact) > 100:
            items = [f"{inner}{json.dumps(k)}: {dumps(v, inner, depth + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        items = [inner + json.dumps(v, ensure_ascii=False, separators=(", ", ": ")) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return compact


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game-data", type=Path, default=DEFAULT_GAME_DATA)
    ap.add_argument("--transcript", type=Path, default=DEFAULT_TRANSCRIPT)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="only compare with --out; exit 1 if different")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    for p in (args.game_data, args.transcript):
        if not p.is_file():
            fail(f"input not found: {p}")
    data = json.loads(args.game_data.read_text(encoding="utf-8"))
    cfg, notes = build(data, first_update_game(args.transcript))
    text = dumps(cfg) + "\n"
    if json.loads(text) != cfg:
        fail("internal error: formatted JSON does not round-trip")
    if not args.quiet:
        for n in notes:
            print(n)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.is_file() else None
        if current != text:
            print(f"{args.out} is out of date; run tools/build_config.py", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(REPO))
    from game.rules.components import load_config  # noqa: E402  (validate what we wrote)

    cfg_obj = load_config(args.out)
    if not args.quiet:
        print(f"wrote {args.out}: {len(cfg_obj.dev_cards)} dev cards, {len(cfg_obj.leaders)} leaders, "
              f"{len(cfg_obj.solo_tokens)} tokens, {len(cfg_obj.productions)} productions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
