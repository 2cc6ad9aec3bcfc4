"""The board's panels, each in its own module (see :mod:`game.scenes.panels.base`)."""
