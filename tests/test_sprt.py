# SPDX-License-Identifier: GPL-3.0-or-later
"""The SPRT of ``mcgo match --sprt`` (mcgo.match.sprt) against fishtest's published tests
and the binomial likelihood written out by hand, and a match that stops once it is decided
(on the local threads, on Ray, and resumed)."""

import json
import math

import pytest
from click.testing import CliRunner

from mcgo.match.commands import match as match_command
from mcgo.match.sprt import (SprtSettings, expected_units, log_likelihood_ratio, match_counts,
                             sprt_result)

from match_helpers import fake, quick_match

# Stockfish's commit messages quote the fishtest test that let each change in: the LLR (two
# decimals), the logistic-Elo bounds {ELO0, ELO1} and the game pairs' pentanomial counts.
# (LLR, elo0, elo1, pentanomial counts, the test's page on tests.stockfishchess.org)
FISHTEST_RUNS = [
    (2.94, -0.20, 1.10, [406, 8728, 41933, 8848, 493], "60735b3a8141753378960534"),
    (2.95, -0.70, 0.20, [2, 245, 4962, 291, 4], "60749ea881417533789605a4"),
    (2.98, -0.70, 0.20, [87, 6272, 81610, 6175, 108], "6065b0772b2df919fd5f02ae"),
    (2.93, -0.20, 1.10, [4, 2342, 11769, 2494, 7], "6074a52981417533789605b8"),
    (-3.00, 0.25, 1.25, [13, 1176, 17184, 1178, 21], None),
    (-2.97, -0.50, 1.50, [3452, 23520, 46844, 23772, 3376], None),
    (-2.93, -1.00, 3.00, [863, 6282, 12251, 6283, 892], None),
    (8.62, 0.25, 1.75, [418, 14886, 111745, 15860, 463], None),
    (3.87, -0.50, 1.50, [221, 2578, 7830, 2762, 237], None),
]


@pytest.mark.parametrize("published, elo0, elo1, counts, page", FISHTEST_RUNS)
def test_llr_equals_fishtests_published_llr(published, elo0, elo1, counts, page):
    assert round(log_likelihood_ratio(counts, elo0, elo1), 2) == pytest.approx(published, abs=1e-9)


def test_llr_of_games_without_jigo_is_the_binomial_likelihood_ratio():
    # 30 wins and 10 losses, H0: 0 Elo (s0 = 0.5), H1: 50 Elo (s1 = 1 / (1 + 10^(-50/400))).
    # Without jigos the nearest distribution of mean s is Bernoulli(s), so by hand
    # LLR = 30 ln(s1 / s0) + 10 ln((1 - s1) / (1 - s0)); the empty jigo class (1e-3) moves it
    # in the fourth decimal.
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))
    by_hand = 30 * math.log(s1 / s0) + 10 * math.log((1 - s1) / (1 - s0))
    assert s1 == pytest.approx(0.571463, abs=1e-6)
    assert by_hand == pytest.approx(2.46544, abs=1e-5)
    assert log_likelihood_ratio([10, 0, 30], 0, 50) == pytest.approx(by_hand, abs=2e-3)


def test_bounds_are_walds_and_fishtests():
    lower, upper = SprtSettings(0, 10).bounds()          # fishtest prints (-2.94,2.94)
    assert (round(lower, 2), round(upper, 2)) == (-2.94, 2.94)
    lower, upper = SprtSettings(0, 10, alpha=0.05, beta=0.1).bounds()
    assert lower == pytest.approx(math.log(0.1 / 0.95)) and upper == pytest.approx(math.log(0.9 / 0.05))


@pytest.mark.parametrize("elo0, elo1, alpha", [(10, 0, 0.05), (0, 0, 0.05), (0, 10, 0.0), (0, 10, 0.6)])
def test_impossible_tests_are_refused(elo0, elo1, alpha):
    with pytest.raises(ValueError):
        SprtSettings(elo0, elo1, alpha=alpha)


def test_pairs_are_games_2k_and_2k_plus_1_and_an_unpaired_game_waits():
    def game(n, winner):
        return {"game": n, "result": "B+1" if winner else "0", "winner": winner}
    records = [game(0, "a"), game(1, "a"), game(2, "a"), game(3, None), game(4, "b"),
               game(5, "b"), game(6, "a")]
    assert match_counts(records, "a", alternate=True) == ("pentanomial", [1, 0, 0, 1, 1])
    assert match_counts(records, "a", alternate=False) == ("trinomial", [2, 1, 4])


def test_elo_estimate_of_a_level_match_is_zero_and_its_interval_symmetric():
    result = sprt_result([10, 20, 40, 20, 10], elo0=0, elo1=20)
    assert result.elo == pytest.approx(0.0, abs=1e-9)
    assert result.elo95[0] == pytest.approx(-result.elo95[1])
    assert result.state == "continue"


def test_expected_length_of_a_level_match_matches_walds_approximation():
    # Brownian approximation of the LLR: drift per unit (s - (s0+s1)/2)(s1 - s0)/var and
    # variance (s1 - s0)^2/var; at s = s0 the test accepts H0 with probability 1 - alpha and
    # lasts about ((1 - alpha) ln(beta/(1-alpha)) + alpha ln((1-beta)/alpha)) / drift units.
    settings = SprtSettings(0, 50)
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))
    var = 0.25
    drift = (s0 - (s0 + s1) / 2) * (s1 - s0) / var
    wald = (0.95 * math.log(0.05 / 0.95) + 0.05 * math.log(0.95 / 0.05)) / drift
    assert expected_units(settings, s0, var) == pytest.approx(wald, rel=0.02)


# --------------------------------------------------------------------- a match as a test
def one_sided_pair():
    """A fake that plays on, and one that loses every game at its first move."""
    return [fake("--delay", "0", "--seed", "1"),
            fake("--delay", "0", "--seed", "2", "--fault", "illegal", "--fault-at", "1")]


def assert_stopped_at_the_12th_pair(doc, at_once):
    """Every pair is 2-0: the LLR gains 0.247 a pair and passes 2.94 at the 12th (games 0 to
    23). The games under way when it is seen are played and kept, and while the pair waits
    for its slower game the other workers go on with later ones: with these games of about
    one length, no more than 24 + 2 x ``at_once`` games of the 100 the match allows."""
    assert [log_likelihood_ratio([0, 0, 0, 0, n], 0, 100) > 2.944 for n in (11, 12)] == [False, True]
    games = {g["game"] for g in doc["games"]}
    assert set(range(24)) <= games and len(games) <= 24 + 2 * at_once
    assert doc["sprt"]["counts"][4] >= 12


def sprt_cli_args(out, games, *extra):
    engine, opponent = one_sided_pair()
    return ["--engine", engine, "--opponent", opponent, "--size", "5", "--move-cap", "10",
            "--scorer", "tromp-taylor", "--no-ask-engines", "--games", str(games),
            "--out", str(out), *extra]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_match_stops_once_the_sprt_accepts_h1(tmp_path, jobs):
    out = tmp_path / "m"
    runner = CliRunner()
    result = runner.invoke(match_command, sprt_cli_args(out, 100, "--jobs", str(jobs),
                                                        "--sprt", "0", "100"))
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "results.json").read_text())
    assert_stopped_at_the_12th_pair(doc, jobs)
    assert doc["sprt"]["state"] == "H1 accepted" and doc["sprt"]["model"] == "pentanomial"
    assert doc["sprt"]["llr"] > doc["sprt"]["upper"]
    assert "H1 accepted" in result.output

    resumed = runner.invoke(match_command, sprt_cli_args(out, 100, "--resume", "--sprt", "0", "100"))
    assert resumed.exit_code == 0, resumed.output
    assert "H1 accepted" in resumed.output
    assert len(json.loads((out / "results.json").read_text())["games"]) == len(doc["games"])

    changed = runner.invoke(match_command, sprt_cli_args(out, 100, "--resume", "--sprt", "0", "50"))
    assert changed.exit_code == 1 and "sprt" in changed.output


def test_sprt_options_are_checked_before_any_game(tmp_path):
    runner = CliRunner()
    for extra, says in [(["--sprt", "10", "0"], "ELO0 < ELO1"),
                        (["--alpha", "0.1"], "belong to --sprt"),
                        (["--sprt", "0", "10", "--beta", "0.7"], "beta")]:
        result = runner.invoke(match_command, sprt_cli_args(tmp_path / "m", 4, *extra))
        assert result.exit_code == 2 and says in result.output
    assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_a_ray_match_stops_once_the_sprt_accepts_h1(tmp_path, ray_runtime):
    match, doc, log = quick_match(tmp_path / "m", one_sided_pair(), 100, ray="auto",
                                  sprt=SprtSettings(0, 100))
    assert doc["sprt"]["state"] == "H1 accepted"
    assert_stopped_at_the_12th_pair(doc, 2)       # the fixture's cluster has 2 CPUs
    assert any("H1 accepted" in line for line in log)
