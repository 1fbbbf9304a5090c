"""Self-play: games of the default engine against itself, as data for the value net (issue 74,
item 2; the way AlphaGo's and KaTrain's value nets got positions enough).

Each game: the engine as ``mcgo gtp`` builds it by default (its move model and policy nets),
a fixed number of simulations a move, one search thread. The first ``random_moves`` moves are
drawn from the root's visits (a move searched twice as much comes twice as often), so that
games differ; after them the engine plays its best move. Nobody resigns, and a player keeps
playing while dead stones of the other stand (``kgs-genmove_cleanup``'s rule), so a game
ends with two passes on a board whose owners are plain (the final ownership and score the
value net's targets want, which resigned games do not give). The result: the engine's judge
on the final position (``final_score``), written as ``RE`` with the komi.

Games are written as they end into ``OUT/games.zip`` (:mod:`mcgo.match.archive`), numbered; a
run started again plays the numbers that are missing, each game from its own seed, so that
a game is the same whichever run plays it.
"""

import multiprocessing
import pathlib
import time

import numpy as np

from .. import options
from ..board import BLACK, PASS, WHITE, Board
from ..board.board import result_text
from ..sgf.record import GameRecord
from ..sgf.writing import write_sgf

MOVE_CAP_FACTOR = 3          # moves at most: 3 N^2


def _engine(seed, playouts):
    """The default engine, as the recipe of ``mcgo gtp`` builds it."""
    from ..engine.player import Player
    from ..engine.recipe import Recipe
    return Player(Recipe(seed=seed).search_config(), playouts=playouts, verbose=False)


def play_game(player, size, komi, random_moves, rng):
    """One game; returns ``(moves, black's score)``."""
    from ..judge.status import estimate, score_without
    board = Board(size, komi=komi)
    player.new_game()
    passes = 0
    for _ in range(MOVE_CAP_FACTOR * size * size):
        if len(board.moves) < random_moves:
            result = player.think(board)
            moves = [m for m in result.moves if m.visits > 0 and m.move != PASS]
            if not moves:
                move = PASS
            else:
                visits = np.array([m.visits for m in moves], dtype=float)
                move = moves[int(rng.choice(len(moves), p=visits / visits.sum()))].move
        else:
            move = player.choose(board, cleanup=True)
            if move is None:                  # cleanup never resigns; a guard all the same
                move = PASS
        board.play(move)
        passes = passes + 1 if move == PASS else 0
        if passes >= 2:
            break
    score = score_without(board, estimate(board).dead)
    return [(m[0], m[1]) for m in board.moves], score


def _play(job):
    """Play game ``number``; returns ``(number, sgf bytes, seconds)``."""
    number, size, komi, playouts, random_moves, seed, label = job
    game_seed = options.derive_seed(seed, "game", number)
    started = time.perf_counter()
    player = _engine(game_seed, playouts)
    moves, score = play_game(player, size, komi, random_moves,
                             np.random.default_rng(game_seed))
    record = GameRecord(size=size, komi=komi, black=label, white=label,
                        result=result_text(score), moves=moves,
                        event=f"mcgo self-play, {playouts} simulations a move, "
                              f"the first {random_moves} moves drawn from the root's visits",
                        rules="Chinese")
    return number, write_sgf(record), time.perf_counter() - started


def selfplay(out, games, size=9, komi=7.0, playouts=300, random_moves=8, jobs=1, seed=0,
             label="mcgo", log=None):
    """Play the games ``0 .. games - 1`` missing from ``out``'s archive; returns how many
    were played now."""
    from ..match.archive import GAMES_ARCHIVE, add_game, archive_names, member_name
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    archive = out / GAMES_ARCHIVE
    have = set(archive_names(archive)) if archive.exists() else set()
    todo = [n for n in range(games) if member_name(n) not in have]
    jobs_ = [(n, size, komi, playouts, random_moves, seed, label) for n in todo]
    done = 0
    if jobs <= 1:
        results = map(_play, jobs_)
        pool = None
    else:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap_unordered(_play, jobs_)
    try:
        for number, data, seconds in results:
            add_game(out, number, data)
            done += 1
            if log is not None:
                log(f"game {number}: {seconds:.0f} s ({done} of {len(todo)})")
    finally:
        if pool is not None:
            pool.terminate()
    return done


__all__ = ["BLACK", "WHITE", "play_game", "selfplay"]
