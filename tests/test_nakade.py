"""The nakade kernels (:mod:`mcgo.tactics.nakade`) against references we did not write.

* The shapes and their vital points are Sensei's Library's ("Nakade",
  https://senseis.xmp.net/?Nakade, and "Killable eyeshapes",
  https://senseis.xmp.net/?KillableEyeshapes): straight and bent three (the middle, the
  bend), pyramid four (its centre), bulky five (the point of the 2x2 square next to the
  fifth point), crossed five (the centre), rabbity six (the centre of the plus). Square four
  has no vital point (dead as it stands); straight, bent and Z four and the other shapes of
  5 and 6 points have none either. Each shape is drawn once below; the test moves it with
  NumPy (``np.rot90`` of the grid and of its transpose: the 8 symmetries) into the 4
  corners, onto the 4 edges and into the centre of 9x9 and 19x19 boards, walls it in with
  one colour and rings the wall with the other.
* sgfmill's board says the answer is a legal, non-suicidal move.
* Fuego's nakade regression suites (``life_and_death_nakade.tst``, and
  ``playout_nakade.tst``, which sets up the positions of ``sgf/nakade``): see
  :func:`test_fuego_regression_vital_points`.
"""

import re

import numpy as np
import pytest

import mcgo
from mcgo import sgf
from helpers import sgfmill_allows, sgfmill_board
from mcgo.board import coords
from mcgo.board import kernels as K
from mcgo.match import regress
from mcgo.tactics.atari import is_self_atari
from mcgo.tactics.nakade import (OPEN_NEIGHBOURS, makes_nakade, nakade_answer,
                                 nakade_point)

SIZES = (9, 19)
PLACES = [(v, h) for v in ("top", "middle", "bottom") for h in ("left", "middle", "right")]

# "#" a point of the eyespace, "v" its vital point, "." a point outside (walled in).
VITAL = {
    "straight three": ["#v#"],
    "bent three": ["v#",
                   "#."],
    "pyramid four": ["#v#",
                     ".#."],
    "bulky five": [".##",
                   "#v#"],
    "crossed five": [".#.",
                     "#v#",
                     ".#."],
    "rabbity six": [".#.",
                    "#v#",
                    ".##"],
}
NO_VITAL = {
    "square four": ["##",
                    "##"],
    "straight four": ["####"],
    "bent four": ["###",
                  "#.."],
    "Z four": ["##.",
               ".##"],
    "straight five": ["#####"],
    "L five": ["####",
               "#..."],
    "T five": ["###",
               ".#.",
               ".#."],
    "U five": ["#.#",
               "###"],
    "W five": ["#..",
               "##.",
               ".##"],
    "Y five": ["####",
               ".#.."],
    "rectangular six": ["###",
                        "###"],
    "plus with a long arm": [".#..",
                             "####",
                             ".#.."],
    "bulky five with a tail": [".##",
                               "###",
                               "#.."],
    "straight six": ["######"],
    "T six": ["###",
              ".#.",
              ".#.",
              ".#."],
}
TOO_SMALL_OR_LARGE = {
    "one": ["#"],
    "two": ["##"],
    "straight seven": ["#######"],
    "rabbity six and one": [".#..",
                            "###.",
                            ".###"],
    "rectangular eight": ["####",
                          "####"],
    "nine": ["###",
             "###",
             "###"],
}


def symmetries(rows):
    """The 8 images of a drawn shape, by NumPy's rotations of the grid and of its transpose."""
    grid = np.array([list(r) for r in rows])
    for base in (grid, grid.T):
        for k in range(4):
            yield np.rot90(base, k)


def walled(grid, size, place, wall):
    """A board with the grid's shape empty at ``place`` (a (vertical, horizontal) alignment),
    every point next to it (diagonals too) a ``wall`` stone, the points next to the wall the
    other colour's. Returns ``(board, region points, vital point or PASS)``."""
    h, wd = grid.shape
    top = {"top": 0, "middle": (size - h) // 2, "bottom": size - h}[place[0]]
    left = {"left": 0, "middle": (size - wd) // 2, "right": size - wd}[place[1]]
    cells = {(top + r, left + c): grid[r, c]
             for r in range(h) for c in range(wd) if grid[r, c] != "."}

    def near(distance):
        out = set()
        for r, c in cells:
            for a in range(r - distance, r + distance + 1):
                for b in range(c - distance, c + distance + 1):
                    if 0 <= a < size and 0 <= b < size and (a, b) not in cells:
                        out.add((a, b))
        return out

    wall_cells = near(1)
    ring_cells = near(2) - wall_cells

    def point(cell):
        return coords.point(size - 1 - cell[0], cell[1], size)

    board = mcgo.Board(size)
    stones = {wall: [point(c) for c in wall_cells], 3 - wall: [point(c) for c in ring_cells]}
    board.setup(black=stones[mcgo.BLACK], white=stones[mcgo.WHITE])
    vital = [point(c) for c, ch in cells.items() if ch == "v"]
    return board, sorted(point(c) for c in cells), (vital[0] if vital else K.PASS)


def every_position(rows, sizes=SIZES):
    for size in sizes:
        for place in PLACES:
            for grid in symmetries(rows):
                for wall in (mcgo.BLACK, mcgo.WHITE):
                    yield walled(grid, size, place, wall) + ((size, place, wall),)


def scratch():
    return np.zeros(8, dtype=np.int32)


def name(board, p):
    return coords.to_gtp(p, board.size)


@pytest.mark.parametrize("shape", sorted(VITAL) + sorted(NO_VITAL) + sorted(TOO_SMALL_OR_LARGE))
def test_vital_point_from_every_point_of_the_shape(shape):
    """Every point of the eyespace answers the shape's vital point (PASS for the shapes
    without one, and for 1, 2 and 7 or more points) in every orientation and place."""
    rows = {**VITAL, **NO_VITAL, **TOO_SMALL_OR_LARGE}[shape]
    work = scratch()
    for board, region, vital, where in every_position(rows):
        w = board.size + 2
        for p in region:
            got = nakade_point(board.pts, w, p, work)
            assert got == vital, (shape, where, name(board, p), name(board, got), str(board))


def canonical(cells):
    """A polyomino's cells in a form that no rotation, reflection or shift changes."""
    forms = []
    for grid in symmetries(as_rows(cells)):
        forms.append(tuple(sorted((int(r), int(c)) for r, c in zip(*np.nonzero(grid != ".")))))
    return min(forms)


def as_rows(cells):
    """The drawing of a set of cells (any offset)."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    cells = {(r - top, c - left) for r, c in cells}
    rows = [["."] * (1 + max(c for _, c in cells)) for _ in range(1 + max(r for r, _ in cells))]
    for r, c in cells:
        rows[r][c] = "#"
    return ["".join(r) for r in rows]


def polyominoes(n):
    """Every free polyomino of ``n`` cells (1, 1, 2, 5, 12, 35, 108 for n = 1..7), grown one
    cell at a time."""
    found = {((0, 0),)}
    for _ in range(n - 1):
        found = {canonical(set(p) | {q}) for p in found for r, c in p
                 for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if q not in p}
    return found


def test_only_the_named_shapes_have_a_vital_point():
    """Every polyomino of 1 to 7 points, walled in at the centre of a 19x19 board: the six
    shapes with a vital point answer one, every other shape PASS."""
    named = {canonical({(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                        if ch != "."}): shape for shape, rows in VITAL.items()}
    counts = {n: len(polyominoes(n)) for n in range(1, 8)}
    assert counts == {1: 1, 2: 1, 3: 2, 4: 5, 5: 12, 6: 35, 7: 108}
    work = scratch()
    with_vital = set()
    for n in range(1, 8):
        for cells in polyominoes(n):
            grid = np.array([list(r) for r in as_rows(cells)])
            board, region, _ = walled(grid, 19, ("middle", "middle"), mcgo.BLACK)
            answers = {nakade_point(board.pts, 21, p, work) for p in region}
            assert len(answers) == 1, (as_rows(cells), answers)
            if answers != {K.PASS}:
                with_vital.add(named.get(cells, as_rows(cells)))
    assert with_vital == set(VITAL)


def test_vital_shapes_have_their_vital_point_inside():
    """The drawings mark one vital point each, the others none."""
    assert all(sum(r.count("v") for r in rows) == 1 for rows in VITAL.values())
    assert not any("v" in r for rows in {**NO_VITAL, **TOO_SMALL_OR_LARGE}.values() for r in rows)


def test_stones_and_a_bare_board_answer_pass():
    work = scratch()
    for size in SIZES:
        board = mcgo.Board(size)
        w = size + 2
        assert nakade_point(board.pts, w, board.point("A1"), work) == K.PASS   # all empty
    board, region, vital = walled(np.array([list("#v#")]), 9, ("middle", "middle"), mcgo.BLACK)
    for p in board.stones(mcgo.BLACK) + board.stones(mcgo.WHITE):
        assert nakade_point(board.pts, 11, p, work) == K.PASS


@pytest.mark.parametrize("shape", sorted(VITAL))
def test_region_touched_by_both_colours_is_no_eyespace(shape):
    """One wall stone next to the eyespace turned to the other colour: PASS from every point."""
    work = scratch()
    for board, region, vital, (size, place, wall) in every_position(VITAL[shape], sizes=(9,)):
        w = size + 2
        touching = sorted({q for p in region for q in (p - 1, p + 1, p - w, p + w)
                           if board.pts[K.COLOR, q] == wall})
        for q in (touching[0], touching[-1]):
            mixed = board.copy()
            black = [q] if wall == mcgo.WHITE else []
            mixed.setup(black=black, white=[q] if not black else [])
            for p in region:
                got = nakade_point(mixed.pts, w, p, work)
                assert got == K.PASS, (shape, place, name(mixed, q), name(mixed, got), str(mixed))


@pytest.mark.parametrize("shape", sorted(VITAL) + sorted(NO_VITAL))
def test_answer_to_a_wall_move(shape):
    """After the wall's owner plays a wall stone next to the eyespace, the other side's
    answer is the vital point (a legal move by sgfmill's rules too), PASS for shapes
    without one and for a wall stone that touches only a point of the shape with
    ``OPEN_NEIGHBOURS`` empty neighbours (the answer does not read from there); a move next
    to no eyespace (a ring stone) answers PASS."""
    rows = VITAL.get(shape) or NO_VITAL[shape]
    work = scratch()
    for board, region, vital, (size, place, wall) in every_position(rows):
        w = size + 2
        color = 3 - wall
        for last in sorted({q for p in region for q in (p - 1, p + 1, p - w, p + w)
                            if board.pts[K.COLOR, q] == wall}):
            got = nakade_answer(board.pts, board.info, last, color, work)
            read = [q for q in (last - 1, last + 1, last - w, last + w) if q in region
                    and sum(board.pts[K.COLOR, r] == K.EMPTY
                            for r in (q - 1, q + 1, q - w, q + w)) < OPEN_NEIGHBOURS]
            expected = vital if read else K.PASS   # next to a centre only: not read
            assert got == expected, (shape, place, name(board, last), name(board, got), str(board))
        if vital != K.PASS:
            assert sgfmill_allows(board, vital, color)
            assert sgfmill_allows(board, vital, wall)
        ring = board.stones(color)[0]
        assert nakade_answer(board.pts, board.info, ring, wall, work) == K.PASS


def test_answer_skips_an_illegal_vital_point():
    """A vital point the mover may not play (here: a ko ban on it) is no answer."""
    board, region, vital = walled(np.array([list("#v#")]), 9, ("middle", "middle"), mcgo.BLACK)
    last = vital + board.size + 2    # the wall stone above the vital point
    assert board.color_at(last) == mcgo.BLACK
    work = scratch()
    assert nakade_answer(board.pts, board.info, last, mcgo.WHITE, work) == vital
    board.info[K.KO_POINT] = vital
    board.info[K.KO_COLOR] = mcgo.WHITE
    assert nakade_answer(board.pts, board.info, last, mcgo.WHITE, work) == K.PASS
    assert nakade_answer(board.pts, board.info, last, mcgo.BLACK, work) == vital


# --------------------------------------------------------------------------- Fuego's suites
FUEGO_FILES = ("life_and_death_nakade.tst", "playout_nakade.tst")
VERTEX = re.compile(r"^[A-HJ-Z]\d{1,2}$", re.I)
# The tests whose one expected point lies in an empty region of 3 to 6 points that touches
# stones of one colour only.
QUALIFYING = {
    ("life_and_death_nakade.tst", 30), ("life_and_death_nakade.tst", 110),
    ("life_and_death_nakade.tst", 520), ("life_and_death_nakade.tst", 530),
    ("playout_nakade.tst", 20), ("playout_nakade.tst", 21), ("playout_nakade.tst", 60),
    ("playout_nakade.tst", 90), ("playout_nakade.tst", 100), ("playout_nakade.tst", 190),
    ("playout_nakade.tst", 200),
}
# Test 110 (nakade-6pts-corner-1.sgf, move 5): black kills White's rectangular six in the
# corner (2x3 on the first two lines) at its 2-2 point. That six dies only in the corner and
# with White short of outside liberties: a fact of the position, not of the shape, so it is
# not among the kernel's shapes and the kernel answers PASS.
DISAGREEING = {("life_and_death_nakade.tst", 110)}


def empty_region(board, p):
    """The empty region around ``p`` and the colours of the stones touching it (a flood fill
    on the board's colours, independent of the kernel)."""
    w = board.size + 2
    seen, stack, colours = {p}, [p], set()
    while stack:
        s = stack.pop()
        for q in (s - 1, s + 1, s - w, s + w):
            c = board.pts[K.COLOR, q]
            if c == K.EMPTY and q not in seen:
                seen.add(q)
                stack.append(q)
            elif c in (mcgo.BLACK, mcgo.WHITE):
                colours.add(int(c))
    return seen, colours


def single_expected_point(expectation):
    """The one point a test expects (a policy listing's move type before it dropped), or
    None for alternatives, negations, pass and lists."""
    if expectation.negated:
        return None
    words = expectation.pattern.split()
    if words and not VERTEX.match(words[0]):
        words = words[1:]     # "Nakade H8", "GammaPattern F1": the policy's reason
    return words[0] if len(words) == 1 and VERTEX.match(words[0]) else None


def test_fuego_regression_vital_points(fuego_regression_dir):
    """Fuego's nakade tests whose expected answer is one point inside an empty region of 3
    to 6 points bounded by one colour: ``nakade_point`` of the region gives that point.

    ``loadsgf FILE N`` is the position before move N (GTP), replayed with :mod:`mcgo.sgf`.
    Of the 95 tests of the two files (64 and 31), 11 qualify (4 of
    ``life_and_death_nakade.tst``, 7 of ``playout_nakade.tst``: there a ``Nakade`` or
    ``GammaPattern`` policy listing of one move counts); 10 agree. The one disagreement is
    test 110, a rectangular six in the corner (see ``DISAGREEING``). Most tests do not
    qualify because their eyespace already holds stones of both colours (the nakade is being
    played out), or they expect several moves.
    """
    found, agree = set(), set()
    for file_name in FUEGO_FILES:
        board = None
        for step in regress.read_tst(fuego_regression_dir / file_name):
            words = step.command.split()
            if words[0] == "loadsgf":
                record = sgf.read_game(words[1])
                limit = int(words[2]) - 1 if len(words) > 2 else None
                board = sgf.replay(record, max_moves=limit, superko=False)
                continue
            if not step.is_test:
                continue
            vertex = single_expected_point(step.expectation)
            if vertex is None:
                continue
            p = coords.from_gtp(vertex, board.size)
            if board.color_at(p) != K.EMPTY:
                continue
            region, colours = empty_region(board, p)
            if not (3 <= len(region) <= 6 and len(colours) == 1):
                continue
            key = (file_name, step.test_id)
            found.add(key)
            got = nakade_point(board.pts, board.size + 2, p, scratch())
            if got == p:
                agree.add(key)
    assert found == QUALIFYING
    assert found - agree == DISAGREEING


def is_connected(points, w):
    """True when the points form one 4-connected region (else each part is an eye)."""
    points = set(points)
    reached, stack = set(), [min(points)]
    while stack:
        q = stack.pop()
        if q in reached:
            continue
        reached.add(q)
        stack += [r for r in (q - 1, q + 1, q - w, q + w) if r in points]
    return reached == points


def is_square_four(points, size):
    rows, cols = zip(*(coords.row_col(p, size) for p in points))
    return len(points) == 4 and max(rows) - min(rows) == 1 and max(cols) - min(cols) == 1


@pytest.mark.parametrize("cells", [3, 4, 5, 6, 7])
def test_self_atari_throw_in_is_a_nakade_when_the_captured_space_has_one_eye(cells):
    """Every eyespace of ``cells`` points (each polyomino, in a corner and in the centre of a
    9x9 board, walled in by white), filled by black except one point L, black's last stone
    at each point p next to L: black's move is a self-atari of the whole space but L, and
    :func:`makes_nakade` says it is a nakade throw-in exactly when the space that sgfmill's
    board leaves after white takes at L cannot make two eyes: three points or fewer, a
    square four, or a shape with a vital point (:func:`nakade_point`, tested above against
    Sensei's Library's shapes)."""
    work = scratch()
    seen = {True: 0, False: 0}
    for shape in sorted(polyominoes(cells)):
        rows = [r.replace("#", "x") for r in as_rows(set(shape))]
        for place in (("top", "left"), ("middle", "middle")):
            board, region, _ = walled(np.array([list(r) for r in rows]), 9, place, mcgo.WHITE)
            w = board.size + 2
            for lib in region:
                rest = [q for q in region if q != lib]
                for p in rest:
                    if lib not in (p - 1, p + 1, p - w, p + w):
                        continue
                    setup = mcgo.Board(9)
                    try:
                        setup.setup(black=board.stones(mcgo.BLACK) + [q for q in rest if q != p],
                                    white=board.stones(mcgo.WHITE))
                    except ValueError:
                        continue        # a black stone without liberties: no position
                    ref = sgfmill_board(setup)
                    row, col = coords.row_col(p, 9)
                    after = ref.copy()
                    after.play(row, col, "b")
                    if after.get(row, col) != "b" or any(after.get(*coords.row_col(q, 9)) != "b"
                                                         for q in rest):
                        continue        # suicide, or a capture: no self-atari to judge
                    if not is_self_atari(setup.pts, w, p, mcgo.BLACK):
                        continue
                    after.play(*coords.row_col(lib, 9), "w")
                    space = [q for q in rest if after.get(*coords.row_col(q, 9)) is None]
                    assert sorted(space) == sorted(rest)    # white's capture took them all
                    captured = mcgo.Board(9)
                    captured.setup(black=[coords.point(r, c, 9) for colour, (r, c)
                                          in after.list_occupied_points() if colour == "b"],
                                   white=[coords.point(r, c, 9) for colour, (r, c)
                                          in after.list_occupied_points() if colour == "w"])
                    one_eye = is_connected(space, w) and (
                        len(space) <= 3 or is_square_four(space, 9)
                        or nakade_point(captured.pts, w, space[0], work) != K.PASS)
                    got = bool(makes_nakade(setup.pts, w, p, mcgo.BLACK, work))
                    assert got == one_eye, (shape, place, name(setup, p), name(setup, lib), str(setup))
                    seen[got] += 1
    if cells <= 4:
        assert seen[True] > 0
    else:
        assert seen[True] > 0 and seen[False] > 0, seen



@pytest.mark.parametrize("shape", sorted(VITAL) + sorted(NO_VITAL))
def test_answer_to_a_placement_inside_the_eyespace(shape):
    """After the other side places a stone inside the eyespace, the wall's owner answers at
    the vital point (legal by sgfmill's rules), so that it keeps two eyes; PASS when the
    stone stands on the vital point itself, or the shape has none."""
    rows = VITAL.get(shape) or NO_VITAL[shape]
    work = scratch()
    answered = 0
    for board, region, vital, (size, place, wall) in every_position(rows, sizes=(9,)):
        for p in region:
            placed = board.copy()
            placed.play(p, 3 - wall)
            got = nakade_answer(placed.pts, placed.info, p, wall, work)
            expected = K.PASS if p == vital else vital
            assert got == expected, (shape, place, name(board, p), name(board, got), str(placed))
            if got != K.PASS:
                assert sgfmill_allows(placed, got, wall)
                answered += 1
    assert (answered > 0) == (shape in VITAL), (shape, answered)
