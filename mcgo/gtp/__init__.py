"""GTP, the Go Text Protocol: mcgo's engine side (``mcgo gtp``) and a controller for talking
to other engines.

The engine side is a front on the player: it reads commands and answers them, and never
chooses a move or reads a search tree itself.

- :mod:`~mcgo.gtp.protocol`: lines, ids and replies (no Numba: it answers while the engine
  loads); :mod:`~mcgo.gtp.arguments`: reading a command's words.
- :mod:`~mcgo.gtp.engine`: :class:`~mcgo.gtp.engine.Engine`, the game state, the loop, and
  the narrow door the commands use (``genmove``, ``think``, ``set_rules``...).
- :mod:`~mcgo.gtp.commands`: the one command table, gathered from a module per family:
  :mod:`~mcgo.gtp.core` (GTP 2), :mod:`~mcgo.gtp.clock` (time control),
  :mod:`~mcgo.gtp.files` (SGF records), :mod:`~mcgo.gtp.kgs`, :mod:`~mcgo.gtp.analyze`
  (Leela Zero's and KataGo's analysis), :mod:`~mcgo.gtp.katago` (KataGo's parameters and
  rules), :mod:`~mcgo.gtp.fuego` and :mod:`~mcgo.gtp.gogui`; :mod:`~mcgo.gtp.analysis_text`
  writes the analysis text they answer.
- :mod:`~mcgo.gtp.controller`: other engines as subprocesses; :mod:`~mcgo.apps.terminal`:
  ``mcgo play``.
"""
