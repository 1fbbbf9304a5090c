"""Names and defaults every front end shares: ``mcgo gtp``, ``mcgo play``, ``mcgo match``,
``mcgo bench`` and the engine read them here. Plain Python, no Numba: the command line
imports it to build its ``--help`` without loading the engine.

>>> from mcgo import options
>>> options.DEFAULT_KOMI, options.PRESETS[0], "auto" in options.PLAYOUT_POLICIES
(7.0, 'strong', True)
"""

import math

# Komi of a game nobody set one for (GTP ``komi`` and SGF ``KM`` override it). Area scoring,
# so 7 leaves a drawn game possible only with a seki's shared points.
DEFAULT_KOMI = 7.0

# Board size ``mcgo gtp`` starts with (a GTP client sends ``boardsize``), and ``mcgo play``.
DEFAULT_GTP_SIZE = 19
DEFAULT_PLAY_SIZE = 9

# Playout policies by name, in the order of their numbers in the kernels
# (:mod:`mcgo.playout.dispatch`); ``auto`` is the thesis's choice per position (9.5);
# ``learned`` samples the learned move model (:mod:`mcgo.playout.learned_policy`); ``lgrf``
# plays the last good replies of earlier simulations (:mod:`mcgo.playout.lgrf_policy`).
PLAYOUT_POLICIES = ("random", "pattern", "fill", "auto", "learned", "tactical", "lgrf",
                    "guided", "pattern2", "ko", "capture")
# The policies whose playouts read the learned move model (the shipped one unless given).
MODEL_PLAYOUT_POLICIES = ("learned", "guided")
DEFAULT_POLICY = "auto"

# Search presets (:mod:`mcgo.search.presets`), the default first.
PRESETS = ("strong", "thesis")
DEFAULT_PRESET = "strong"

# How several search threads share the work (:mod:`mcgo.search.search`).
PARALLEL_MODES = ("tree", "root")
DEFAULT_PARALLEL = "tree"

DEFAULT_RESIGN = 0.1     # resign below this win rate (0: never)

# Rule sets by the names GTP front ends send (KGS's ``kgs-rules``, KataGo's ``kata-set-rules``,
# Fuego's ``go_rules``), each with its scoring: the board's ``"area"`` or ``"territory"``.
# Only the scoring differs in mcgo's play: every set is played with positional superko and
# without suicide (on KGS, Japanese rules' repetitions are rare and end in a cleanup).
RULES_SCORING = {"chinese": "area", "aga": "area", "new_zealand": "area",
                 "new-zealand": "area", "tromp-taylor": "area", "cgos": "area", "kgs": "area",
                 "stone-scoring": "area", "japanese": "territory", "korean": "territory"}
DEFAULT_RULES = "chinese"
# Rules under which the game ends at two passes and every stone left on the board counts as
# alive (CGOS): a pass that wins on that count ends the game won. Under the others the dead
# stones come off first, and a stone of ours left dead in the opponent's area loses its point.
TROMP_TAYLOR_RULES = ("tromp-taylor", "cgos")


def counts_every_stone(name):
    """True when the rule set ``name`` (case ignored) scores the board as it stands at two
    passes, every stone alive (Tromp-Taylor, as CGOS does).

    >>> counts_every_stone("CGOS"), counts_every_stone("chinese")
    (True, False)
    """
    return name.lower() in TROMP_TAYLOR_RULES


def rules_scoring(name):
    """The scoring of the rule set ``name`` (case ignored); ValueError naming the known
    sets for any other.

    >>> rules_scoring("Japanese"), rules_scoring("chinese")
    ('territory', 'area')
    """
    try:
        return RULES_SCORING[name.lower()]
    except KeyError:
        raise ValueError(f"unknown rules {name!r} (known: {', '.join(RULES_SCORING)})") from None

# ``mcgo solve`` (:mod:`mcgo.apps.solve`): its solvers, the search's simulations, and the weight of
# the CFG scorer's value (0-1) as a bonus on the search's first moves (a prior for local fights).
# The weight was chosen on the validation collections of the tsumego problems, 10,000
# simulations, every 15th problem: first moves 12% without, 34% at 0.3, 45% at 1.0, 48% at 3.0
# (the scorer alone 49%); 1.0 keeps the search's say where it reads a fight.
SOLVE_METHODS = ("search", "cfg")
SOLVE_PLAYOUTS = 10000
SOLVE_SCORER_PRIOR = 1.0
SEED_MODULUS = 1 << 64   # any integer is a seed: reduced modulo 2^64 (GTP set_random_seed, --seed)
DEFAULT_MEMORY_MB = 256  # search trees


# The settings a user may change by name (``mcgo gtp --set NAME=VALUE``; ``--list-settings``),
# with their type and meaning. The rest of a preset (final_by, reuse_tree) is its identity.
NAMED_SETTINGS = {
    "exploration": (float, "C of the UCT term C * sqrt(ln(parent visits) / visits)"),
    "rave": (int, "1: blend the AMAF (RAVE) values into each move's value, 0: no"),
    "rave_equiv": (float, "visits at which a move's own and its AMAF value weigh alike"),
    "priors": (int, "1: virtual wins and losses from the playout rules at expansion, 0: no"),
    "expand_after": (int, "a leaf gets its children once it has this many visits"),
    "skip_eyes": (int, "1: never search the filling of one's own true eye, 0: search it"),
    "first_play": (float, "value of an unvisited move without priors"),
    "virtual_loss": (float, "visits without wins put on a path a thread is playing (tree parallel)"),
    "model_prior": (float, "virtual visits of the learned move model's prior (with --model)"),
    "model_depth": (int, "the model's prior only on moves this many plies from the root or "
                         "fewer (0: at every depth); deeper nodes get the playout rules alone"),
    "model_prior_shape": (int, "0: model_prior visits, won in proportion to P(move) / P(best); "
                               "1: model_prior * sqrt(P(move)) visits, all won (Pachi's form)"),
    "widen": (int, "progressive widening: a node's children open this many at first, best prior "
                   "first (0: all at once)"),
    "widen_visits": (float, "... one more child once the node has this many visits"),
    "widen_factor": (float, "... and one more each time its visits grow by this factor (> 1)"),
    "score_weight": (float, "share of a playout's value from its score, the rest from who won "
                            "(Fuego's score modification; 0: win or loss only, at most 1)"),
    "vital_prior": (float, "virtual wins of the vital point of a small eyespace, the other "
                           "side's stones inside or not, and no losses for a nakade throw-in "
                           "(0: neither; needs priors=1)"),
    "bonus_visits": (float, "0: the root bonus (case base, --cfg-prior) is added to a root "
                            "move's value, as the thesis does; V > 0: a bonus b becomes V * b "
                            "virtual visits, all won, which the search's own visits outweigh"),
    "corner_prior": (float, "virtual visits, all won, of the 4-4 point of an empty corner at the "
                            "root on 15x15 and up; the other corner points in proportion to "
                            "the professionals' choice of them (0: none)"),
}
SETTING_MAXIMA = {"score_weight": 1.0}    # a share


def for_size(value, size):
    """A setting that may depend on the board size: ``value`` itself, or its entry for
    ``size`` when it is a dict by size (0 where it has none).

    >>> for_size({19: 10.0}, 19), for_size({19: 10.0}, 9), for_size(5.0, 9)
    (10.0, 0.0, 5.0)
    """
    return value.get(size, 0.0) if isinstance(value, dict) else value


def normalize_seed(seed):
    """Any integer as the seed the kernels take: reduced modulo 2^64 and held as a signed
    64-bit integer (the same bits; the generator reads them as unsigned).

    >>> normalize_seed(2**64 + 5), normalize_seed(2**63), normalize_seed(-1)
    (5, -9223372036854775808, -1)
    """
    value = int(seed) % SEED_MODULUS
    return value - SEED_MODULUS if value >= SEED_MODULUS // 2 else value


def parse_settings(texts):
    """``{name: value}`` from ``["NAME=VALUE", ...]``; ValueError saying what is wrong.

    >>> parse_settings(["rave_equiv=300", "expand_after=3"])
    {'rave_equiv': 300.0, 'expand_after': 3}
    """
    out = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep:
            raise ValueError(f"{text!r}: give NAME=VALUE")
        if name not in NAMED_SETTINGS:
            raise ValueError(f"unknown setting {name!r}; choose from {', '.join(NAMED_SETTINGS)}")
        kind, _ = NAMED_SETTINGS[name]
        try:
            number = kind(value)
        except ValueError:
            raise ValueError(f"{name}={value}: not a{'n integer' if kind is int else ' number'}") from None
        if not math.isfinite(number) or number < 0:
            raise ValueError(f"{name}={value}: must be a finite number >= 0")
        if number > SETTING_MAXIMA.get(name, math.inf):
            raise ValueError(f"{name}={value}: must be at most {SETTING_MAXIMA[name]:g}")
        out[name] = number
    return out
