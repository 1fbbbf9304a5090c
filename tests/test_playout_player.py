# SPDX-License-Identifier: GPL-3.0-or-later
"""The playout policy as a player (``--player playout``, Fuego's ``uct_param_player search_mode
playout_policy``), against the moves Fuego's ``playout_*.tst`` files expect of a playout
policy."""

import subprocess
import sys

import pytest

from helpers import Session, fails
from mcgo.match.regress import read_tst

# Fuego's tests of its playout policy's atari defence and nakade, and of its 2-liberty rules
# where the rule is to extend or capture: (file, test number). mcgo's pattern playout has
# these rules; the other tests of the files ask for rules it lacks (Fuego's global capture,
# its 2-liberty approach moves), and the search answers more of them (benchmarks/journal/).
FUEGO_PLAYOUT_TESTS = [("playout_atari_capture.tst", 110), ("playout_atari_capture.tst", 120),
                       ("playout_atari_capture.tst", 140), ("playout_nakade.tst", 10),
                       ("playout_nakade.tst", 30), ("playout_2_liberties.tst", 30),
                       ("playout_2_liberties.tst", 60), ("playout_2_liberties.tst", 80)]


def fuego_test(directory, name, number):
    """The file's ``loadsgf`` before test ``number`` (its path made absolute), the test's
    command and its expectation."""
    loadsgf = None
    for step in read_tst(directory / name):
        if step.command.startswith("loadsgf"):
            loadsgf = step.command
        if step.test_id == number:
            return loadsgf, step.command, step.expectation
    raise LookupError(f"{name} has no test {number}")


@pytest.mark.parametrize("name, number", FUEGO_PLAYOUT_TESTS)
def test_plays_the_move_fuego_expects_of_its_playout_policy(fuego_regression_dir, name, number):
    loadsgf, command, expectation = fuego_test(fuego_regression_dir, name, number)
    assert "search_mode playout_policy" in (fuego_regression_dir / name).read_text()
    assert not expectation.expected_fail
    session = Session(size=9, seed=1)
    session.send("uct_param_player search_mode playout_policy")
    session.send(loadsgf)
    assert expectation.matches(session.send(command))


def test_uct_param_player_switches_between_search_and_playouts():
    session = Session(size=9, seed=1)
    assert session.send("uct_param_player") == "resign_threshold 0.1\nsearch_mode uct"
    assert fails(session, "uct_param_player max_games 1000") == "unsupported parameter max_games"
    session.send("uct_param_player resign_threshold 0")                 # never resign
    assert session.engine.game.player.resign == 0.0
    assert fails(session, "uct_param_player resign_threshold 2") == \
        "resign_threshold must be a win rate from 0 to 1, not 2"
    assert fails(session, "uct_param_player search_mode fast") == \
        "search_mode must be uct or playout_policy, not fast"
    session.send("uct_param_player search_mode playout_policy")
    assert session.send("uct_param_player").endswith("\nsearch_mode playout_policy")
    session.send("uct_param_player search_mode uct")
    assert session.send("uct_param_player").endswith("\nsearch_mode uct")
    assert session.engine.game.move_player is None              # genmove searches again


def test_player_playout_on_the_command_line(fuego_regression_dir):
    """``mcgo gtp --player playout`` answers Fuego's atari-defence test without being told
    the search mode."""
    loadsgf, command, expectation = fuego_test(fuego_regression_dir, "playout_atari_capture.tst", 110)
    script = f"boardsize 9\n{loadsgf}\nuct_param_player\n{command}\nquit\n"
    proc = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--quiet", "--player", "playout"],
                          input=script.encode(), capture_output=True, timeout=300)
    replies = [reply for reply in proc.stdout.decode().split("\n\n") if reply.strip()]
    assert proc.returncode == 0 and all(r.startswith("=") for r in replies)
    answers = [reply[1:].strip() for reply in replies]
    assert len(answers) == 5                                     # boardsize ... quit
    assert answers[2].splitlines()[-1] == "search_mode playout_policy"
    assert expectation.matches(answers[3])
