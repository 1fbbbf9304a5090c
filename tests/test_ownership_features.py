"""The ownership network's inputs (:mod:`mcgo.models.ownership.features`, :mod:`.influence`).

The references are not ours: positions come from real game records (Fuego's regression games,
under $MCGO_REFERENCE_DATA), read with sgfmill's SGF parser and played out on sgfmill's board;
chains, true eyes, liberties of every order, the weakest neighbouring chains and the
neighbourhood rings are then recomputed in plain Python over sgfmill's board, from the
definitions in the features' docstring, and compared with every point's features.
Equivariance under the 8 symmetries and under the colour swap needs no reference: the
transformed board must give exactly the transformed features.
"""

import pathlib
import random

import numpy as np
import pytest
import sgfmill.boards
import sgfmill.sgf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcgo
from mcgo.board import coords, symmetry
from mcgo.models.ownership import features as F
from mcgo.models.ownership import influence as I
from mcgo.tactics.eyes import is_true_eye

GAMES = ["games/2008/KGS/8/21/Hellyta-Fuego.sgf",
         "games/2011/UEC/katsunari-Fuego.sgf",
         "games/2012/Blubbel-AyaBot4-2.sgf",
         "games/2013/UEC/2013_uec_round3_ballade.sgf"]
MOVE_COUNTS = (60, 150, None)          # None: the whole game
OTHER = {"b": "w", "w": "b"}
COLOUR = {"b": mcgo.BLACK, "w": mcgo.WHITE}


# ------------------------------------------------------------------ positions
def record_position(directory, name, moves):
    """sgfmill's board after the first ``moves`` moves of the record ``directory/sgf/name``
    (all of them when None)."""
    path = pathlib.Path(directory) / "sgf" / name
    game = sgfmill.sgf.Sgf_game.from_bytes(path.read_bytes())
    size = game.get_size()
    board = sgfmill.boards.Board(size)
    ab, aw, _ = game.get_root().get_setup_stones()
    board.apply_setup(ab, aw, ())
    played = 0
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is None or move is None:
            continue
        if moves is not None and played == moves:
            break
        board.play(move[0], move[1], colour)
        played += 1
    return board


def to_mcgo(ref):
    """The same stones on a :class:`mcgo.Board` (by set-up, not by our move rules)."""
    size = ref.side
    stones = {"b": [], "w": []}
    for (row, col) in ((r, c) for r in range(size) for c in range(size)):
        colour = ref.get(row, col)
        if colour is not None:
            stones[colour].append(coords.from_sgfmill((row, col), size))
    board = mcgo.Board(size)
    board.setup(black=stones["b"], white=stones["w"])
    return board


def random_position(size, seed, nmoves):
    """A random game that does not fill its own true eyes, so positions have eyes."""
    rng = random.Random(seed)
    board = mcgo.Board(size)
    w = size + 2
    for _ in range(nmoves):
        colour = board.to_move
        moves = [p for p in board.legal_moves() if not is_true_eye(board.pts, w, p, colour)]
        if not moves:
            board.pass_move()
            continue
        board.play(rng.choice(moves))
    return board


def colour_grid(board):
    """{(row, col): 'b' / 'w' / None} of a mcgo board."""
    size = board.size
    name = {mcgo.EMPTY: None, mcgo.BLACK: "b", mcgo.WHITE: "w"}
    return {(r, c): name[board.color_at(coords.point(r, c, size))]
            for r in range(size) for c in range(size)}


# ------------------------------------------------------------------ the reference
def neighbours(size, r, c):
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < size and 0 <= cc < size:
            yield rr, cc


def true_eye(get, size, r, c, colour):
    """The textbook rule, written again: every neighbour ``colour`` or the edge; of the
    diagonals, no opponent on the edge, at most one in the middle."""
    if get(r, c) is not None:
        return False
    if any(get(rr, cc) != colour for rr, cc in neighbours(size, r, c)):
        return False
    diagonals = [(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)]
    on = [(rr, cc) for rr, cc in diagonals if 0 <= rr < size and 0 <= cc < size]
    bad = sum(get(rr, cc) == OTHER[colour] for rr, cc in on)
    return bad == 0 if len(on) < 4 else bad <= 1


class Reference:
    """Chains and their properties, recomputed over sgfmill's board."""

    def __init__(self, ref):
        self.size = size = ref.side
        self.get = ref.get
        self.chain_of = {}
        self.chains = []
        for r in range(size):
            for c in range(size):
                colour = ref.get(r, c)
                if colour is None or (r, c) in self.chain_of:
                    continue
                stones, todo = {(r, c)}, [(r, c)]
                while todo:
                    p = todo.pop()
                    for q in neighbours(size, *p):
                        if ref.get(*q) == colour and q not in stones:
                            stones.add(q)
                            todo.append(q)
                index = len(self.chains)
                self.chains.append(self.properties(stones, colour))
                for p in stones:
                    self.chain_of[p] = index

    def properties(self, stones, colour):
        size, get = self.size, self.get
        frontier, seen, orders = set(stones), set(stones), []
        for _ in range(F.LIBERTY_ORDERS):
            ring = {q for p in frontier for q in neighbours(size, *p)
                    if get(*q) is None and q not in seen}
            orders.append(len(ring))
            seen |= ring
            frontier = ring
        adjacent_empty = {q for p in stones for q in neighbours(size, *p) if get(*q) is None}
        eyes = sum(true_eye(get, size, r, c, colour) for r, c in adjacent_empty)
        return {"colour": colour, "stones": stones, "orders": orders, "eyes": eyes}

    def key(self, index):
        chain = self.chains[index]
        return (chain["eyes"], chain["orders"][0])

    def neighbour_chains(self, points, colours):
        return {self.chain_of[q] for p in points for q in neighbours(self.size, *p)
                if self.get(*q) in colours}


def liberty_feature(n, order):
    return n / (n + F.LIBERTY_SCALE * order)


def eye_feature(n):
    return min(n, F.EYE_CAP) / F.EYE_CAP


def expected_chain_features(reference, r, c):
    """chain_eyes, chain_liberties_1..4, opponent1_*, opponent2_* of the point (r, c)."""
    colour = reference.get(r, c)
    if colour is None:
        own = [0.0] * (1 + F.LIBERTY_ORDERS)
        candidates = reference.neighbour_chains([(r, c)], ("b", "w"))
    else:
        chain = reference.chains[reference.chain_of[(r, c)]]
        own = [eye_feature(chain["eyes"])] + [liberty_feature(n, k + 1)
                                              for k, n in enumerate(chain["orders"])]
        candidates = reference.neighbour_chains(chain["stones"], (OTHER[colour],))
    keys = sorted(reference.key(i) for i in candidates)
    slots = []
    for slot in range(2):
        if slot >= len(keys):
            slots += [0.0] * 4
            continue
        tied = [reference.chains[i]["colour"] for i in candidates if reference.key(i) == keys[slot]]
        eyes, libs = keys[slot]
        slots += [tied.count("b") / len(tied), tied.count("w") / len(tied),
                  liberty_feature(libs, 1), eye_feature(eyes)]
    return own + slots


def reference_influence(grid, size, strength, stringent):
    """The documented influence rule, written again: (black, white) sums per (row, col)."""
    sums = {"b": np.zeros((size, size)), "w": np.zeros((size, size))}
    for (r, c), colour in grid.items():
        if colour is None:
            continue
        dist = {(r, c): 0}
        frontier = [(r, c)]
        sums[colour][r, c] += 1.0
        for d in range(1, I.RADIUS + 1):
            nxt = []
            for p in frontier:
                for q in neighbours(size, *p):
                    if q in dist:
                        continue
                    dist[q] = d
                    sums[colour][q] += 2.0 ** -d
                    blocked = grid[q] == OTHER[colour] and (
                        not stringent or strength[q] > strength[(r, c)])
                    if not blocked:
                        nxt.append(q)
            frontier = nxt
    return sums["b"], sums["w"]


def ring_of(dr, dc):
    return max(abs(dr), abs(dc)), min(abs(dr), abs(dc))


# ------------------------------------------------------------------ against sgfmill
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("moves", MOVE_COUNTS)
def test_features_against_sgfmill_board(fuego_regression_dir, name, moves):
    ref = record_position(fuego_regression_dir, name, moves)
    reference = Reference(ref)
    board = to_mcgo(ref)
    size = board.size
    w = size + 2
    propensity = np.random.default_rng(moves or 0).uniform(-1, 1, (size, size))
    x = F.features(board, propensity)
    names = F.feature_names()
    col = {n: i for i, n in enumerate(names)}
    chain_columns = [col["chain_eyes"]] + [col[f"chain_liberties_{k}"] for k in range(1, 5)] + \
        [col[f"opponent{i}_{f}"] for i in (1, 2) for f in ("black", "white", "liberties", "eyes")]

    # The reference's eye rule is the project's: checked on every empty point first.
    for r in range(size):
        for c in range(size):
            p = coords.point(r, c, size)
            for colour in ("b", "w"):
                assert true_eye(ref.get, size, r, c, colour) == bool(
                    ref.get(r, c) is None and is_true_eye(board.pts, w, p, COLOUR[colour]))

    eyes_seen = 0
    for r in range(size):
        for c in range(size):
            colour = ref.get(r, c)
            assert x[r, c, col["black"]] == (colour == "b")
            assert x[r, c, col["white"]] == (colour == "w")
            assert x[r, c, col["empty"]] == (colour is None)
            assert x[r, c, col["propensity"]] == np.float32(propensity[r, c])
            expected = expected_chain_features(reference, r, c)
            np.testing.assert_allclose(x[r, c, chain_columns], expected, atol=1e-6,
                                       err_msg=f"chain features at {(r, c)}")
            if colour is not None:
                chain = reference.chains[reference.chain_of[(r, c)]]
                eyes_seen += chain["eyes"] > 0
                # The first order is the board's own liberty count.
                assert chain["orders"][0] == board.liberties(coords.point(r, c, size))

    # The neighbourhood rings: fractions over all of the ring, means over its points on
    # the board of the propensity and of the point features' influence.
    influence_columns = [col[f"influence_{c}_{m}"]
                         for m in ("exact", "stringent") for c in ("black", "white")]
    offsets = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if 0 < abs(dr) + abs(dc) <= 2]
    for r in range(size):
        for c in range(size):
            for a, b in F.rings(F.DEFAULT_RADIUS):
                ring = [(r + dr, c + dc) for dr, dc in offsets if ring_of(dr, dc) == (a, b)]
                on = [q for q in ring if 0 <= q[0] < size and 0 <= q[1] < size]
                prefix = f"ring_{a}_{b}_"
                got = x[r, c, [col[prefix + f] for f in F.RING_FIELD_NAMES]]
                want = [sum(ref.get(*q) == "b" for q in on) / len(ring),
                        sum(ref.get(*q) == "w" for q in on) / len(ring),
                        sum(ref.get(*q) is None for q in on) / len(ring),
                        (len(ring) - len(on)) / len(ring),
                        np.mean([propensity[q] for q in on]) if on else 0.0]
                want += [np.mean([x[q][i] for q in on]) if on else 0.0 for i in influence_columns]
                np.testing.assert_allclose(got, want, atol=1e-6, err_msg=f"rings at {(r, c)}")
    if moves is None:
        assert eyes_seen > 0, "a finished game without a single eye tests nothing"


@pytest.mark.parametrize("name", GAMES[:2])
@pytest.mark.parametrize("moves", (60, None))
def test_influence_against_the_rule_written_again(fuego_regression_dir, name, moves):
    ref = record_position(fuego_regression_dir, name, moves)
    reference = Reference(ref)
    board = to_mcgo(ref)
    size = board.size
    grid = {(r, c): ref.get(r, c) for r in range(size) for c in range(size)}
    strength = {p: reference.key(reference.chain_of[p]) for p, colour in grid.items() if colour}
    maps = I.influence_maps(board)
    for stringent, rows in ((False, (I.EXACT_BLACK, I.EXACT_WHITE)),
                            (True, (I.STRINGENT_BLACK, I.STRINGENT_WHITE))):
        black, white = reference_influence(grid, size, strength, stringent)
        np.testing.assert_array_equal(maps[rows[0]], black)
        np.testing.assert_array_equal(maps[rows[1]], white)
    x = F.features(board, np.zeros((size, size)))
    col = F.feature_names().index("influence_black_exact")
    np.testing.assert_allclose(x[..., col], 1 - np.exp(-maps[I.EXACT_BLACK] / I.SCALE), atol=1e-6)
    # Some stone blocks somewhere under the exact rule and not under the stringent one.
    assert not np.array_equal(maps[I.EXACT_BLACK], maps[I.STRINGENT_BLACK])


# ------------------------------------------------------------------ influence by hand
def test_lone_stone_influence_halves_with_each_step():
    board = mcgo.Board(9)
    board.play("E5")
    maps = I.influence_maps(board)
    for r in range(9):
        for c in range(9):
            d = abs(r - 4) + abs(c - 4)
            want = 2.0 ** -d if d <= I.RADIUS else 0.0
            for m in (I.EXACT_BLACK, I.STRINGENT_BLACK):
                assert maps[m, r, c] == want
    assert not maps[I.EXACT_WHITE].any() and not maps[I.STRINGENT_WHITE].any()
    x = F.features(board, np.zeros((9, 9)))
    ray = x[4, 4:, F.F_INFLUENCE]                  # E5 to J5
    assert all(a > b for a, b in zip(ray, ray[1:])) and ray[-1] > 0


def test_opponent_stone_blocks_exactly_and_stronger_blocks_stringently():
    board = mcgo.Board(9)
    board.play("E5")
    board.play("E6")                               # 3 liberties, as many as E5: weaker or equal
    maps = I.influence_maps(board)
    e6, e7 = (5, 4), (6, 4)
    assert maps[I.EXACT_BLACK][e6] == 0.5          # the blocking stone is reached...
    assert maps[I.EXACT_BLACK][e7] == 2.0 ** -4    # ...and the way on is round it
    assert maps[I.STRINGENT_BLACK][e7] == 0.25     # not stronger: it lets influence through
    board.play("A1")
    board.play("E7")                               # E6-E7: 5 liberties, stronger than E5's 3
    maps = I.influence_maps(board)
    e8 = (7, 4)
    assert maps[I.EXACT_BLACK][e8] == maps[I.STRINGENT_BLACK][e8] == 0.0
    # A corner stone walled in by stronger stones reaches nothing beyond the wall.
    board = mcgo.Board(9)
    board.setup(black=["A1"], white=["A3", "B2", "C1"])
    maps = I.influence_maps(board)
    reached = {(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)}
    for m in (I.EXACT_BLACK, I.STRINGENT_BLACK):
        assert {(r, c) for r, c in zip(*np.nonzero(maps[m]))} == reached


# ------------------------------------------------------------------ eyes by hand
def test_chain_with_two_true_eyes_and_with_one():
    board = mcgo.Board(9)
    # Black: A2 B2 C2 D2 D1 B1 round the eyes A1 and C1; white far away.
    board.setup(black=["A2", "B2", "C2", "D2", "D1", "B1"], white=["G7"])
    col = F.feature_names().index("chain_eyes")
    x = F.features(board, np.zeros((9, 9)))
    assert x[1, 0, col] == 1.0                     # two eyes: min(2, 2) / 2
    board = mcgo.Board(9)
    # D2 white: C1 is a false eye (an opponent diagonal on the edge), A1 still a true one.
    board.setup(black=["A2", "B2", "C2", "B1", "D1"], white=["D2"])
    x = F.features(board, np.zeros((9, 9)))
    assert x[1, 0, col] == 0.5                     # A2's chain: one eye
    assert x[0, 3, col] == 0.0                     # D1: none
    assert x[1, 3, F.feature_names().index("opponent1_black")] == 1.0   # D2's weakest: D1
    assert x[1, 3, F.feature_names().index("opponent1_liberties")] == 2 / (2 + F.LIBERTY_SCALE)


# ------------------------------------------------------------------ symmetries
def transformed(board, s):
    """``board`` moved by symmetry ``s`` (by set-up)."""
    size = board.size
    out = mcgo.Board(size)
    out.setup(**{name: [symmetry.map_point(p, s, size) for p in board.stones(colour)]
                 for name, colour in (("black", mcgo.BLACK), ("white", mcgo.WHITE))})
    return out


def check_equivariant(board, radius, seed):
    size = board.size
    propensity = np.random.default_rng(seed).uniform(-1, 1, (size, size))
    x = F.features(board, propensity, radius=radius).reshape(size * size, -1)
    for s in range(symmetry.SYMMETRIES):
        image = symmetry.images(size)[s]
        moved = np.empty_like(propensity).reshape(-1)
        moved[image] = propensity.reshape(-1)
        y = F.features(transformed(board, s), moved.reshape(size, size), radius=radius)
        want = np.empty_like(x)
        want[image] = x
        np.testing.assert_array_equal(y.reshape(size * size, -1), want, err_msg=f"symmetry {s}")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(2, 9), seed=st.integers(0, 2 ** 31), fill=st.floats(0.0, 1.6),
       radius=st.integers(0, 3))
def test_features_are_equivariant_under_the_symmetries(size, seed, fill, radius):
    board = random_position(size, seed, int(fill * size * size))
    check_equivariant(board, radius, seed)


def test_record_position_is_equivariant(fuego_regression_dir):
    board = to_mcgo(record_position(fuego_regression_dir, GAMES[0], 150))
    check_equivariant(board, F.DEFAULT_RADIUS, 7)


def swapped_name(name):
    return name.replace("black", "@").replace("white", "black").replace("@", "white")


@settings(max_examples=20, deadline=None)
@given(size=st.integers(2, 9), seed=st.integers(0, 2 ** 31), fill=st.floats(0.0, 1.6))
def test_colour_swap_swaps_black_and_white_features(size, seed, fill):
    board = random_position(size, seed, int(fill * size * size))
    swapped = mcgo.Board(size)
    swapped.setup(black=board.stones(mcgo.WHITE), white=board.stones(mcgo.BLACK))
    propensity = np.random.default_rng(seed).uniform(-1, 1, (size, size))
    x = F.features(board, propensity)
    y = F.features(swapped, -propensity)
    names = F.feature_names()
    for i, name in enumerate(names):
        j = names.index(swapped_name(name))
        sign = -1.0 if "propensity" in name else 1.0
        np.testing.assert_array_equal(y[..., j], sign * x[..., i], err_msg=name)


# ------------------------------------------------------------------ the interface
def test_names_count_and_workspace_reuse(fuego_regression_dir):
    assert F.feature_count(0) == F.NBASE
    for radius in range(5):
        names = F.feature_names(radius)
        assert len(names) == len(set(names)) == F.feature_count(radius)
    assert [ab for ab in F.rings(3)] == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0)]
    assert F.feature_count(F.DEFAULT_RADIUS) == 48
    board = to_mcgo(record_position(fuego_regression_dir, GAMES[1], 120))
    propensity = np.zeros((19, 19))
    out = np.full((19, 19, F.feature_count(3)), np.nan, dtype=np.float32)
    work, fwork = F.workspace(19, 3)
    F.fill_features(board.pts, board.info, propensity, 3, out, work, fwork)
    F.fill_features(board.pts, board.info, propensity, 3, out, work, fwork)
    np.testing.assert_array_equal(out, F.features(board, propensity, radius=3))
    assert np.isfinite(out).all() and out.min() >= -1 and out.max() <= 1
    pts = board.pts.copy()
    F.features(board, propensity)
    np.testing.assert_array_equal(board.pts, pts)          # the position is only read
    with pytest.raises(ValueError):
        F.features(board, np.zeros((9, 9)))
    with pytest.raises(ValueError):
        F.features(board, propensity, radius=-1)
