"""The only sound of the game: a short, soft bell when a turn begins (off by default).

The tone is synthesised at start-up (a few decaying partials of a small bell), so no audio file
is shipped. If there is no audio device, sound is silently unavailable.
"""
from __future__ import annotations

import array
import logging
import math

import pygame

log = logging.getLogger("mor.sound")
RATE = 22050


def bell_samples(seconds: float = 0.45, volume: float = 0.22) -> array.array:
    """16-bit mono samples of a soft bell: partials at 1, 2.76 and 5.4 times 880 Hz, decaying."""
    n = int(RATE * seconds)
    partials = ((1.0, 1.0, 6.0), (2.76, 0.45, 9.0), (5.4, 0.2, 14.0))
    out = array.array("h")
    for i in range(n):
        t = i / RATE
        attack = min(1.0, t / 0.004)
        v = sum(a * math.exp(-d * t) * math.sin(2 * math.pi * 880 * f * t) for f, a, d in partials)
        out.append(int(max(-1.0, min(1.0, v * volume * attack / 1.65)) * 32767))
    return out


class Sound:
    """Plays the turn bell; does nothing if the mixer cannot start."""

    def __init__(self) -> None:
        self.bell: pygame.mixer.Sound | None = None
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            freq, _size, channels = pygame.mixer.get_init()
            samples = bell_samples()
            if channels == 2:
                stereo = array.array("h")
                for s in samples:
                    stereo.extend((s, s))
                samples = stereo
            self.bell = pygame.mixer.Sound(buffer=samples.tobytes())
        except (pygame.error, TypeError, ValueError) as e:
            log.info("no sound: %s", e)

    def play_turn(self) -> None:
        if self.bell is not None:
            self.bell.play()
