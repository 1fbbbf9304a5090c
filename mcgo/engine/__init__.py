"""The players: how mcgo chooses a move in a game, above the search and the judge.

* :mod:`.player`: :class:`~.player.Player`, the default: limits, case-base advice, the
  search, pass and resign;
* :mod:`.playout_player`, :mod:`.cfg_player`, :mod:`.td_player`: the alternative players
  (``mcgo gtp --player``), each with ``plays(board)`` and ``choose(board, move_filter)``;
* :mod:`.timecontrol`: how long to think under GTP time settings.
"""
