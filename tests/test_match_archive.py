# SPDX-License-Identifier: GPL-3.0-or-later
"""A match's games as they end: the running win-rate chart, the archive of finished games,
a match or a worker killed mid-game (locally and on a Ray cluster), and each game's seed."""

import csv
import json
import os
import pathlib
import shlex
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner
from sgfmill import sgf

from mcgo.board.board import result_text
from mcgo.match.archive import GAMES_ARCHIVE, match_games
from mcgo.match.commands import match as match_command
from mcgo.match.runner import Match
from mcgo.sgf.sources import input_files, iter_inputs
from mcgo.stats import wilson_interval

from match_helpers import MCGO, fake, extracted_sgf, archived_games, replay_sgf, cli_args, quick_settings, quick_match


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


def test_ray_task_past_a_games_longest_time_is_cancelled_and_stays_pending(tmp_path, ray_runtime,
                                                                           monkeypatch):
    """A task that neither returns nor fails (a worker lost without Ray noticing: the hang
    CI once met) fails the match's wait once a healthy game could not take longer, instead
    of holding the match for ever. Here the bound is made shorter than a slow game."""
    from mcgo.match.settings import MatchSettings
    monkeypatch.setattr(MatchSettings, "game_timeout", lambda self: 1.0)
    slow = fake("--delay", "0.5")      # ten moves: five seconds
    match, doc, log = quick_match(tmp_path / "match", [slow, slow], 1, ray="auto")
    assert doc["games"] == [] and match.pending_games() == [0]
    assert sum("game 0: its task failed (no result within 1 s" in line for line in log) == 1, log
    assert any(line.startswith("game 0 not recorded (it stays pending for --resume)") for line in log)


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
