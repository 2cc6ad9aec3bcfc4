"""Why a join fails, in the window's words (the same the text client says: game.client.join_words),
walked through the real ``App`` frame loop: the Join page, an address typed, Join pressed, and the
page says which cause it was (tests/support/unreachable.py sets each up over 127.0.0.1)."""
from __future__ import annotations

from contextlib import ExitStack

import pytest
from walk import close, start

from support.unreachable import KINDS, failing_join

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("kind", KINDS)
def test_the_join_page_says_why_a_join_failed(kind, tmp_path, certs, monkeypatch):
    with ExitStack() as stack:
        address, nickname, words = failing_join(kind, stack, tmp_path, certs, monkeypatch)
        walk = start(nickname=nickname)
        try:
            walk.press("Join a game")
            walk.until_scene("JoinScene")
            page = walk.app.stack.top
            walk.click(walk.entry_at(0))
            walk.type(address)
            walk.press("Join")
            walk.until(lambda: page.busy is None and page.seating is None, 15, "the join's end")
            walk.frames(2)
            shown = page.errors.get("nickname") if kind == "name_taken" else page.error
            if kind == "changed_certificate":     # the warning over the page, its title first
                top = walk.app.stack.top
                shown = f"{getattr(top, 'title', '')}. {getattr(top, 'text', '')}"
            assert shown is not None and words in shown, (kind, shown, page.errors)
            assert page.session is None
        finally:
            close(walk.app)
