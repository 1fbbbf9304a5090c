"""``mcgo tune``: Optuna's study over short matches, its evidence, its resumption.

References: Optuna's own storage (what the study recorded), the match runner's results
files (what was played), and the commands the engines were started with.
"""

import csv
import json
import sys

import pytest
from click.testing import CliRunner

from mcgo.match.commands import tune as tune_command
from mcgo.match.tune import STUDY_NAME, parse_param, TuneError


TINY = ["--engine", "mcgo:--playouts 30", "--opponent", "mcgo:--playouts 30", "--size", "5",
        "--move-cap", "40", "--referee", "", "--games", "2",
        "--param", "rave_equiv=10:10000:log", "--param", "expand_after=1:4"]


def require_optuna():
    import os
    try:
        import optuna
    except ImportError:
        if os.environ.get("MCGO_REQUIRE_REFERENCES"):
            raise
        pytest.skip("optuna not installed (pip install optuna)")
    return optuna


@pytest.mark.parametrize("text, says", [
    ("rave_equiv", "NAME=LOW:HIGH"), ("foo=1:2", "unknown setting"), ("rave_equiv=5:1", "LOW < HIGH"),
    ("rave_equiv=0:10:log", "LOW > 0"), ("expand_after=1.5:4", "whole numbers"),
    ("rave_equiv=1:2:cube", "NAME=LOW:HIGH"), ("rave_equiv=a:2", "numbers")])
def test_bad_parameters_are_refused(text, says):
    with pytest.raises(TuneError, match=says):
        parse_param(text)


def test_cli_errors_are_one_line_before_any_game(tmp_path, monkeypatch):
    runner = CliRunner()
    out = tmp_path / "t"
    result = runner.invoke(tune_command, ["--opponent", "gnugo", "--engine", "gnugo",
                                          "--param", "rave_equiv=1:2", "--out", str(out)])
    assert result.exit_code == 2 and "the tuned engine is mcgo" in result.output
    result = runner.invoke(tune_command, ["--opponent", "gnugo", "--param", "foo=1:2", "--out", str(out)])
    assert result.exit_code == 2 and "unknown setting" in result.output
    monkeypatch.setitem(sys.modules, "optuna", None)
    result = runner.invoke(tune_command, ["--opponent", "gnugo", "--param", "rave_equiv=1:2",
                                          "--out", str(out)])
    assert result.exit_code == 2 and "needs Optuna" in result.output
    assert not out.exists()


def test_a_study_plays_its_trials_keeps_the_evidence_and_resumes(tmp_path):
    optuna = require_optuna()
    out = tmp_path / "study"
    first = CliRunner().invoke(tune_command, TINY + ["--trials", "2", "--out", str(out)])
    assert first.exit_code == 0, first.output
    # A trial cut off mid-way (asked, never told), as an interrupted run leaves it.
    study = optuna.load_study(study_name=STUDY_NAME, storage=f"sqlite:///{out / 'study.db'}")
    cut = study.ask({"rave_equiv": optuna.distributions.FloatDistribution(10, 10000, log=True),
                     "expand_after": optuna.distributions.IntDistribution(1, 4)})
    again = CliRunner().invoke(tune_command, TINY + ["--trials", "4", "--out", str(out)])
    assert again.exit_code == 2 and "--resume" in again.output
    again = CliRunner().invoke(tune_command, TINY + ["--trials", "4", "--out", str(out), "--resume"])
    assert again.exit_code == 0, again.output
    assert f"trial {cut.number}: finishing its match" in again.output

    study = optuna.load_study(study_name=STUDY_NAME, storage=f"sqlite:///{out / 'study.db'}")
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert len(complete) == 4 and len(study.trials) == 4
    rows = list(csv.DictReader(open(out / "trials.csv")))
    assert len(rows) == 4
    for trial, row in zip(complete, rows):
        results = json.loads((out / f"trial-{trial.number:03d}" / "results.json").read_text())
        summary = results["summary"]
        assert summary["games"] == 2 and trial.value == summary["win_rate"]["rate"]
        played = trial.user_attrs.get("played", trial.params)
        command = results["config"]["commands"]["tuned"]
        assert f"--set rave_equiv={played['rave_equiv']:g}" in command
        assert f"--set expand_after={played['expand_after']}" in command
        assert float(row["win_rate"]) == trial.value and float(row["rave_equiv"]) == played["rave_equiv"]
    best = json.loads((out / "best.json").read_text())["best"]
    assert best["win_rate"] == max(t.value for t in complete)
    assert best["command"].startswith("mcgo:--playouts 30 --set ")
