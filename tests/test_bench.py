"""``mcgo bench``'s measurement: its middle-game positions are the records' positions as
sgfmill replays them, and every policy it measures plays playouts from them."""

import pytest
from sgfmill import boards

from mcgo.apps.bench import MIDGAME_POSITIONS, bench_position, run_bench
from mcgo.board import coords
from mcgo.board import kernels as K
from mcgo.commands import BENCH_POLICIES


@pytest.mark.parametrize("size", sorted(MIDGAME_POSITIONS))
def test_midgame_position_is_the_records_position_as_sgfmill_plays_it(size):
    moves = MIDGAME_POSITIONS[size]["moves"]
    reference = boards.Board(size)
    for i in range(0, len(moves), 2):
        col, row = ord(moves[i]) - ord("a"), ord(moves[i + 1]) - ord("a")
        reference.play(size - 1 - row, col, "b" if i // 2 % 2 == 0 else "w")
    board = bench_position(size, "midgame")
    for p in coords.all_points(size):
        row, col = coords.row_col(p, size)
        expected = {None: K.EMPTY, "b": K.BLACK, "w": K.WHITE}[reference.get(row, col)]
        assert board.pts[K.COLOR, p] == expected, coords.to_gtp(p, size)


@pytest.mark.parametrize("policy", BENCH_POLICIES)
def test_bench_plays_playouts_of_every_policy(policy):
    row = run_bench(policy, 9, seconds=0.2, threads=1, start="midgame", seed=1)
    start = bench_position(9, "midgame")
    empties = sum(1 for p in coords.all_points(9) if start.pts[K.COLOR, p] == K.EMPTY)
    assert row["policy"] == policy and row["playouts"] > 0
    # A fill playout fills each empty point once; the others play to two passes or the cap.
    low, high = (empties, empties) if policy == "fill" else (empties // 2, 3 * 81)
    assert low <= row["moves_per_playout"] <= high
