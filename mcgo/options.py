"""Names and defaults every front end shares: ``mcgo gtp``, ``mcgo play``, ``mcgo match``,
``mcgo bench`` and the engine read them here. Plain Python, no Numba: the command line
imports it to build its ``--help`` without loading the engine.

>>> from mcgo import options
>>> options.DEFAULT_KOMI, options.PRESETS[0], "auto" in options.PLAYOUT_POLICIES
(7.0, 'strong', True)
"""

# Komi of a game nobody set one for (GTP ``komi`` and SGF ``KM`` override it). Area scoring,
# so 7 leaves a drawn game possible only with a seki's shared points.
DEFAULT_KOMI = 7.0

# Board size ``mcgo gtp`` starts with (a GTP client sends ``boardsize``), and ``mcgo play``.
DEFAULT_GTP_SIZE = 19
DEFAULT_PLAY_SIZE = 9

# Playout policies by name, in the order of their numbers in the kernels
# (:mod:`mcgo.playout.dispatch`); ``auto`` is the thesis's choice per position (9.5);
# ``learned`` samples the learned move model (:mod:`mcgo.playout.learned_policy`).
PLAYOUT_POLICIES = ("random", "pattern", "fill", "auto", "learned", "tactical")
DEFAULT_POLICY = "auto"

# Search presets (:mod:`mcgo.search.presets`), the default first.
PRESETS = ("strong", "thesis")
DEFAULT_PRESET = "strong"

# How several search threads share the work (:mod:`mcgo.search.search`).
PARALLEL_MODES = ("tree", "root")
DEFAULT_PARALLEL = "tree"

DEFAULT_RESIGN = 0.1     # resign below this win rate (0: never)
DEFAULT_MEMORY_MB = 256  # search trees
