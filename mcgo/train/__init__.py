"""The lab: datasets, the seed papers' statistics, and the training of every learned model
(``mcgo learn ...``). The engine never imports this package; what a model needs at play is
in :mod:`mcgo.models`.

* :mod:`.split`: one key per game, the same under the 8 board symmetries (duplicates), and
  the train / validation / test split by that key, so no position of a test game is ever
  trained on;
* :mod:`.dataset`: the dataset format (memory-mapped arrays of games, positions and final
  ownership) and its reader (:class:`~.dataset.Dataset`: games, positions, the 8 symmetries);
* :mod:`.extraction`, :mod:`.results`: making a dataset from SGF games (``mcgo learn
  extract``), final ownership, reading ``RE``;
* :mod:`.seedstats`: the seed papers' statistics from files of games (``mcgo learn patterns``);
* :mod:`.movemodel`, :mod:`.mm`: the move model by MM (``mcgo learn moves``), and
  :mod:`.evaluate` (``mcgo learn evaluate``);
* :mod:`.ownership_data`, :mod:`.ownership_train`, :mod:`.ownership_fit`,
  :mod:`.ownership_commands`: seed 003's DAG-RNN (JAX; ``mcgo learn ownership``);
* :mod:`.cfg_train`, :mod:`.tsumego`: seed 000's scorer on life-and-death problems;
  :mod:`.ecfg_train`: seed 002's evaluator; :mod:`.td`, :mod:`.td_go`, :mod:`.td_outcome`:
  seed 004's TD nets; :mod:`.corner_train`: seed 004's corner net;
* :mod:`.casebase_build`: ``mcgo build-casebase`` (the case base's builder);
* :mod:`.provenance`: the git commit a trained file records;
* :mod:`.commands`: ``mcgo learn ...`` (each subcommand in a light module of its own, its
  heavy parts imported when it runs: the command line is built without Numba).

Playing needs none of the training code's libraries: learned weights ship as versioned
files with their metadata and run in NumPy/Numba.
"""
