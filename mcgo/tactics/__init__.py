"""Tactics: the kernels that read fights, shared by the playout policies, the priors and
the status code (the role of Pachi's ``tactics/``; the code is mcgo's own).

Each module holds one kind of reading, as Numba ``kernel``s on a position's arrays
(``pts``, ``info``; see :mod:`mcgo.board.kernels`). Every rule lives here once:

* :mod:`.liberties`: the liberties of a chain (:func:`~.liberties.chain_liberties`, the
  liberty of a chain in atari :func:`~.liberties.first_liberty`) and of the chain a move
  would make (:func:`~.liberties.liberties_after`); the capture of a chain in atari
  (:func:`~.liberties.capture_of`) and of one touching a chain
  (:func:`~.liberties.capture_touching`); the chains at the last move, biggest first, that
  the answers to it try (:func:`~.liberties.chains_near`);
* :mod:`.atari`: one-liberty fights: whether a move captures (:func:`~.atari.is_capture`),
  is a self-atari (:func:`~.atari.is_self_atari`), saves an own chain in atari
  (:func:`~.atari.escape_atari`), the capture-or-escape answer to the last move
  (:func:`~.atari.capture_or_escape`);
* :mod:`.eyes`: the true-eye test (:func:`~.eyes.is_true_eye`);
* :mod:`.geometry`: where a point lies: its line (:func:`~.geometry.edge_distance`), the
  free-area rule (:func:`~.geometry.in_empty_area`, the good and low lines) and contact
  (:func:`~.geometry.is_next_to`); the board's one distance-limited breadth-first walk
  (:func:`~.geometry.walk`).

* :mod:`.ladder`: ladders read move by move on copies of the position kept in a per-thread
  ladder space: whether a chain in atari dies running (:func:`~.ladder.ladder_captures`),
  whether an atari starts a ladder that works (:func:`~.ladder.atari_starts_ladder`), and
  the priors' atari on the last move's chain (:func:`~.ladder.ladder_attack`).

>>> import mcgo
>>> from mcgo.board import kernels as K
>>> from mcgo.tactics import atari, liberties
>>> board = mcgo.Board(9)
>>> for move in ["E5", "D5", "A1", "F5", "B1", "E6"]:
...     board.play(move)
>>> head = board.pts[K.HEAD, board.point("E5")]          # black E5 is in atari
>>> mcgo.to_gtp(liberties.first_liberty(board.pts, 11, head), 9)
'E4'
>>> bool(atari.is_capture(board.pts, 11, board.point("E4"), mcgo.WHITE))
True
"""
