"""Building, saving and loading case bases: bad input is skipped with its reason, a stored game
retrieves itself, and broken case-base files get a clear error."""

import io
import json
import pathlib
import shutil
import tarfile

import numpy as np
import pytest
from click.testing import CliRunner

import mcgo
from mcgo.casebase import CaseBase, CaseBaseError, open_casebase
from mcgo.train.casebase_build import build_casebase
from mcgo.casebase.advisor import default_casebase_path
from mcgo.casebase.storage import PREFIX
from mcgo.cli import main
from mcgo.sgf import read_game, replay

GOOD_GAMES = ["Hon-83-2.mgt", "M-88-1.mgt", "T-16-2.mgt"]


def game_bytes(goban_games_dir, name):
    return (goban_games_dir / name).read_bytes()


@pytest.fixture
def mixed_folder(tmp_path, goban_games_dir):
    """Good games beside every kind of bad file, in nested folders and an archive."""
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    for name in GOOD_GAMES[:2]:
        shutil.copy(goban_games_dir / name, folder / name)
    good = game_bytes(goban_games_dir, GOOD_GAMES[2])
    (folder / "sub" / "empty.sgf").write_bytes(b"")
    (folder / "sub" / "truncated.sgf").write_bytes(good[:300])
    # Latin-1 player name without CA: still readable (decoded with replacement), so indexed.
    latin = good.replace(b"PW[", b"PW[J\xf6rg ", 1)
    (folder / "sub" / "latin1.sgf").write_bytes(latin)
    (folder / "binary.sgf").write_bytes(bytes(range(256)) * 4)
    (folder / "notes.txt").write_text("not a game")
    (folder / "short.sgf").write_bytes(b"(;SZ[19];B[pd];W[dp];B[pq])")
    (folder / "nine.sgf").write_bytes(b"(;SZ[9];B[ee];W[cc])")
    (folder / "twice.sgf").write_bytes(good.replace(b";W[", b";B[", 1))
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w:gz") as tar:
        for name, data in (("kgs/a.sgf", good), ("kgs/bad.sgf", b"(;SZ[19];B[pd]")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (folder / "games.tar.gz").write_bytes(archive.getvalue())
    return folder


def test_build_skips_bad_files_with_reasons(mixed_folder):
    cb, report = build_casebase(mixed_folder, max_moves=40, jobs=1)
    assert report.files == 10 and report.files_ignored == 1
    # two copies, the latin-1 one, the archived one, and twice.sgf: consecutive moves by one
    # colour are indexed as recorded
    assert report.games_indexed == 5
    assert report.games_read == 5 + sum(report.skipped.values())
    reasons = report.skipped
    assert reasons["empty file"] == 1
    assert reasons["truncated file"] == 2           # truncated.sgf and kgs/bad.sgf
    assert reasons["no SGF game in the file"] == 1
    assert reasons["too short"] == 1
    assert reasons["board size N"] == 1
    assert set(reasons) == {"empty file", "truncated file", "no SGF game in the file",
                            "too short", "board size N"}   # only unreadable or unusable games
    messages = "\n".join(report.skipped_messages)
    for name in ("empty.sgf", "truncated.sgf", "binary.sgf", "short.sgf", "nine.sgf",
                 "games.tar.gz/kgs/bad.sgf"):
        assert name in messages
    assert "twice.sgf" not in messages
    assert len(cb) == report.positions == 5 * 40
    assert cb.black_cases == 4 * 20 + 21             # twice.sgf: black plays moves 1 and 2
    assert sorted(cb.names)[0].endswith("Hon-83-2.mgt")


def test_build_in_parallel_gives_the_same_case_base(mixed_folder, tmp_path):
    one, _ = build_casebase(mixed_folder, jobs=1)
    two, report = build_casebase(mixed_folder, jobs=2)
    assert report.games_indexed == 5
    assert one.names == two.names
    for name in ("codes", "moves", "move_numbers", "games"):
        assert np.array_equal(getattr(one, name), getattr(two, name))


def test_cli_build_casebase(mixed_folder, tmp_path):
    out = tmp_path / "cb.mcgocb"
    log = tmp_path / "skipped.txt"
    result = CliRunner().invoke(main, ["build-casebase", str(mixed_folder), "-o", str(out),
                                       "--moves", "30", "--jobs", "2", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "games indexed: 5" in result.output and "too short" in result.output
    cb = CaseBase.load(out)
    assert len(cb) == 5 * 30 and cb.max_moves == 30
    assert "binary.sgf" in log.read_text()


def test_games_retrieve_themselves(goban_games_dir, tmp_path):
    records = [read_game(goban_games_dir / name) for name in GOOD_GAMES]
    built, _ = build_casebase([goban_games_dir / name for name in GOOD_GAMES])
    path = tmp_path / "three.mcgocb"
    built.save(path)
    cb = CaseBase.load(path)
    assert cb.names == built.names and np.array_equal(cb.codes, built.codes)
    for record in records:
        g = next(i for i, n in enumerate(cb.names) if n.endswith(pathlib.Path(record.source).name))
        for n in range(1, 41):
            board = replay(record, max_moves=n - 1)
            top = cb.top(board, k=3 * 40)
            assert top[0].score == 361
            own = [m for m in top if cb.games[m.index] == g and m.move_number == n]
            assert own and own[0].score == 361 and own[0].move == record.moves[n - 1][1]
        board = replay(record, max_moves=29)        # deep enough to be unique
        match = cb.best(board)
        assert cb.names[cb.games[match.index]] == cb.names[g] and match.move_number == 30


def test_default_casebase_is_shipped_and_self_retrieves(goban_games_dir):
    path = default_casebase_path()
    if not path.is_file():
        pytest.fail(f"the default case base {path} is missing (tools/build_default_casebase.py)")
    cb = open_casebase("default", 19)
    assert cb is not None and cb.size == 19 and len(cb) > 20000
    assert open_casebase("none") is None and open_casebase("default", 9) is None
    record = read_game(goban_games_dir / GOOD_GAMES[0])
    match = cb.best(replay(record, max_moves=25))
    assert match.score == 361 and match.game.endswith(GOOD_GAMES[0])
    assert match.move == record.moves[25][1]


# ----------------------------------------------------------------------------- bad files
@pytest.fixture
def saved(tmp_path):
    cb = CaseBase.from_records([read_game(b"(;SZ[9];B[ee];W[cc];B[gg])")])
    path = tmp_path / "small.mcgocb"
    cb.save(path)
    return path


def test_missing_foreign_and_corrupt_files(saved, tmp_path):
    with pytest.raises(CaseBaseError, match="cannot read case base"):
        CaseBase.load(tmp_path / "nothing.mcgocb")
    foreign = tmp_path / "game.sgf"
    foreign.write_bytes(b"(;SZ[19];B[pd])")
    with pytest.raises(CaseBaseError, match="is not an mcgo case base"):
        CaseBase.load(foreign)
    data = saved.read_bytes()
    cut = tmp_path / "cut.mcgocb"
    cut.write_bytes(data[:-10])
    with pytest.raises(CaseBaseError, match="truncated"):
        CaseBase.load(cut)
    cut.write_bytes(data[:30])
    with pytest.raises(CaseBaseError, match="truncated|corrupt"):
        CaseBase.load(cut)
    garbled = bytearray(data)
    garbled[PREFIX.size:PREFIX.size + 5] = b"\xff\xfe{[x"
    bad = tmp_path / "garbled.mcgocb"
    bad.write_bytes(bytes(garbled))
    with pytest.raises(CaseBaseError, match="corrupt header"):
        CaseBase.load(bad)


def test_newer_format_is_refused(saved, tmp_path):
    data = saved.read_bytes()
    _, length = PREFIX.unpack(data[:PREFIX.size])
    header = json.loads(data[PREFIX.size:PREFIX.size + length])
    assert header["format"] == 1 and header["mcgo_version"] == mcgo.__version__
    text = data[PREFIX.size:PREFIX.size + length].replace(b'"format": 1', b'"format": 9')
    newer = tmp_path / "newer.mcgocb"
    newer.write_bytes(data[:PREFIX.size] + text + data[PREFIX.size + length:])
    with pytest.raises(CaseBaseError, match="format 9"):
        CaseBase.load(newer)


def test_loading_maps_the_file(saved):
    cb = CaseBase.load(saved)
    assert not cb.codes.flags.writeable
    assert len(cb) == 3 and cb.black_cases == 2 and cb.names == ["<bytes>"]
    assert cb.threshold == CaseBase.from_records([]).threshold


def test_cli_influence_picture(goban_games_dir, tmp_path):
    pytest.importorskip("matplotlib")
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml")):
        out = tmp_path / f"map{suffix}"
        result = CliRunner().invoke(main, ["influence", str(goban_games_dir / GOOD_GAMES[0]),
                                           "--move", "30", "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert out.read_bytes().startswith(magic)
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;SZ[19];B[pd];W[pd])")
    result = CliRunner().invoke(main, ["influence", str(bad), "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "occupied" in result.output


def test_empty_folders_and_broken_links_are_reported(goban_games_dir, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["build-casebase", str(empty), "-o", str(tmp_path / "x.mcgocb")])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "no SGF files" in result.output and not (tmp_path / "x.mcgocb").exists()

    links = tmp_path / "links"
    links.mkdir()
    shutil.copy(goban_games_dir / GOOD_GAMES[0], links / GOOD_GAMES[0])
    (links / "gone.sgf").symlink_to(tmp_path / "nowhere.sgf")
    (links / "gone.tar.gz").symlink_to(tmp_path / "nowhere.tar.gz")
    cb, report = build_casebase(links)
    assert report.games_indexed == 1
    messages = "\n".join(report.skipped_messages)
    assert "gone.sgf: cannot read file" in messages and "gone.tar.gz: cannot read archive" in messages
