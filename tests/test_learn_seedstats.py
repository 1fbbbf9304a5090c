"""Seed 003's propensity and seed 002's stability and impact (mcgo.models.seedstats), checked
against boards worked by hand from the papers' definitions, the orbits of the board's
symmetries, games rotated by sgfmill, and a plain-Python oracle of the definitions."""

import pathlib

import numpy as np
import pytest
from click.testing import CliRunner
from sgfmill import sgf as sgfmill_sgf

from mcgo.board.symmetry import images
from mcgo.cli import main
from mcgo.models import patterns3 as P
from mcgo.train import patterns_command
from mcgo.models import seedstats as S
from mcgo.sgf import read_game

GOBAN = pathlib.Path(__file__).resolve().parent.parent / "data/goban-original-games/usr/share/goban"


def owner_from_rows(rows):
    """(size, size) int8 from text rows, top row first: X black (+1), O white (-1), . neither."""
    size = len(rows)
    out = np.zeros((size, size), dtype=np.int8)
    for i, line in enumerate(rows):
        for col, ch in enumerate(line.replace(" ", "")):
            out[size - 1 - i, col] = {"X": 1, "O": -1, ".": 0}[ch]
    return out


# ------------------------------------------------------------------------ location classes
def window_orbits(size):
    """The orbits of the window centres under the 8 symmetries, from mcgo.board.symmetry."""
    table = images(size)
    centres = {r * size + c for r in range(1, size - 1) for c in range(1, size - 1)}
    orbits = []
    while centres:
        p = centres.pop()
        orbit = {int(table[s, p]) for s in range(8)}
        centres -= orbit
        orbits.append(orbit)
    return orbits


def test_nine_by_nine_has_the_papers_ten_location_classes():
    """Seed 002 fig. 1 / seed 003 3.3: the 49 windows of 9x9 fall in 10 locations, one per
    orbit of the symmetries: windows related by a symmetry share a class, others do not."""
    classes, _, _ = P.window_tables(9, 3)
    cls = {(1 + w // 7) * 9 + 1 + w % 7: int(classes[w]) for w in range(49)}
    orbits = window_orbits(9)
    assert len(orbits) == 10 == len(set(cls.values()))
    for orbit in orbits:
        assert len({cls[p] for p in orbit}) == 1
    assert len({cls[next(iter(o))] for o in orbits}) == 10
    # The corner window (touching two edges) and the centre window: orbits of 4 and 1.
    assert sorted(len(o) for o in orbits) == [1, 4, 4, 4, 4, 4, 4, 8, 8, 8]
    assert cls[1 * 9 + 1] == cls[7 * 9 + 7] != cls[4 * 9 + 4]


def test_nineteen_by_nineteen_classes_are_capped_edge_distances():
    classes, nframes, _ = P.window_tables(19, 3)
    assert len(set(classes.tolist())) == 10
    # Windows centred on the 5th line or further from both edges form one class, 8 frames each.
    far = [w for w in range(17 * 17) if min(w // 17, 16 - w // 17) >= 3 and min(w % 17, 16 - w % 17) >= 3]
    assert len({int(classes[w]) for w in far}) == 1 and all(nframes[w] == 8 for w in far)
    # Windows related by a symmetry share a class.
    for orbit in window_orbits(19):
        assert len({int(classes[(p // 19 - 1) * 17 + p % 19 - 1]) for p in orbit}) == 1
    # Uncapped (cap 8) the classes are exactly the 45 orbits.
    classes8, _, _ = P.window_tables(19, 8)
    assert len(set(classes8.tolist())) == len(window_orbits(19)) == 45


# ------------------------------------------------------------------- hand-worked 5x5 game
ONE_MOVE = b"(;SZ[5]KM[0]RE[W+R];B[cc])"     # black C3, then white to move


def test_propensity_worked_by_hand():
    """5x5, black C3, final owner black everywhere except A5 (white) and E1 (neither).

    Every window holds C3. Windows of 5x5: the centre one (class of distances (1, 1)), four
    corner ones (0, 0) and four edge ones (0, 1). In the canonical frame (the nearer edges at
    row 0 and column 0) the stone is at the corner cell (2, 2) of every corner window, at
    cell (2, 1) of every edge window, at the centre of the centre window.

    Corner pattern, cell (0, 0) (the board corner): A1 black, E5 black, A5 white, E1 neither:
    NB = 2, NW = 1, S = (2 - 1) / (2 + 1 + 1) = 0.25. Its other cells are 4 times black:
    S = 4 / 5 = 0.8. Edge pattern: no cell sees A5 or E1, every cell 4 times black: 0.8.
    Centre pattern: one occurrence, all black: S = 1 / 2 = 0.5.
    Per point: A1 and A5 lie in one window each, the corner cell: 0.25. C3 lies in all nine:
    (0.5 + 8 * 0.8) / 9. B2 lies in the corner window (cell (1, 1)), two edge windows and the
    centre window: 0.8, 0.8, 0.8, 0.5 -> 2.9 / 4.
    """
    record = read_game(ONE_MOVE)
    owner = owner_from_rows(["O X X X X",
                             "X X X X X",
                             "X X X X X",
                             "X X X X X",
                             "X X X X ."])
    stats = S.SeedStats(5)
    assert stats.add_game(record, owner) == 1
    corner, edge, centre = (P.location_class(1, 1, 5), P.location_class(1, 2, 5),
                            P.location_class(2, 2, 5))
    corner_code = P.pattern_code([0, 0, 0, 0, 0, 0, 0, 0, 1])
    edge_code = P.pattern_code([0, 0, 0, 0, 0, 0, 0, 1, 0])
    centre_code = P.pattern_code([0, 0, 0, 0, 1, 0, 0, 0, 0])
    assert stats.nb[corner, corner_code, 0] == 2 and stats.nw[corner, corner_code, 0] == 1
    assert np.allclose(stats.nb[corner, corner_code, 1:], 4)
    assert np.allclose(stats.nb[edge, edge_code], 4) and not stats.nw[edge, edge_code].any()
    assert np.allclose(stats.nb[centre, centre_code], 1)
    # 9 windows of 9 cells, each counted once; E1 (neither) lies in one window only.
    assert stats.nb.sum() + stats.nw.sum() == pytest.approx(81 - 1)
    plane = stats.propensity(S.replay_positions(record)[-1][0])
    assert plane[0, 0] == pytest.approx(0.25) and plane[4, 0] == pytest.approx(0.25)
    assert plane[2, 2] == pytest.approx((0.5 + 8 * 0.8) / 9)
    assert plane[1, 1] == pytest.approx(2.9 / 4)


def test_stability_and_impact_worked_by_hand():
    """Seed 002's eq. (1) on the same game, final owner white on the top row and on A4, B4.

    Corner windows: bottom-left and bottom-right all black (+9), top-right +3, top-left
    (A3..C5: 3 white on row 5, A4 B4 white, C4 and row 3 black) -1: occ 4, bedge 3, wedge 1,
    stab = 0.5. Edge windows: bottom +9, top +1, left +5, right +9: stab = 1. Centre +7: 1.
    White won (RE W+R): imp = -1 from black's view. Seen from the side to move (white,
    seed 002's normalisation) the pattern has a white stone, stab -0.5 and imp +1.
    """
    record = read_game(ONE_MOVE)
    owner = owner_from_rows(["O O O O O",
                             "O O X X X",
                             "X X X X X",
                             "X X X X X",
                             "X X X X X"])
    corner_black = P.pattern_code([0, 0, 0, 0, 0, 0, 0, 0, 1])
    corner_white = P.pattern_code([0, 0, 0, 0, 0, 0, 0, 0, 2])
    corner, edge = P.location_class(1, 1, 5), P.location_class(1, 2, 5)
    edge_black = P.pattern_code([0, 0, 0, 0, 0, 0, 0, 1, 0])

    black_view = S.SeedStats(5, to_move_view=False)
    black_view.add_game(record, owner)
    assert black_view.distinct_patterns() == 3
    assert black_view.occ[corner, corner_black] == 4
    assert black_view.stability()[corner, corner_black] == pytest.approx(0.5)
    assert black_view.stability()[edge, edge_black] == pytest.approx(1.0)
    assert black_view.impact()[corner, corner_black] == pytest.approx(-1.0)

    # The alternative reading, who owns the window's centre: the top corner windows' centres
    # B4 (white) and D4 (black), the bottom ones black: stab (3 - 1) / 4 again; the top edge
    # window's centre C4 is black, the left one's B3 black: edge stab 1.
    centre = S.SeedStats(5, to_move_view=False, territory="centre")
    centre.add_game(record, owner)
    assert centre.stability()[corner, corner_black] == pytest.approx(0.5)
    assert centre.stability()[edge, edge_black] == pytest.approx(1.0)
    # Where the readings part: C3 alone white. The centre window holds 8 black points and 1
    # white (window: stab 1) but its centre is white (centre: stab -1).
    lone = owner_from_rows(["X X X X X", "X X X X X", "X X O X X", "X X X X X", "X X X X X"])
    middle, centre_code = P.location_class(2, 2, 5), P.pattern_code([0, 0, 0, 0, 1, 0, 0, 0, 0])
    readings = {}
    for territory in S.TERRITORY:
        readings[territory] = S.SeedStats(5, to_move_view=False, territory=territory)
        readings[territory].add_game(record, lone)
    assert readings["window"].stability()[middle, centre_code] == 1.0
    assert readings["centre"].stability()[middle, centre_code] == -1.0

    mover_view = S.SeedStats(5)
    mover_view.add_game(record, owner)
    assert mover_view.occ[corner, corner_black] == 0
    assert mover_view.stability()[corner, corner_white] == pytest.approx(-0.5)
    assert mover_view.impact()[corner, corner_white] == pytest.approx(1.0)
    # The propensity keeps the real colours whatever the seed 002 view.
    assert np.array_equal(mover_view.nb, black_view.nb) and np.array_equal(mover_view.nw, black_view.nw)
    # Seed 002's per-point weight: stab of the pattern centred there (edge points: none).
    colors = S.replay_positions(record)[-1][0]
    plane = black_view.stability_plane(colors)
    assert plane[1, 1] == pytest.approx(0.5) and plane[2, 2] == pytest.approx(1.0)
    assert plane[0].tolist() == [0.0] * 5


# --------------------------------------------------------------------------- symmetries
def transformed_sgf(record, transform):
    """The record's moves moved by ``transform`` ((row, col) -> (row, col)), written by sgfmill."""
    game = sgfmill_sgf.Sgf_game(size=record.size)
    game.root.set("KM", record.komi or 0)
    game.root.set("RE", record.result or "?")
    size = record.size
    for color, point in record.moves:
        node = game.extend_main_sequence()
        w = size + 2
        row, col = point // w - 1, point % w - 1
        node.set_move("b" if color == 1 else "w", transform(row, col))
    return game.serialise()


def test_statistics_of_rotated_and_mirrored_games_are_the_same():
    source = sorted(GOBAN.glob("*.sgf"))[0]
    record = read_game(source)
    record.moves = record.moves[:60]
    size = record.size
    rng = np.random.default_rng(3)
    owner = rng.integers(-1, 2, size=(size, size)).astype(np.int8)
    transforms = [lambda r, c: (c, size - 1 - r),                 # quarter turn
                  lambda r, c: (size - 1 - r, size - 1 - c),      # half turn
                  lambda r, c: (size - 1 - c, r),                 # three quarters
                  lambda r, c: (r, size - 1 - c),                 # mirror left-right
                  lambda r, c: (size - 1 - r, c),                 # mirror up-down
                  lambda r, c: (c, r),                            # the main diagonal
                  lambda r, c: (size - 1 - c, size - 1 - r)]      # the other diagonal
    reference = S.SeedStats(size)
    reference.add_game(record, owner)
    final = S.replay_positions(record)[-1][0]
    plane = reference.propensity(final)
    for transform in transforms:
        moved_owner = np.zeros_like(owner)
        moved_plane = np.zeros_like(plane)
        for r in range(size):
            for c in range(size):
                moved_owner[transform(r, c)] = owner[r, c]
                moved_plane[transform(r, c)] = plane[r, c]
        moved = read_game(transformed_sgf(record, transform))
        stats = S.SeedStats(size)
        stats.add_game(moved, moved_owner)
        for name in S.COUNT_TABLES:
            assert np.allclose(getattr(stats, name), getattr(reference, name)), name
        assert np.allclose(stats.propensity(S.replay_positions(moved)[-1][0]), moved_plane)


# ------------------------------------------------------------------ oracle of the definition
def oracle_frames(row, col, size, cap):
    """The symmetries that carry the window's centre to its class's canonical place, from the
    definition: nearer edges at row 0 and column 0 unless the axis is capped, then the axis
    nearer the edge as rows."""
    out = []
    for s in range(8):
        r, c = row, col
        if s & 4:
            r, c = c, r
        if s & 1:
            c = size - 1 - c
        if s & 2:
            r = size - 1 - r
        dr, dc = min(r - 1, size - 2 - r), min(c - 1, size - 2 - c)
        if (dr < cap and r - 1 > size - 2 - r) or (dc < cap and c - 1 > size - 2 - c):
            continue
        if min(dr, cap) <= min(dc, cap):
            out.append(s)
    return out


def oracle_local(s, dr, dc):
    """Where window offset (dr, dc) goes under symmetry s (the same rule as on the board)."""
    if s & 4:
        dr, dc = dc, dr
    if s & 1:
        dc = -dc
    if s & 2:
        dr = -dr
    return dr, dc


def oracle_tables(positions, owner, size, cap):
    nb, nw = {}, {}
    for colors in positions:
        for row in range(1, size - 1):
            for col in range(1, size - 1):
                d = sorted((min(min(row - 1, size - 2 - row), cap), min(min(col - 1, size - 2 - col), cap)))
                cls = d[1] * (d[1] + 1) // 2 + d[0]
                frames = oracle_frames(row, col, size, cap)
                for s in frames:
                    cells = {}
                    for dr in (-1, 0, 1):
                        for dc in (-1, 0, 1):
                            cells[oracle_local(s, dr, dc)] = (row + dr, col + dc)
                    code = sum(int(colors[cells[(dr, dc)]]) * 3 ** (3 * (dr + 1) + dc + 1)
                               for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                    for (dr, dc), point in cells.items():
                        key = (cls, code, 3 * (dr + 1) + dc + 1)
                        table = nb if owner[point] > 0 else nw if owner[point] < 0 else None
                        if table is not None:
                            table[key] = table.get(key, 0.0) + 1 / len(frames)
    return nb, nw


def oracle_plane(colors, nb, nw, size, cap):
    total = np.zeros((size, size))
    count = np.zeros((size, size))
    for row in range(1, size - 1):
        for col in range(1, size - 1):
            d = sorted((min(min(row - 1, size - 2 - row), cap), min(min(col - 1, size - 2 - col), cap)))
            cls = d[1] * (d[1] + 1) // 2 + d[0]
            frames = oracle_frames(row, col, size, cap)
            for s in frames:
                cells = {oracle_local(s, dr, dc): (row + dr, col + dc)
                         for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
                code = sum(int(colors[cells[(dr, dc)]]) * 3 ** (3 * (dr + 1) + dc + 1)
                           for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                for (dr, dc), point in cells.items():
                    key = (cls, code, 3 * (dr + 1) + dc + 1)
                    b, w = nb.get(key, 0.0), nw.get(key, 0.0)
                    total[point] += (b - w) / (b + w + 1) / len(frames)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    count[row + dr, col + dc] += 1
    return total / count


@pytest.mark.parametrize("size,cap", [(9, 3), (7, 1), (13, 3)])
def test_numba_tables_and_plane_match_a_plain_python_oracle(size, cap):
    rng = np.random.default_rng(size)
    # Sparse random positions, so that patterns repeat across positions.
    positions = [rng.choice(3, size=(size, size), p=(0.6, 0.2, 0.2)).astype(np.int8) for _ in range(6)]
    owner = rng.integers(-1, 2, size=(size, size)).astype(np.int8)
    stats = S.SeedStats(size, cap=cap)
    for colors in positions[:4]:
        stats.add_position(colors, owner, 0)
    nb, nw = oracle_tables(positions[:4], owner, size, cap)
    for table, oracle in ((stats.nb, nb), (stats.nw, nw)):
        assert len(oracle) == np.count_nonzero(table)
        for key, value in oracle.items():
            assert table[key] == pytest.approx(value)
    for colors in positions:        # seen and unseen positions
        assert np.allclose(stats.propensity(colors), oracle_plane(colors, nb, nw, size, cap))


# ------------------------------------------------------------------------------ the file
def small_stats():
    record = read_game(ONE_MOVE)
    stats = S.SeedStats(5)
    stats.add_game(record, owner_from_rows(["O X X X X"] + ["X X X X X"] * 3 + ["X X X X ."]))
    return stats


def test_save_load_round_trip(tmp_path):
    stats = small_stats()
    path = tmp_path / "stats.npz"
    stats.save(path, data="hand", split="train")
    loaded = S.SeedStats.load(path)
    for name in S.COUNT_TABLES:
        assert np.array_equal(getattr(loaded, name), getattr(stats, name))
    assert loaded.metadata["data"] == "hand" and loaded.metadata["split"] == "train"
    assert loaded.metadata["commit"] and loaded.metadata["format_version"] == S.FORMAT_VERSION
    assert (loaded.size, loaded.cap, loaded.games, loaded.positions) == (5, 3, 1, 1)
    colors = S.replay_positions(read_game(ONE_MOVE))[-1][0]
    assert np.array_equal(loaded.propensity(colors), stats.propensity(colors))


def test_a_file_reduced_to_the_stability_tables_gives_the_same_weights(tmp_path):
    """An evaluator ships only what its weighting reads: the stability planes of the reduced
    file equal the full statistics', and asking it for a dropped table is a clear error."""
    stats = small_stats()
    path = tmp_path / "stability.npz"
    stats.reduced(("occ", "bedge", "wedge")).save(path)
    loaded = S.SeedStats.load(path)
    assert loaded.dropped == ("nb", "nw", "won", "lost")
    colors = S.replay_positions(read_game(ONE_MOVE))[-1][0]
    for to_move in (1, 2):
        assert np.array_equal(loaded.stability_plane(colors, to_move), stats.stability_plane(colors, to_move))
    with pytest.raises(S.SeedStatsError, match="without nb, nw"):
        loaded.propensity(colors)
    with pytest.raises(S.SeedStatsError, match="without won, lost"):
        loaded.impact()
    with pytest.raises(ValueError, match="unknown tables"):
        stats.reduced(("occ", "stab"))


def test_damaged_or_foreign_files_give_a_clear_error(tmp_path):
    path = tmp_path / "stats.npz"
    small_stats().save(path)
    raw = path.read_bytes()
    (tmp_path / "cut.npz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(S.SeedStatsError, match="not a seed statistics file"):
        S.SeedStats.load(tmp_path / "cut.npz")
    np.savez(tmp_path / "other.npz", x=np.arange(3))
    with pytest.raises(S.SeedStatsError, match="no header"):
        S.SeedStats.load(tmp_path / "other.npz")
    # Arrays changed behind the header's back: the checksum says so.
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["nb"] = arrays["nb"] + 1
    np.savez(tmp_path / "edited.npz", **arrays)
    with pytest.raises(S.SeedStatsError, match="checksum"):
        S.SeedStats.load(tmp_path / "edited.npz")


# ------------------------------------------------------------------------------- command
def test_command_builds_a_file_and_rejects_bad_input(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "a.sgf").write_bytes(b"(;SZ[9]KM[7]RE[B+R];B[ee];W[cc];B[gg];W[cg];B[gc])")
    (games / "b.sgf").write_bytes(b"(;SZ[9]KM[7]RE[W+R];B[dd];W[ff])")
    (games / "c.sgf").write_bytes(b"(;SZ[9];B[ee];W[ee])")            # illegal: skipped
    out = tmp_path / "s.npz"
    runner = CliRunner()
    result = runner.invoke(main, ["learn", "patterns", str(games), "-o", str(out), "--size", "9",
                                  "--split", "all", "--ownership-playouts", "8"])
    assert result.exit_code == 0, result.output
    stats = S.SeedStats.load(out)
    assert stats.games == 2 and stats.positions == 7 and stats.metadata["split"] == "all"
    bad = runner.invoke(main, ["learn", "patterns", str(games), "-o", str(out), "--size", "9",
                               "--cap", "4"])
    assert bad.exit_code == 2 and "--cap" in bad.output
    assert patterns_command.DEFAULT_CAP == P.DEFAULT_CAP
    missing = runner.invoke(main, ["learn", "patterns", str(tmp_path / "nope"), "-o", str(out)])
    assert missing.exit_code == 2
