"""Shared test set-up: no display, no sound device and no network but loopback are needed anywhere."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# games are announced and looked for on loopback only: no test talks to the real network
os.environ.setdefault("MOR_LAN_INTERFACES", "127.0.0.1")
