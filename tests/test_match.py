# SPDX-License-Identifier: GPL-3.0-or-later
"""The match runner (mcgo.match, ``mcgo match``) against GNU Go and a deliberately broken engine.

Games are kept short (small boards, level 1, move caps) so the file runs in well under two
minutes on two cores. Every result is checked against something the runner did not
compute: GNU Go scoring the saved SGF itself, mcgo's Board replaying it, published
Wilson intervals.
"""

import csv
import json
import math
import os
import shlex
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner
from sgfmill import sgf

from mcgo.board import coords
from mcgo.board.board import result_text
from mcgo.board.handicap import fixed_points
from mcgo.match.archive import GAMES_ARCHIVE, game_sgf
from mcgo.match import settings as match_settings
from mcgo.match.commands import match as match_command
from mcgo.match.runner import Match
from mcgo.match.scoring import parse_score
from mcgo.match.settings import DEFAULT_REFEREE, MatchSettings
from mcgo.stats import elo_difference, mcnemar, wilson_interval

from match_helpers import MCGO, fake, gnugo_score_of_sgf, extracted_sgf, archived_games, replay_sgf, cli_args


INTERRUPT_WAIT = 60.0  # seconds to wait for the first game of the interrupted match


@pytest.fixture(scope="module")
def gnugo(gnugo_command):
    """GNU Go as a shell-style command string, with the rules the referee uses."""
    return " ".join(shlex.quote(a) for a in gnugo_command) + " --capture-all-dead"


def run_match(out, commands, labels, games, size=5, komi=7.5, jobs=1, move_cap=None,
              timeout=None, referee=DEFAULT_REFEREE, resume=False):
    settings = MatchSettings(size, komi, move_cap=move_cap, move_timeout=timeout)
    m = Match(out, commands, labels, settings, games, referee=referee,
              jobs=jobs, resume=resume, log=lambda line: None)
    return m.run()


# ------------------------------------------------------------------------ statistics
@pytest.mark.parametrize("wins, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857-872, table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_published_values(wins, n, low, high):
    got_low, got_high = wilson_interval(wins, n)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


@pytest.mark.parametrize("difference", [-400, -100, 0, 191, 350])
def test_elo_difference_inverts_the_logistic_expected_score(difference):
    expected_score = 1 / (1 + 10 ** (-difference / 400))  # Elo's logistic formula
    assert elo_difference(expected_score) == pytest.approx(difference, abs=1e-6)


def test_elo_difference_is_unbounded_at_certainty():
    assert elo_difference(1.0) == math.inf
    assert elo_difference(0.0) == -math.inf


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_mcnemar_equals_scipys_exact_binomial_test(seed):
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(seed)
    a, b = rng.random(200) < 0.5, rng.random(200) < 0.4
    p, only_a, only_b = mcnemar(a, b)
    assert only_a == int(np.sum(a & ~b)) and only_b == int(np.sum(b & ~a))
    assert p == pytest.approx(stats.binomtest(only_a, only_a + only_b, 0.5).pvalue)


def test_parse_score_reads_final_score_answers():
    assert parse_score("B+3.5") == 3.5
    assert parse_score("W+0.5") == -0.5
    assert parse_score("0") == 0
    assert parse_score("cannot score") is None


# --------------------------------------------------------------------- GNU Go games
@pytest.mark.gnugo
def test_gnugo_level10_vs_level1_on_9x9(tmp_path, gnugo_command, gnugo):
    """One whole 9x9 game, GNU Go level 10 against level 1, refereed by GNU Go. Neither may
    resign (GNU Go may, by default, and on a loaded machine level 1 sometimes did): the
    game ends by two passes."""
    doc = run_match(tmp_path, [gnugo + " --level 10 --never-resign", gnugo + " --level 1 --never-resign"],
                    ["level10", "level1"],
                    games=1, size=9, komi=7)
    record = doc["games"][0]
    assert (record["black"], record["white"]) == ("level10", "level1")
    assert record["end"] == "two passes" and record["fault_engine"] is None
    sgf_path = extracted_sgf(tmp_path, record)
    game, board, nodes = replay_sgf(sgf_path)
    assert len(board.moves) == record["moves"] == sum(record["moves_by"].values())
    assert [n.get_move()[1] for n in nodes[-2:]] == [None, None]  # the two passes
    assert game.get_player_name("b") == "level10" and game.get_player_name("w") == "level1"
    assert game.get_komi() == 7 and game.get_root().get("RE") == record["result"]
    assert all(n.get("C").startswith("time ") for n in nodes)
    # GNU Go scoring the SGF we wrote gives the result we recorded.
    assert record["result"] == result_text(
        parse_score(gnugo_score_of_sgf(gnugo_command, sgf_path)))
    # Both players are GNU Go and judge the end alike.
    assert record["disagreement"] is False
    assert parse_score(record["scores"]["black_engine"]) == parse_score(record["result"])
    summary = doc["summary"]
    assert summary["decided"] == 1
    if record["winner"] is None:  # komi 7 on 9x9 allows a jigo
        assert record["result"] == "0" and summary["draws"] == 1
    else:
        assert summary["wins"][record["winner"]] == 1 and summary["draws"] == 0
    assert all(t > 0 for t in summary["mean_time_per_move"].values())
    rows = list(csv.DictReader(open(tmp_path / "results.csv")))
    assert [(r["black"], r["result"], int(r["moves"])) for r in rows] == \
        [("level10", record["result"], record["moves"])]


# --------------------------------------------------------------------------- faults
FAULT_WORDS = {"crash": "crash", "hang": "hang", "illegal": "illegal move",
               "garbage": "garbage", "noise": "garbage"}


@pytest.mark.gnugo
@pytest.mark.parametrize("fault", sorted(FAULT_WORDS))
def test_fault_loses_the_game_and_the_match_goes_on(tmp_path, gnugo, fault):
    marker = tmp_path / "faulted-once"
    broken = fake("--fault", fault, "--fault-at", "2", "--fault-once", str(marker))
    doc = run_match(tmp_path / "match", [broken, gnugo + " --level 1"], ["fake", "gnugo"],
                    games=2, size=5, move_cap=30, timeout=2)
    first, second = doc["games"]
    assert first["black"] == "fake" and first["fault_engine"] == "fake"
    assert FAULT_WORDS[fault] in first["fault_reason"]
    assert first["winner"] == "gnugo" and first["result"] == "W+F"
    assert first["moves"] == 2  # the fake's first move and GNU Go's answer, then the fault
    root_comment = sgf.Sgf_game.from_bytes(game_sgf(tmp_path / "match", first["sgf"])) \
        .get_root().get("C")
    assert first["fault_reason"] in root_comment
    # The restarted fake plays the next game without trouble.
    assert second["fault_engine"] is None
    assert second["moves_by"]["fake"] >= 2
    assert second["end"] in ("two passes", "move cap", "resignation")
    assert doc["summary"]["faults"] == {"fake": 1, "gnugo": 0}


def test_faults_are_charged_to_the_right_colour(tmp_path):
    doc = run_match(tmp_path, [fake("--fault", "crash"), fake()], ["crasher", "steady"],
                    games=2, size=5, referee=None)
    assert [(g["black"], g["result"], g["winner"]) for g in doc["games"]] == [
        ("crasher", "W+F", "steady"), ("steady", "B+F", "steady")]
    assert doc["summary"]["wins_by_color"]["steady"] == {"black": 1, "white": 1}


# ----------------------------------------------------------------- resume, parallel


def wait_for_games(results, count, process):
    deadline = time.monotonic() + INTERRUPT_WAIT
    while time.monotonic() < deadline and process.poll() is None:
        if results.exists() and len(json.loads(results.read_text())["games"]) >= count:
            return
        time.sleep(0.1)
    raise AssertionError(f"no {count} finished games in {results}")


@pytest.mark.slow
def test_interrupted_match_resumes_without_losing_games(tmp_path):
    out = tmp_path / "match"
    results = out / "results.json"
    process = subprocess.Popen(MCGO + ["match"] + cli_args(out, 4), start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_games(results, 1, process)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the match and its engines
        process.wait()
    saved = json.loads(results.read_text())["games"]
    assert 1 <= len(saved) < 4

    runner = CliRunner()
    refused = runner.invoke(match_command, cli_args(out, 4))
    assert refused.exit_code == 1 and "--resume" in refused.output
    assert json.loads(results.read_text())["games"] == saved  # nothing overwritten

    changed = runner.invoke(match_command, cli_args(out, 4, "--komi", "0.5", "--resume"))
    assert changed.exit_code == 1 and "settings" in changed.output

    resumed = runner.invoke(match_command, cli_args(out, 4, "--resume"))
    assert resumed.exit_code == 0, resumed.output
    doc = json.loads(results.read_text())
    assert [g["game"] for g in doc["games"]] == [0, 1, 2, 3]
    assert all(g["end"] == "move cap" and g["moves"] == 10 for g in doc["games"])
    by_id = {g["game"]: g for g in doc["games"]}
    assert all(by_id[g["game"]] == g for g in saved)  # earlier games kept as they were
    assert archived_games(out) == [f"{GAMES_ARCHIVE}/game-{g:04d}.sgf" for g in range(4)]
    assert len(list(csv.DictReader(open(out / "results.csv")))) == 4
    assert "win rate" in resumed.output and "Wilson" in resumed.output


@pytest.mark.slow
def test_parallel_games_overlap_in_time(tmp_path):
    doc = run_match(tmp_path, [fake("--delay", "0.2"), fake("--delay", "0.2")], ["a", "b"],
                    games=2, size=5, jobs=2, referee=None)
    first, second = doc["games"]
    assert first["started"] < second["finished"] and second["started"] < first["finished"]
    assert (first["black"], second["black"]) == ("a", "b")


def test_cli_rejects_mixed_engine_options():
    result = CliRunner().invoke(match_command, ["--engine", "x", "--black", "y"])
    assert result.exit_code == 2
    assert "--engine and --opponent" in result.output


def test_cli_rejects_both_time_controls(tmp_path):
    result = CliRunner().invoke(match_command, ["--engine", "x", "--opponent", "y", "--move-time", "1",
                                             "--game-time", "60", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "not both" in result.output


def test_cli_rejects_fractional_seconds(tmp_path):
    """GTP 2 (section 6.3.3, time_settings): the times are integers; GNU Go refuses 0.5."""
    result = CliRunner().invoke(match_command, ["--engine", "x", "--opponent", "y", "--move-time", "0.5",
                                             "--out", str(tmp_path / "m")])
    assert result.exit_code == 2
    assert "whole seconds" in result.output and not (tmp_path / "m").exists()


@pytest.mark.parametrize("option, value, told", [
    ("move_time", 2, "time_settings 0 2 1"),
    ("game_time", 60, "time_settings 60 0 0"),
])
def test_time_settings_reach_both_engines(tmp_path, option, value, told):
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    settings = MatchSettings(5, 6.5, move_cap=6, **{option: value})
    Match(tmp_path / "match", [fake("--log", str(logs[0])), fake("--log", str(logs[1]))],
                ["a", "b"], settings, 1, referee=None, log=lambda line: None).run()
    for log in logs:
        commands = log.read_text().splitlines()
        assert commands[:4] == ["boardsize 5", "clear_board", "komi 6.5", told]
        genmoves = [i for i, c in enumerate(commands) if c.startswith("genmove")]
        assert len(genmoves) == 3
        if option == "game_time":  # each genmove is preceded by the time left on the clock
            assert all(commands[i - 1].startswith("time_left ") for i in genmoves)


def test_hang_timeout_follows_the_time_control():
    assert MatchSettings(move_time=2).genmove_timeout(None) > 2
    assert MatchSettings(game_time=60).genmove_timeout(30) == pytest.approx(30 + match_settings.TIMEOUT_MARGIN)
    assert MatchSettings(move_time=2, move_timeout=1).genmove_timeout(None) == 1


# ---------------------------------------------------------------------- the command
def test_match_help_through_the_command_without_loading_the_board():
    result = subprocess.run(MCGO + ["match", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for option in ("--engine", "--opponent", "--black", "--white", "--games", "--komi",
                   "--move-time", "--game-time", "--referee", "--scorer", "--jobs", "--parallel",
                   "--ray", "--plot", "--resume", "gnugo:LEVEL", "pachi", "mcgo:GTP-ARGS"):
        assert option in result.stdout
    # The command line is built without Numba, so that `mcgo --help` answers at once.
    probe = subprocess.run([sys.executable, "-c", "import sys, mcgo.cli; "
                            "print(sorted(m for m in ('numba', 'mcgo.board') if m in sys.modules))"],
                           capture_output=True, text=True, timeout=60)
    assert probe.stdout.strip() == "[]", probe.stderr


@pytest.mark.gnugo
def test_short_match_through_the_command(tmp_path, gnugo_command, gnugo):
    """Two 5x5 games of GNU Go level 1 against itself, through ``mcgo match``."""
    out = tmp_path / "match"
    result = subprocess.run(MCGO + ["match", "--engine", gnugo + " --level 1",
                                    "--opponent", gnugo + " --level 1", "--games", "2", "--size", "5",
                                    "--out", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["config"]["settings"]["komi"] == 7  # mcgo.options.DEFAULT_KOMI
    assert [(g["game"], g["black"]) for g in doc["games"]] == [(0, "engine"), (1, "opponent")]
    for record in doc["games"]:
        assert record["end"] in ("two passes", "resignation") and record["fault_engine"] is None
        sgf_path = extracted_sgf(out, record)
        game, board, nodes = replay_sgf(sgf_path)
        assert len(board.moves) == record["moves"] and game.get_komi() == 7
        assert game.get_root().get("RE") == record["result"]
        if record["end"] == "resignation":  # the loser's resignation is noted on the last node
            loser = "b" if record["result"] == "W+R" else "w"
            assert f"{loser} resigns after" in (nodes[-1] if nodes else game.get_root()).get("C")
        else:
            assert record["result"] == result_text(parse_score(gnugo_score_of_sgf(gnugo_command, sgf_path)))
    assert f"games 2 (decided {doc['summary']['decided']}" in result.stdout
    assert "95% Wilson" in result.stdout and "Elo engine - opponent" in result.stdout


@pytest.mark.gnugo
def test_handicap_match_counts_whites_compensation_as_the_referee(tmp_path, gnugo):
    """mcgo gives GNU Go three stones on 9x9 (``--handicap 3``, komi 0.5): every engine and
    the referee get ``fixed_handicap 3``, the record has them as ``HA``/``AB``, and at the end
    mcgo's own count (White's 3 points for the stones included, Chinese rules) is GNU Go's."""
    out = tmp_path / "match"
    result = subprocess.run(MCGO + ["match", "--black", gnugo + " --level 1 --never-resign",
                                    "--white", "mcgo:--playouts 100 --resign 0",
                                    "--handicap", "3", "--komi", "0.5", "--games", "1",
                                    "--size", "9", "--out", str(out)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["config"]["settings"]["handicap"] == 3
    record = doc["games"][0]
    assert record["end"] == "two passes" and record["handicap"] == 3
    assert record["scores"]["white_engine"] == record["scores"]["referee"].replace(".0", "")
    game = sgf.Sgf_game.from_bytes(extracted_sgf(out, record).read_bytes())
    assert game.get_handicap() == 3
    stones = {coords.to_gtp(p, 9) for p in fixed_points(9, 3)}
    assert {"ABCDEFGHJ"[c] + str(r + 1) for r, c in game.get_root().get_setup_stones()[0]} == stones


def test_cli_refuses_a_handicap_the_board_cannot_take(tmp_path):
    result = CliRunner().invoke(match_command, ["--engine", "x", "--opponent", "y", "--size", "5",
                                                "--handicap", "2", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "fixed_handicap on 5x5 takes no handicap stones" in result.output
