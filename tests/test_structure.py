"""The structure's reading of chains in atari against sgfmill's rules, on positions of
professional games:

* :meth:`Structure.can_fight_back`: a chain down to one liberty can fight back exactly when
  an adjacent opponent chain is in atari too, or its side playing at the liberty leaves the
  chain (on sgfmill's board, after sgfmill's captures) with two liberties or more that no
  safe chain reaches;
* :meth:`Structure.escapes`: a chain of two liberties that the other side puts in atari (a
  move sgfmill plays without capturing) escapes exactly when its side, playing at the
  remaining liberty, has two liberties or more that no safe chain reaches (asked where
  that stone captures nothing on sgfmill's board: the structure does not read captures there);
* :meth:`Structure.fillable`: a side whose safe chain reaches an empty point's region can
  fill the point exactly when its stone there has two liberties or more on sgfmill's board,
  where the stone joins no chain that could first connect through its own eye.

Liberties are counted here by a flood fill over sgfmill's board, the test's oracle. The
first two take "open" (a liberty no safe side can fill) from the structure, which the third
checks.
"""

import pytest

from mcgo import sgf
from mcgo.board import coords
from mcgo.judge.structure import Structure
from helpers import SGF_COLOR, sgfmill_board

GAMES = ["Hon-45-1.sgf", "Hon-47-1.mgt", "Hon-51-1.sgf"]
MOVES = range(40, 400, 4)


def oracle_group(ref, row, col):
    """(stones, liberties) of the chain at (row, col) on sgfmill's board."""
    colour = ref.get(row, col)
    stones, liberties, todo = {(row, col)}, set(), [(row, col)]
    while todo:
        r, c = todo.pop()
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if not (0 <= q[0] < ref.side and 0 <= q[1] < ref.side):
                continue
            there = ref.get(*q)
            if there is None:
                liberties.add(q)
            elif there == colour and q not in stones:
                stones.add(q)
                todo.append(q)
    return stones, liberties


def positions(goban_games_dir, name):
    """(move, board, its structure, sgfmill's board) every 4 moves of a goban game."""
    record = sgf.read_game(goban_games_dir / name)
    for move in MOVES:
        if move > len(record.moves):
            break
        board = sgf.replay(record, max_moves=move)
        yield move, board, Structure(board), sgfmill_board(board)


def opener(structure, size):
    """(row, col) -> True when the structure counts that liberty as open."""
    return lambda row_col: structure.open_count([coords.point(*row_col, size)]) == 1


def stone_count(ref):
    return sum(ref.get(r, c) is not None for r in range(ref.side) for c in range(ref.side))


def assert_both_answers(name, answers):
    """Both answers must occur, or the comparison says nothing about one of them."""
    assert min(answers.count(True), answers.count(False)) >= 3, (name, answers)


def oracle_fights_back(ref, stones, liberty, colour, is_open):
    for r, c in stones:
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (0 <= q[0] < ref.side and 0 <= q[1] < ref.side and ref.get(*q) not in (None, colour)
                    and len(oracle_group(ref, *q)[1]) == 1):
                return True
    after = ref.copy()
    after.play(*liberty, colour)
    if after.get(*liberty) != colour:
        return False                     # suicide: sgfmill took the stones off
    return sum(map(is_open, oracle_group(after, *liberty)[1])) >= 2


@pytest.mark.parametrize("name", GAMES)
def test_chains_in_atari_fight_back_as_sgfmill_plays_it(goban_games_dir, name):
    answers = []
    for move, board, structure, ref in positions(goban_games_dir, name):
        is_open = opener(structure, board.size)
        for ch, libs in enumerate(structure.chain_libs):
            if len(libs) != 1:
                continue
            row, col = coords.row_col(structure.chain_points[ch][0], board.size)
            stones, liberties = oracle_group(ref, row, col)
            assert len(liberties) == 1
            colour = SGF_COLOR[structure.chain_color[ch]]
            expected = oracle_fights_back(ref, stones, next(iter(liberties)), colour, is_open)
            assert structure.can_fight_back(ch) == expected, (name, move, coords.to_gtp(
                structure.chain_points[ch][0], board.size))
            answers.append(expected)
    assert_both_answers(name, answers)


@pytest.mark.parametrize("name", GAMES)
def test_chains_put_in_atari_escape_as_sgfmill_plays_it(goban_games_dir, name):
    answers = []
    for move, board, structure, ref in positions(goban_games_dir, name):
        is_open = opener(structure, board.size)
        for ch, libs in enumerate(structure.chain_libs):
            if len(libs) != 2:
                continue
            row, col = coords.row_col(structure.chain_points[ch][0], board.size)
            colour = SGF_COLOR[structure.chain_color[ch]]
            attacker = "w" if colour == "b" else "b"
            for p in libs:
                after = ref.copy()
                after.play(*coords.row_col(p, board.size), attacker)
                if stone_count(after) != stone_count(ref) + 1:
                    continue                # a capture or a suicide: no plain atari
                stones, (last,) = oracle_group(after, row, col)
                extended = after.copy()
                if not extended.apply_setup([last] if colour == "b" else [],
                                            [last] if colour == "w" else [], []):
                    continue                # it captures: left to the search (ko, snapback)
                expected = sum(map(is_open, oracle_group(extended, *last)[1])) >= 2
                assert structure.escapes(ch, p) == expected, (name, move, coords.to_gtp(
                    structure.chain_points[ch][0], board.size), coords.to_gtp(p, board.size))
                answers.append(expected)
    assert_both_answers(name, answers)


@pytest.mark.parametrize("name", GAMES)
def test_safe_sides_fill_liberties_as_sgfmill_plays_them(goban_games_dir, name):
    answers = []
    for move, board, structure, ref in positions(goban_games_dir, name):
        for q in structure.region_of:
            colours = structure.reached_by.get(structure.region_of[q], ())
            if len(colours) != 1:
                continue
            (colour,) = colours
            joined = {structure.chain_of[n] for n in structure.neighbours(q)
                      if structure.col[n] == colour}
            if any(structure.region_colors[r] == {colour}
                   for ch in joined for r in structure.chain_regions[ch]):
                continue            # it could connect through an eye first: not asked here
            row, col = coords.row_col(q, board.size)
            after = ref.copy()
            after.play(row, col, SGF_COLOR[colour])
            if stone_count(after) != stone_count(ref) + 1:
                continue            # a capture or a suicide
            expected = len(oracle_group(after, row, col)[1]) >= 2
            assert structure.fillable(q) == expected, (name, move, coords.to_gtp(q, board.size))
            answers.append(expected)
    assert_both_answers(name, answers)
