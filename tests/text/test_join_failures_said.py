"""Why a join fails, in the text client's words (the same the window shows: game.client.join_words):
an address typed at the join prompt, on a real pty; "no answer" in this process, its timeout made
short (tests/support/unreachable.py sets each cause up over 127.0.0.1)."""
from __future__ import annotations

from contextlib import ExitStack

import pytest

from support.pty import PtyProgram
from support.text import text_client
from support.unreachable import KINDS, failing_join
from support.wait import until

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "timed_out"])
def test_the_text_client_says_why_a_join_failed(kind, tmp_path, certs, monkeypatch):
    with ExitStack() as stack:
        address, nickname, words = failing_join(kind, stack, tmp_path, certs, monkeypatch)
        with PtyProgram(["--plain", "--name", nickname], seed=1) as p:
            join = p.expect("Join a game on the network")
            p.send(join.split(".")[0])
            p.expect("Looking for tables")
            p.send(address)
            line = p.expect(words[:40], "Main menu", "Looking for tables", timeout=15)
            assert words in line, (kind, line, p.lines[-6:])
            p.send("menu")
            p.expect("Main menu")
            p.quit()


def test_no_answer_is_said_as_such(tmp_path, certs, monkeypatch):
    with ExitStack() as stack:
        address, _nickname, words = failing_join("timed_out", stack, tmp_path, certs, monkeypatch)
        client, said = text_client("Bea", tmp_path / "bea")
        try:
            client.join_address(address)
            until(lambda: said.has(words), client.tick, timeout=10, what="the words of no answer")
        finally:
            client.close()
