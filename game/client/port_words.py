"""What the host's page says about the port the router was asked to open (the window's waiting
room and the text client say the same): friends on the internet join at this address, or why
they cannot and what the host can do about it. See :mod:`game.portmap` and docs/hosting.md."""
from __future__ import annotations

__all__ = ["ASKING", "CLOSED_WORDS", "GARBAGE", "NO_ROUTER", "OFF", "OPEN", "PRIVATE", "REFUSED", "SETTING",
           "SETTING_NOTE", "TIMED_OUT"]

ASKING = "Asking your router to open port {port} to the internet\u2026"
OPEN = "Friends on the internet can join at {where} (your router forwards it here, by {via})."
BY_HAND = ("Friends on this network can join. For friends on the internet, forward TCP port {port} to this "
           "computer ({lan}) in your router\u2019s settings, or host on a network whose router does it.")
NO_ROUTER = "No router answered when asked to open port {port}. " + BY_HAND
"""Neither UPnP nor NAT-PMP answered: the router does not offer them, or has them turned off."""
TIMED_OUT = "Your router was found but stopped answering when asked to open port {port}. " + BY_HAND
REFUSED = ("Your router refused to open port {port} ({detail}): its UPnP or NAT-PMP setting may be off. "
           "Turn it on in the router\u2019s settings, or forward TCP port {port} to this computer ({lan}) by hand. "
           "Friends on this network can join meanwhile.")
GARBAGE = "Your router answered in a way the game cannot read when asked to open port {port}. " + BY_HAND
PRIVATE = ("Your router\u2019s own outside address ({outside}) is private: your internet provider shares one "
           "address among many homes (a carrier\u2019s NAT), so only this network can join. To play across the "
           "internet, ask your provider for a public address, or let a friend whose router has one host.")
OFF = ("Opening the port by itself is off (Settings). Friends on this network can join; for the internet, "
       "forward TCP port {port} to this computer ({lan}) in your router\u2019s settings.")
CLOSED_WORDS = "The port your router opened is closed again."

SETTING = "Open the port by itself"
SETTING_NOTE = "While you host, your router forwards the port to friends on the internet"
