"""A game link opened by the text client (``mor-text mor://HOST:PORT[/CODE]``), on a real pty:
it joins at once, at the private table of the link's invite code; a bad link is refused in words
and nothing is started (the program ends with status 2 before any menu)."""
from __future__ import annotations

import pytest

from support.pty import PtyProgram
from support.text import text_client
from support.wait import until

pytestmark = pytest.mark.timeout(60)


def test_mor_text_with_a_link_joins_the_private_table_of_its_code(server, tmp_path):
    host, port = server.address
    ada, said = text_client("Ada", tmp_path / "a")
    ada.show_tables(f"{host}:{port}")
    ada.line("new Ada's game 3 private")
    until(lambda: said.has("its invite code is"), ada.tick)
    code = next(line for line in said if "invite code is" in line).split("invite code is ")[1].split(",")[0]
    with PtyProgram(["--plain", "--name", "Bea", f"mor://{host}:{port}/{code.lower()}"], seed=1) as p:
        p.expect(f"Opening the link mor://{host}:{port}/{code}.")
        p.expect(f"Connecting to {host}:{port}")
        p.expect("You sit at the table Ada's game.")
        until(lambda: said.has("Bea"), ada.tick)
        p.send("leave")
        p.expect("Back to the tables.")
        p.send("menu")
        p.expect("Main menu")
        p.quit()
    ada.close()


@pytest.mark.parametrize("args, words", [
    (["mor://127.0.0.1:0"], "this link cannot be opened. The port in the link must be a number from 1 to 65535"),
    (["mor://127.0.0.1:51015/a;reboot"], "this link cannot be opened. A game link has no \u201c;\u201d in it."),
    (["mor://" + "h" * 10_000 + ":51015"], "too long to be a game's link"),
    (["ftp://127.0.0.1:51015"], "is neither key nor a game link"),
])
def test_mor_text_with_a_bad_link_says_why_and_starts_nothing(args, words):
    with PtyProgram(["--plain", *args], seed=1) as p:
        line = p.expect("mor-text:")
        assert words in line, line
        assert p.wait() == 2
        assert not any("Main menu" in s or "Traceback" in s for s in p.lines), p.lines


@pytest.mark.parametrize("bad, words", [
    ("mor://127.0.0.1:0", "The port in the link must be a number from 1 to 65535"),
    ("mor://127.0.0.1:51015/$(id)", "A game link has no \u201c$()\u201d in it."),
    ("mor://a@127.0.0.1:51015", "A game link has no user name"),
    ("mor://" + "h" * 10_000 + ":51015", "too long to be a game's link"),
    ("ftp://127.0.0.1:51015", "is not an address"),
])
def test_a_bad_link_pasted_at_the_join_prompt_is_refused_in_words_and_nothing_connects(bad, words, tmp_path,
                                                                                       monkeypatch):
    """A link pasted whole where an address is asked (the window's Join field: tests/scenes/
    test_walk_links.py): refused in words, no connection tried, back to the menu."""
    import game.text.network as network
    tried = []
    monkeypatch.setattr(network.Network, "seat", lambda self, *a, **k: tried.append(a))
    client, said = text_client("Bea", tmp_path / "bea")
    try:
        client.join_address(bad)
        assert said.has(words) and tried == [] and said.has("Main menu"), said[-4:]
        assert all(len(line) < 400 for line in said)            # (a hostile link is not said back whole)
    finally:
        client.close()
