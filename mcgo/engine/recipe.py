# SPDX-License-Identifier: GPL-3.0-or-later
"""The recipe of an engine: the choices a user makes, resolved in one place into the engine.

Every front builds its engine here: ``mcgo gtp`` (and so ``mcgo match``'s ``mcgo`` engine,
which runs it), ``mcgo play``, ``mcgo analysis``, ``mcgo review`` and ``mcgo warmup``. Their
command-line options are one declaration (:mod:`mcgo.frontoptions`) whose values make a
:class:`Recipe`; :meth:`Recipe.engine_config` opens the models it names and builds the
:class:`~mcgo.config.EngineConfig`, and :meth:`Recipe.search_config` the search's part of it.
A recipe holds names and numbers, no loaded model, so it pickles: the processes and Ray
tasks of ``mcgo review`` rebuild the same engine from it. A choice that depends on the
board size (``--model auto``, the 9x9 policy net, ``--ownership-prior auto``) travels with
the configuration and is resolved by the search for the size of each game.

>>> recipe = Recipe(playouts=300, settings={"rave_equiv": "300"})
>>> config = recipe.engine_config(9)
>>> config.size, config.playouts, config.search.settings["rave_equiv"]
(9, 300, 300.0)
>>> Recipe(policy_net="no-such-net.npz").check()
Traceback (most recent call last):
...
mcgo.engine.recipe.RecipeError: --policy-net: no-such-net.npz: no such policy net file
"""

import dataclasses
import os
import sys
from dataclasses import dataclass
from typing import Any, Optional

from .. import options
from ..config import ConfigError, EngineConfig, SearchConfig

PLAYERS = ("mcts", "cfg", "td", "playout")
# The names of the shipped files, by the choice that opens them: the one table (a choice's
# other values are files, or "none").
SHIPPED = {"model": ("default", "auto"), "policy_net": ("default",),
           "ownership_net": ("dagrnn",), "evaluator": ("ecfg",), "corner_net": ("corner",),
           "scorer": ("cfg",), "td_net": ("td0", "td1"), "casebase": ("default",),
           "value_net": ("default",)}
CASEBASE_MOVES = 20                        # the case base's bonus on moves 1-20


class RecipeError(ValueError):
    """A choice that cannot be used: ``option`` names it as the command line does
    (``--policy-net``), the message says what was wrong."""

    def __init__(self, option, message):
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


@dataclass(frozen=True)
class Recipe:
    """The choices of an engine, by the names of the options that make them.

    The search: ``preset``, ``policy`` (the playout policy), ``settings`` (``--set``),
    ``threads``, ``parallel``, ``seed``, ``max_memory`` (MB), the move model ``model``, the
    policy net ``policy_net`` with its ``policy_prior`` visits, a ``value_net`` whose value
    heads give the ``value_prior`` setting's visits (none: the policy net's own), seed 003's ranker as
    ``ownership_prior`` visits (a number or ``"auto"``), seed 002's ``evaluator`` with its
    ``evaluator_visits``. The player: the limits ``playouts`` and ``seconds`` (neither: the
    front's default), ``resign``, the case base ``casebase`` on moves 1 to
    ``casebase_moves``, seed 000's ``scorer`` as a ``cfg_prior`` bonus, who chooses the move
    (``player``: the search, or seed 000's, 004's (``td_net``) or the playout policy's
    choice), ``level`` (below full strength: a weaker player's choice) and ``ponder``. The game and its judge: ``size`` (None: the front's), ``komi``,
    ``rules``, seed 003's ``ownership_net``, seed 004's ``corner_net`` and
    ``status_search`` simulations."""
    preset: str = options.DEFAULT_PRESET
    policy: str = options.DEFAULT_POLICY
    settings: Any = ()
    threads: int = 1
    parallel: str = options.DEFAULT_PARALLEL
    seed: int = 0
    max_memory: float = options.DEFAULT_MEMORY_MB
    model: str = "auto"
    policy_net: str = "default"
    policy_prior: float = options.POLICY_PRIOR_VISITS
    value_net: str = "none"
    ownership_prior: Any = 0.0
    evaluator: str = "none"
    evaluator_visits: float = 10.0
    playouts: Optional[int] = None
    seconds: Optional[float] = None
    resign: float = options.DEFAULT_RESIGN
    casebase: str = "auto"
    casebase_moves: int = CASEBASE_MOVES
    scorer: str = "cfg"
    cfg_prior: float = 0.0
    player: str = "mcts"
    td_net: str = "td1"
    ponder: bool = False
    level: int = options.FULL_STRENGTH_LEVEL
    size: Optional[int] = None
    komi: float = options.DEFAULT_KOMI
    rules: str = options.DEFAULT_RULES
    ownership_net: str = "none"
    corner_net: str = "none"
    status_search: int = 0

    def __post_init__(self):
        if self.player not in PLAYERS:
            raise RecipeError("--player", f"unknown player {self.player!r}; choose from "
                                          f"{', '.join(PLAYERS)}")
        if self.level < options.FULL_STRENGTH_LEVEL and self.player != "mcts":
            raise RecipeError("--level", f"--level {self.level} chooses the moves itself: not "
                                         f"with --player {self.player}")
        # As sorted pairs, so that a recipe hashes (mcgo review keeps an analyser a recipe).
        object.__setattr__(self, "settings", tuple(sorted(dict(self.settings or {}).items())))

    @classmethod
    def of(cls, values):
        """The recipe of a front's option values (a dict; names that are no choice of a
        recipe are left out, so a front passes its whole ``**kwargs``)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    def changed(self):
        """``{name: value}`` of the choices that differ from the defaults."""
        default = Recipe()
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    # ---------------------------------------------------------------- resolving
    def casebase_choice(self):
        """``casebase`` with ``auto`` resolved: the shipped case base for the thesis preset
        (whose search it was made for), none for the others."""
        if self.casebase != "auto":
            return self.casebase
        return "default" if self.preset == "thesis" else "none"

    def ownership_prior_visits(self):
        """Seed 003's ranker's virtual visits: a number, or ``auto``'s dict by board size."""
        if self.ownership_prior == "auto":
            from ..models.ownership.model import AUTO_PRIOR_VISITS
            return dict(AUTO_PRIOR_VISITS)
        return self.ownership_prior

    def check(self):
        """Open now every file the recipe names (not the shipped models, which load with the
        engine), so that a bad one is an error before any work; returns them, for
        :meth:`engine_config`'s ``opened``. Raises :class:`RecipeError`."""
        opened = {}
        for kind in ("model", "policy_net", "value_net", "ownership_net", "evaluator",
                     "corner_net", "scorer"):
            choice = getattr(self, kind)
            if choice not in SHIPPED[kind] + ("none",):
                opened[kind] = _open(kind, choice)
        if self.player == "td" and self.td_net not in SHIPPED["td_net"]:
            opened["td_net"] = _open("td_net", self.td_net)
        casebase = self.casebase_choice()
        if casebase not in SHIPPED["casebase"] + ("none",):
            if not os.path.isfile(casebase):
                raise RecipeError("--casebase", f"no case base file {casebase}")
            opened["casebase"] = _open("casebase", casebase)
        return opened

    def search_config(self, opened=None):
        """The :class:`~mcgo.config.SearchConfig` of the recipe, its models opened."""
        return self._search_fields(opened or {}, lambda kind, name: _open(kind, name))[0]

    def engine_config(self, size=None, opened=None, quiet=True):
        """The :class:`~mcgo.config.EngineConfig` of the recipe on a board of ``size``
        (the recipe's own where it names one; else ``size``; else 19), the models it names
        opened (those of ``opened``, :meth:`check`'s, as they are). ``quiet``: no note on
        stderr when the shipped case base is not installed."""
        opened = dict(opened or {})

        def get(kind, name):
            if kind not in opened:
                opened[kind] = _open(kind, name)
            return opened[kind]

        search, extra = self._search_fields(opened, get)
        move_player = move_scorer = None
        if self.player == "cfg" or self.cfg_prior:
            move_scorer = get("scorer", self.scorer)
            if self.player == "cfg":
                from .cfg_player import CfgPlayer
                move_player = CfgPlayer(move_scorer)
        if self.player == "td":
            from .td_player import TdPlayer
            move_player = TdPlayer(get("td_net", self.td_net))
        casebase = self.casebase_choice()
        advisor = None
        if casebase != "none":
            from ..casebase import OpeningAdvisor, default_casebase_path
            base = get("casebase", casebase)
            if base is None and casebase == "default" and not quiet:
                sys.stderr.write(f"no case base at {default_casebase_path()}: playing without\n")
            advisor = None if base is None else OpeningAdvisor(base, bonus_moves=self.casebase_moves)
        try:
            return EngineConfig(
                size=self.size or size or options.DEFAULT_GTP_SIZE, komi=self.komi,
                rules=self.rules, playouts=self.playouts, seconds=self.seconds,
                resign=self.resign, ponder=self.ponder, search=search,
                ownership_net=extra["ownership_net"],
                corner_net=get("corner_net", self.corner_net),
                status_search=self.status_search, opening_advisor=advisor,
                move_scorer=move_scorer, cfg_prior=self.cfg_prior, move_player=move_player,
                playout_player=self.player == "playout", level=self.level)
        except ConfigError as e:
            raise RecipeError(_option_of(e), str(e)) from None

    def measured_settings(self):
        """``(size_settings, model_sizes)``: the settings by board size that the shipped
        models and nets the recipe names won their A/Bs with (``--model auto``: its prior's
        settings, on its sizes only; ``--policy-net default``: the 9x9 net's prior at the
        root alone; ``--value-net default``: its value's virtual visits on 19x19), and the sizes the move model gives priors on (None: every size)."""
        from ..models.movemodel import AUTO_MODEL_PRIORS
        from ..models.policy_net import SIZE_NETS, VALUE_NETS
        by_size, model_sizes = {}, None
        if self.model == "auto":
            for size, values in AUTO_MODEL_PRIORS.items():
                by_size.setdefault(size, {}).update(values)
            model_sizes = tuple(AUTO_MODEL_PRIORS)
        if self.policy_net == "default":
            for size, (_, values) in SIZE_NETS.items():
                by_size.setdefault(size, {}).update(values)
        if self.value_net == "default":
            for size, (_, values) in VALUE_NETS.items():
                by_size.setdefault(size, {}).update(values)
        return by_size, model_sizes

    def describe_settings(self, size, opened=None):
        """One line per named setting: its name, the value a search on a board of ``size``
        uses with this recipe (the preset's, a ``--set``'s, or what a model or net measured
        for the size chose), and its meaning; the title line first."""
        from ..board.board import Board
        from .player import Player
        player = Player(self.search_config(opened), playouts=1, verbose=False)
        board = Board(size, komi=self.komi)
        lines = [f"settings in effect on {size}x{size} with the {self.preset} preset "
                 "(change with --set NAME=VALUE):"]
        for name, setting in options.NAMED_SETTINGS.items():
            value = player.setting(name, board)
            lines.append(f"{name:<18} {value:<10g} {setting.help}")
        return "\n".join(lines)

    def _search_fields(self, opened, get):
        """(SearchConfig, {"ownership_net": net or None}) of the recipe."""
        net = get("ownership_net", self.ownership_net) if self.ownership_net != "none" else None
        visits = self.ownership_prior_visits()
        ownership_prior = None
        if visits:
            ownership_prior = (net or get("ownership_prior", "dagrnn"), visits)
        evaluator_prior = None
        if self.evaluator != "none":
            evaluator_prior = (get("evaluator", self.evaluator), self.evaluator_visits)
        policy_prior = None
        if self.policy_net != "none" and self.policy_prior:
            policy_prior = (get("policy_net", self.policy_net), self.policy_prior)
        size_settings, model_sizes = self.measured_settings()
        try:
            search = SearchConfig(
                preset=self.preset, policy=self.policy, threads=self.threads,
                seed=self.seed, max_memory_mb=self.max_memory, parallel=self.parallel,
                model=get("model", self.model), settings=dict(self.settings),
                ownership_prior=ownership_prior, evaluator_prior=evaluator_prior,
                policy_prior=policy_prior, size_settings=size_settings,
                model_sizes=model_sizes,
                value_net=get("value_net", self.value_net) if self.value_net != "none" else None)
        except ConfigError as e:
            raise RecipeError(_option_of(e), str(e)) from None
        return search, {"ownership_net": net}


# The options of the configuration's fields whose names differ from ``--field-name``.
FIELD_OPTIONS = {"playouts": "--simulations", "max_memory_mb": "--max-memory",
                 "settings": "--set", "evaluator_prior": "--evaluator-visits"}


def _option_of(error):
    """The option of the field a :class:`~mcgo.config.ConfigError` is about, as the command
    line names it."""
    return FIELD_OPTIONS.get(error.field, "--" + error.field.replace("_", "-"))


def _open(kind, name):
    """The model, net or case base ``name`` of the recipe's choice ``kind``: one opener for
    every kind, one error (:class:`RecipeError`, naming the option) for every failure."""
    option = "--" + kind.replace("_", "-")
    try:
        if kind == "model":
            from ..models.movemodel import open_model
            return open_model(name)
        if kind == "policy_net":
            from ..models.policy_net import open_policy_net
            return open_policy_net(name)
        if kind == "value_net":
            from ..models.policy_net import open_value_net
            return open_value_net(name)
        if kind in ("ownership_net", "ownership_prior"):
            if name == "none":
                return None
            from ..models.ownership.model import open_ownership
            return open_ownership(name)
        if kind == "evaluator":
            from ..models.ecfg_evaluator import open_evaluator
            return open_evaluator(name)
        if kind == "corner_net":
            from ..models.corner import open_corner_net
            return open_corner_net(name)
        if kind == "scorer":
            from ..models.cfg_scorer import open_scorer
            return open_scorer(name)
        if kind == "td_net":
            from ..models.td_net import load_net
            from ..resources import package_file
            from ..models.td_net import SHIPPED as TD_FILES
            path = package_file("mcgo.models", "weights", TD_FILES[name]) if name in TD_FILES else name
            return load_net(path)[0]
        if kind == "casebase":
            from ..casebase import open_casebase
            return open_casebase(name)
    except (ValueError, OSError) as e:
        raise RecipeError(option, _without_option(str(e), option)) from None
    raise AssertionError(kind)


def _without_option(message, option):
    """An opener's message without a leading ``--option:`` of its own."""
    prefix = f"{option}: "
    return message[len(prefix):] if message.startswith(prefix) else message


__all__ = ["PLAYERS", "SHIPPED", "Recipe", "RecipeError"]
