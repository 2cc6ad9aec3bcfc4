"""The collector's policy (game/runtime.py) and every program that plays the game applying it once
its start-up is done: the server, the bots' worker processes, the app and the text client."""
from __future__ import annotations

import gc
import os
import signal

import pytest

from game import runtime


class Calls(list):
    """What happened, in order; ``then`` runs when the policy is called."""

    def then(self) -> None:
        pass


@pytest.fixture
def settled(monkeypatch):
    """The entry points' calls of the policy, recorded instead of applied (a test process keeps
    its collector as it is)."""
    calls = Calls()

    def record() -> None:
        calls.append("settle")
        calls.then()

    monkeypatch.setattr(runtime, "settle_collector", record)
    return calls


PYTHON_GEN0 = 700
"""CPython's young-generation threshold, as it starts."""


def test_the_policy_freezes_what_start_up_left_and_raises_the_young_threshold():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    # from Python's own young threshold, whatever ran in this worker before (a server or an app
    # started in-process by another test applies the policy too: seen with three workers)
    gc.set_threshold(PYTHON_GEN0, before[1], before[2])
    try:
        runtime.settle_collector()
        assert gc.get_freeze_count() > frozen
        assert gc.get_threshold() == (runtime.GEN0_THRESHOLD, before[1], before[2])
        assert runtime.GEN0_THRESHOLD > PYTHON_GEN0
        assert gc.isenabled()       # garbage cycles made later are still collected
    finally:
        if not frozen:
            gc.unfreeze()
        gc.set_threshold(*before)


def test_the_server_applies_it_once_it_listens(settled, tmp_path):
    from game.netcode import cli
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    settled.then = lambda: os.kill(os.getpid(), signal.SIGTERM)   # then stop it, as an operator would
    try:
        code = cli.main(["--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path / "d"),
                         "--log-level", "ERROR", "--bot-threads"])
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    assert code == 0 and settled == ["settle"]


def test_a_bot_worker_process_runs_under_it():
    from game.bots import driver
    pool = driver._process_executor(1, None)
    try:
        assert pool.submit(gc.get_threshold).result(timeout=60)[0] == runtime.GEN0_THRESHOLD
        assert pool.submit(gc.get_freeze_count).result(timeout=60) > 0
    finally:
        pool.shutdown(cancel_futures=True)


def test_the_app_applies_it_once_its_window_is_built_before_the_first_frame(settled, monkeypatch):
    from game import launcher
    from game.scenes import app as app_module
    from game.scenes import catalog

    class App:
        def __init__(self, size=None, language=None) -> None:
            settled.append("window")

        def scene(self, name: str) -> str:
            return name

        def run(self, first: str) -> None:
            settled.append(f"run {first}")

    monkeypatch.setattr(app_module, "App", App)
    monkeypatch.setattr(catalog, "register_scenes", lambda: None)
    assert launcher.main([]) == 0
    assert settled == ["window", "settle", "run title"]


def test_the_text_client_applies_it_once_the_rules_are_loaded(settled, monkeypatch, tmp_path):
    from game.text import terminal
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "cfg"))

    class Terminal:
        def __init__(self, plain: bool) -> None:
            pass

        def run(self, make) -> int:
            client = make(lambda line: None, lambda: None)
            settled.append(f"client {type(client).__name__} with {len(client.config.leaders)} leaders")
            return 0

    monkeypatch.setattr(terminal, "Terminal", Terminal)
    assert terminal.main(["--plain", "--name", "Bea", "--data-dir", str(tmp_path / "data")]) == 0
    assert settled == ["settle", "client TextClient with 16 leaders"]
