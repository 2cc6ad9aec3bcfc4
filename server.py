"""Masters of Renaissance server: ``python server.py --help``.

Hosts many games at once over TCP with the reference protocol (newline-delimited JSON). Every
accepted request is written to the data directory before it is answered, and unfinished games
are restored when the server starts again. The installed game runs the same code as
``mor-server`` (:mod:`game.netcode.cli`).
"""
import sys

from game.netcode.cli import main

if __name__ == "__main__":
    sys.exit(main())
