"""Names and defaults every front end shares: ``mcgo gtp``, ``mcgo play``, ``mcgo match``,
``mcgo bench`` and the engine read them here. Plain Python, no Numba: the command line
imports it to build its ``--help`` without loading the engine.

>>> from mcgo import options
>>> options.DEFAULT_KOMI, options.PRESETS[0], "auto" in options.PLAYOUT_POLICIES
(7.0, 'strong', True)
"""

import math
from dataclasses import dataclass
from typing import Optional

# Komi of a game nobody set one for (GTP ``komi`` and SGF ``KM`` override it). Area scoring,
# so 7 leaves a drawn game possible only with a seki's shared points.
DEFAULT_KOMI = 7.0

# Board size ``mcgo gtp`` starts with (a GTP client sends ``boardsize``), and ``mcgo play``.
DEFAULT_GTP_SIZE = 19
DEFAULT_PLAY_SIZE = 9

# Playout policies by name, in the order of their numbers in the kernels
# (:mod:`mcgo.playout.dispatch`): the thesis's four (``auto`` is its choice per position, 9.5).
PLAYOUT_POLICIES = ("random", "pattern", "fill", "auto")
DEFAULT_POLICY = "auto"

# Search presets (:mod:`mcgo.search.presets`), the default first.
PRESETS = ("strong", "thesis")
DEFAULT_PRESET = "strong"

# How several search threads share the work (:mod:`mcgo.search.search`).
PARALLEL_MODES = ("tree", "root")
DEFAULT_PARALLEL = "tree"

DEFAULT_RESIGN = 0.1     # resign below this win rate (0: never)
FULL_STRENGTH_LEVEL = 11  # --level 1 (beginner) to this, the search (mcgo.engine.levels)
LEVEL_SIMULATIONS = {8: 100, 9: 300, 10: 1000}   # the search levels: a move's simulations at most

# Rule sets by the names GTP front ends send (KGS's ``kgs-rules``, KataGo's ``kata-set-rules``,
# Fuego's ``go_rules``), each with its scoring: the board's ``"area"`` or ``"territory"``.
# Only the scoring differs in mcgo's play: every set is played with positional superko and
# without suicide (on KGS, Japanese rules' repetitions are rare and end in a cleanup).
RULES_SCORING = {"chinese": "area", "aga": "area", "new_zealand": "area",
                 "new-zealand": "area", "tromp-taylor": "area", "cgos": "area", "kgs": "area",
                 "stone-scoring": "area", "japanese": "territory", "korean": "territory"}
DEFAULT_RULES = "chinese"
# White's compensation for Black's handicap stones under area scoring, by rule set, as KataGo
# names it (its whiteHandicapBonus): "N" points for N stones (Chinese rules, and OGS's and
# KGS's Chinese), "N-1" (AGA), "0" (the rest: territory scoring needs none, since a handicap
# stone is not a point of territory; Tromp-Taylor, CGOS and New Zealand rules give none).
HANDICAP_BONUS = {"chinese": "N", "kgs": "N", "aga": "N-1"}
HANDICAP_BONUS_RULES = ("0", "N", "N-1")
# Other spellings of rule sets (KataGo's names, SGF RU texts) and the set mcgo plays for them.
RULE_ALIASES = {"chinese-ogs": "chinese", "chinese-kgs": "chinese", "bga": "aga",
                "aga-button": "aga", "nz": "new-zealand", "tromp-taylor": "tromp-taylor"}
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


def rules_name(text):
    """The rule set mcgo plays for ``text`` (a GTP, KataGo or SGF ``RU`` name, any case,
    spaces or underscores for hyphens), or None when it knows none by that name.

    >>> rules_name("New Zealand"), rules_name("NZ"), rules_name("Chinese_OGS"), rules_name("Ing")
    ('new-zealand', 'new-zealand', 'chinese', None)
    """
    name = text.strip().lower().replace(" ", "-").replace("_", "-")
    name = RULE_ALIASES.get(name, name)
    return name if name in RULES_SCORING else None


def handicap_bonus_rule(name):
    """White's handicap compensation under the rule set ``name`` (case ignored): ``"0"``,
    ``"N"`` or ``"N-1"`` (:data:`HANDICAP_BONUS`); ValueError for unknown rules.

    >>> handicap_bonus_rule("Chinese"), handicap_bonus_rule("aga"), handicap_bonus_rule("japanese")
    ('N', 'N-1', '0')
    """
    rules_scoring(name)
    return HANDICAP_BONUS.get(name.lower(), "0")


def handicap_bonus(rule, stones):
    """The points White gets for ``stones`` handicap stones under the bonus ``rule``
    (``"0"``, ``"N"``, ``"N-1"``); fewer than two stones is no handicap.

    >>> handicap_bonus("N", 9), handicap_bonus("N-1", 9), handicap_bonus("N", 1), handicap_bonus("0", 4)
    (9, 8, 0, 0)
    """
    if rule not in HANDICAP_BONUS_RULES:
        raise ValueError(f"unknown handicap bonus {rule!r} (known: {', '.join(HANDICAP_BONUS_RULES)})")
    if stones < 2 or rule == "0":
        return 0
    return stones if rule == "N" else stones - 1


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
POLICY_PRIOR_VISITS = 30.0  # the policy net's virtual visits on each root move (its A/B's)


@dataclass(frozen=True)
class Setting:
    """A setting of the search a user may change by name (``mcgo gtp --set NAME=VALUE``,
    ``--list-settings``, GTP ``kata-set-param``): the one place it is declared.

    ``kind`` is ``int`` or ``float``; a value is a finite number, at least 0.
    ``strong`` and ``thesis`` are its values in the two presets (None: chosen elsewhere, as
    the model's prior is by the model). ``slot``: its place in the parameter vector the
    search kernels read (:mod:`mcgo.search.presets`), or None for a setting the search
    reads in Python."""
    name: str
    kind: type
    help: str
    strong: Optional[float]
    thesis: Optional[float]
    slot: Optional[int] = None

    def value(self, preset):
        """The value in the preset named ``preset`` (None: chosen elsewhere)."""
        return getattr(self, preset)

    def parse(self, text):
        """The value of ``text`` (a string or a number); ValueError saying what is wrong.

        >>> NAMED_SETTINGS["expand_after"].parse("3"), NAMED_SETTINGS["rave_equiv"].parse(300)
        (3, 300.0)
        """
        try:
            number = self.kind(text)
        except ValueError:
            kind = "an integer" if self.kind is int else "a number"
            raise ValueError(f"{self.name}={text}: not {kind}") from None
        if not math.isfinite(number) or number < 0:
            raise ValueError(f"{self.name}={text}: must be a finite number >= 0")
        return number


# eq. 8.1: sqrt(ln(parent plays) / (5 * plays)).
THESIS_EXPLORATION = math.sqrt(1.0 / 5.0)
# Beside RAVE and the priors a small UCT term still matters: without it a move whose AMAF
# value the playouts spoil is never tried (Fuego's 9x9 suites: 315 -> 327 of 499 at 0.05);
# 0.1 found as many but lost in games (benchmarks/journal/, "A small exploration term").
STRONG_EXPLORATION = 0.05

# The named settings, in the order --list-settings and kata-list-params show them. The rest
# of a preset (final_by, reuse_tree) is its identity (:mod:`mcgo.search.presets`).
NAMED_SETTINGS = {s.name: s for s in (
    Setting("exploration", float, "C of the UCT term C * sqrt(ln(parent visits) / visits)",
            strong=STRONG_EXPLORATION, thesis=THESIS_EXPLORATION, slot=0),
    Setting("rave", int, "1: blend the AMAF (RAVE) values into each move's value, 0: no",
            strong=1, thesis=0, slot=1),
    Setting("rave_equiv", float, "visits at which a move's own and its AMAF value weigh alike",
            strong=1000.0, thesis=0.0, slot=2),
    Setting("priors", int, "1: virtual wins and losses from the playout rules at expansion, 0: no",
            strong=1, thesis=0, slot=3),
    Setting("expand_after", int, "a leaf gets its children once it has this many visits",
            strong=2, thesis=1, slot=4),
    Setting("skip_eyes", int, "1: never search the filling of one's own true eye, 0: search it",
            strong=1, thesis=0, slot=7),
    Setting("first_play", float, "value of an unvisited move without priors",
            strong=1.0, thesis=1e9, slot=8),
    Setting("virtual_loss", float,
            "visits without wins put on a path a thread is playing (tree parallel)",
            strong=1.0, thesis=1.0, slot=9),
    Setting("model_prior", float, "virtual visits of the learned move model's prior (with --model)",
            strong=None, thesis=None, slot=10),
    Setting("model_depth", int, "the model's prior only on moves this many plies from the root "
                                "or fewer (0: at every depth); deeper nodes get the playout "
                                "rules alone",
            strong=4, thesis=0, slot=11),
    Setting("model_prior_shape", int, "0: model_prior visits, won in proportion to P(move) / "
                                      "P(best); 1: model_prior * sqrt(P(move)) visits, all won "
                                      "(Pachi's form)",
            strong=0, thesis=0, slot=12),
    Setting("policy_net_after", int, "with the policy net, a node below the root gets its "
                                     "prior too once it has this many visits (0: the root "
                                     "alone; the shipped 9x9 net: 0 unless set)",
            strong=50, thesis=0),
    Setting("value_prior", float, "with a --value-net or a policy net that has value heads, "
                                  "virtual visits of its value on each node below the root "
                                  "that gets the policy net's prior (policy_net_after; 0: "
                                  "none)",
            strong=0.0, thesis=0.0),
    Setting("dynamic_komi", int, "1: in a handicap game the search counts White extra komi "
                                 "that fades as the game goes (Pachi's linear dynamic komi; "
                                 "mcgo.engine.dynkomi), 0: the real komi (giving nine "
                                 "stones to GNU Go it showed no gain: benchmarks/RESULTS.md)",
            strong=0, thesis=0),
    Setting("opening_rave_equiv", float, "rave_equiv for the first OPENING_RAVE_MOVES moves of a "
                                         "game on 19x19 (0: rave_equiv throughout)",
            strong=50.0, thesis=0.0),
)}


def for_size(value, size):
    """A setting that may depend on the board size: ``value`` itself, or its entry for
    ``size`` when it is a dict by size (0 where it has none).

    >>> for_size({19: 10.0}, 19), for_size({19: 10.0}, 9), for_size(5.0, 9)
    (10.0, 0.0, 5.0)
    """
    return value.get(size, 0.0) if isinstance(value, dict) else value


SEED_MIX = 0x9E3779B97F4A7C15   # 2^64 / the golden ratio: splitmix64's step
# The parts a seed is derived for, each mixed with a salt of its own, so that game 1's first
# thread and game 0's second thread (keys 1 of different kinds) draw different numbers.
SEED_PARTS = {"game": 1, "thread": 2, "position": 3, "worker": 4}


def derive_seed(seed, part, key):
    """The seed of one part of a run (``part``: a ``game`` of a session, a ``thread`` of a
    search, a ``position`` of a review or of self-play, a ``worker`` of the analysis engine,
    ``key`` its number) from the run's ``seed``: the one derivation of every seed mcgo
    draws. Key 0 keeps ``seed`` itself, so a lone thread's first game draws what the seed
    alone draws; any other key is mixed in by splitmix64's finalizer with the part's salt,
    so neighbouring parts draw unrelated numbers.

    >>> derive_seed(7, "game", 0), derive_seed(7, "game", 1) != derive_seed(7, "thread", 1)
    (7, True)
    >>> len({derive_seed(derive_seed(1, "game", g), "thread", t) for g in range(20) for t in range(20)})
    400
    """
    value = int(seed) % SEED_MODULUS
    if key:
        z = (value + SEED_MIX * (int(key) * len(SEED_PARTS) + SEED_PARTS[part])) % SEED_MODULUS
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % SEED_MODULUS
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % SEED_MODULUS
        value = z ^ (z >> 31)
    return normalize_seed(value)


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
        if not sep:
            raise ValueError(f"{text!r}: give NAME=VALUE")
        out.update(check_settings({name.strip(): value}))
    return out


def check_settings(values):
    """``values`` (``{name: value}``, a value a number or its text) as the named settings'
    values; ValueError saying what is wrong.

    >>> check_settings({"priors": "0", "exploration": 0.1})
    {'priors': 0, 'exploration': 0.1}
    """
    out = {}
    for name, value in values.items():
        if name not in NAMED_SETTINGS:
            raise ValueError(f"unknown setting {name!r}; choose from {', '.join(NAMED_SETTINGS)}")
        out[name] = NAMED_SETTINGS[name].parse(value)
    return out
