"""The move model's spatial patterns (mcgo.models.spatial): the points of each size counted by
hand, contents read against sgfmill's board, the 8 symmetries and the colour swap, and the
nested rule the scorer's early stop relies on, checked on professional positions."""

import numpy as np
import pytest
from sgfmill import boards

import mcgo
from mcgo.board.symmetry import map_point
from mcgo.models import spatial as S
from mcgo.train import movemodel as MT


def test_sizes_hold_the_points_of_pachis_gridcular_circles():
    # Worked by hand: d = |dx| + |dy| + max(|dx|, |dy|); the offsets at each distance:
    # 2: (1,0) x4; 3: (1,1) x4; 4: (2,0) x4; 5: (2,1) x8; 6: (2,2), (3,0) x4 each;
    # 7: (3,1) x8; 8: (3,2) x8, (4,0) x4; 9: (3,3) x4, (4,1) x8; 10: (4,2) x8, (5,0) x4.
    assert S.DISTANCES == (4, 5, 6, 7, 8, 9, 10)
    assert S.NPOINTS.tolist() == [12, 20, 28, 36, 48, 60, 72]
    distances = [S.gridcular(int(a), int(b)) for a, b in zip(S.DY[0], S.DX[0])]
    assert distances == sorted(distances) and max(distances) == 10
    # each size is closed under the 8 symmetries (a ring maps onto itself)
    for s in range(8):
        for j, n in enumerate(S.NPOINTS):
            assert sorted(S.PERM[s, :n].tolist()) == list(range(n))


def _sgfmill_content(board, row, col, dy, dx, colour):
    """A point's content read from sgfmill's board (row 0 at the bottom there)."""
    size = board.side
    r, c = row + dy, col + dx                      # mcgo rows from the top, 1-based
    if not (1 <= r <= size and 1 <= c <= size):
        return S.OFF
    stone = board.get(size - r, c - 1)
    if stone is None:
        return S.EMPTY
    return S.OWN if stone == colour else S.OPP


@pytest.fixture(scope="module")
def pro_positions(goban_games_dir):
    """(mcgo board, sgfmill board, colour to move) at moves 30, 90 and 150 of four games."""
    out = []
    for record in list(MT.read_records([goban_games_dir]))[:4]:
        board = mcgo.Board(record.size, komi=record.komi)
        theirs = boards.Board(record.size)
        for number, (color, point) in enumerate(record.moves, 1):
            if number in (30, 90, 150):
                out.append((board.copy(), theirs.copy(), board.to_move))
            board.play(point, color)
            if point:
                row, col = divmod(point, record.size + 2)
                theirs.play(record.size - row, col - 1, "b" if color == mcgo.BLACK else "w")
    assert len(out) >= 9
    return out


def test_contents_match_sgfmills_board(pro_positions):
    checked = 0
    for board, theirs, color in pro_positions:
        colour = "b" if color == mcgo.BLACK else "w"
        w = board.size + 2
        for p in board.legal_moves(color)[::5]:
            content = np.zeros(S.WORDS, dtype=np.int64)
            S.content_into(board.pts, board.info, p, color, content)
            row, col = divmod(p, w)
            for k in range(S.MAX_POINTS):
                state = (int(content[k // 32]) >> (2 * (k % 32))) & 3
                assert state == _sgfmill_content(theirs, row, col, int(S.DY[0, k]),
                                                  int(S.DX[0, k]), colour)
            checked += 1
    assert checked > 300


def test_canonical_hashes_under_the_8_symmetries_and_the_colour_swap(pro_positions):
    for board, _, color in pro_positions[:6]:
        size = board.size
        black, white = board.stones(mcgo.BLACK), board.stones(mcgo.WHITE)
        points = board.legal_moves(color)[::9]
        here = {p: S.canonical_hashes(board.pts, board.info, p, color) for p in points}
        seen = set()
        for s in range(8):
            image = mcgo.Board(size, superko=False)
            image.setup(black=[map_point(p, s, size) for p in white],     # colours swapped too
                        white=[map_point(p, s, size) for p in black])
            for p in points:
                q = map_point(p, s, size)
                assert (S.canonical_hashes(image.pts, image.info, q, 3 - color) == here[p]).all()
        for p in points:
            seen.update(here[p].tolist())
        assert len(seen) > 2 * len(points)      # the sizes and the points do differ


def test_largest_known_is_the_largest_kept_size_and_stops_at_the_first_unknown(pro_positions):
    board, _, color = pro_positions[4]
    p = board.legal_moves(color)[40]
    content = np.zeros(S.WORDS, dtype=np.int64)
    S.content_into(board.pts, board.info, p, color, content)
    contents = np.array([S.truncate(content, j) for j in range(S.NSIZES)])
    for kept in range(1, S.NSIZES + 1):
        keys, values = S.play_table(contents[:kept], np.arange(kept), 10.0 + np.arange(kept))
        assert S.largest_known(board.pts, board.info, p, color, keys, values) == (9.0 + kept, kept - 1)
    # a larger size without the smaller ones is never reached: the nesting rule
    keys, values = S.play_table(contents[3:4], np.array([3]), np.array([5.0]))
    assert S.largest_known(board.pts, board.info, p, color, keys, values) == (0.0, -1)
    # the training kernel finds the same pattern by its canonical hash
    dictionary = MT.SpatialDictionary(S.canonical_hashes(board.pts, board.info, p, color)[:5],
                                      np.arange(5), contents[:5])
    out = np.zeros(1, dtype=np.int32)
    S.candidate_spatial(board.pts, board.info, color, np.array([p], dtype=np.int32), 1,
                        dictionary.keys, dictionary.values, out,
                        np.zeros(S.NSIZES, dtype=np.int64), np.zeros(8, dtype=np.int64))
    assert out[0] == 5                   # pattern 4 of the dictionary (size index 4), plus one


def test_harvest_keeps_what_was_played_often_enough(goban_games_dir):
    records = list(MT.read_records([goban_games_dir]))[:12]
    hashes, contents = zip(*(MT.harvest_game(r) for r in records))
    hashes, contents = np.concatenate(hashes), np.concatenate(contents)
    assert len(hashes) == sum(sum(1 for _, p in r.moves if p) for r in records)
    kept = MT.SpatialDictionary.from_harvest(hashes, contents, 3)
    for j in range(S.NSIZES):
        values, counts = np.unique(hashes[:, j], return_counts=True)
        mine = set(kept.hashes[kept.sizes == j].tolist())
        assert mine == set(values[counts >= 3].tolist())
    # a stored content hashes back to its canonical hash
    orbit = S.orbit_hashes(kept.contents, kept.sizes.astype(np.int64))
    assert (orbit.min(axis=1) == kept.hashes).all()
    # nesting: the next smaller size of every kept pattern is kept too
    known = set(kept.hashes.tolist())
    larger = np.flatnonzero(kept.sizes > 0)
    assert len(larger) > 50
    for i in larger:
        j = int(kept.sizes[i]) - 1
        smaller = S.orbit_hashes(S.truncate(kept.contents[i], j)[None, :], np.array([j]))[0]
        assert int(smaller.min()) in known
