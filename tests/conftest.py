"""Shared test set-up: no display, no sound device and no network but loopback are needed anywhere."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# games are announced and looked for on loopback only: no test talks to the real network
os.environ.setdefault("MOR_LAN_INTERFACES", "127.0.0.1")
# ... and under a service type of their own, so a player's list on this machine never shows them;
# each pytest-xdist worker ("gw0", "gw1", ...) has its own, so two workers never see each other's tables
os.environ.setdefault("MOR_SERVICE_TYPE", "_mor-test%s._tcp.local." % os.environ.get("PYTEST_XDIST_WORKER", ""))


def pytest_configure(config):
    """Every screen registered by name, as the launcher does it (tests build the App themselves)."""
    from game.scenes.catalog import register_scenes
    register_scenes()
