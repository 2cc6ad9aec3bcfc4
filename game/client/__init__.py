"""The client's game logic, for every front end: pure Python, no pygame, no drawing.

- :mod:`.session`: a match as a player sees it (:class:`~.session.GameSession`, the front door),
  made of parts: :mod:`.lobby` (the waiting room), :mod:`.game_log` (the log, chat and history
  kept once), :mod:`.undo` (the undo rule), :mod:`.queries` (the rules asked), :mod:`.commands`
  (the requests sent); :mod:`.notices`: what it tells the front ends that subscribe;
- :mod:`.view_model`: the table, built from the match's updates;
- :mod:`.narration`: the log's lines, told from the updates;
- :mod:`.plans`: a market take, a purchase, productions, arranged before they are sent;
- :mod:`.refusals`: a refused request in the player's words;
- :mod:`.hint`: what the hard bot would do now, as a plan;
- :mod:`.words`: names joined in a sentence, a leader in words, the session's sentences;
- :mod:`.outcome`: the end of a game, scored and in words; :mod:`.greyed`: why a button is greyed;
- :mod:`.replay`: stepping through a finished game, the finished games of this machine;
- :mod:`.tables`: a server's open tables, and a seat at one, at a new one or in the Quick game;
- :mod:`.address`: a server's address as typed, a failed connection in words;
- :mod:`.flow`: the app's flow (new, continue, host, join, rejoin, the seats kept at servers),
  each step asking before it replaces anything.

The pygame scenes (:mod:`game.scenes`) draw from it and send requests through it.
"""
