"""``mcgo learn extract`` and :mod:`mcgo.train.dataset` against references we did not write:
sgfmill (reading the records, playing them on its own board, writing rotated copies), GNU Go
3.8 (dead stones and territory of a finished professional game), and the professional records
of the goban collection.
"""

import functools
import json
import pathlib
import shutil

import numpy as np
import pytest
from click.testing import CliRunner
from sgfmill import boards, sgf

from mcgo.board import BLACK, PASS, WHITE, coords
from mcgo.board.kernels import COLOR
from mcgo.cli import main
from mcgo.gtp.controller import GtpEngine
from mcgo.train import extraction as extract_module
from mcgo.train.dataset import COUNTED, Dataset, DatasetError, row_major
from mcgo.train.extraction import extract
from mcgo.train.split import SPLITS, game_key, split_of
from mcgo.sgf import read_game

FIRST_GAMES = 20                  # the first goban files, sorted: all replay as recorded
DUPLICATED = "Hon-47-1.mgt"       # written again rotated and mirrored by sgfmill
TWICE = "Hon-45-1.sgf"            # black plays twice in a row at move 294
COUNTED_GAMES = ("Hon-47-1.mgt", "Hon-45-p1.sgf")   # RE a number of points; GNU Go checks them
TEST_PLAYOUTS = 300               # ownership playouts where ownership is not what is tested


@functools.lru_cache(maxsize=None)
def symmetry_table(s, size):
    """Where symmetry ``s`` sends each point (row-major index), worked out with NumPy's own
    transpose and flips on a grid of indices, in mcgo.board.symmetry's numbering (bit 4:
    transpose, then bit 1: mirror the columns, then bit 2: mirror the rows)."""
    grid = np.arange(size * size).reshape(size, size)
    if s & 4:
        grid = grid.T
    if s & 1:
        grid = np.fliplr(grid)
    if s & 2:
        grid = np.flipud(grid)
    to = np.empty(size * size, dtype=int)
    to[grid.ravel()] = np.arange(size * size)
    return to


def transform(s, row, col, size):
    """Symmetry ``s`` of a (row, col) point (see :func:`symmetry_table`)."""
    return divmod(int(symmetry_table(s, size)[row * size + col]), size)


def sgfmill_moves(path):
    """(size, setup lists, [(colour, (row, col) or None)]) of a record, by sgfmill."""
    game = sgf.Sgf_game.from_bytes(pathlib.Path(path).read_bytes())
    board, moves = sgf_setup_and_moves(game)
    return game.get_size(), board, moves


def sgf_setup_and_moves(game):
    setup = game.get_root().get_setup_stones()
    return setup, [node.get_move() for node in game.get_main_sequence()[1:] if node.get_move()[0]]


def write_transformed(source, target, s):
    """Write the game of ``source`` under symmetry ``s`` with sgfmill."""
    original = sgf.Sgf_game.from_bytes(pathlib.Path(source).read_bytes())
    size = original.get_size()
    (black, white, _), moves = sgf_setup_and_moves(original)
    copy = sgf.Sgf_game(size)
    root = copy.get_root()
    for ident in ("KM", "RE"):
        if original.get_root().has_property(ident):
            root.set_raw(ident, original.get_root().get_raw(ident))
    if black or white:
        root.set_setup_stones([transform(s, r, c, size) for r, c in black],
                              [transform(s, r, c, size) for r, c in white])
    for colour, move in moves:
        copy.extend_main_sequence().set_move(colour, None if move is None else transform(s, *move, size))
    pathlib.Path(target).write_bytes(copy.serialise())


def sgfmill_grid(board, size):
    """int array (size*size,) row-major: 1 black, 2 white, 0 empty, from an sgfmill board."""
    code = {"b": BLACK, "w": WHITE, None: 0}
    return np.array([code[board.get(r, c)] for r in range(size) for c in range(size)])


def our_grid(board):
    return board.pts[COLOR, row_major(board.size)]


@pytest.fixture(scope="module")
def collection(tmp_path_factory, goban_games_dir):
    """A folder: the first goban games, a rotated and mirrored copy of one, a broken file."""
    folder = tmp_path_factory.mktemp("games")
    for path in sorted(goban_games_dir.iterdir())[:FIRST_GAMES]:
        shutil.copy(path, folder / path.name)
    write_transformed(folder / DUPLICATED, folder / "rotated.sgf", 5)
    (folder / "broken.sgf").write_bytes(b"(;GM[1]SZ[19];B[pd];W[dp]")
    return folder


@pytest.fixture(scope="module")
def extracted(collection, tmp_path_factory):
    out = tmp_path_factory.mktemp("dataset") / "ds"
    meta, report = extract([collection], out, playouts=TEST_PLAYOUTS)
    return Dataset.open(out), meta, report


def test_duplicates_once_and_bad_files_skipped_with_reasons(extracted, collection):
    ds, meta, report = extracted
    assert report.games_read == FIRST_GAMES + 2
    assert report.duplicates == 1
    sources = [g.source for g in ds.games()]
    assert DUPLICATED in sources and "rotated.sgf" not in sources
    assert TWICE in sources and "broken.sgf" not in sources      # as recorded
    assert len(ds) == FIRST_GAMES == meta["counts"]["games"]
    assert meta["report"]["duplicates"] == 1
    messages = "\n".join(report.skipped_messages)
    assert "broken.sgf" in messages and "truncated" in messages
    assert TWICE not in messages
    assert "rotated.sgf: duplicate game" in messages
    assert game_key(read_game(collection / "rotated.sgf")) == game_key(read_game(collection / DUPLICATED))


def test_stored_games_replay_as_sgfmill_plays_them(extracted, collection):
    ds, _, _ = extracted
    checked = 0
    positions = iter(ds.positions())
    for game in ds.games():
        size, (black, white, empty), moves = sgfmill_moves(collection / game.source)
        reference = boards.Board(size)
        assert reference.apply_setup(black, white, empty)
        assert len(game.moves) == len(moves)
        for number, (colour, move) in enumerate(moves, start=1):
            board, color, point, move_number, shown = next(positions)
            assert shown.index == game.index and move_number == number
            assert color == (BLACK if colour == "b" else WHITE)
            assert point == (PASS if move is None else coords.point(*move, size))
            assert np.array_equal(our_grid(board), sgfmill_grid(reference, size))
            if move is not None:
                reference.play(*move, colour)
            checked += 1
    assert next(positions, None) is None
    assert checked == ds.position_count == sum(len(g.moves) for g in ds.games())


def test_symmetries_map_boards_moves_and_ownership(extracted, collection):
    ds, _, _ = extracted
    game = next(g for g in ds.games() if g.source == DUPLICATED)
    size, _, moves = sgfmill_moves(collection / game.source)
    per_symmetry = {}
    for board, color, point, number, shown in ds.positions(symmetries="all"):
        if shown.index == game.index and number <= 60:
            per_symmetry.setdefault(shown.symmetry, []).append((our_grid(board).copy(), point))
    assert sorted(per_symmetry) == list(range(8))
    for s, seen in per_symmetry.items():
        reference = boards.Board(size)
        for (grid, point), (colour, move) in zip(seen, moves):
            expected = np.zeros(size * size, dtype=int)
            plain = sgfmill_grid(reference, size)
            for r in range(size):
                for c in range(size):
                    rr, cc = transform(s, r, c, size)
                    expected[rr * size + cc] = plain[r * size + c]
            assert np.array_equal(grid, expected)
            assert point == coords.point(*transform(s, *move, size), size)
            reference.play(*move, colour)
        shown = game.transformed(s)
        for r in range(size):
            for c in range(size):
                assert shown.ownership[transform(s, r, c, size)] == game.ownership[r, c]
    drawn = [shown.symmetry for *_, shown in ds.positions(symmetries="random", seed=3)]
    assert drawn == [shown.symmetry for *_, shown in ds.positions(symmetries="random", seed=3)]
    assert len(set(drawn)) > 1


def test_split_never_leaks_a_game(extracted, collection, tmp_path):
    ds, meta, _ = extracted
    keys = ds.array("game_key")
    assert len(set(keys.tolist())) == len(ds)           # deduplicated
    owners = {}
    for game in ds.games():
        assert game.split == split_of(game.key) == SPLITS[ds.array("game_split")[game.index]]
        owners.setdefault(game.key, set()).add(game.split)
    for g in np.unique(ds.array("position_game")):
        assert owners[int(keys[g])] == {SPLITS[ds.array("game_split")[g]]}
    by_split = {name: set(ds.game_indices(name)) for name in SPLITS}
    assert sum(len(v) for v in by_split.values()) == len(ds)
    assert sum(meta["counts"]["split_positions"].values()) == ds.position_count
    # The 8 copies of a game, written by sgfmill, share one key and so one split.
    copies = []
    for s in range(8):
        write_transformed(collection / "Hon-41-2.mgt", tmp_path / f"copy{s}.sgf", s)
        copies.append(game_key(read_game(tmp_path / f"copy{s}.sgf")))
    assert len(set(copies)) == 1 and len({split_of(k) for k in copies}) == 1
    assert copies[0] != game_key(read_game(collection / "Hon-41-3.mgt"))


def test_counted_ownership_agrees_with_gnugo(gnugo_command, collection, tmp_path):
    """Dead stones as GNU Go's final_status_list dead; the area by its territory lists."""
    meta, _ = extract([collection / name for name in COUNTED_GAMES], tmp_path / "ds")
    ds = Dataset.open(tmp_path / "ds")
    assert [g.method for g in ds.games()] == [COUNTED, COUNTED]
    with GtpEngine(gnugo_command) as engine:
        for game in ds.games():
            size = game.size
            engine.send(f"loadsgf {collection / pathlib.Path(game.source).name}")
            board = game.replay()
            status = {name: engine.send(f"final_status_list {name}", timeout=120).split()
                      for name in ("alive", "seki", "dead", "black_territory", "white_territory")}
            ours_dead = {coords.to_gtp(p, size) for color in (BLACK, WHITE) for p in board.stones(color)
                         if game.ownership[coords.row_col(p, size)] != (1 if color == BLACK else -1)}
            assert ours_dead == set(status["dead"])
            theirs = np.zeros((size, size), dtype=int)
            for name in ("alive", "seki", "dead", "black_territory", "white_territory"):
                for vertex in status[name]:
                    p = coords.from_gtp(vertex, size)
                    stone = board.color_at(p)
                    if name in ("black_territory", "white_territory"):
                        value = 1 if name == "black_territory" else -1
                    elif name == "dead":
                        value = -1 if stone == BLACK else 1
                    else:
                        value = 1 if stone == BLACK else -1
                    theirs[coords.row_col(p, size)] = value
            # GNU Go leaves a few points of unclosed borders to nobody that the playouts give away.
            assert abs(int(theirs.sum()) - int(game.ownership.sum())) <= 2
            assert np.mean(theirs == game.ownership) >= 0.95
    assert meta["ownership"]["methods"][COUNTED].startswith("result counted")


def test_jobs_do_not_change_the_dataset(collection, tmp_path, monkeypatch):
    monkeypatch.setattr(extract_module, "GAMES_PER_TASK", 2)     # several tasks per worker
    one, _ = extract([collection], tmp_path / "one", playouts=50)
    two, _ = extract([collection], tmp_path / "two", playouts=50, jobs=2)
    a, b = Dataset.open(tmp_path / "one"), Dataset.open(tmp_path / "two")
    assert len(a) == FIRST_GAMES
    for name in one["arrays"]:
        assert np.array_equal(a.array(name), b.array(name), equal_nan=a.array(name).dtype.kind == "f"), name
    assert (tmp_path / "one" / "games.json").read_bytes() == (tmp_path / "two" / "games.json").read_bytes()
    assert one["counts"] == two["counts"]


def test_load_errors_are_clear(extracted, tmp_path):
    ds, _, _ = extracted

    def broken_copy(name):
        target = tmp_path / name
        shutil.copytree(ds.path, target)
        return target

    truncated = broken_copy("truncated")
    data = (truncated / "position_move.npy").read_bytes()
    (truncated / "position_move.npy").write_bytes(data[:len(data) // 2])
    with pytest.raises(DatasetError, match="position_move"):
        Dataset.open(truncated)
    missing = broken_copy("missing")
    (missing / "game_ownership.npy").unlink()
    with pytest.raises(DatasetError, match="game_ownership is missing"):
        Dataset.open(missing)
    version = broken_copy("version")
    meta = json.loads((version / "meta.json").read_text())
    meta["version"] = 99
    (version / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(DatasetError, match="version 99"):
        Dataset.open(version)
    swapped = broken_copy("swapped")
    shutil.copy(swapped / "position_color.npy", swapped / "position_move.npy")
    with pytest.raises(DatasetError, match="position_move is int8"):
        Dataset.open(swapped)
    with pytest.raises(DatasetError, match="no meta.json"):
        Dataset.open(tmp_path)


def test_cli_errors_are_one_line_and_exit_2(collection, tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["learn", "extract", str(collection), "-o", str(tmp_path / "no" / "ds")])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and errors[0].endswith(f"no folder {tmp_path / 'no'} to write the dataset in")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("no games here")
    result = runner.invoke(main, ["learn", "extract", str(empty), "-o", str(tmp_path / "ds")])
    assert result.exit_code == 2 and "no SGF files" in result.output
    assert not (tmp_path / "ds").exists()


def test_cli_writes_a_dataset(collection, tmp_path):
    files = [str(collection / name) for name in (DUPLICATED, "rotated.sgf", "broken.sgf")]
    result = CliRunner().invoke(main, ["learn", "extract", *files, "-o", str(tmp_path / "ds"),
                                       "--ownership-playouts", "50", "--log", str(tmp_path / "log")])
    assert result.exit_code == 0, result.output
    assert "duplicates dropped: 1" in result.output and "games kept: 1" in result.output
    assert "truncated" in (tmp_path / "log").read_text()
    ds = Dataset.open(tmp_path / "ds")
    assert len(ds) == 1 and ds.meta["ownership"]["playouts"] == 50
    again = CliRunner().invoke(main, ["learn", "extract", *files, "-o", str(tmp_path / "ds")])
    assert again.exit_code == 2 and "already exists" in again.output
    forced = CliRunner().invoke(main, ["learn", "extract", files[0], "-o", str(tmp_path / "ds"),
                                        "--ownership-playouts", "20", "--force"])
    assert forced.exit_code == 0, forced.output
    assert Dataset.open(tmp_path / "ds").meta["ownership"]["playouts"] == 20
    result = CliRunner().invoke(main, ["learn", "extract", files[0], "-o", str(collection), "--force"])
    assert result.exit_code == 2 and "not a dataset" in result.output


def random_handicap_game(path, size=9, moves=70, seed=5):
    """A handicap game of random legal moves (no suicide, no simple-ko retake), played and
    written by sgfmill."""
    import random

    rng = random.Random(seed)
    game = sgf.Sgf_game(size)
    handicap = [(2, 2), (6, 6), (2, 6)]
    game.get_root().set_setup_stones(handicap, [])
    game.get_root().set("KM", 0.5)
    game.get_root().set("RE", "W+R")
    board = boards.Board(size)
    board.apply_setup(handicap, [], [])
    colour, ko = "w", None
    for _ in range(moves):
        empties = [(r, c) for r in range(size) for c in range(size) if board.get(r, c) is None]
        rng.shuffle(empties)
        for point in empties:
            trial = board.copy()
            new_ko = trial.play(*point, colour)
            if point != ko and trial.get(*point) == colour:
                board, ko = trial, new_ko
                game.extend_main_sequence().set_move(colour, point)
                break
        colour = "b" if colour == "w" else "w"
    pathlib.Path(path).write_bytes(game.serialise())


def test_handicap_stones_are_kept_and_replayed(tmp_path):
    random_handicap_game(tmp_path / "handicap.sgf")
    extract([tmp_path / "handicap.sgf"], tmp_path / "ds", size=9, playouts=50, min_moves=0)
    ds = Dataset.open(tmp_path / "ds")
    (game,) = ds.games()
    assert sorted(coords.to_gtp(p, 9) for p in game.setups[0].black) == ["C3", "G3", "G7"]
    assert ds.meta["counts"]["setups"] == 3 and game.winner == WHITE and game.margin is None
    size, (black, white, empty), moves = sgfmill_moves(tmp_path / "handicap.sgf")
    reference = boards.Board(size)
    reference.apply_setup(black, white, empty)
    seen = 0
    for (board, color, point, number, _), (colour, move) in zip(ds.positions(), moves):
        assert np.array_equal(our_grid(board), sgfmill_grid(reference, size))
        assert color == (BLACK if colour == "b" else WHITE)
        reference.play(*move, colour)
        seen += 1
    assert seen == len(moves) == 70
    assert np.array_equal(our_grid(game.replay()), sgfmill_grid(reference, size))
    assert game.method == "playouts" and set(np.unique(game.ownership)) <= {-1, 0, 1}
