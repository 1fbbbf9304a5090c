"""Learning from game records: datasets, the seed papers' statistics, and the move model.

* :mod:`.split`: one key per game, the same under the 8 board symmetries (duplicates), and
  the train / validation / test split by that key, so no position of a test game is ever
  trained on;
* :mod:`.dataset`: the dataset format (memory-mapped arrays of games, positions and final
  ownership) and its reader (:class:`~.dataset.Dataset`: games, positions, the 8 symmetries);
* :mod:`.extraction`, :mod:`.results`: making a dataset from SGF games (``mcgo learn
  extract``), final ownership, reading ``RE``;
* :mod:`.patterns3`, :mod:`.seedstats`: located 3x3 patterns and the seed papers' statistics
  (seed 003's propensity, seed 002's stability and impact; ``mcgo learn patterns``);
* :mod:`.commands`: ``mcgo learn ...`` (each subcommand in a light module of its own:
  :mod:`.extract`, :mod:`.patterns_command`).

Playing needs none of the training code's libraries: learned weights ship as versioned
files with their metadata and run in NumPy/Numba.
"""
