"""Dynamic komi in handicap games against Pachi's linear dynamic komi.

Pachi (pasky/pachi, ``make DCNN=0``) prints the extra komi its search counts for White
(``extra komi 67.7``) with each genmove. The examples below are what it printed for these
GTP sequences, run as ``pachi -t =1000 threads=1,pondering=0``; with ``MCGO_PACHI`` set the
last test asks Pachi again.
"""

import os
import re
import subprocess

import pytest

from helpers import Session

# (GTP commands before the genmove, the colour asked, Pachi's extra komi)
PACHI_PRINTED = [
    (["boardsize 19", "komi 0.5", "fixed_handicap 9"], "w", 67.7),
    (["boardsize 19", "komi 0.5", "fixed_handicap 4", "play w C3", "play b R10", "play w K3",
      "play b C10"], "w", 30.3),
    (["boardsize 19", "komi 0.5", "fixed_handicap 4", "play w C3"], "b", 46.8),
    (["boardsize 9", "komi 0.5", "fixed_handicap 3"], "w", 19.2),
    (["boardsize 13", "komi 0.5", "fixed_handicap 5"], "w", 36.0),
    (["boardsize 19", "komi 6.5", "fixed_handicap 2"], "w", 9.9),
]


def searched_komi(commands, color, dynamic=1, **options):
    """The komi of the board mcgo's genmove searched after ``commands`` (with the
    ``dynamic_komi`` setting ``dynamic``; None: the default's), and the game's."""
    if dynamic is not None:
        options["settings"] = {"dynamic_komi": dynamic}
    session = Session(size=9, komi=0.5, seed=1, playouts=50, **options)
    for command in commands:
        session.send(command)
    session.send(f"genmove {color}")
    game = session.engine.game
    return game.player.search.last_board.komi, game.board.komi


@pytest.mark.parametrize("commands,color,pachi", PACHI_PRINTED)
def test_the_search_counts_pachis_extra_komi(commands, color, pachi):
    searched, real = searched_komi(commands, color)
    assert round(searched - real, 1) == pachi
    assert real == float(commands[1].split()[1])       # the game keeps its komi


def test_even_games_the_setting_off_and_the_default_count_the_real_komi():
    searched, real = searched_komi(["boardsize 9", "komi 7"], "b")
    assert searched == real == 7.0
    searched, real = searched_komi(PACHI_PRINTED[3][0], "w", dynamic=0)
    assert searched == real == 0.5
    searched, real = searched_komi(PACHI_PRINTED[3][0], "w", dynamic=None)   # off by default
    assert searched == real == 0.5


def test_the_extra_komi_is_gone_once_it_has_faded():
    """9x9: Pachi's extra komi falls to 0 at move 15, the three stones counted."""
    commands = ["boardsize 9", "komi 0.5", "fixed_handicap 3"]
    moves = ["A1", "J1", "A9", "J9", "A3", "J3", "A7", "J7", "C1", "G1", "C9", "G9"]
    commands += [f"play {'wb'[k % 2]} {v}" for k, v in enumerate(moves)]
    searched, real = searched_komi(commands, "w")
    assert searched == real


@pytest.mark.parametrize("commands,color,pachi", PACHI_PRINTED[:3])
def test_pachi_prints_the_same_today(commands, color, pachi):
    binary = os.environ.get("MCGO_PACHI")
    if not binary or not os.path.exists(binary):
        pytest.skip("Pachi is not built here (MCGO_PACHI)")
    script = "\n".join(["clear_board" if c.startswith("komi") else c for c in commands[:1]]
                       + commands[1:] + [f"genmove {color}", "quit"]) + "\n"
    done = subprocess.run([binary, "-t", "=1000", "threads=1,pondering=0"], input=script,
                          capture_output=True, text=True, timeout=120)
    printed = re.findall(r"extra komi (-?[0-9.]+)", done.stderr)
    assert printed and float(printed[0]) == pachi
