"""Every ``mcgo`` command-line error is one line saying what was wrong, with exit status 2
(click's convention for usage errors, which GNU tools share), found before any long work; and
every command and option explains itself with ``-h``."""

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from mcgo.cli import main


def commands(group=main, path=()):
    """``(path, command)`` of every command and group under ``mcgo``."""
    yield path, group
    if isinstance(group, click.Group):
        for name, sub in sorted(group.commands.items()):
            yield from commands(sub, path + (name,))


def one_line_error(args, says):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, (args, result.output)
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), (args, result.output)
    assert says in lines[0], (args, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def game(goban_games_dir):
    return str(sorted(goban_games_dir.glob("*.sgf"))[0])


@pytest.mark.parametrize("path", [p for p, _ in commands()], ids=lambda p: " ".join(p) or "mcgo")
def test_dash_h_works_everywhere(path):
    result = CliRunner().invoke(main, [*path, "-h"], prog_name="mcgo")
    assert result.exit_code == 0 and result.output.startswith("Usage: mcgo"), result.output


def test_every_option_has_help_text():
    bare = [(" ".join(path), p.opts[0]) for path, command in commands()
            for p in command.params
            if isinstance(p, click.Option) and not p.hidden and not p.help]
    assert bare == []


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf"])
def test_bench_needs_a_positive_finite_time(seconds):
    one_line_error(["bench", "--seconds", seconds], "--seconds")


@pytest.mark.parametrize("seconds", ["0", "nan", "inf", "-inf"])
@pytest.mark.parametrize("command", ["gtp", "play"])
def test_engine_time_must_be_positive_and_finite(command, seconds):
    one_line_error([command, "--seconds", seconds], "--seconds")


@pytest.mark.parametrize("komi", ["nan", "inf"])
def test_komi_must_be_finite(komi):
    one_line_error(["gtp", "--komi", komi], "--komi")


@pytest.mark.parametrize("visits", ["x", "-1", "nan", "Auto"])
def test_ownership_prior_is_a_number_or_auto(visits):
    one_line_error(["gtp", "--ownership-prior", visits], "--ownership-prior")


def test_pictures_into_a_missing_folder_fail_before_drawing(game, tmp_path):
    missing = tmp_path / "missing" / "x.png"
    one_line_error(["influence", game, "-o", str(missing)], "no folder")
    one_line_error(["ownership", game, "-o", str(missing)], "no folder")
    one_line_error(["influence", game, "-o", str(tmp_path)], "--output")


def test_build_casebase_checks_its_output_before_indexing(goban_games_dir, tmp_path):
    result = CliRunner().invoke(main, ["build-casebase", str(goban_games_dir), "-o",
                                       str(tmp_path / "missing" / "x.mcgocb")])
    assert result.exit_code == 2 and "indexing" not in result.output, result.output
    assert result.output.count("\n") == 1 and "no folder" in result.output


def test_a_missing_extra_is_one_line(game, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)    # import matplotlib now fails
    line = one_line_error(["influence", game, "-o", str(tmp_path / "x.png")], "matplotlib")
    assert "pip install 'mcgo-engine[plot]'" in line
    assert not (tmp_path / "x.png").exists()


def test_unknown_commands_and_options_are_one_line():
    one_line_error(["nosuch"], "nosuch")
    one_line_error(["gtp", "--nosuch"], "--nosuch")
    one_line_error(["play", "--policy", "nosuch"], "--policy")


def test_the_installed_command_exits_2_in_one_line():
    """The same through the real entry point (``python -m mcgo``), stderr only."""
    done = subprocess.run([sys.executable, "-m", "mcgo", "bench", "--seconds", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("Error: ")


@pytest.mark.parametrize("args,says", [
    (["-config", "no-such.cfg"], "no-such.cfg"),
    (["-override-config", "maxVisits"], "KEY=VALUE"),
    (["-override-config", "maxVisits=many"], "config value"),
    (["-override-config", "reportAnalysisWinratesAs=RED"], "reportAnalysisWinratesAs"),
    (["-analysis-threads", "0"], "-analysis-threads"),
])
def test_analysis_checks_katagos_command_line_first(args, says):
    one_line_error(["analysis", *args], says)
