"""One configuration of the engine: what ``mcgo gtp`` and ``mcgo play`` were told (options,
presets, ``--set``) and what GTP's ``kata-set-param`` changes later, validated here once.

:class:`SearchConfig` is everything a :class:`mcgo.search.Search` is built from;
:class:`EngineConfig` adds the game (size, komi, rules), the limits, the judge and the
advice, and builds the :class:`mcgo.gtp.engine.Engine`. Both are frozen: a change is a new
configuration (:meth:`SearchConfig.replace`), checked as the first was. Plain Python, no
Numba (the loaded models they may hold are whatever the caller loaded).

>>> config = EngineConfig.of(size=9, playouts=500, settings={"rave_equiv": "300"})
>>> config.search.settings["rave_equiv"], config.search.threads
(300.0, 1)
>>> config.replace(seed=5, komi=6.5).search.seed
5
>>> EngineConfig(size=1)
Traceback (most recent call last):
...
mcgo.config.ConfigError: board size 1: must be 2 to 25
>>> SearchConfig(parallel="leaf")
Traceback (most recent call last):
...
mcgo.config.ConfigError: unknown parallel mode 'leaf'; choose from tree, root
"""

import dataclasses
import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Optional

from . import options
from .board.coords import MAX_SIZE, MIN_SIZE

MAX_THREADS = 256           # GTP numSearchThreads (the command line allows 64)


class ConfigError(ValueError):
    """A value a configuration cannot take: ``field`` names the field (``threads``,
    ``settings`` for a named setting), the message says what was wrong, so that a front
    can name its own option for it (:class:`mcgo.engine.recipe.RecipeError`).

    >>> try:
    ...     SearchConfig(threads=0)
    ... except ConfigError as e:
    ...     print(e.field, "|", e)
    threads | threads 0: must be 1 to 256
    """

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


def _frozen_settings(values):
    """The named settings ``values`` checked (:func:`mcgo.options.check_settings`), read-only."""
    try:
        return MappingProxyType(options.check_settings(dict(values or {})))
    except ValueError as e:
        raise ConfigError("settings", str(e)) from None


def _check_prior(name, prior):
    """A root prior is None or ``(model, visits)``, visits a number >= 0 or a dict by size."""
    if prior is None:
        return
    if not isinstance(prior, tuple) or len(prior) != 2 or prior[0] is None:
        raise ConfigError(name, f"{name}: give (model, virtual visits), not {prior!r}")
    visits = prior[1].values() if isinstance(prior[1], dict) else [prior[1]]
    if any(not math.isfinite(v) or v < 0 for v in visits):
        raise ConfigError(name, f"{name}: virtual visits must be finite numbers >= 0")


@dataclass(frozen=True)
class SearchConfig:
    """What a search is built from: the preset and the named settings changed from it, the
    playout policy, threads, seed, memory, the learned move model of the tree's priors
    (a :class:`mcgo.models.movemodel.MoveModel` or None) and the root evaluators' priors
    (``ownership_prior``: seed 003's network and its virtual visits, a number or a dict by
    board size; ``evaluator_prior``: seed 002's ECFG evaluator and its visits;
    ``policy_prior``: the policy net of ``mcgo learn policy-net`` and its visits; or None).

    ``size_settings``: named settings by board size that the recipe chose with a model or
    net measured with them (``--model auto``'s prior settings, the shipped 9x9 net's
    ``policy_net_after``): a ``--set`` (``settings``) wins over them, they win over the
    preset. ``model_sizes``: the board sizes on which the move model gives the tree's
    priors (None: every size). The models themselves carry no search settings.
    ``value_net``: a net with value heads (``mcgo learn value-net``) whose value of
    each node the policy net gives its prior to below the root is ``value_prior`` more
    virtual visits of the node (on its board size; None: the policy net's own heads, if it has them)."""
    preset: str = options.DEFAULT_PRESET
    policy: str = options.DEFAULT_POLICY
    threads: int = 1
    seed: int = 0
    max_memory_mb: float = options.DEFAULT_MEMORY_MB
    parallel: str = options.DEFAULT_PARALLEL
    model: Any = None
    settings: Mapping[str, float] = field(default_factory=dict)
    ownership_prior: Optional[tuple] = None
    evaluator_prior: Optional[tuple] = None
    policy_prior: Optional[tuple] = None
    size_settings: Mapping[int, Mapping[str, float]] = field(default_factory=dict)
    model_sizes: Optional[tuple] = None
    value_net: Any = None

    def __post_init__(self):
        if self.preset not in options.PRESETS:
            raise ConfigError("preset", f"unknown preset {self.preset!r}; choose from "
                             f"{', '.join(options.PRESETS)}")
        if self.policy not in options.PLAYOUT_POLICIES:
            raise ConfigError("policy", f"unknown playout policy {self.policy!r}; choose from "
                             f"{', '.join(options.PLAYOUT_POLICIES)}")
        if self.parallel not in options.PARALLEL_MODES:
            raise ConfigError("parallel", f"unknown parallel mode {self.parallel!r}; choose from "
                             f"{', '.join(options.PARALLEL_MODES)}")
        if int(self.threads) != self.threads or not 1 <= self.threads <= MAX_THREADS:
            raise ConfigError("threads", f"threads {self.threads}: must be 1 to {MAX_THREADS}")
        if not self.max_memory_mb > 0:
            raise ConfigError("max_memory_mb", f"max_memory_mb {self.max_memory_mb}: must be more than 0")
        _check_prior("ownership_prior", self.ownership_prior)
        _check_prior("evaluator_prior", self.evaluator_prior)
        _check_prior("policy_prior", self.policy_prior)
        object.__setattr__(self, "threads", int(self.threads))
        object.__setattr__(self, "seed", options.normalize_seed(self.seed))
        object.__setattr__(self, "settings", _frozen_settings(self.settings))
        object.__setattr__(self, "size_settings", MappingProxyType(
            {int(size): _frozen_settings(values) for size, values in
             dict(self.size_settings or {}).items()}))
        if self.model_sizes is not None:
            object.__setattr__(self, "model_sizes", tuple(sorted(int(s) for s in self.model_sizes)))

    def size_setting(self, size, name, default=None):
        """The named setting ``name`` on a board of ``size``: a ``--set`` value, else the
        one chosen for the size (:attr:`size_settings`), else ``default``."""
        if name in self.settings:
            return self.settings[name]
        return self.size_settings.get(size, {}).get(name, default)

    def replace(self, **changes):
        """A copy with ``changes`` (fields; ``settings`` given are added to the current
        ones), checked again."""
        if "settings" in changes:
            changes["settings"] = {**self.settings, **changes["settings"]}
        return dataclasses.replace(self, **changes)

    @classmethod
    def of(cls, config=None, **fields):
        """``config``, or a configuration of ``fields``, where a named setting may be given
        by its name (``SearchConfig.of(seed=1, rave=0)``)."""
        if config is not None:
            if fields:
                raise ValueError("give a configuration or its fields, not both")
            return config
        names = {f.name for f in dataclasses.fields(cls)}
        settings = dict(fields.pop("settings", None) or {})
        for name in [n for n in fields if n not in names]:
            if name not in options.NAMED_SETTINGS:
                raise ConfigError("settings", f"unknown search option {name!r}")
            settings[name] = fields.pop(name)
        return cls(settings=settings, **fields)


SEARCH_FIELDS = tuple(f.name for f in dataclasses.fields(SearchConfig))


@dataclass(frozen=True)
class EngineConfig:
    """What an engine is built from: the game it starts with (``size``, ``komi``,
    ``rules``), the limits of a move (``playouts``, ``seconds``; neither: 1 s), resigning,
    pondering, the search (:attr:`search`, a :class:`SearchConfig`), the end-of-game judge
    (``ownership_net``: seed 003's network for the chains the playouts leave unsure;
    ``corner_net``: seed 004's corner net; ``status_search``: simulations of a judging
    search, 0: playouts) and the advice (``opening_advisor``: the case base; ``move_scorer``
    with ``cfg_prior``: seed 000's scorer as a root bonus; ``move_player``: a player that
    chooses without search; ``playout_player``: the playout policy chooses, as Fuego's
    ``search_mode playout_policy``; ``level``: below :data:`mcgo.options.FULL_STRENGTH_LEVEL`,
    a weaker player's choice, :mod:`mcgo.engine.levels`).

    :meth:`of` takes the search's fields beside the engine's (``EngineConfig.of(size=9,
    seed=1)``), :meth:`replace` changes either kind: the search's configuration is held,
    not copied."""
    size: int = options.DEFAULT_GTP_SIZE
    komi: float = options.DEFAULT_KOMI
    rules: str = options.DEFAULT_RULES
    playouts: Optional[int] = None
    seconds: Optional[float] = None
    resign: float = options.DEFAULT_RESIGN
    ponder: bool = False
    search: SearchConfig = field(default_factory=SearchConfig)
    ownership_net: Any = None
    corner_net: Any = None
    status_search: int = 0
    opening_advisor: Any = None
    move_scorer: Any = None
    cfg_prior: float = 0.0
    move_player: Any = None
    playout_player: bool = False
    level: int = options.FULL_STRENGTH_LEVEL

    @property
    def move_playouts(self):
        """A move's simulations at most: ``playouts`` capped by a search level's budget
        (:data:`mcgo.options.LEVEL_SIMULATIONS`); None where only the clock limits a move.

        >>> EngineConfig(level=8).move_playouts, EngineConfig(playouts=50, level=8).move_playouts
        (100, 50)
        """
        cap = options.LEVEL_SIMULATIONS.get(self.level)
        if cap is None or self.playouts is None:
            return self.playouts if cap is None else cap
        return min(self.playouts, cap)

    def __post_init__(self):
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ConfigError("size", f"board size {self.size}: must be {MIN_SIZE} to {MAX_SIZE}")
        if not math.isfinite(self.komi):
            raise ConfigError("komi", f"komi {self.komi}: must be a finite number")
        try:
            options.rules_scoring(self.rules)
        except ValueError as e:
            raise ConfigError("rules", str(e)) from None
        if self.playouts is not None and self.playouts < 1:
            raise ConfigError("playouts", f"playouts {self.playouts}: must be at least 1")
        if self.seconds is not None and not self.seconds > 0:
            raise ConfigError("seconds", f"seconds {self.seconds}: must be more than 0")
        if not 0 <= self.resign <= 1:
            raise ConfigError("resign", f"resign {self.resign}: must be a win rate, 0 to 1")
        if self.status_search < 0:
            raise ConfigError("status_search", f"status_search {self.status_search}: must be at least 0")
        if not self.cfg_prior >= 0:
            raise ConfigError("cfg_prior", f"cfg_prior {self.cfg_prior}: must be at least 0")
        if self.cfg_prior and self.move_scorer is None:
            raise ConfigError("cfg_prior", "cfg_prior needs a move scorer")
        if not 1 <= self.level <= options.FULL_STRENGTH_LEVEL:
            raise ConfigError("level", f"level {self.level}: must be 1 to "
                                       f"{options.FULL_STRENGTH_LEVEL} (full strength)")
        if self.level < options.FULL_STRENGTH_LEVEL and (self.move_player is not None
                                                         or self.playout_player):
            raise ConfigError("level", "a level below full strength chooses the moves itself: "
                                       "not with --player cfg, td or playout")
        if not isinstance(self.search, SearchConfig):
            raise ConfigError("search", f"search: give a SearchConfig, not {self.search!r}")

    @classmethod
    def of(cls, **fields):
        """A configuration of the engine's fields and the search's (a named setting may be
        given by its name, as :meth:`SearchConfig.of` takes it)."""
        names = {f.name for f in dataclasses.fields(cls)}
        search = {k: fields.pop(k) for k in list(fields) if k not in names}
        if search:
            base = fields.get("search")
            fields["search"] = SearchConfig.of(**search) if base is None \
                else base.replace(**search)
        return cls(**fields)

    def replace(self, **changes):
        """A copy with ``changes``, the engine's fields or the search's (its ``settings``
        are added to the current ones), checked again."""
        search = {k: changes.pop(k) for k in list(changes) if k in SEARCH_FIELDS}
        if search:
            changes["search"] = self.search.replace(**search)
        return dataclasses.replace(self, **changes)
