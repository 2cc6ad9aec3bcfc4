"""Shared test set-up: no display, no sound device and no network but loopback are needed anywhere."""
import logging
import os
import sys

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# games are announced and looked for on loopback only: no test talks to the real network
os.environ.setdefault("MOR_LAN_INTERFACES", "127.0.0.1")
# ... and under a service type of their own, so a player's list on this machine never shows them
# (each test has its own: see _lan_of_its_own)
os.environ.setdefault("MOR_SERVICE_TYPE", "_mor-test._tcp.local.")
# the game speaks English in every test (and in the processes they start) whatever the machine's
# language, unless a test asks for another (see speak_english)
os.environ["LANGUAGE"] = "en"
# no hosted game asks a real router to open its port (a test that wants one starts a stand-in
# router on 127.0.0.1 and points MOR_ROUTER at it: tests/support/router.py)
os.environ.setdefault("MOR_ROUTER", "off")


def pytest_configure(config):
    """Every screen registered by name, as the launcher does it (tests build the App themselves);
    every deal watched (:func:`seeded_deals`)."""
    from game.scenes.catalog import register_scenes
    register_scenes()
    config.addinivalue_line("markers", "seed(n): MOR_SEED for this test (the deal of every game it starts "
                                       "without a seed of its own, in this process and those it starts)")
    config.addinivalue_line("markers", "unseeded: this test deals games from the OS on purpose")
    config.addinivalue_line("markers", "early: one of the longest tests, run first (see "
                                       "pytest_collection_modifyitems)")
    config.addinivalue_line("markers", "logs_errors(*words): this test makes the game log an ERROR on purpose "
                                       "(each such record must contain one of the words)")
    from support import deals
    deals.watch()


def pytest_collection_modifyitems(items):
    """The longest tests (marked ``early``) go first, each file's order kept: xdist hands out
    tests in this order, so a long test met last kept one worker busy while the others had
    finished (the bench smoke, last in the list, ran alone for the suite's last 27 s)."""
    items.sort(key=lambda item: item.get_closest_marker("early") is None)


def pytest_collection_finish(session):
    """What is alive once the tests are collected (every module, pygame, the scenes, the tests
    themselves) lives to the end: the collector leaves it out of every later pass. Each full
    pass went over all of it again (the app collects at every handover): a tenth of a scene
    test's time."""
    import gc
    gc.collect()
    gc.freeze()
    if gc.unfreeze is not _unfreeze_seen:
        global _unfreeze
        _unfreeze, gc.unfreeze = gc.unfreeze, _unfreeze_seen


_unfreeze = None
_unfrozen: list[bool] = []
"""Set when something of this process unfroze the collector's permanent generation."""


def _unfreeze_seen() -> None:
    """``gc.unfreeze`` as the suite sees it: it notes that it was called. Asking the collector
    how much is frozen (``gc.get_freeze_count``) walks all of it: 21 ms once the suite is
    collected, twice a test, was 90 CPU-seconds of the suite."""
    _unfrozen.append(True)
    _unfreeze()


@pytest.fixture(autouse=True)
def _collected_as_before():
    """What :func:`pytest_collection_finish` froze stays frozen after a test that unfroze it (a
    server's :class:`~game.netcode.heap.FrozenHeap` does when it stops, in ``cli.main`` and its
    own tests): else every later full collection in that worker walked all of it again, so the
    tests after it ran slower than the same tests elsewhere."""
    import gc
    _unfrozen.clear()
    yield
    if _unfrozen and not gc.get_freeze_count():
        gc.collect()
        gc.freeze()


@pytest.fixture(autouse=True)
def _turn_news_ends_with_its_test():
    """The turn news an app started in a test (a thread of its own, from the app's first frame)
    ends with the test: the thread holds the app's ``wake``, so it kept every app of the worker
    alive, with its scenes, their pygame_gui managers and themes and the window's pictures (the
    tests leave ``App.shutdown`` uncalled, to keep pygame up): 22 apps after test_board.py, 0 now.
    (A test's app that lived on is how test_memory's theme test came to fail in a shuffled run.)
    The thread's target is read as CPython's ``threading`` keeps it."""
    import threading
    before = set(threading.enumerate())
    yield
    for thread in threading.enumerate():
        news = getattr(getattr(thread, "_target", None), "__self__", None)
        if thread.name == "turn-news" and thread not in before and hasattr(news, "close"):
            news.close()
            thread.join(5)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """A worker's last full collection done here, while its results are still awaited; what is
    left frozen, so that pytest's own collection at its very end has nothing to walk. That one
    runs after the worker has said it is finished, and execnet interrupts a worker that is not
    done 5 s after being told to end: a loaded run saw the SIGINT land in hypothesis's collector
    callback (a ``KeyboardInterrupt`` in the output of a passing run)."""
    import gc
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's walks (tools/walk.py) write the first frame of every scene they met to
    their folders, to be looked at; a passing one writes none."""
    outcome = yield
    if outcome.get_result().failed and "walk" in sys.modules:
        sys.modules["walk"].save_failed_walks()


class _Errors(logging.Handler):
    """Every record at ERROR or above, from any thread of this process, while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_error_logged(request):
    """A test fails on an ERROR the game logged while it ran (a server handler's bug is answered,
    not raised, and a worker's failure is logged: without this, such a test could pass). A test
    that provokes one on purpose says so: ``@pytest.mark.logs_errors("words it contains")``."""
    catcher = _Errors()
    root = logging.getLogger()
    root.addHandler(catcher)
    try:
        yield
    finally:
        root.removeHandler(catcher)
    marker = request.node.get_closest_marker("logs_errors")
    allowed = tuple(marker.args) if marker is not None else ()
    errors = [f"{r.name}: {r.getMessage()}" for r in catcher.records
              if not (allowed and any(w in r.getMessage() for w in allowed))]
    if errors:
        pytest.fail(f"{len(errors)} ERROR record(s) logged:\n" + "\n".join(errors[:10]), pytrace=False)


def lan_service_type() -> str:
    """A DNS-SD service type no other test uses, in this run or another on the machine (a
    worker's name, "gw0", is every run's: another run's tables showed in a test's list)."""
    import secrets
    return f"_mt{secrets.token_hex(6)}._tcp.local."      # (a service name is at most 15 letters)


@pytest.fixture(autouse=True)
def speak_english():
    """Every test starts in English (the language its words are asserted in): one that switches
    to Italian (``game.i18n.use("it")``) leaves none behind."""
    from game import i18n
    i18n.use("en")
    yield
    i18n.use("en")


@pytest.fixture(autouse=True)
def _lan_of_its_own(monkeypatch):
    """Each test announces its tables and looks for them under a service type of its own (the
    processes it starts too), so that a list of the games on the network shows only its own."""
    monkeypatch.setenv("MOR_SERVICE_TYPE", lan_service_type())


@pytest.fixture(autouse=True)
def dirs(tmp_path, monkeypatch):
    """Every test keeps its settings in ``tmp_path / "cfg"`` (``MOR_CONFIG_DIR``) and its saves in
    ``tmp_path / "data"`` (``MOR_DATA_DIR``): nothing is read from or written to the player's own
    folders, and a process the test starts inherits them. Returns ``tmp_path``."""
    monkeypatch.setenv("MOR_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("MOR_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture(autouse=True)
def seeded_deals(request, monkeypatch):
    """Every game a test plays is seeded: a game dealt by the OS (:func:`game.seeds.unseeded`, in
    this process) fails the test. Pass a seed, mark the test (or its module) ``seed(n)`` to set
    ``MOR_SEED``, or give one to the process the test starts (the kit's PtyProgram asks for it)."""
    from support import deals
    marker = request.node.get_closest_marker("seed")
    if marker is not None:
        monkeypatch.setenv("MOR_SEED", str(marker.args[0]))
    deals.take()
    yield
    dealt = deals.take()
    if dealt and request.node.get_closest_marker("unseeded") is None:
        pytest.fail(f"this test played {len(dealt)} unseeded deal(s) (from {sorted(set(dealt))}): pass a seed, "
                    f"mark it seed(n) or set MOR_SEED", pytrace=False)


@pytest.fixture
def server(tmp_path):
    """A game server of ours on 127.0.0.1 (a free port), its games under ``tmp_path``; the client
    settings and saves of the test under ``tmp_path`` too. (tests/netcode has its own.)"""
    from game.netcode.server import Server
    from game.netcode.server_options import ServerOptions
    from game.rules.components import default_config
    srv = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv",
                                                 heartbeat=5, seed=3))
    srv.start()
    yield srv
    srv.stop()


def make_cert(folder, name: str = "server"):
    """A self-signed certificate and its key for 127.0.0.1 (``openssl req``): (cert, key) paths."""
    import subprocess
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture(scope="session")
def certs(tmp_path_factory):
    """Two self-signed certificates (``one``, ``two``), made once per test run. Without the
    ``openssl`` command the TLS tests fail, saying so: skipped, they would pass with TLS broken."""
    import shutil
    if shutil.which("openssl") is None:
        pytest.fail("the TLS tests make their certificates with the openssl command: install openssl")
    folder = tmp_path_factory.mktemp("certs")
    return {"one": make_cert(folder, "one"), "two": make_cert(folder, "two")}


@pytest.fixture
def tls_server(tmp_path, certs):
    """As :func:`server`, serving TLS too (certificate ``one``) on a port of its own
    (``tls_server.tls_address``); its games apart from :func:`server`'s (a test may use both)."""
    from game.netcode.server import Server
    from game.netcode.server_options import ServerOptions
    from game.rules.components import default_config
    cert, key = certs["one"]
    srv = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=tmp_path / "srv-tls",
                                                 heartbeat=5, seed=3, tls_cert=cert, tls_key=key, tls_port=0))
    srv.start()
    yield srv
    srv.stop()
