"""The game in a terminal: a text client for screen readers, SSH and scripts (``mor-text``, ``mor --text``).

- :mod:`.terminal`: the command line, reading lines and writing them (prompt_toolkit on a terminal,
  plain ``input()`` otherwise);
- :mod:`.client`: the menu (the title page's choices, numbered) and the game once open;
- :mod:`.play`: a game in typed commands: questions, actions said before Enter sends them,
  others' moves as lines;
- :mod:`.describe`: the table in words.

Like the pygame scenes, it uses :mod:`game.client` and never :mod:`game.rules` or :mod:`game.netcode`.
"""
