"""Why a join fails, in words: each cause its own sentence (tests/support/unreachable.py sets
each up over 127.0.0.1), said by the seat being asked for (game.client.tables.Seating), which
both front ends show."""
from __future__ import annotations

import time
from contextlib import ExitStack

import pytest

from support.unreachable import KINDS, SHORT_TIMEOUT, failing_join

from game import i18n
from game.client.address import parse_address
from game.client.tables import Seating
from game.rules.components import default_config

pytestmark = pytest.mark.timeout(60)


def failed_seat(address: str, nickname: str) -> Seating:
    host, port = parse_address(address, 51015)
    seating = Seating(host, port, nickname, default_config())
    deadline = time.monotonic() + 15
    while seating.poll() in ("connecting", "joining"):
        assert time.monotonic() < deadline, "the seat neither failed nor came"
        time.sleep(0.02)
    return seating


def test_each_failure_has_its_own_words(tmp_path, certs, monkeypatch):
    said = {}
    for kind in KINDS:
        with ExitStack() as stack:
            address, nickname, words = failing_join(kind, stack, tmp_path / kind, certs, monkeypatch)
            t0 = time.monotonic()
            seating = failed_seat(address, nickname)
            assert seating.state == "failed"
            told = seating.warning.line if seating.warning is not None else seating.error   # as both front ends do
            assert words in (told or ""), (kind, told)
            if kind == "timed_out":
                assert time.monotonic() - t0 < SHORT_TIMEOUT * 3 + 1
            said[kind] = told
    sentences = {kind: words.split(":")[1] if kind != "changed_certificate" else words for kind, words in said.items()}
    assert len(set(sentences.values())) == len(KINDS), said       # no two causes said alike
    assert all("No game server answered" not in w for w in said.values()), said


def test_a_full_server_turns_an_italian_player_away_in_italian(tmp_path, certs, monkeypatch):
    """The server's words (it is full) travel as a code: the player reads them in Italian."""
    with ExitStack() as stack:
        address, nickname, _english = failing_join("full", stack, tmp_path, certs, monkeypatch)
        i18n.use("it")
        seating = failed_seat(address, nickname)
        told = seating.warning.line if seating.warning is not None else seating.error
        assert "Il server \u00e8 pieno: riprova pi\u00f9 tardi." in (told or ""), told
