"""The line editor (without --plain) on a terminal that answers no cursor position request (a
serial console, some screen-reader set-ups, this test's pty): nothing but the game is said."""
from __future__ import annotations


import pytest

from support.pty import PtyProgram

pytestmark = pytest.mark.timeout(60)


def test_a_terminal_that_answers_no_cursor_request_hears_no_warning(monkeypatch):
    """QA: prompt_toolkit said "WARNING: your terminal doesn't support cursor position requests
    (CPR)." in English, between the menu and the game, to a player whose terminal did not answer
    its question (the line editor needs no cursor position: nothing pops up under the line)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("PROMPT_TOOLKIT_NO_CPR", raising=False)
    p = PtyProgram(["--name", "Ada"], seed=1, env={"TERM": "xterm"})
    try:
        p.expect("7. Quit")
        p.type_line("1")
        p.expect("Choose the 2 leaders you keep")
        p.type_line("leaders")
        p.expect("4. ")
        p.type_line("leave")
        p.expect("Main menu")
        p.type_line("quit")
        p.expect("Goodbye.")
        assert p.wait() == 0
    finally:
        p.kill()
    assert not [line for line in p.lines if "cursor position" in line or "WARNING" in line], p.lines
