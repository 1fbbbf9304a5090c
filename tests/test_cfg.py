"""Seed 000's relative subgraph features against the seed's own definitions.

The index is pinned by the seed's facts (p(n) = 3, 10, 27, 68, 167, 406 strings of length up to
n; "120" has index 20, its worked example) and by shortlex order; the counts are checked
against Algorithm 2 written out from the seed on sgfmill's board (chains found by sgfmill,
the common fate graph and the recursive depth-first search in plain Python), on positions
of professional games.
"""

import itertools

import pytest
from sgfmill import boards

from mcgo import BLACK, WHITE
from mcgo.board import coords
from mcgo.models.cfg import (MAX_LENGTH, NFEATURES, STRINGS_UP_TO, SUBGRAPH_INDEX,
                            SUBGRAPH_STRINGS, relative_subgraph_features)
from mcgo.sgf import read_game, replay


def test_the_strings_and_their_count_follow_the_seeds_recurrence():
    p = STRINGS_UP_TO
    assert p[1:] == [3, 10, 27, 68, 167, 406] and NFEATURES == 406
    for n in range(3, MAX_LENGTH + 1):          # Lemma 4.1: p(n) = 3p(n-1) - p(n-2) - p(n-3)
        assert p[n] == 3 * p[n - 1] - p[n - 2] - p[n - 3]
    every = ["".join(t) for n in range(1, MAX_LENGTH + 1) for t in itertools.product("012", repeat=n)]
    possible = [s for s in every if "11" not in s and "22" not in s]
    assert sorted(possible, key=lambda s: (len(s), s)) == SUBGRAPH_STRINGS


def test_the_worked_example_index():
    assert SUBGRAPH_INDEX["120"] == 20      # the seed's f("120") = p(2) + |H| = 10 + 10
    assert SUBGRAPH_INDEX["0"] == 0 and SUBGRAPH_INDEX["212121"] == 405


# ----------------------------------------------------------------------------- the oracle
def oracle_features(board, point, player):
    """Algorithm 2 of the seed on sgfmill's board: the counts by colour string."""
    size = board.side
    colour_of = {"b": 1 if player == BLACK else 2, "w": 2 if player == BLACK else 1}
    node_of, colour = {}, {}
    for row in range(size):
        for col in range(size):
            if (row, col) in node_of:
                continue
            stone = board.get(row, col)
            if stone is None:
                node = ("empty", row, col)
                node_of[(row, col)] = node
                colour[node] = "0"
                continue
            node = ("chain", row, col)
            colour[node] = str(colour_of[stone])
            todo = [(row, col)]                       # the chain, by flood fill
            while todo:
                r, c = todo.pop()
                if (r, c) in node_of:
                    continue
                node_of[(r, c)] = node
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= rr < size and 0 <= cc < size and board.get(rr, cc) == stone:
                        todo.append((rr, cc))
    edges = {n: set() for n in colour}
    for (r, c), a in node_of.items():
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < size and 0 <= cc < size and node_of[(rr, cc)] != a:
                edges[a].add(node_of[(rr, cc)])
    counts = [0] * NFEATURES
    visited = {node_of[point]}

    def count(depth_remaining, node, string):
        if depth_remaining == 0:
            return
        string += colour[node]
        counts[SUBGRAPH_INDEX[string]] += 1
        visited.add(node)
        for other in edges[node]:
            if other not in visited:
                count(depth_remaining - 1, other, string)
        visited.discard(node)

    for neighbour in edges[node_of[point]]:
        count(MAX_LENGTH, neighbour, "")
    return counts


def sgfmill_board(board):
    ref = boards.Board(board.size)
    for colour, letter in ((BLACK, "b"), (WHITE, "w")):
        for p in board.stones(colour):
            ref.play(*coords.row_col(p, board.size), letter)
    return ref


@pytest.mark.parametrize("name, moves", [("Hon-45-1.sgf", 60), ("Hon-45-1.sgf", 150),
                                         ("Hon-45--5.sgf", 100), ("Hon-45--5.sgf", 200)])
def test_counts_equal_algorithm_2_on_professional_positions(goban_games_dir, name, moves):
    board = replay(read_game(goban_games_dir / name), max_moves=moves)
    ref = sgfmill_board(board)
    for player in (BLACK, WHITE):
        points, features = relative_subgraph_features(board, player=player)
        assert len(points) > 100
        for i in range(0, len(points), 7):
            expected = oracle_features(ref, coords.row_col(int(points[i]), board.size), player)
            assert features[i].tolist() == expected, coords.to_gtp(int(points[i]), board.size)


def test_every_legal_move_by_default_and_errors():
    from mcgo import Board
    board = Board(9)
    board.play("E5")
    points, features = relative_subgraph_features(board)
    assert len(points) == 80 and features.shape == (80, NFEATURES)
    with pytest.raises(ValueError, match="not empty"):
        relative_subgraph_features(board, ["E5"])
