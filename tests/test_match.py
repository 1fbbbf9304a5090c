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
import pathlib
import shlex
import signal
import subprocess
import sys
import time
import zipfile

import pytest
from click.testing import CliRunner
from sgfmill import sgf

from mcgo import Board
from mcgo.board.board import result_text
from mcgo.gtp.controller import GtpEngine
from mcgo.match import opponents
from mcgo.match.archive import GAMES_ARCHIVE, game_sgf, match_games
from mcgo.match import settings as match_settings
from mcgo.match.commands import match as match_command
from mcgo.match.results import MatchError, check_same_match
from mcgo.match.runner import Match
from mcgo.match.scoring import parse_score
from mcgo.match.settings import DEFAULT_REFEREE, MatchSettings
from mcgo.sgf.sources import input_files, iter_inputs
from mcgo.stats import elo_difference, wilson_interval

FAKE_ENGINE = pathlib.Path(__file__).resolve().parent / "fake_engine.py"
MCGO = [sys.executable, "-m", "mcgo"]
INTERRUPT_WAIT = 60.0  # seconds to wait for the first game of the interrupted match


def fake(*args):
    return " ".join(shlex.quote(a) for a in [sys.executable, str(FAKE_ENGINE), *args])


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


def gnugo_score_of_sgf(gnugo_command, sgf_path):
    """GNU Go's own final_score of a saved game: an independent check of SGF and result."""
    with GtpEngine(gnugo_command + ["--capture-all-dead"]) as engine:
        engine.send(f"loadsgf {sgf_path}")
        return engine.send("final_score")


def extracted_sgf(folder, record):
    """A finished game of a match folder, taken out of its archive into a file of its own
    (for GNU Go's ``loadsgf``)."""
    path = pathlib.Path(folder) / f"extracted-{record['game']:04d}.sgf"
    path.write_bytes(game_sgf(folder, record["sgf"]))
    return path


def archived_games(folder):
    """The names of the games in a match folder's archive."""
    return [name for name, _ in match_games(folder)]


def replay_sgf(path):
    """Replay a saved game on mcgo's Board (raises IllegalMove if a move is illegal)."""
    game = sgf.Sgf_game.from_bytes(pathlib.Path(path).read_bytes())
    board = Board(game.get_size(), komi=game.get_komi())
    nodes = game.get_main_sequence()[1:]
    for node in nodes:
        colour, move = node.get_move()
        if colour is None:
            continue
        color = Board.BLACK if colour == "b" else Board.WHITE
        board.play("pass" if move is None else f"{'ABCDEFGHJKLMNOPQRSTUVWXYZ'[move[1]]}{move[0] + 1}",
                   color)
    return game, board, nodes


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
def cli_args(out, games, *extra):
    """Options of a quick match between two fakes that ends every game at the move cap."""
    return ["--engine", fake("--delay", "0.1", "--seed", "1"),
            "--opponent", fake("--delay", "0.1", "--seed", "2"), "--size", "5", "--move-cap", "10",
            "--scorer", "tromp-taylor", "--no-ask-engines", "--games", str(games), "--out", str(out),
            *extra]


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


# ------------------------------------------------------------------ engines by name
@pytest.fixture
def built_pachi(tmp_path, monkeypatch):
    """A stand-in Pachi binary (an executable file in a folder of its own) named by MCGO_PACHI."""
    folder = tmp_path / "pachi-build"
    folder.mkdir()
    binary = folder / "pachi"
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(0o755)
    monkeypatch.setenv(opponents.PACHI_ENV, str(binary))
    return binary


def test_short_names_resolve_to_their_commands(built_pachi):
    per_move, per_game, untimed = (MatchSettings(9, move_time=1), MatchSettings(9, game_time=300),
                                   MatchSettings(9))
    gnugo = opponents.resolve_engine("gnugo", untimed)
    assert gnugo.label == "gnugo" and gnugo.cwd is None
    assert shlex.split(gnugo.command) == [match_settings.GNUGO, "--mode", "gtp", "--level", "10",
                                          "--chinese-rules", "--positional-superko"]
    assert shlex.split(opponents.resolve_engine("gnugo:1", untimed).command)[3:5] == ["--level", "1"]
    assert gnugo.recorded == "gnugo --mode gtp --level 10 --chinese-rules --positional-superko"
    mcgo = opponents.resolve_engine("mcgo:--playouts 300 --quiet", untimed)
    assert shlex.split(mcgo.command) == [sys.executable, "-m", "mcgo", "gtp", "--quiet",
                                         "--playouts", "300", "--quiet"]
    # Pachi keeps 2 s of each move for lag: 1 s a move is -t 3, 300 s a game is -t _302.
    pachi = opponents.resolve_engine("pachi", per_move)
    assert shlex.split(pachi.command) == [str(built_pachi), "-t", "3", "threads=1,pondering=0"]
    assert pachi.cwd == str(built_pachi.parent) and pachi.label == "pachi"
    assert pachi.recorded == "pachi -t 3 threads=1,pondering=0"   # where it is built stays out
    assert shlex.split(opponents.resolve_engine("pachi", per_game).command)[1:3] == ["-t", "_302"]
    assert shlex.split(opponents.resolve_engine("pachi:resign_threshold=0.1", MatchSettings(9, move_time=2))
                       .command)[1:] == ["-t", "4", "threads=1,pondering=0", "resign_threshold=0.1"]
    assert "-t" not in shlex.split(opponents.resolve_engine("pachi", untimed).command)
    # Anything else is a command, as before.
    plain = opponents.resolve_engine("gnugo --mode gtp --level 3", untimed)
    assert (plain.command, plain.label, plain.cwd) == ("gnugo --mode gtp --level 3", None, None)
    with pytest.raises(opponents.EngineNameError, match="whole number"):
        opponents.resolve_engine("gnugo:ten", untimed)


def test_pachi_on_the_path_is_found_when_mcgo_pachi_is_unset(tmp_path, monkeypatch):
    folder = tmp_path / "bin"
    folder.mkdir()
    binary = folder / "pachi"
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(0o755)
    monkeypatch.delenv(opponents.PACHI_ENV, raising=False)
    monkeypatch.setenv("PATH", str(folder))
    spec = opponents.resolve_engine("pachi", MatchSettings(9))
    assert shlex.split(spec.command)[0] == str(binary) and spec.cwd == str(folder)


@pytest.mark.parametrize("where", ["MCGO_PACHI names nothing", "neither MCGO_PACHI nor PATH"])
def test_missing_pachi_is_a_one_line_error_before_any_game(tmp_path, monkeypatch, where):
    """Pachi is the user's to build: the error says where to get it and how to name it."""
    if where == "MCGO_PACHI names nothing":
        monkeypatch.setenv(opponents.PACHI_ENV, str(tmp_path / "not-built" / "pachi"))
    else:
        monkeypatch.delenv(opponents.PACHI_ENV, raising=False)
        monkeypatch.setenv("PATH", str(tmp_path))     # no pachi there
    out = tmp_path / "match"
    result = CliRunner().invoke(match_command, ["--engine", fake(), "--opponent", "pachi",
                                                "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "https://github.com/pasky/pachi" in result.output and "MCGO_PACHI" in result.output
    assert not out.exists()


def test_labels_default_to_short_names_and_results_keep_the_commands(tmp_path, built_pachi):
    # A stand-in pachi cannot play: stop right after naming (an unknown plot suffix).
    result = CliRunner().invoke(match_command, ["--engine", "gnugo:1", "--opponent", "pachi",
                                                "--plot", str(tmp_path / "x.gif"),
                                                "--out", str(tmp_path / "m")])
    assert result.exit_code == 2 and "--plot writes .png or .svg" in result.output
    out = tmp_path / "m2"
    result = CliRunner().invoke(match_command, ["--engine", fake("--seed", "3"), "--opponent", "mcgo:--playouts 50",
                                                "--size", "5", "--move-cap", "4", "--games", "1",
                                                "--scorer", "tromp-taylor", "--no-ask-engines",
                                                "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "results.json").read_text())
    assert doc["config"]["labels"] == ["engine", "mcgo:--playouts 50"]
    # The records name the interpreter, not where this machine keeps it (nor its folders).
    assert doc["config"]["engines"]["mcgo:--playouts 50"]["command"] == \
        doc["config"]["commands"]["mcgo:--playouts 50"] == "python -m mcgo gtp --quiet --playouts 50"
    with zipfile.ZipFile(out / "games.zip") as archive:
        sgf_text = archive.read(archive.namelist()[0]).decode()
    assert "white: mcgo:--playouts 50: python -m mcgo gtp --quiet --playouts 50" in sgf_text
    game = doc["games"][0]
    assert game["white"] == "mcgo:--playouts 50" and game["moves_by"]["mcgo:--playouts 50"] == 2
    assert game["fault_engine"] is None


@pytest.mark.gnugo
def test_gnugo_by_short_name_plays_a_game(tmp_path, gnugo_command):
    out = tmp_path / "match"
    result = CliRunner().invoke(match_command, ["--engine", "gnugo:1", "--opponent", fake("--moves", "6"),
                                                "--size", "5", "--games", "1", "--move-cap", "20",
                                                "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "results.json").read_text())
    game = doc["games"][0]
    assert (game["black"], game["white"]) == ("gnugo:1", "opponent")
    assert game["fault_engine"] is None and game["moves_by"]["gnugo:1"] >= 1
    assert doc["config"]["engines"]["gnugo:1"]["given"] == "gnugo:1"
    assert shlex.split(doc["config"]["commands"]["gnugo:1"])[1:] == \
        ["--mode", "gtp", "--level", "1", "--chinese-rules", "--positional-superko"]
    if game["end"] == "two passes":  # GNU Go scoring the saved game agrees with the record
        assert game["result"] == result_text(parse_score(gnugo_score_of_sgf(gnugo_command, extracted_sgf(out, game))))


# Where the records made before GNU Go was recorded by name kept it (Debian's gnugo package).
OLD_GNUGO_PATH = "/usr/games/gnugo"


def with_gnugo_path(command, path=OLD_GNUGO_PATH):
    """A recorded GNU Go command as the older records kept it: started by its path."""
    words = shlex.split(command)
    assert words[0] == "gnugo", command
    return shlex.join([path, *words[1:]])


def holds_no_path_of_gnugo(text):
    return match_settings.GNUGO not in text and OLD_GNUGO_PATH not in text


def test_referee_is_recorded_by_name_and_a_record_with_its_path_resumes(tmp_path):
    """The referee is recorded as ``gnugo --mode gtp ...`` (the match runs it by its path);
    a results.json saved with the path, as the older records were, resumes, and so does one
    saved in the new form. A changed referee is still refused."""
    out = tmp_path / "match"
    commands = [fake("--seed", "1"), fake("--seed", "2")]

    def match(games, referee=DEFAULT_REFEREE):
        return Match(out, commands, ["engine", "opponent"], quick_settings(), games, referee=referee,
                     scorer="tromp-taylor", ask_engines=False, resume=True, log=lambda line: None)

    assert shlex.split(DEFAULT_REFEREE)[0] == match_settings.GNUGO   # what runs: the path
    first = match(1).run()
    recorded = first["config"]["referee"]
    assert shlex.split(recorded) == ["gnugo", *shlex.split(DEFAULT_REFEREE)[1:]]
    assert holds_no_path_of_gnugo((out / "results.json").read_text())

    saved = json.loads((out / "results.json").read_text())
    for path in (OLD_GNUGO_PATH, "/opt/gnugo-3.8/bin/gnugo"):   # saved here, or elsewhere
        saved["config"]["referee"] = with_gnugo_path(recorded, path)
        (out / "results.json").write_text(json.dumps(saved))
        assert match(1).pending_games() == []
    resumed = match(2).run()                     # plays game 1, rewrites the record
    assert [g["game"] for g in resumed["games"]] == [0, 1]
    assert resumed["games"][0] == first["games"][0]
    assert resumed["config"]["referee"] == recorded
    assert holds_no_path_of_gnugo((out / "results.json").read_text())
    assert match(2).pending_games() == []        # the new form resumes too
    with pytest.raises(MatchError, match="referee"):
        match(2, referee=DEFAULT_REFEREE.replace("--capture-all-dead", ""))


def test_engines_are_compared_as_recorded_on_resume():
    """A saved gnugo engine's command with GNU Go's path equals the one recorded by name;
    another level, or another program at that path's folder, is another match."""
    settings = MatchSettings(9)
    saved = {"commands": {"gnugo": with_gnugo_path(opponents.resolve_engine("gnugo", settings).recorded),
                          "mcgo": "python -m mcgo gtp --quiet"},
             "referee": with_gnugo_path(match_settings.recorded_command(DEFAULT_REFEREE))}
    asked = {"commands": {"gnugo": opponents.resolve_engine("gnugo", settings).recorded,
                          "mcgo": "python -m mcgo gtp --quiet"},
             "referee": match_settings.recorded_command(DEFAULT_REFEREE)}
    check_same_match(saved, asked)
    check_same_match(asked, asked)
    other_level = dict(asked, commands=dict(asked["commands"],
                                            gnugo=opponents.resolve_engine("gnugo:9", settings).recorded))
    with pytest.raises(MatchError, match="commands"):
        check_same_match(saved, other_level)
    wrapper = dict(saved, commands=dict(saved["commands"], gnugo=saved["commands"]["gnugo"].replace(
        "/gnugo ", "/gnugo-wrapper ", 1)))
    with pytest.raises(MatchError, match="commands"):
        check_same_match(wrapper, asked)


@pytest.mark.gnugo
def test_gnugo_engine_is_recorded_by_name_and_its_old_record_resumes(tmp_path, gnugo_command):
    """``gnugo:1`` runs GNU Go by its path but results.json, results.csv and the SGFs name it
    ``gnugo --mode gtp --level 1 ...``; a record saved with the path (engine and referee)
    resumes through ``mcgo match --resume``."""
    out = tmp_path / "match"
    args = ["--engine", "gnugo:1", "--opponent", fake("--moves", "6"), "--size", "5",
            "--move-cap", "20", "--out", str(out)]
    first = CliRunner().invoke(match_command, args + ["--games", "1"])
    assert first.exit_code == 0, first.output
    doc = json.loads((out / "results.json").read_text())
    recorded = "gnugo --mode gtp --level 1 --chinese-rules --positional-superko"
    assert doc["config"]["commands"]["gnugo:1"] == doc["config"]["engines"]["gnugo:1"]["command"] == recorded
    assert doc["config"]["referee"] == match_settings.recorded_command(DEFAULT_REFEREE)
    [(_, sgf_bytes)] = match_games(out)
    root = sgf.Sgf_game.from_bytes(sgf_bytes).get_root()
    assert f"gnugo:1: {recorded}" in root.get("C") and root.get("PB") == "gnugo:1"
    for text in ((out / "results.json").read_text(), (out / "results.csv").read_text(),
                 sgf_bytes.decode()):
        assert holds_no_path_of_gnugo(text)

    config = doc["config"]
    config["commands"]["gnugo:1"] = config["engines"]["gnugo:1"]["command"] = with_gnugo_path(recorded)
    config["referee"] = with_gnugo_path(config["referee"])
    (out / "results.json").write_text(json.dumps(doc))
    resumed = CliRunner().invoke(match_command, args + ["--games", "2", "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert "1 games already played, 1 to go" in resumed.output
    again = json.loads((out / "results.json").read_text())
    assert [g["game"] for g in again["games"]] == [0, 1]
    assert again["config"]["commands"]["gnugo:1"] == recorded
    assert holds_no_path_of_gnugo((out / "results.json").read_text())


@pytest.mark.slow
def test_pachi_by_short_name_thinks_about_the_move_time(tmp_path):
    """Pachi ($MCGO_PACHI or on PATH), from its own folder: at 1 s a move (-t 3, its lag
    reserve added) it answers every move in about a second."""
    try:
        opponents.pachi_binary()
    except opponents.EngineNameError as exc:
        pytest.skip(str(exc))
    settings = MatchSettings(5, move_time=1, move_cap=6)
    spec = opponents.resolve_engine("pachi", settings)
    doc = Match(tmp_path, [fake("--moves", "3"), spec.command], ["fake", "pachi"], settings, 1,
                referee=None, scorer="tromp-taylor", ask_engines=False, cwds=[None, spec.cwd],
                log=lambda line: None).run()
    game = doc["games"][0]
    assert game["fault_engine"] is None and game["moves_by"]["pachi"] == 3
    assert 0.5 < game["time"]["pachi"] / game["moves_by"]["pachi"] < 1.6


# ------------------------------------------------------------------------------ plot
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_running_win_rate_follows_the_games_in_finishing_order():
    from mcgo.match.plot import running_win_rate
    games = [{"game": 0, "finished": 30.0, "result": "W+R", "winner": "b"},
             {"game": 1, "finished": 10.0, "result": "B+3", "winner": "a"},
             {"game": 2, "finished": 20.0, "result": "0", "winner": None},
             {"game": 3, "finished": 25.0, "result": "?", "winner": None}]  # unknown: left out
    rows = running_win_rate(games, "a")
    assert [(n, rate) for n, rate, _, _ in rows] == [(1, 1.0), (2, 0.75), (3, 0.5)]
    # Wilson's interval by hand for 1.5 points in 3 games, z = 1.96, z^2 = 3.8416:
    # centre (0.5 + z^2/6) / (1 + z^2/3) = 1.1403 / 2.2805 = 0.5,
    # half z / (1 + z^2/3) * sqrt(0.25/3 + z^2/36) = 0.8595 * sqrt(0.0833 + 0.1067) = 0.3747
    assert rows[-1][2:] == pytest.approx((0.5 - 0.3747, 0.5 + 0.3747), abs=5e-4)
    assert all(row[2:] == pytest.approx(wilson_interval(row[1] * row[0], row[0])) for row in rows)


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_is_drawn_after_the_match(tmp_path, suffix):
    pytest.importorskip("matplotlib")  # in the test extra
    chart = tmp_path / f"win-rate{suffix}"
    result = CliRunner().invoke(match_command, cli_args(tmp_path / "match", 3, "--plot", str(chart)))
    assert result.exit_code == 0, result.output
    games = json.loads((tmp_path / "match" / "results.json").read_text())["games"]
    data = chart.read_bytes()
    if suffix == ".png":
        assert data.startswith(PNG_SIGNATURE)
        import matplotlib.image
        height, width, _ = matplotlib.image.imread(chart).shape
        assert width > 300 and height > 200
    else:
        import xml.etree.ElementTree as ElementTree
        assert ElementTree.fromstring(data).tag == "{http://www.w3.org/2000/svg}svg"
    # The title states the last point of the curve: mcgo.stats on the recorded games.
    points = sum(1.0 if g["winner"] == "engine" else 0.5 if g["winner"] is None else 0 for g in games)
    low, high = wilson_interval(points, 3)
    title = f"{points / 3:.3f} [{low:.3f}, {high:.3f}] after 3 games"
    if suffix == ".svg":  # its text is kept as text
        assert f"engine vs opponent: {title}" in data.decode()
    else:
        assert "running win rate drawn in" in result.output


def test_plot_without_matplotlib_is_a_one_line_error_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    out = tmp_path / "match"
    result = CliRunner().invoke(match_command, cli_args(out, 2, "--plot", str(tmp_path / "p.png")))
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "matplotlib" in result.output and not out.exists()


# ------------------------------------------------------- killed workers, Ray cluster
def quick_settings():
    return MatchSettings(5, 7.5, move_cap=10)


def quick_match(out, commands, games, **options):
    """A match of fakes that ends every game at the move cap, counted Tromp-Taylor."""
    log = []
    match = Match(out, commands, ["engine", "opponent"], quick_settings(), games, referee=None,
                  scorer="tromp-taylor", ask_engines=False, log=log.append, **options)
    return match, match.run(), log


def test_finished_games_land_in_the_archive_and_resume_skips_them(tmp_path):
    """Each finished game is a member of the folder's games.zip as soon as it ends (no loose
    SGF files); --resume plays only the games the results lack, and a game that reached the
    archive but not results.json (a crash between the two) is played again and replaced,
    not doubled."""
    out = tmp_path / "match"
    commands = [fake("--seed", "1"), fake("--seed", "2")]
    _, first, _ = quick_match(out, commands, 2)
    names = [f"{GAMES_ARCHIVE}/game-0000.sgf", f"{GAMES_ARCHIVE}/game-0001.sgf"]
    assert [g["sgf"] for g in first["games"]] == names == archived_games(out)
    assert not (out / "games").exists()
    kept = dict(match_games(out))
    for record in first["games"]:  # sgfmill reads each member back as the game recorded
        game = sgf.Sgf_game.from_bytes(kept[record["sgf"]])
        assert len(game.get_main_sequence()) - 1 == record["moves"] == 10
        assert game.get_root().get("RE") == record["result"]

    _, resumed, log = quick_match(out, commands, 3, resume=True)
    assert "2 games already played, 1 to go" in log[0]
    assert [g["game"] for g in resumed["games"]] == [0, 1, 2]
    assert archived_games(out) == names + [f"{GAMES_ARCHIVE}/game-0002.sgf"]
    assert all(dict(match_games(out))[name] == kept[name] for name in names)  # untouched

    document = json.loads((out / "results.json").read_text())
    document["games"] = document["games"][:2]   # game 2 archived, its results never written
    (out / "results.json").write_text(json.dumps(document))
    _, again, log = quick_match(out, commands, 3, resume=True)
    assert "2 games already played, 1 to go" in log[0]
    assert archived_games(out) == names + [f"{GAMES_ARCHIVE}/game-0002.sgf"]
    assert again["games"][2]["sgf"] == f"{GAMES_ARCHIVE}/game-0002.sgf"
    # The bulk readers (build-casebase, mcgo learn) take the folder and read the archive.
    files, _ = input_files([out])
    read = {name: data for name, data, error, _ in iter_inputs(files, root=out) if name}
    assert read == dict(match_games(out))


def test_match_process_killed_mid_game_keeps_its_finished_games(tmp_path):
    """An engine kills the ``mcgo match`` process itself (two games at a time) in the middle of
    a game: the games finished before are all on disk, the killed one is pending, and
    --resume plays exactly the missing games."""
    out = tmp_path / "match"
    killer = fake("--delay", "0.05", "--fault", "kill-parent", "--fault-at", "8",  # its 2nd game
                  "--fault-once", str(tmp_path / "killed"))
    args = ["--engine", killer, "--opponent", fake("--delay", "0.05"), "--size", "5", "--move-cap", "10",
            "--scorer", "tromp-taylor", "--no-ask-engines", "--games", "4", "--jobs", "2", "--out", str(out)]
    process = subprocess.run(MCGO + ["match"] + args, capture_output=True, text=True, timeout=120,
                             start_new_session=True)
    assert process.returncode == -signal.SIGKILL, process.stderr
    saved = json.loads((out / "results.json").read_text())["games"]
    assert 1 <= len(saved) <= 3
    for record in saved:  # each kept game is whole: SGF replayed to its last move
        assert record["end"] == "move cap" and record["fault_engine"] is None
        game, board, _ = replay_sgf(extracted_sgf(out, record))
        assert len(board.moves) == record["moves"] == 10 and game.get_root().get("RE") == record["result"]
    assert archived_games(out) == sorted(g["sgf"] for g in saved)
    assert len(list(csv.DictReader(open(out / "results.csv")))) == len(saved)
    pending = sorted({0, 1, 2, 3} - {g["game"] for g in saved})

    resumed = CliRunner().invoke(match_command, args + ["--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert f"{len(saved)} games already played, {len(pending)} to go" in resumed.output
    doc = json.loads((out / "results.json").read_text())
    assert [g["game"] for g in doc["games"]] == [0, 1, 2, 3]
    by_id = {g["game"]: g for g in doc["games"]}
    assert all(by_id[g["game"]] == g for g in saved)


def test_ray_games_are_kept_as_the_local_path_keeps_them(tmp_path, ray_runtime):
    commands = [fake("--seed", "1"), fake("--seed", "2")]
    _, local, _ = quick_match(tmp_path / "local", commands, 4, jobs=2)
    _, remote, log = quick_match(tmp_path / "ray", commands, 4, ray="auto")
    assert remote["config"] == local["config"]
    assert [g["game"] for g in remote["games"]] == [0, 1, 2, 3]
    assert [(g["black"], g["white"]) for g in remote["games"]] == \
        [(g["black"], g["white"]) for g in local["games"]]
    for mine, theirs in zip(remote["games"], local["games"]):
        assert set(mine) == set(theirs) and mine["end"] == "move cap" and mine["fault_engine"] is None
        game, board, _ = replay_sgf(extracted_sgf(tmp_path / "ray", mine))
        assert len(board.moves) == mine["moves"] == 10
        assert game.get_root().get("RE") == mine["result"] == result_text(board.score())
    assert set(remote["summary"]) == set(local["summary"]) and remote["summary"]["decided"] == 4
    for name in ("results.csv",):
        ours, theirs = (list(csv.reader(open(tmp_path / d / name))) for d in ("ray", "local"))
        assert ours[0] == theirs[0] and len(ours) == len(theirs) == 5
    assert len(log) == 4 and all(line.startswith("game ") for line in log)


def test_ray_worker_killed_mid_game_is_tried_again(tmp_path, ray_runtime):
    killer = fake("--fault", "kill-parent", "--fault-at", "2", "--fault-once", str(tmp_path / "killed"))
    _, doc, log = quick_match(tmp_path / "match", [killer, fake()], 4, ray="auto")
    assert (tmp_path / "killed").exists()  # a worker was killed ...
    assert any("its task failed" in line and "trying again" in line for line in log), log
    assert [g["game"] for g in doc["games"]] == [0, 1, 2, 3]  # ... and every game was played
    assert all(g["fault_engine"] is None and g["moves"] == 10 for g in doc["games"])


def test_ray_game_whose_worker_dies_twice_stays_pending(tmp_path, ray_runtime):
    # The killer kills its worker at its first move as black: game 0 dies twice, game 1 finishes.
    killer = fake("--fault", "kill-parent", "--fault-color", "b", "--fault-at", "1")
    match, doc, log = quick_match(tmp_path / "match", [killer, fake()], 2, ray="auto")
    assert [g["game"] for g in doc["games"]] == [1]
    assert doc["games"][0]["fault_engine"] is None and doc["games"][0]["moves"] == 10
    assert sum("game 0: its task failed" in line for line in log) == 1
    assert any(line.startswith("game 0 not recorded (it stays pending for --resume)") for line in log)
    assert match.pending_games() == [0]
    resumed = Match(tmp_path / "match", [killer, fake()], ["engine", "opponent"], quick_settings(), 2,
                    referee=None, scorer="tromp-taylor", ask_engines=False, resume=True, log=lambda line: None)
    assert resumed.pending_games() == [0]


def test_ray_missing_is_a_one_line_error_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    out = tmp_path / "match"
    result = CliRunner().invoke(match_command, cli_args(out, 2, "--ray", "auto"))
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "mcgo-engine[cluster]" in result.output and not out.exists()


@pytest.mark.parametrize("address, says", [("127.0.0.1:1", "nothing answers there"),
                                            ("no-port-here", "HOST:PORT")])
def test_ray_address_without_a_cluster_is_a_one_line_error_before_any_game(tmp_path, address, says):
    """As a user runs it, in a process of its own: the session's local Ray runtime of the
    tests above (and its workers' last words) is no part of what this command prints."""
    pytest.importorskip("ray")
    out = tmp_path / "match"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(pathlib.Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH"))
        if p))
    result = subprocess.run([sys.executable, "-m", "mcgo", "match",
                             *cli_args(out, 2, "--ray", address)],
                            capture_output=True, text=True, env=env, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 2 and output.count("\n") == 1, output
    assert says in output and not out.exists()


def test_a_game_has_its_own_seed_whichever_process_plays_it():
    """A fixed-simulation engine replays its first game exactly in a fresh process (a
    resumed match used to repeat its first games): the runner now gives each game its seed
    through GoGui's ``set_random_seed``, so game 2 differs from game 0 with the same colours,
    and game 0 in a fresh process is game 0 again."""
    from mcgo.match.engines import Seat
    from mcgo.match.runner import play_game
    from mcgo.match.settings import MatchSettings
    command = f"{shlex.quote(sys.executable)} -m mcgo gtp --quiet --playouts 40 --threads 1"
    settings = MatchSettings(size=7, komi=7.5)

    def moves(game_id):
        black, white = Seat("a", command), Seat("b", command)
        try:
            _, board, _ = play_game(game_id, black, white, settings, scorer="tromp-taylor",
                                    ask_engines=False)
            return list(board.moves)
        finally:
            black.close()
            white.close()

    first = moves(0)
    assert moves(0) == first
    assert moves(2) != first
