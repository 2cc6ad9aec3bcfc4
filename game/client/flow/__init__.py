"""The app's flow, for every front end: what the title offers and what each step asks before it
replaces anything (pure Python, no pygame, no terminal).

- :mod:`.questions`: a :class:`~.questions.Question` and its answers, which each front end puts
  to the player its own way (the window as a card over the page, the text client as a numbered
  list);
- :mod:`.local`: a new solo game or a new game against the computer over a saved one;
- :mod:`.seats`: the seats kept at servers (every one offered, a list when there are several),
  a seat asked at a server where one is kept, and why a seat is where it is;
- :mod:`.hosting`: hosting a table on this computer, over a hosted game kept unfinished, and
  sitting at it;
- :mod:`.presence`: who is at the table, in words: a host who stopped hosting on purpose, a
  player away and for how long.

The window (:mod:`game.scenes`) and the text client (:mod:`game.text`) reach the matches, the
server and the files of kept games through here, never through :mod:`game.match` themselves.
"""
