"""Bots on the standalone server: asked for in ``ReqNewGame`` (our extension), played inside the
server in a worker, logged like players, restored after a restart; and the refusals.

The people in these games are scripted clients that pick their requests with the engine's random
policy from the server's own game (read under the room's lock, only to choose).
"""
from __future__ import annotations

import random
import time

import orjson
import pytest

from game import i18n
from game.bots.driver import make_job, think
from game.client.server_words import chat_said
from game.rules.actions import Action
from game.rules.engine import Game
from game.rules.playout import choose

from conftest import CONFIG, Player, room_of, start_game, step, wait_until

ITALIAN_FAREWELL = ("Mi dispiace, non trovo una mossa che le regole accettino, quindi lascio il tavolo: la partita "
                    "continua senza di me.")


def my_move(room, nick: str, rng: random.Random) -> Action | None:
    """The request ``nick`` should send now, or None if it is not theirs to act."""
    with room.lock:
        g = room.game
        if g.ended:
            return None
        p = g.player(nick)
        if g.phase == "setup":
            if p.chose_leaders and p.chose_resources:
                return None
        elif g.current_player.nickname != nick:
            return None
        return choose(g, nick, rng)


def play(room, me: Player, rng: random.Random, *, until=lambda g: False, between=None,
         timeout: float = 60.0) -> int:
    """Play ``me``'s part until the game ends (or ``until``); the bots play theirs. Returns how
    many requests ``me`` made. ``between()`` runs after each of them."""
    deadline = time.monotonic() + timeout
    made = 0
    while not room.game.ended and not until(room.game):
        assert time.monotonic() < deadline, "the game with bots did not move on"
        action = my_move(room, me.nickname, rng)
        if action is None:
            try:
                me.get(0.2)       # the bots' updates
            except TimeoutError:
                pass
            continue
        answer = me.request(action)
        assert answer[-1]["type"] == "UpdateAction", f"{action!r} refused: {answer[-1]}"
        made += 1
        if between is not None:
            between()
    return made


def ask_with_bots(me: Player, count: int, bots: list[str]) -> dict:
    me.send({"type": "ReqNewGame", "playersCount": count, "bots": bots})
    return me.until(lambda m: m["type"] in ("UpdateGame", "ErrNewGame", "ErrProtocol"))[-1]


class TestAGameWithBots:
    def test_played_to_the_end_beside_a_game_without_bots_that_keeps_answering(self, make_server, players, tmp_path):
        server = make_server(bot_delay=0)
        # a game of two people, started first
        ann, bob = players(server.address, "Ann", "Bob")
        start_game(ann, bob)
        other = room_of(server, "Ann")
        # a game asked for with two bots by a scripted client
        (cleo,) = players(server.address, "Cleo")
        cleo.join()
        first = ask_with_bots(cleo, 3, ["easy", "easy"])
        assert first["type"] == "UpdateGame"
        join = next(m for m in cleo.received if m["type"] == "UpdateJoinGame")
        assert join == {"playersCount": 3, "bots": ["easy", "easy"], "type": "UpdateJoinGame"}
        room = room_of(server, "Cleo")
        assert len(room.bots) == 2 and set(room.bots.values()) == {"easy"}
        assert set(room.nicknames) == {"Cleo", *room.bots}
        assert all(n.endswith("(bot)") for n in room.bots)
        rng = random.Random(4)
        answered = []

        def next_door() -> None:   # the game without bots is answered between our moves
            if not other.game.ended:
                t0 = time.perf_counter()
                step(other.game, [ann, bob], rng)
                answered.append(time.perf_counter() - t0)

        made = play(room, cleo, rng, between=next_door)
        assert room.game.ended and made > 10
        assert len(answered) >= 10
        outcome = room.game.outcome()
        assert set(outcome.scores) == set(room.nicknames)
        bot_moves = [h for h in room.game.history if h[0] == "apply" and h[1] in room.bots]
        assert len(bot_moves) > 2 * 10
        # the finished log: header with the bot seats, the bots' requests like anyone's
        finished = tmp_path / "data" / "games" / "finished" / f"{room.id}.jsonl"
        wait_until(finished.exists)       # the loop files it away just after the last request
        log = finished.read_bytes().splitlines()
        header = orjson.loads(log[0])
        assert header["bots"] == room.bots and set(header["tokens"]) == {"Cleo"}
        entries = [orjson.loads(x) for x in log[1:]]
        assert entries[-1] == ["end"]
        assert sum(1 for e in entries[:-1] if e[1] in room.bots) == len(bot_moves)

        # replay: the log rebuilds the game exactly, and re-asking each bot gives the same request
        game = Game.new(CONFIG, header["nicknames"], header["seed"])
        for kind, nick, arg in entries[:-1]:
            if kind == "apply":
                action = Action.from_dict(arg)
                if nick in header["bots"]:
                    again = think(make_job(game, nick, header["bots"][nick]), CONFIG)
                    assert again.action == action, f"{nick} would now play {again.action!r}, not {action!r}"
                game.apply(nick, action)
            else:
                game.set_active(nick, arg)
        assert game.snapshot() == room.game.snapshot()
        assert game.outcome() == outcome

    def test_in_worker_processes_too(self, make_server, players):
        server = make_server(bot_delay=0, bot_processes=True)
        (dan,) = players(server.address, "Dan")
        dan.join()
        assert ask_with_bots(dan, 2, ["easy"])["type"] == "UpdateGame"
        room = room_of(server, "Dan")
        rng = random.Random(2)
        play(room, dan, rng, until=lambda g: g.phase == "play" and len(g.history) >= 12, timeout=60)
        assert any(h[1] in room.bots for h in room.game.history)

    def test_people_and_bots_fill_the_game_and_the_head_may_add_a_bot_while_waiting(self, make_server, players):
        server = make_server(bot_delay=0)
        eve, finn = players(server.address, "Eve", "Finn")
        eve.join()
        eve.send({"type": "ReqNewGame", "playersCount": 4, "bots": ["easy"]})
        assert eve.until_type("UpdateJoinGame")[-1] == {"playersCount": 4, "bots": ["easy"], "type": "UpdateJoinGame"}
        finn.join()
        assert finn.until_type("UpdateJoinGame")[-1]["bots"] == ["easy"]
        assert server.pending_count == 4 and not server.rooms
        eve.send({"type": "ReqNewGame", "playersCount": 4, "bots": ["easy", "medium"]})   # a bot in the last seat
        for p in (eve, finn):
            p.until_type("UpdateGame")
        room = room_of(server, "Eve")
        assert sorted(room.bots.values()) == ["easy", "medium"] and set(room.humans) == {"Eve", "Finn"}
        assert server.pending_count is None and not server.waiting


class TestRestart:
    def test_a_restarted_server_restores_the_bots_and_they_carry_on(self, make_server, players):
        server = make_server(bot_delay=0)
        (gia,) = players(server.address, "Gia")
        gia.join()
        ask_with_bots(gia, 3, ["easy", "medium"])
        room = room_of(server, "Gia")
        bots = dict(room.bots)
        rng = random.Random(9)
        play(room, gia, rng, until=lambda g: g.phase == "play" and len(g.history) >= 15)
        token = gia.token
        server.stop()
        gia.close()
        before = len(room.game.history)

        again = make_server(bot_delay=0)
        back = room_of(again, next(iter(bots)))
        assert back.bots == bots and back.humans == ("Gia",)
        assert all(back.game.player(b).active for b in bots)       # bots are never away
        assert back.game.player("Gia").active                      # (not marked away within the restart grace)
        time.sleep(0.3)
        assert len(back.game.history) == before                    # nobody at the table: bots wait
        (gia2,) = players(again.address, "Gia")
        assert gia2.join(token)[-1]["type"] == "UpdateGame"
        made = play(back, gia2, rng, timeout=90)
        assert back.game.ended and made > 0
        assert sum(1 for h in back.game.history[before:] if h[0] == "apply" and h[1] in bots) > 10

    def test_a_bot_seat_cannot_be_taken_by_its_nickname(self, make_server, players):
        server = make_server(bot_delay=0, compat_rejoin=True)
        (hal,) = players(server.address, "Hal")
        hal.join()
        ask_with_bots(hal, 2, ["easy"])
        bot = next(iter(room_of(server, "Hal").bots))
        (imposter,) = players(server.address, bot)
        for token in (None, ""):
            answer = imposter.join(token)
            assert answer[-1] == {"reason": "TAKEN", "type": "ErrNickname"}


class TestRefusals:
    @pytest.mark.parametrize("count, bots, invalid_count, words", [
        (3, ["easy", "genius"], False, "Unknown bot level 'genius'"),
        (2, ["easy", "easy"], True, "A game of 2 has one seat for you: computer players can take at most 1 "),
        (4, ["easy", "easy", "hard", "hard"], True, "can take at most 3 of the others"),
        (1, ["easy"], True, "can take at most 0 of the others"),
    ])
    def test_bad_requests_for_bots_change_nothing(self, server, players, count, bots, invalid_count, words):
        jo, kai = players(server.address, "Jo", "Kai")
        jo.join()
        kai.join()
        answer = ask_with_bots(jo, count, bots)
        assert answer["type"] == "ErrNewGame" and answer["isInvalidPlayersCount"] is invalid_count
        assert words in answer["reason"]
        assert server.pending_count is None and server.pending_bots == () and not server.rooms
        jo.send({"type": "ReqNewGame", "playersCount": 2})   # the head may still start a game
        for p in (jo, kai):
            p.until_type("UpdateGame")
        assert not room_of(server, "Jo").bots

    def test_only_the_head_may_ask_for_bots(self, server, players):
        lea, max_ = players(server.address, "Lea", "Max")
        lea.join()
        max_.join()
        answer = ask_with_bots(max_, 3, ["easy"])
        assert answer["type"] == "ErrNewGame" and answer["isInvalidPlayersCount"] is False
        assert "first player" in answer["reason"]
        assert server.pending_count is None and not server.rooms

    def test_a_reference_client_gets_no_bots(self, server, players):
        (ned,) = players(server.address, "Ned")
        ned.join(token=None)                    # no token field: a reference client
        answer = ask_with_bots(ned, 2, ["easy"])
        assert answer["type"] == "ErrNewGame" and "extension" in answer["reason"]
        assert server.pending_count is None and not server.rooms

    def test_a_malformed_bots_field(self, server, players):
        (ola,) = players(server.address, "Ola")
        ola.join()
        for bad in ("easy", [1], {"level": "easy"}):
            ola.send({"type": "ReqNewGame", "playersCount": 2, "bots": bad})
            answer = ola.until(lambda m: m["type"].startswith("Err"))[-1]
            assert answer == {"msg": "Invalid attribute types.", "type": "ErrProtocol"}
        assert server.pending_count is None and not server.rooms

    def test_a_game_without_bots_is_announced_as_before(self, server, players):
        (pia,) = players(server.address, "Pia")
        pia.join()
        pia.send({"type": "ReqNewGame", "playersCount": 2})
        assert pia.until_type("UpdateJoinGame")[-1] == {"playersCount": 2, "type": "UpdateJoinGame"}


class TestPace:
    """``botPace`` in ``ReqNewGame`` (our extension): the seconds between two bot moves of the game,
    asked for by its creator (the client's pace setting), kept in the game's log."""

    def test_the_bots_moves_come_no_faster_than_the_pace_asked_for_and_a_restart_keeps_it(
            self, make_server, players, tmp_path):
        server = make_server(bot_delay=0)          # the server's own pace: as fast as they can
        (uma,) = players(server.address, "Uma")
        uma.join()
        uma.send({"type": "ReqNewGame", "playersCount": 3, "bots": ["easy", "easy"], "botPace": 0.3})
        uma.until_type("UpdateGame")
        room = room_of(server, "Uma")
        assert room.bot_pace == 0.3
        # when the server applies each move (what the pace governs; the moment a loaded test
        # machine gets round to reading them is not)
        applied: list[tuple[float, str]] = []
        submit = room.submit

        def timed(nickname, action):
            accepted = submit(nickname, action)
            if accepted:
                applied.append((time.monotonic(), nickname))
            return accepted
        room.submit = timed
        play(room, uma, random.Random(6), until=lambda g: g.phase == "play" and len(g.history) >= 30)
        gaps = [b[0] - a[0] for a, b in zip(applied, applied[1:]) if a[1] in room.bots and b[1] in room.bots]
        assert len(gaps) >= 5, applied
        assert min(gaps) >= 0.3, gaps
        header = orjson.loads((tmp_path / "data" / "games" / f"{room.id}.jsonl").read_bytes().splitlines()[0])
        assert header["botPace"] == 0.3
        server.stop()
        again = make_server(bot_delay=0)
        assert room_of(again, next(iter(room.bots))).bot_pace == 0.3

    def test_without_it_the_server_s_bot_delay_sets_the_pace(self, make_server, players):
        server = make_server(bot_delay=0.2)
        (vic,) = players(server.address, "Vic")
        vic.join()
        ask_with_bots(vic, 2, ["easy"])
        assert room_of(server, "Vic").bot_pace is None

    @pytest.mark.parametrize("bad", ["fast", -0.5, 10.5, True, [1], {"seconds": 1}, "x" * 500])
    def test_a_bad_pace_is_refused_and_nothing_changes(self, server, players, bad):
        wes, xia = players(server.address, "Wes", "Xia")
        wes.join()
        wes.send({"type": "ReqNewGame", "playersCount": 3, "bots": ["easy"], "botPace": 1.5})
        wes.until_type("UpdateJoinGame")
        assert (server.pending_count, server.pending_bots, server.pending_pace) == (3, ("easy",), 1.5)
        wes.send({"type": "ReqNewGame", "playersCount": 3, "bots": ["easy", "hard"], "botPace": bad})
        answer = wes.until(lambda m: m["type"].startswith("Err"))[-1]
        assert answer["type"] == "ErrNewGame" and answer["isInvalidPlayersCount"] is False
        assert "botPace must be a number of seconds from 0 to 10" in answer["reason"]
        assert (server.pending_count, server.pending_bots, server.pending_pace) == (3, ("easy",), 1.5)
        xia.join()                                   # the game asked for first starts as it was
        xia.until_type("UpdateGame")
        room = room_of(server, "Xia")
        assert list(room.bots.values()) == ["easy"] and room.bot_pace == 1.5

    def test_a_reference_client_may_not_ask_for_a_pace(self, server, players):
        (yul,) = players(server.address, "Yul")
        yul.join(token=None)
        yul.send({"type": "ReqNewGame", "playersCount": 2, "botPace": 1})
        answer = yul.until(lambda m: m["type"].startswith("Err"))[-1]
        assert answer["type"] == "ErrNewGame" and "extension" in answer["reason"]
        assert server.pending_count is None and not server.rooms


@pytest.mark.logs_errors("the engine refused", "cannot find a move")
class TestABrokenBot:
    """A bot whose request the engine refuses: the easy bot answers in its place; if even that is
    refused, the bot says so at the table and leaves it, and the game goes on without it."""

    @staticmethod
    def break_bots(monkeypatch, levels: set[str]) -> None:
        from game.bots import driver
        from game.rules.actions import ReqEndTurn
        real = driver.think

        def think(job, config, level=None):
            if (level or job.level) in levels:   # a request the rules never accept in setup
                return driver.Answer(job, ReqEndTurn(), "broken on purpose", level or job.level, 0.0)
            return real(job, config, level)
        monkeypatch.setattr(driver, "think", think)

    def test_a_refused_request_is_made_again_by_the_easy_bot(self, make_server, players, monkeypatch):
        self.break_bots(monkeypatch, {"medium"})
        server = make_server(bot_delay=0)             # bots on threads: the broken think is used
        (ada,) = players(server.address, "Ada")
        ada.join()
        ask_with_bots(ada, 2, ["medium"])
        room = room_of(server, "Ada")
        (bot,) = room.bots
        play(room, ada, random.Random(3), until=lambda g: g.phase == "play" and len(g.history) >= 12)
        assert room.game.player(bot).active
        assert sum(1 for h in room.game.history if h[0] == "apply" and h[1] == bot) >= 3

    def test_a_bot_that_cannot_go_on_says_so_and_leaves_and_the_game_goes_on(self, make_server, players,
                                                                            monkeypatch, tmp_path):
        self.break_bots(monkeypatch, {"easy", "hard"})
        server = make_server(bot_delay=0)
        (bo,) = players(server.address, "Bo")
        bo.join()
        ask_with_bots(bo, 3, ["hard", "easy"])
        room = room_of(server, "Bo")
        bots = set(room.bots)
        made = play(room, bo, random.Random(5), until=lambda g: g.phase == "play" and sum(
            1 for h in g.history if h[1] == "Bo") >= 6)   # the game did not hang: Bo plays on
        assert made >= 5
        chat = [m for m in bo.received if m["type"] == "UpdateChat"]
        said = {m["player"]: m["text"] for m in chat}
        assert set(said) == bots
        assert all("leave the table" in t and "the game goes on" in t for t in said.values())
        assert all(m["say"] == {"code": "bot.nothing_accepted", "args": {}} for m in chat)   # said in any language
        i18n.use("it")
        assert {chat_said(m)[1] for m in chat} == {ITALIAN_FAREWELL}
        i18n.use("en")
        gone = {m["player"] for m in bo.received if m["type"] == "UpdatePlayerStatus" and not m["isActive"]}
        assert gone == bots and not any(room.game.player(b).active for b in bots)
        entries = [orjson.loads(x) for x in (tmp_path / "data" / "games" / f"{room.id}.jsonl").read_bytes().splitlines()[1:]]
        assert {tuple(e[1:]) for e in entries if e[0] == "active"} >= {(b, False) for b in bots}
        bo.close()                    # who comes back reads the farewells in the history, with their code
        (back,) = players(server.address, "Bo")
        assert back.join(token=bo.token)[-1]["type"] == "UpdateGame"
        history = back.until(lambda m: m["type"] == "UpdateHistory" and m.get("last", True))
        told = [m for h in history if h["type"] == "UpdateHistory" for m in h["messages"] if m["type"] == "UpdateChat"]
        assert len(told) == 2 and all(m["say"]["code"] == "bot.nothing_accepted" for m in told)


def test_our_clients_read_the_bots_levels_and_a_reference_client_does_not(make_server, players):
    server = make_server(bot_delay=0)
    eve, ned = players(server.address, "Eve", "Ned")
    eve.join()
    ned.join(token=None)                    # a reference client at the same table
    eve.send({"type": "ReqNewGame", "playersCount": 3, "bots": ["hard"]})
    eve.until_type("UpdateJoinGame")
    ours, theirs = eve.until_type("UpdateGame")[-1], ned.until_type("UpdateGame")[-1]
    levels = ours["botLevels"]
    assert list(levels.values()) == ["hard"] and all(n.endswith(" (bot)") for n in levels)
    assert "botLevels" not in theirs
