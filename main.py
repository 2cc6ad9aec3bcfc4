"""Masters of Renaissance: the game client.

Run ``python main.py`` to open the window at the title page, or
``python main.py --screenshot out.png`` to render the title page to a PNG and exit
(no display needed). ``--size WxH`` sets the window size (the saved setting otherwise).
The installed game runs the same code as ``mor`` (:mod:`game.launcher`).
"""
import sys

from game.launcher import main

if __name__ == "__main__":
    sys.exit(main())
