"""Learning from game records: datasets, the seed papers' statistics, and the move model.

* :mod:`.split`: one key per game, the same under the 8 board symmetries (duplicates), and
  the train / validation / test split by that key, so no position of a test game is ever
  trained on;
* :mod:`.commands`: ``mcgo learn ...``.

Playing needs none of the training code's libraries: learned weights ship as versioned
files with their metadata and run in NumPy/Numba.
"""
