# SPDX-License-Identifier: GPL-3.0-or-later
"""Engines named by short names (gnugo, pachi), and how a match records them: by name, so a
record holds no path of the machine, and an older record that held a path still resumes."""

import json
import shlex
import sys
import zipfile

import pytest
from click.testing import CliRunner
from sgfmill import sgf

from mcgo.board.board import result_text
from mcgo.match import opponents
from mcgo.match.archive import match_games
from mcgo.match import settings as match_settings
from mcgo.match.commands import match as match_command
from mcgo.match.results import MatchError, check_same_match
from mcgo.match.runner import Match
from mcgo.match.scoring import parse_score
from mcgo.match.settings import DEFAULT_REFEREE, MatchSettings

from match_helpers import fake, gnugo_score_of_sgf, extracted_sgf, quick_settings


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
