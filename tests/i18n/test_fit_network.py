"""The network's pages fit too, in English and in Italian, at 1024x640 and 1920x1080 (issue 29,
Fit): the Tables page, the Leaderboard, a table watched, the host's waiting room with the router's
line, and a game in progress joined again from the title. Walked like a player (the real ``App``
frame loop, posted events: tools/walk.py) against one server of ours on 127.0.0.1 for the four
walks, its tables and ratings seeded once; each page measured on the boxes drawn
(tests/support/fit.py) on a frame or two. On every page no two buttons say the same words (the
Italian "Indietro" was once both Back and Previous)."""
from __future__ import annotations

import random
import re
import time
from collections import Counter

import pytest

from walk import Walk, close, free_port, start

from game import i18n
from game.client import tables as T
from game.client.session import GameSession
from game.match import RemoteMatch
from game.match.seats import SEATS_FILE
from game.netcode.player_store import Change
from game.netcode import ratings_wire as W
from game.netcode.server import Server
from game.netcode.server_options import ServerOptions
from game.rules import default_config
from support.remote import named_table_of_two, play_requests
from support.fit import FINGERPRINT
from support.router import StandInRouter
from support.wait import pump_until, until

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(3)]

CFG = default_config()
SIZES = [(1024, 640), (1920, 1080)]
RATED = ["Annunziata", "Bartolomeo", "Costanza", "Donatello", "Eleonora", "Federico", "Ginevra", "Ludovico",
         "Margherita"]
"""More rated players than the Leaderboard shows at once (its Next and Previous drawn)."""
WAITING = [("Cy", "Sala dei Cinquecento", 4, False), ("Dee", "Loggia", 3, True), ("Eva", "Studiolo", 2, False),
           ("Flo", "Cortile", 3, False), ("Gus", "Biblioteca", 4, False), ("Hal", "Cappella", 2, True),
           ("Ivo", "Giardino", 2, False)]
"""(host, table, seats, private): tables waiting for players, more than the Tables page shows at once."""
WALKERS = {("en", 1024): "Wes", ("en", 1920): "Vic", ("it", 1024): "Ugo", ("it", 1920): "Tito"}
"""Who walks at each language and width (each has a game in progress at the server)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server for the four walks: rated players, tables waiting, a game being played."""
    folder = tmp_path_factory.mktemp("fit-network")
    srv = Server(CFG, ServerOptions(host="127.0.0.1", port=0, data_dir=folder / "srv", seed=3, heartbeat=5,
                                    max_per_address=0, tables_per_address=0, bots_per_address=0))
    srv.start()
    seated: list[GameSession] = []
    try:
        store = srv.ratings.store
        with srv.lock:
            keys = [store.add(W.make_key(), name) for name in RATED]
            store.settle(None, [Change(k, 30.0 - 2 * n, 6.0) for n, k in enumerate(keys)])
        for host, name, seats, private in WAITING:
            seat = T.Seating(*srv.address, host, CFG, token_file=folder / f"{host}.json", create=name,
                             players=seats, private=private)
            until(lambda: seat.poll() in ("seated", "failed"), what=f"{host}'s table")
            assert seat.state == "seated", seat.error
            seated.append(seat.session)
        ada, bea = named_table_of_two(srv, folder, "Salone")      # a game being played, to watch
        seated += [ada, bea]
        play_requests(srv, [ada, bea], random.Random(8), 8)
        srv.fit_folder = folder
        yield srv
    finally:
        for s in seated:
            s.close()
        srv.stop()


def in_progress(server, nick: str, partner: str, data_dir) -> None:
    """``nick`` and ``partner`` at a game of two, its setup played and a few turns: ``nick``'s seat
    kept in ``data_dir`` (as the window keeps it), and ``nick`` gone (the title offers it back)."""
    host, port = server.address
    me = GameSession(RemoteMatch(host, port, nick, token_file=data_dir / SEATS_FILE), CFG, nick)
    pump_until(me, lambda: me.lobby.head == nick)
    other = GameSession(RemoteMatch(host, port, partner, token_file=server.fit_folder / f"{partner}.json"),
                        CFG, partner)
    pump_until(other, lambda: other.lobby.booked == 2)
    me.match.new_game(2)
    pump_until(me, lambda: me.vm.has_game)
    pump_until(other, lambda: other.vm.has_game)
    play_requests(server, [me, other], random.Random(4), 10)
    me.close()
    return other


def same_words(walk: Walk) -> list[str]:
    """Words said by two visible buttons of the page at once (their arrows aside: "‹ Indietro"
    for Previous beside "Indietro" for Back)."""
    import pygame_gui
    said = Counter(str(el.text).strip("\u2039\u203a ") for el in walk.app.stack.top.ui.get_sprite_group().sprites()
                   if isinstance(el, pygame_gui.elements.UIButton) and el.visible and str(el.text))
    return [w for w, n in said.items() if n > 1]


def walk_the_network(served, size, lang, nick: str, look) -> None:
    """From the title with a seat kept at ``served``: Join a game, Tables, Leaderboard, the Tables'
    next page, a game watched, then hosting a LAN game (the router's answer said; then four seats,
    a bot in one), then the game in progress joined again from the title: ``look(walk, page)`` on
    each, after its frames."""
    _ = i18n._
    walk = start(size, nickname=nick, language=lang)
    try:
        look(walk, "title, a seat kept")
        walk.fill_join_page(served.address[1], nick)
        walk.press(_("Tables"))
        walk.until_scene("TablesScene")
        tables = walk.app.stack.top
        walk.until(lambda: tables.listing is not None and len(tables.rows) > 1, 10, "the tables")
        look(walk, "tables")
        walk.press(_("Leaderboard"))
        walk.until_scene("LeaderboardScene")
        board = walk.app.stack.top
        walk.until(lambda: board.board is not None, 10, "the leaderboard")
        look(walk, "leaderboard")
        walk.press(_("Back"))
        walk.until_scene("TablesScene")
        walk.press(_("Next \u203a"))
        walk.until(lambda: tables.first > 0 and any(t.name == "Salone" for _r, t in tables.rows), 10,
                   "the next page, the games being played on it")
        look(walk, "tables, the next page")
        walk.click(next(r.center for r, t in tables.rows if t.name == "Salone"))
        walk.until_scene("WatchTableScene")
        watched = walk.app.stack.top
        walk.until(lambda: watched.session.vm.has_game and watched.layout is not None, 10, "the game watched")
        look(walk, "watching")
        walk.press(_("Stop watching"))
        walk.until_scene("TablesScene")
        walk.press(_("Back"))
        walk.until_scene("JoinScene")
        walk.press(_("Back"))
        walk.until_scene("TitleScene")
        walk.app.settings.server_port = free_port()
        walk.press(_("Host a LAN game"))
        walk.until(lambda: walk.scene == "LobbyScene", 30, "hosted")
        lobby = walk.app.stack.top
        walk.until(lambda: lobby.words_rect.w > 0, 10, "the router's answer said")
        lobby.addresses = [*lobby.addresses[:1], "198.51.100.27"]     # (a computer on two networks: both said)
        look(walk, "hosting")
        for _try in range(3):      # (a click while the page is built again for the router's answer is lost)
            walk.press(_("4 players"))
            end = time.monotonic() + 5
            while walk.button_at(_("Easy bot")) is None and time.monotonic() < end:
                walk.frames(1)
                time.sleep(0.01)
            if walk.button_at(_("Easy bot")) is not None:
                break
        walk.press(_("Easy bot"))
        walk.until(lambda: walk.app.server.pending_bots == ("easy",) and walk.button_at(_("Free the seat")), 10,
                   "a bot's seat")
        look(walk, "hosting, a bot asked for")
        walk.press(_("Stop hosting"))
        walk.until_scene("TitleScene")
        walk.press(_("Return to your game at {where}").split("{")[0])
        walk.until_scene("BoardScene", 15)
        walk.until(lambda: walk.app.stack.top.layout is not None, 10, "the board")
        look(walk, "the game joined again")
    finally:
        close(walk.app)


def walk_measured(monkeypatch, served, size, lang, nick: str, data_dir, seen) -> None:
    """:func:`walk_the_network` as ``nick`` (a game in progress kept in ``data_dir``), the router a
    stand-in one; ``seen(walk, page, measure)`` on each page after two frames measured."""
    from support.fit import Measure
    other = in_progress(served, nick, nick + "'s friend", data_dir)
    measured: list[Measure] = []

    def look(walk: Walk, page: str) -> None:
        if not measured:
            measured.append(Measure(monkeypatch, walk.app))
        measured[0].clear()
        walk.frames(2)
        seen(walk, page, measured[0])
        measured[0].pause()
    try:
        with StandInRouter(natpmp=False) as router:
            monkeypatch.setenv("MOR_ROUTER", router.env())
            walk_the_network(served, size, lang, nick, look)
    finally:
        other.close()


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_network_pages_fit(monkeypatch, dirs, served, size, lang):
    problems: list[str] = []

    def seen(walk: Walk, page: str, m) -> None:
        problems.extend(f"{page}: {p}" for p in m.problems())
        problems.extend(f"{page}: two buttons say {w!r}" for w in same_words(walk))
    walk_measured(monkeypatch, served, size, lang, WALKERS[lang, size[0]], dirs / "data", seen)
    assert not problems, f"{lang} at {size[0]}x{size[1]}:\n" + "\n".join(problems)


def test_the_network_pages_say_no_word_left_in_english(monkeypatch, dirs, served):
    """Under the pseudo-language (tests/i18n/test_pseudo_language.py), the same walk draws every
    word marked, but the names of players and tables (and numbers)."""
    from support.pseudo import unmarked, use_pseudo_language
    use_pseudo_language(monkeypatch)
    names = {*RATED, *(h for h, *_r in WAITING), *(w for _h, t, *_r in WAITING for w in t.split()),
             *WALKERS.values(), "Salone", "Ada", "Bea", "Zeno", "friend", "s", "mor"}      # (mor://: the link to the game)
    left: dict[str, set[str]] = {}

    def seen(walk: Walk, page: str, m) -> None:
        for text in m.said():
            text = re.sub(FINGERPRINT, "", text)
            for word in unmarked(text, names):
                left.setdefault(word, set()).add(f"{page}: {text!r}")
    walk_measured(monkeypatch, served, (1024, 640), "it", "Zeno", dirs / "data", seen)
    assert not left, "words drawn in English:\n" + "\n".join(f"{w}: {sorted(where)[:3]}" for w, where in left.items())
