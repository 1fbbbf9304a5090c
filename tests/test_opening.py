"""Opening knowledge (mcgo.search.opening): the empty-corner rule and its shares, counted
again from the professional records, and its prior at the root of the search."""

import pytest

import mcgo
from mcgo.search import Search
from mcgo.search.opening import CORNER_POINT_SHARE, corner_openings, point_shares
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


def test_corner_shares_are_the_professionals(goban_records):
    """The shipped shares are the goban professional games' own choices of point in an empty
    corner, and the rule holds there: while a corner is empty, the first four moves go into
    one at least 85% of the time."""
    assert len(goban_records) == 596
    by_move, points = corner_openings(goban_records)
    assert point_shares(points) == CORNER_POINT_SHARE
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


def stats(search, board, playouts=200):
    return {mcgo.to_gtp(m.move, board.size): m for m in search.run(board, playouts=playouts).moves}


def test_corner_prior_goes_to_the_empty_corners_once_per_root():
    """``corner_prior=V``: each point of an empty corner gets V * share virtual visits, all
    won, and no other move gets any; a second search of the same root adds none; once every
    corner holds a stone, no move gets any."""
    board = mcgo.Board(19)
    board.play("Q16")
    board.play("C4")
    plain = stats(Search(seed=1, policy="pattern"), board)
    search = Search(seed=1, policy="pattern", corner_prior=100.0)
    prior = stats(search, board)
    expected = {vertex: 100.0 * CORNER_POINT_SHARE[lines]
                for corner in (UPPER_LEFT, LOWER_RIGHT) for lines, vertices in corner.items()
                for vertex in vertices}
    assert len(expected) == 2 * 10
    for vertex, s in prior.items():
        extra = expected.get(vertex, 0.0)
        assert s.prior_visits == pytest.approx(plain[vertex].prior_visits + extra), vertex
        assert s.prior_wins == pytest.approx(plain[vertex].prior_wins + extra), vertex
    again = stats(search, board, playouts=50)
    assert all(again[v].prior_visits == pytest.approx(prior[v].prior_visits)
               for v in again if v in prior)
    for vertex in ("D17", "R3"):                    # 3-4 and 3-3: no corner left empty
        board.play(vertex)
    plain = stats(Search(seed=1, policy="pattern"), board)
    taken = stats(Search(seed=1, policy="pattern", corner_prior=100.0), board)
    assert all(taken[v].prior_visits == pytest.approx(plain[v].prior_visits) for v in taken)


def test_corner_prior_leaves_small_boards_alone():
    """On 9x9 and 13x13 the corners' squares would overlap the sides: no corner prior."""
    for size in (9, 13):
        board = mcgo.Board(size)
        plain = stats(Search(seed=1, policy="pattern"), board, playouts=100)
        prior = stats(Search(seed=1, policy="pattern", corner_prior=100.0), board, playouts=100)
        assert all(prior[v].prior_visits == plain[v].prior_visits for v in prior)


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
