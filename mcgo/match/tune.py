# SPDX-License-Identifier: GPL-3.0-or-later
"""``mcgo tune``: search mcgo's named settings by matches, with Optuna.

Each *trial* gives mcgo one value of every tuned setting (``--set NAME=VALUE``, the names of
:data:`mcgo.options.NAMED_SETTINGS`), plays a short match against a fixed opponent with the
match runner (local ``--jobs`` or Ray, the GNU Go referee) and reports mcgo's win rate to
Optuna's sampler (TPE by default), which proposes the next values. Everything is kept in the
output folder and resumes after an interruption:

* ``study.db``: Optuna's SQLite storage (every trial, its values and win rate);
* ``trial-NNN/``: each trial's match (results.json, results.csv, games.zip); a trial that
  was cut off is finished from there on ``--resume``;
* ``best.json`` and ``trials.csv``: the evidence, rewritten after every trial: the best
  settings, their win rate with its 95% Wilson interval, and the mcgo command that plays them.

A win rate from a short match is noisy: the best trial of many is biased upwards, so confirm
it with a long match (``mcgo match``) before making it a default.

>>> spec = parse_param("rave_equiv=100:5000:log")
>>> spec.name, spec.low, spec.high, spec.log, spec.integer
('rave_equiv', 100.0, 5000.0, True, False)
>>> parse_param("expand_after=1:8").integer      # an integer setting takes integers
True
>>> tuned_engine("mcgo:--playouts 500", {"rave_equiv": 300.0, "expand_after": 3})
'mcgo:--playouts 500 --set rave_equiv=300 --set expand_after=3'
"""

import csv
import dataclasses
import json
import pathlib

from .. import options
from ..extras import install_hint
from ..stats import wilson_interval
from .settings import recorded_command

STUDY_FILE = "study.db"
STUDY_NAME = "mcgo-tune"
BEST_JSON = "best.json"
TRIALS_CSV = "trials.csv"
TUNED_LABEL = "tuned"
OPPONENT_LABEL = "opponent"


class TuneError(ValueError):
    """A tuning request that cannot run (a bad parameter, an engine that is not mcgo)."""


class OptunaMissing(RuntimeError):
    """Optuna is not installed."""


def require_optuna():
    try:
        import optuna
    except ImportError:
        raise OptunaMissing(f"mcgo tune needs Optuna: {install_hint('tune')}") from None
    return optuna


@dataclasses.dataclass(frozen=True)
class ParamSpec:
    """One tuned setting: its range, on a log scale or not, integers or not."""
    name: str
    low: float
    high: float
    log: bool = False
    integer: bool = False


def parse_param(text):
    """A :class:`ParamSpec` from ``NAME=LOW:HIGH`` or ``NAME=LOW:HIGH:log``."""
    name, sep, rest = text.partition("=")
    if not sep:
        raise TuneError(f"{text!r}: give NAME=LOW:HIGH or NAME=LOW:HIGH:log")
    if name not in options.NAMED_SETTINGS:
        raise TuneError(f"unknown setting {name!r}; choose from {', '.join(options.NAMED_SETTINGS)}")
    parts = rest.split(":")
    if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "log"):
        raise TuneError(f"{text!r}: give NAME=LOW:HIGH or NAME=LOW:HIGH:log")
    try:
        low, high = float(parts[0]), float(parts[1])
    except ValueError:
        raise TuneError(f"{text!r}: LOW and HIGH must be numbers") from None
    log = len(parts) == 3
    if not 0 <= low < high or (log and low <= 0):
        raise TuneError(f"{text!r}: need 0 <= LOW < HIGH (and LOW > 0 on a log scale)")
    integer = options.NAMED_SETTINGS[name].kind is int
    if integer and (low != int(low) or high != int(high)):
        raise TuneError(f"{text!r}: {name} takes whole numbers")
    return ParamSpec(name, low, high, log, integer)


def suggest(trial, spec):
    """Optuna's proposal for one setting in a trial, as the engine will be told it (six
    significant digits: the value played is the value recorded)."""
    if spec.integer:
        return trial.suggest_int(spec.name, int(spec.low), int(spec.high), log=spec.log)
    return as_played(trial.suggest_float(spec.name, spec.low, spec.high, log=spec.log))


def as_played(value):
    """``value`` as ``--set`` writes it (``%g``)."""
    return float(f"{value:g}")


def tuned_engine(engine, values):
    """The mcgo engine (``mcgo`` or ``mcgo:ARGS``) with ``--set`` for each value."""
    if engine != "mcgo" and not engine.startswith("mcgo:"):
        raise TuneError(f"--engine {engine!r}: the tuned engine is mcgo (mcgo or mcgo:ARGS)")
    words = [engine[len("mcgo:"):].strip()] if engine.startswith("mcgo:") else []
    words += [f"--set {name}={value:g}" for name, value in values.items()]
    words = [w for w in words if w]
    return "mcgo:" + " ".join(words) if words else "mcgo"


class Tuner:
    """A tuning study in ``out_dir``: ``run()`` plays trials until ``trials`` are complete."""

    def __init__(self, out_dir, engine, opponent, params, trials, games, settings, jobs=1,
                 ray=None, referee=None, seed=0, log=print):
        self.out_dir = pathlib.Path(out_dir)
        self.engine = engine
        self.opponent = opponent
        self.params = list(params)
        self.trials = trials
        self.games = games
        self.settings = settings
        self.jobs = jobs
        self.ray = ray
        self.referee = referee
        self.seed = seed
        self.log = log
        tuned_engine(engine, {})       # the tuned engine must be mcgo: say so before anything runs

    def _study(self):
        optuna = require_optuna()
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        return optuna.create_study(
            study_name=STUDY_NAME, storage=f"sqlite:///{self.out_dir / STUDY_FILE}",
            direction="maximize", load_if_exists=True,
            sampler=optuna.samplers.TPESampler(seed=self.seed))

    def run(self):
        """Play the missing trials (a trial cut off before is finished first); returns the
        evidence document (also in best.json)."""
        optuna = require_optuna()
        study = self._study()
        running = optuna.trial.TrialState.RUNNING
        for frozen in study.get_trials(deepcopy=False, states=(running,)):
            self.log(f"trial {frozen.number}: finishing its match")
            played = frozen.user_attrs.get("played", frozen.params)
            study.tell(frozen.number, self._play(frozen.number, played))
        while self._complete(study) < self.trials:
            trial = study.ask()
            values = {spec.name: suggest(trial, spec) for spec in self.params}
            trial.set_user_attr("played", values)
            study.tell(trial, self._play(trial.number, values))
            self.write_evidence(study)
        return self.write_evidence(study)

    @staticmethod
    def _complete(study):
        import optuna
        return len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)))

    def _play(self, number, values):
        """The tuned engine's win rate in trial ``number``'s match (resumed if begun)."""
        from .opponents import resolve_engine
        from .runner import Match
        specs = [resolve_engine(tuned_engine(self.engine, values), self.settings),
                 resolve_engine(self.opponent, self.settings)]
        folder = self.out_dir / f"trial-{number:03d}"
        match = Match(folder, [s.command for s in specs], [TUNED_LABEL, OPPONENT_LABEL],
                      self.settings, self.games, True, self.referee,
                      "referee" if self.referee else "tromp-taylor", False, self.jobs,
                      resume=True, log=lambda line: None, cwds=[s.cwd for s in specs],
                      engines=[s.as_dict() for s in specs], ray=self.ray)
        summary = match.run()["summary"]
        rate = summary["win_rate"]["rate"]
        shown = ", ".join(f"{k}={v:g}" for k, v in values.items())
        self.log(f"trial {number}: {shown}: {rate:.3f} over {summary['decided']} games")
        return rate

    def write_evidence(self, study):
        """best.json and trials.csv from the study as it stands."""
        import optuna
        done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
        rows = []
        for trial in done:
            summary = json.loads((self.out_dir / f"trial-{trial.number:03d}" / "results.json")
                                 .read_text())["summary"]
            wins = summary["wins"].get(TUNED_LABEL, 0) + 0.5 * summary["draws"]
            low, high = wilson_interval(wins, summary["decided"])
            rows.append(dict(trial=trial.number, win_rate=trial.value, games=summary["decided"],
                             wilson_low=round(low, 4), wilson_high=round(high, 4),
                             **trial.user_attrs.get("played", trial.params)))
        with open(self.out_dir / TRIALS_CSV, "w", newline="") as f:
            fields = ["trial", "win_rate", "games", "wilson_low", "wilson_high"] + \
                [spec.name for spec in self.params]
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
        document = {"engine": self.engine, "opponent": recorded_command(self.opponent),
                    "params": [dataclasses.asdict(p) for p in self.params],
                    "games_per_trial": self.games, "settings": self.settings.as_dict(),
                    "trials": len(rows), "best": None}
        if rows:
            best = max(rows, key=lambda r: r["win_rate"])
            values = {spec.name: best[spec.name] for spec in self.params}
            document["best"] = dict(best, command=tuned_engine(self.engine, values))
        (self.out_dir / BEST_JSON).write_text(json.dumps(document, indent=1) + "\n")
        return document
