# SPDX-License-Identifier: GPL-3.0-or-later
"""What the match runner's tests share: a deliberately broken engine (tests/fake_engine.py) as
a command, quick matches of two fakes, and the saved games taken out of a match folder and
replayed or scored by something the runner did not compute."""

import pathlib
import shlex
import sys

from sgfmill import sgf

from mcgo import Board
from mcgo.gtp.controller import GtpEngine
from mcgo.match.archive import game_sgf, match_games
from mcgo.match.runner import Match
from mcgo.match.settings import MatchSettings

FAKE_ENGINE = pathlib.Path(__file__).resolve().parent / "fake_engine.py"
MCGO = [sys.executable, "-m", "mcgo"]


def fake(*args):
    return " ".join(shlex.quote(a) for a in [sys.executable, str(FAKE_ENGINE), *args])


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


def cli_args(out, games, *extra):
    """Options of a quick match between two fakes that ends every game at the move cap."""
    return ["--engine", fake("--delay", "0.1", "--seed", "1"),
            "--opponent", fake("--delay", "0.1", "--seed", "2"), "--size", "5", "--move-cap", "10",
            "--scorer", "tromp-taylor", "--no-ask-engines", "--games", str(games), "--out", str(out),
            *extra]


def quick_settings():
    # The fakes answer at once: a short move limit keeps a lost Ray task's bound short too.
    return MatchSettings(5, 7.5, move_cap=10, move_timeout=10)


def quick_match(out, commands, games, **options):
    """A match of fakes that ends every game at the move cap, counted Tromp-Taylor."""
    log = []
    match = Match(out, commands, ["engine", "opponent"], quick_settings(), games, referee=None,
                  scorer="tromp-taylor", ask_engines=False, log=log.append, **options)
    return match, match.run(), log
