"""The text client and a graphical client's session (driven as the board drives it) at one table
on one server: a chat line each way, a move refused out of turn, each one's moves told to the
other, a dropped connection and the rejoin."""
from __future__ import annotations


import pytest

from game.client.board_input import BoardInput, Line
from game.client.games import default_config
from game.client.session import ChatLine, GameSession
from game.match import RemoteMatch
from support.text import at_server, text_client
from support.wait import until

CFG = default_config()


def bea_moves(bea: GameSession) -> None:
    """Bea's turn as the board plays it: the first row, placed as suggested, then End turn."""
    hand = BoardInput(bea)
    hand.click(Line(True, 0))
    hand.send_plan()
    until(lambda: bea.vm.game["isMandatoryActionDone"], bea.pump)
    bea.end_turn()


@pytest.mark.timeout(60)
def test_text_and_graphical_clients_play_chat_and_rejoin(server, tmp_path):
    host, port = server.address
    ada, said = at_server(server, "Ada", tmp_path / "data")
    tick = ada.tick
    bea = GameSession(RemoteMatch(host, port, "Bea", token_file=tmp_path / "bea.json"), CFG, "Bea")
    until(lambda: bea.lobby.booked == 2, bea.pump)
    ada.line("players 2")
    until(lambda: bea.vm.has_game and ada.shell.session.vm.has_game, tick, bea.pump)
    until(lambda: said.has("Choose the 2 leaders you keep"), tick)
    ada.line("keep 1 2")
    ada.line("")
    bea.choose_leaders(bea.vm.me["leadersHand"][:2])
    until(lambda: bea.stage() != "leaders", bea.pump)
    if bea.stage() == "resources":
        bea.choose_resources({bea.vm.me["warehouseShelves"][0]: {"Coin": 1}})
    until(lambda: ada.shell.session.stage() != "leaders", tick)
    if ada.shell.session.stage() == "resources":
        assert said.has("Your seat receives 1 resource")
        ada.line("resources Stone")
        assert said[-1].startswith("Start with 1 Stone on shelf 1.")
        ada.line("")
    until(lambda: said.has("The game is on: you play against Bea"), tick, bea.pump)

    # a line each way
    ada.line("say Good luck, Bea")
    until(lambda: any(isinstance(x, ChatLine) and x == "Ada: Good luck, Bea" for x in bea.log), tick, bea.pump)
    bea.chat("And to you")
    until(lambda: said.has("Chat: Bea: And to you"), tick, bea.pump)

    session = ada.shell.session
    if session.vm.my_turn:           # Ada first: her turn, then Bea's
        n = len(said)
        ada.line("take row 1")
        ada.line("")
        until(lambda: said.has("You took row 1", n), tick)
        ada.line("end")
        ada.line("")
        until(lambda: bea.vm.my_turn, tick, bea.pump)
    # out of turn: refused in words, nothing sent
    until(lambda: not session.vm.my_turn and session.vm.game["currentPlayer"] == "Bea", tick, bea.pump)
    before = session.vm.snapshot()
    n = len(said)
    for line in ("take row 2", "end", "buy green 1", "produce", "undo", "hint", "swap 1 2"):
        ada.line(line)
        assert said[-1] == "It is Bea's turn: wait for yours.", (line, said[n:])
    assert session.vm.snapshot() == before and ada.shell.pending is None
    bea_moves(bea)
    until(lambda: said.has("Bea took row 1", n) and said.has("Your turn.", n), tick, bea.pump)

    # the network goes away under the text client: it says so, rejoins by itself, and plays on
    n = len(said)
    session.match.conn._sock.shutdown(2)
    until(lambda: said.has("The connection to the server was lost", n), tick, bea.pump)
    until(lambda: said.has("Reconnected: the board is up to date again.", n), tick, bea.pump, timeout=20)
    assert ada.shell.session is session
    if not session.vm.my_turn:       # her turn was passed while she was away: said, and Bea's again
        until(lambda: said.has("While you were away, your turn was skipped", n), tick)
        until(lambda: bea.vm.my_turn, tick, bea.pump)
        bea_moves(bea)
        until(lambda: session.vm.my_turn, tick, bea.pump)
    m = len(said)
    ada.line("take column 2")
    assert said.has("Taking column 2", m)
    ada.line("")
    until(lambda: any("Ada took column 2" in line for line in bea.log), tick, bea.pump)
    ada.line("leave")
    assert said.has("The server keeps your seat")
    ada.close()
    bea.close()


@pytest.mark.timeout(60)
def test_the_text_client_hosts_a_table_and_plays_at_it(tmp_path, monkeypatch):
    """Host a game on this network from the menu: the server starts (any free port here), the
    host sits at its table, chooses the number of players, and its game starts; leaving stops it."""
    from game.settings import Settings
    monkeypatch.setenv("MOR_SEED", "5")          # the hosted server's deal
    ada, said = text_client(None, tmp_path / "data", settings=Settings(nickname="Ada", server_port=0))
    host = next(line for line in said if "Host a game on this network" in line)
    ada.line(host.split(".")[0])
    assert said.has("Your table is open on this network; friends join it at ")
    server = ada.server
    assert server is not None
    # the link to send, at once (as the window's Copy link button): whole, with its scheme, so that
    # pasted back (mor-text LINK, the Join prompt) it opens this table
    from game.client.links import parse_link
    opened = next(i for i, line in enumerate(said) if line.startswith("Your table is open on this network"))
    assert said[opened + 1].startswith("The link to send them: mor://"), said[opened:opened + 3]
    assert parse_link(said[opened + 1].removeprefix("The link to send them: ")).port == server.address[1]
    until(lambda: said.has("You choose how many play"), ada.tick)
    # its certificate told short (a screen reader reads a whole fingerprint pair by pair), the whole on request
    from game.client.security import short_fingerprint
    whole = ada.shell.session.link.fingerprint
    tls = next(line for line in said if line.startswith("Your table is encrypted (TLS)."))
    assert tls == ("Your table is encrypted (TLS). Its certificate, which your guests are shown when they join, "
                   f"starts {short_fingerprint(whole)}; say server for the whole of it."), tls
    assert whole not in tls
    ada.line("server")
    assert whole in said[-1]
    ada.line("players 5")
    assert said[-1] == "A game cannot have 5 players: say a number from 1 to 4."
    ada.line("players 1")
    until(lambda: said.has("Choose the 2 leaders you keep"), ada.tick)
    ada.line("leave")
    assert said.has("Your table's server stops with you") and ada.server is None
    assert said[-1] == "8. Quit"                 # the main menu again, the kept game first in it
    assert said[-8] == "1. Return to your LAN game (host it again and take your seat back)"
    ada.close()


@pytest.mark.timeout(60)
def test_named_tables_a_private_one_by_its_code(server, tmp_path):
    """A server's tables from the text client: none open; Ada opens a private table of two and is
    told its invite code; Bea's list shows it as private, a wrong code is refused in words, the
    right one seats her, and the game starts for both."""
    host, port = server.address
    ada, said_a = text_client("Ada", tmp_path / "a")
    bea, said_b = text_client("Bea", tmp_path / "b")
    ada.show_tables(f"{host}:{port}")
    assert said_a.has(f"No table is open at {host}:{port}.")
    assert said_a[-1].startswith("Say new and a name to open one")
    ada.line("new Ada's game 2 private")
    until(lambda: said_a.has("You sit at the table Ada's game. It is private: its invite code is "), ada.tick)
    code = next(line for line in said_a if "invite code is" in line).split("invite code is ")[1].split(",")[0]
    bea.show_tables(f"{host}:{port}")
    assert said_b.has("1. Ada's game, opened by Ada: 1 of 2 seats taken. Private: it needs its invite code.")
    bea.line("1")
    assert said_b[-1].startswith("Ada's game is private: say code")
    n = len(said_b)
    bea.line("code NOPE")
    until(lambda: bea.seating is None, bea.tick)
    assert bea.shell is None and said_b.has("No open table has that invite code", n)   # refused in words
    assert said_b.has("Tables open at", n)                                             # and the list again
    bea.line(f"code {code}")
    until(lambda: bea.shell is not None, bea.tick)
    until(lambda: said_a.has("Choose the 2 leaders") and said_b.has("Choose the 2 leaders"), ada.tick, bea.tick)
    ada.close()
    bea.close()


@pytest.mark.timeout(60)
def test_leave_and_quit_are_understood_on_the_join_and_tables_pages(server, tmp_path):
    """QA (playing): "leave" and "quit" on a server's tables were answered "Say a table's number…"."""
    host, port = server.address
    ada, said = text_client("Ada", tmp_path / "a")
    try:
        ada.show_tables(f"{host}:{port}")
        ada.line("leave")
        assert said[-1].endswith("Quit") and said.has("Main menu", len(said) - 12)
        ada.show_tables(f"{host}:{port}")
        ada.line("quit")
        assert ada.done and said[-1] == "Goodbye."
    finally:
        ada.close()
