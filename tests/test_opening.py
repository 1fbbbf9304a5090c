"""The opening: the empty-corner rule counted again from the professional records
(mcgo.match.openings, the measure of benchmarks/strength/opening_estimate.py), and the
search's opening setting."""

import pytest

import mcgo
from mcgo.search import Search
from mcgo.match.openings import corner_lines, corner_openings, empty_corners
from mcgo.sgf import SgfError, read_directory

# The points of the upper-left (D16) and lower-right (Q4) corners by their lines from the
# corner's two edges, written out by hand from the board's lettering (no I column).
UPPER_LEFT = {(4, 4): ["D16"], (3, 4): ["C16", "D17"], (3, 3): ["C17"], (3, 5): ["C15", "E17"],
              (4, 5): ["D15", "E16"], (4, 6): ["D14", "F16"]}
LOWER_RIGHT = {(4, 4): ["Q4"], (3, 4): ["R4", "Q3"], (3, 3): ["R3"], (3, 5): ["R5", "P3"],
               (4, 5): ["Q5", "P4"], (4, 6): ["Q6", "O4"]}


@pytest.fixture(scope="module")
def goban_records(goban_games_dir):
    return [g for g in read_directory(goban_games_dir) if not isinstance(g, SgfError)]


def test_corner_lines_are_the_boards_lettering():
    """Each hand-lettered point lies in its corner on its lines; the corner goes from the
    empty ones once a stone is in its 7x7 square, and K10 lies in none."""
    board = mcgo.Board(19)
    for table, corner in ((UPPER_LEFT, (1, 0)), (LOWER_RIGHT, (0, 1))):
        for lines, vertices in table.items():
            for vertex in vertices:
                assert corner_lines(board.point(vertex), 19) == (lines, corner), vertex
    assert corner_lines(board.point("K10"), 19)[1] is None
    board.play("F16")                               # the 4-6 point of the upper left
    board.play("H8")                                # 8th lines: no corner's square
    assert empty_corners(board) == {(0, 0), (0, 1), (1, 1)}


def test_professionals_take_the_empty_corners_first(goban_records):
    """The rule holds in the goban professional games: while a corner is empty, the first
    four moves go into one at least 85% of the time, most often on the 3-4 point, then the
    4-4; black's and white's counts add up to both."""
    assert len(goban_records) == 596
    by_move, points = corner_openings(goban_records)
    for n in range(4):
        positions, in_corner = by_move[n]
        assert positions == 596 and in_corner >= 0.85 * positions, (n, by_move[n])
    assert [lines for lines, _ in points.most_common(2)] == [(3, 4), (4, 4)]
    black, _ = corner_openings(goban_records, color=mcgo.BLACK)
    white, _ = corner_openings(goban_records, color=mcgo.WHITE)
    assert black[0] == by_move[0] and 0 not in white    # black plays the game's first move
    for n in by_move:
        both = [black.get(n, [0, 0])[i] + white.get(n, [0, 0])[i] for i in (0, 1)]
        assert both == by_move[n], n


def professional_opening(records, moves):
    """The board after the first ``moves`` moves of the first goban record that has them."""
    record = next(r for r in records if len(r.moves) >= moves and not r.handicap)
    board = mcgo.Board(19, komi=7.5)
    for color, p in record.moves[:moves]:
        board.play(p, color)
    return board


def visit_table(board, playouts=300, **settings):
    result = Search(seed=3, policy="pattern", **settings).run(board, playouts=playouts)
    return sorted((m.move, m.visits, m.wins) for m in result.moves)


def test_opening_rave_equiv_is_rave_equiv_for_the_first_thirty_moves_on_19x19(goban_records):
    """``opening_rave_equiv=E``: on 19x19, in a professional game's opening (move 10) the
    search is the one of ``rave_equiv=E``, visit for visit; from move 30 on, and on 13x13,
    it is the search without the setting."""
    from mcgo.search.search import OPENING_RAVE_MOVES
    assert OPENING_RAVE_MOVES == 30
    opening = professional_opening(goban_records, 10)
    assert visit_table(opening, opening_rave_equiv=50.0) \
        == visit_table(opening, rave_equiv=50.0, opening_rave_equiv=0.0)
    assert visit_table(opening, opening_rave_equiv=50.0) \
        != visit_table(opening, opening_rave_equiv=0.0)
    later = professional_opening(goban_records, OPENING_RAVE_MOVES)
    assert visit_table(later, opening_rave_equiv=50.0) \
        == visit_table(later, opening_rave_equiv=0.0)
    small = mcgo.Board(13, komi=7.5)
    small.play("D4")
    assert visit_table(small, opening_rave_equiv=50.0) \
        == visit_table(small, opening_rave_equiv=0.0)
