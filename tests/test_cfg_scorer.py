"""Seed 000's scorer: the shipped runtime equals scikit-learn's, the problems read as their
file says, and ``mcgo learn cfg`` trains and reports."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from mcgo.board import coords
from mcgo.cli import main
from mcgo.models.cfg import NFEATURES
from mcgo.models.cfg_scorer import (ForestScorer, ScorerError, SvmScorer, load_scorer,
                                   open_scorer)
from mcgo.train.cfg_train import problem_features
from mcgo.train.tsumego import Problem, load_problems, split_of_collection

sklearn = pytest.importorskip("sklearn")
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.preprocessing import MinMaxScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402


@pytest.fixture(scope="module")
def problems(tsumego_problems_file):
    loaded, skipped = load_problems(tsumego_problems_file)
    return loaded, skipped


@pytest.fixture(scope="module")
def data(problems):
    """Relative subgraph features of real problem moves, labelled correct or not."""
    rows, labels = [], []
    for problem in [p for p in problems[0] if not p.doubtful][:60]:
        found = problem_features(problem)
        if found:
            rows.append(found[1][:12])
            labels += list(found[2][:12].astype(int))
    x, y = np.concatenate(rows), np.array(labels)
    assert 0 < y.sum() < len(y)
    return x, y


def test_the_forest_runtime_equals_scikit_learn(data, tmp_path):
    x, y = data
    forest = RandomForestClassifier(n_estimators=25, max_features=9, random_state=1).fit(x, y)
    scorer = ForestScorer.from_sklearn(forest)
    assert np.allclose(scorer.scores(x), forest.predict_proba(x)[:, 1], atol=1e-12)
    scorer.save(tmp_path / "f.npz")
    again = load_scorer(tmp_path / "f.npz")
    shuffled = x[::-1] + (np.arange(len(x))[:, None] % 3)
    assert np.allclose(again.scores(shuffled), forest.predict_proba(shuffled)[:, 1], atol=1e-12)


def test_the_svm_runtime_equals_scikit_learn(data, tmp_path):
    x, y = data
    scaler = MinMaxScaler().fit(x)
    svc = SVC(kernel="rbf", gamma=1.0, C=1.0).fit(scaler.transform(x), y)
    scorer = SvmScorer.from_sklearn(svc, scaler)
    assert np.allclose(scorer.scores(x), svc.decision_function(scaler.transform(x)), atol=1e-9)
    scorer.save(tmp_path / "s.npz")
    assert np.allclose(load_scorer(tmp_path / "s.npz").scores(x), scorer.scores(x))


def test_bad_scorer_files_are_clear_errors(tmp_path):
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ScorerError, match="not a CFG scorer file"):
        load_scorer(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(ScorerError, match="not a CFG scorer file"):
        load_scorer(tmp_path / "other.npz")
    with pytest.raises(ScorerError, match="no scorer file"):
        open_scorer(tmp_path / "missing.npz")


def test_problems_read_as_their_file_says(problems):
    loaded, skipped = problems
    assert len(loaded) + len(skipped) == 9789            # the README's count
    assert len({p.collection for p in loaded}) == 52
    first = loaded[0]                                     # the README's first problem
    assert first.collection.startswith("Fujisawa Shuuko") and first.player == 2
    assert [coords.to_sgf(p, 19) for p in first.solutions] == ["na"]
    assert coords.to_sgf(first.black[0], 19) == "qa"
    usable = [p for p in loaded if not p.doubtful]
    assert 9000 < len(usable) < len(loaded)
    by_collection = {}
    for p in loaded:
        by_collection.setdefault(p.collection, set()).add(p.split)
    assert all(len(s) == 1 for s in by_collection.values())       # split by collection
    assert {split_of_collection(c) for c in by_collection} == {"train", "validation", "test"}
    solvable = sum(1 for p in usable[:300] if set(p.solutions) <= set(p.candidates()))
    assert solvable == 300


def test_doubtful_solutions_are_marked():
    row = {"collection": "c", "problem": "2", "SZ": "19", "AB": ["aa"], "AW": ["ba"],
           "C": "Black to play", "SOL": [["B", "ab", "", "this may be wrong"]]}
    assert Problem.from_json(row).doubtful


def test_learn_cfg_trains_reports_and_writes_a_scorer(tmp_path, tsumego_problems_file):
    out, table = tmp_path / "scorer.npz", tmp_path / "table.json"
    result = CliRunner().invoke(main, ["learn", "cfg", str(tsumego_problems_file), "-o", str(out),
                                       "--limit", "40", "--learners", "rf100,svm",
                                       "--json", str(table)])
    assert result.exit_code == 0, result.output
    document = json.loads(table.read_text())
    assert set(document["table"]["test"]) >= {"rf100", "svm", "first", "random"}
    scorer = load_scorer(out)
    assert scorer.metadata["learner"] == document["best"]
    assert scorer.metadata["split"].startswith("by collection")
    bad = CliRunner().invoke(main, ["learn", "cfg", str(tsumego_problems_file), "-o", str(out),
                                    "--learners", "knn"])
    assert bad.exit_code == 2 and "--learners" in bad.output


def test_the_features_have_406_columns(problems):
    found = problem_features([p for p in problems[0] if not p.doubtful][0])
    assert found[1].shape[1] == NFEATURES
