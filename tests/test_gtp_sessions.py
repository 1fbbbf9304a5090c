"""State that depends on the board, and records that are not what they should be.

- Random GTP sessions (Hypothesis) mixing board sizes, komi, moves, passes, undo, handicap,
  searches and analysis: every answer is framed exactly, and after every command the engine's
  board holds the stones of a reference replay on sgfmill's board.
- A change of board size or komi never lets a later command read the old search tree.
- ``set_random_seed`` takes any integer.
- Mutated real records (truncated, swapped properties, bad points, wrong sizes, other
  encodings, huge files) through ``loadsgf`` and ``build-casebase``: each loads or gives one
  line with its reason, never a traceback.
"""

import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import boards

from helpers import Session
from mcgo.train.casebase_build import build_casebase
from mcgo.gtp.files import MAX_SGF_BYTES

ANSWER = re.compile(r"^[=?]\d*(?: [^\n]*)?(?:\n[^\n]+)*\n\n$")  # no empty line inside
COLUMNS = "ABCDEFGHJKLMNOPQRST"
SIZES = (5, 7, 9)


def framed(session, command):
    """The engine's answer to ``command``: (ok, text), its framing checked."""
    reply = session.raw(command)
    assert ANSWER.match(reply), (command, reply)
    return reply[0] == "=", reply[1:].strip()


def analyze(session, command, seconds=0.5):
    """A streaming analysis command's whole output: started, left running ``seconds``, then
    stopped by the next command (``name``), whose answer closes the text."""
    start = len(session.out.getvalue())
    session.raw(command)
    time.sleep(seconds)
    session.raw("name")
    return session.out.getvalue()[start:]


def vertex(row, col):
    return f"{COLUMNS[col]}{row + 1}"


def parse_vertex(text):
    return int(text[1:]) - 1, COLUMNS.index(text[0].upper())


def stones_of_engine(engine):
    board = engine.game.board
    out = set()
    for colour, name in ((board.BLACK, "b"), (board.WHITE, "w")):
        from mcgo.board import coords
        for p in board.stones(colour):
            out.add((name, coords.row_col(p, board.size)))
    return out


def stones_of_reference(board):
    return {(colour, point) for colour, point in board.list_occupied_points()}


class Reference:
    """sgfmill's board with a history, moved by what the engine accepted."""

    def __init__(self, size):
        self.board = boards.Board(size)
        self.history = []

    def push(self):
        self.history.append(self.board.copy())

    def undo(self):
        self.board = self.history.pop()


operations = st.lists(st.one_of(
    st.tuples(st.just("boardsize"), st.sampled_from(SIZES)),
    st.tuples(st.just("clear_board")),
    st.tuples(st.just("komi"), st.sampled_from([0, 5.5, 7, -3, 100])),
    st.tuples(st.just("play"), st.sampled_from("bw"), st.integers(0, 8), st.integers(0, 8)),
    st.tuples(st.just("play"), st.sampled_from("bw"), st.integers(0, 8), st.integers(0, 8)),
    st.tuples(st.just("play"), st.sampled_from("bw"), st.integers(0, 8), st.integers(0, 8)),
    st.tuples(st.just("pass"), st.sampled_from("bw")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("fixed_handicap"), st.integers(2, 5)),
    st.tuples(st.just("genmove"), st.sampled_from("bw")),
    st.tuples(st.just("look"), st.sampled_from(["mcgo-tree 3", "final_score", "showboard",
                                                 "lz-analyze 1", "mcgo-ownership",
                                                 "final_status_list dead"])),
), min_size=1, max_size=30)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
def test_random_sessions_keep_the_board_of_a_reference_replay(ops):
    session = Session(size=9, komi=7.0, playouts=12, seed=3)
    reference = Reference(9)
    for op in ops:
        kind = op[0]
        size = session.engine.game.board.size
        if kind == "boardsize":
            assert framed(session, f"boardsize {op[1]}")[0]
            reference = Reference(op[1])
        elif kind == "clear_board":
            assert framed(session, "clear_board")[0]
            reference = Reference(size)
        elif kind == "komi":
            assert framed(session, f"komi {op[1]}")[0]
        elif kind == "play":
            row, col = op[2] % size, op[3] % size
            ok, _ = framed(session, f"play {op[1]} {vertex(row, col)}")
            if ok:
                reference.push()
                reference.board.play(row, col, op[1])
        elif kind == "pass":
            if framed(session, f"play {op[1]} pass")[0]:
                reference.push()
        elif kind == "undo":
            if framed(session, "undo")[0]:
                reference.undo()
            else:
                assert not session.engine.game.board.history
        elif kind == "fixed_handicap":
            ok, answer = framed(session, f"fixed_handicap {op[1]}")
            if ok:
                reference.push()
                reference.board.apply_setup([parse_vertex(v) for v in answer.split()], [], [])
        elif kind == "genmove":
            ok, answer = framed(session, f"genmove {op[1]}")
            assert ok, answer
            if answer.lower() not in ("pass", "resign"):
                reference.push()
                row, col = parse_vertex(answer)
                reference.board.play(row, col, op[1])
            elif answer.lower() == "pass":
                reference.push()
        else:
            command = op[1]
            if command.startswith("lz-analyze"):
                reply = analyze(session, command, seconds=0.05)
                assert reply.startswith("=") and reply.endswith("= mcgo\n\n"), reply
                for info in re.findall(r"info move (\S+)", reply):
                    assert info == "pass" or parse_vertex(info)[0] < size
            else:
                framed(session, command)
        assert stones_of_engine(session.engine) == stones_of_reference(reference.board), op


def tree_vertices(text):
    return re.findall(r"^\s*([A-T]\d+|pass):", text, re.M)


def test_a_new_board_size_never_reads_the_old_tree():
    session = Session(size=19, playouts=100, seed=1)
    assert framed(session, "genmove b")[0]
    assert framed(session, "boardsize 9")[0]
    ok, tree = framed(session, "mcgo-tree 7")
    assert ok and tree_vertices(tree)
    for v in tree_vertices(tree):
        assert v == "pass" or (v[0] <= "J" and int(v[1:]) <= 9), tree
    reply = analyze(session, "lz-analyze b 1")
    moves = re.findall(r"info move (\S+)", reply)
    assert moves and all(m == "pass" or int(m[1:]) <= 9 for m in moves), reply


def test_a_new_komi_never_reads_the_old_tree():
    """After a search at komi 7, komi 100 (black cannot win): the tree printed and the
    analysis come from a search at komi 100, whose win rates for black are near 0."""
    session = Session(size=9, komi=7.0, playouts=300, seed=1)
    assert framed(session, "genmove b")[0]
    assert framed(session, "undo")[0]
    assert framed(session, "komi 100")[0]
    ok, tree = framed(session, "mcgo-tree 1")
    rate = float(re.match(r"\s*\S+: (\S+)", tree).group(1))
    assert rate < 0.05, tree
    reply = analyze(session, "lz-analyze b 1")
    rates = [int(r) for r in re.findall(r"winrate (\d+)", reply)]
    assert rates and max(rates) < 500, reply


@pytest.mark.parametrize("seed", [2 ** 63, 2 ** 64 + 5, -1, 10 ** 30, -(2 ** 70)])
def test_set_random_seed_takes_any_integer(seed):
    session = Session(size=9, playouts=20)
    assert framed(session, f"set_random_seed {seed}") == (True, "")
    ok, move = framed(session, "genmove b")
    assert ok and re.fullmatch(r"[A-J]\d|pass|resign", move, re.I), move
    for bad in ("1.5", "x", ""):
        assert not framed(session, f"set_random_seed {bad}".strip())[0]
    assert framed(session, "genmove w")[0]


def test_seeds_equal_modulo_two_to_the_64_play_alike():
    moves = []
    for seed in (5, 2 ** 64 + 5):
        session = Session(size=9, playouts=50)
        framed(session, f"set_random_seed {seed}")
        moves.append([framed(session, f"genmove {c}")[1] for c in "bwb"])
    assert moves[0] == moves[1]


# ----------------------------------------------------------------------------- records
@pytest.fixture(scope="module")
def real_records(goban_games_dir):
    return [p.read_bytes() for p in sorted(goban_games_dir.glob("*.sgf"))[:6]]


def mutate(data, kind, at, other):
    n = max(1, len(data))
    at %= n
    if kind == "truncate":
        return data[:at]
    if kind == "garbage":
        return data[:at] + bytes([other % 256]) * (other % 7 + 1) + data[at + 3:]
    if kind == "swap colours":
        return data.replace(b";B[", b";X[", 1).replace(b";W[", b";B[").replace(b";X[", b";W[")
    if kind == "bad point":
        index = data.find(b";B[", at)
        return data if index < 0 else data[:index + 3] + [b"zz", b"z", b"", b"ab:cd", b"\xff\xfe"][other % 5] + data[index + 5:]
    if kind == "size":
        return re.sub(rb"SZ\[\d+\]", b"SZ[" + [b"9", b"0", b"1", b"26", b"-1", b"x"][other % 6] + b"]", data, 1)
    if kind == "encoding":
        text = data.decode("utf-8", errors="replace")
        encoding = ["utf-16", "latin-1", "gb2312", "shift_jis"][other % 4]
        return text.replace("(;", f"(;CA[{encoding}]", 1).encode(encoding, errors="replace")
    if kind == "properties":
        return data.replace(b"KM[", b"HA[", 1).replace(b"PB[", b"SZ[", 1)
    if kind == "nodes":
        return data.replace(b";", b"(;", other % 5 + 1)
    raise AssertionError(kind)


KINDS = ["truncate", "garbage", "swap colours", "bad point", "size", "encoding", "properties", "nodes"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.integers(0, 5), st.sampled_from(KINDS), st.integers(0, 10 ** 6), st.integers(0, 1000))
def test_mutated_records_load_or_say_why_in_one_line(real_records, tmp_path, game, kind, at, other):
    data = mutate(real_records[game], kind, at, other)
    path = tmp_path / "mutated.sgf"
    path.write_bytes(data)
    session = Session(size=19, playouts=10)
    ok, answer = framed(session, f"loadsgf {path}")
    if ok:
        assert answer in ("black", "white")
    else:
        assert answer.startswith("cannot load file: ") and "\n" not in answer
        assert "Traceback" not in answer and "internal error" not in answer
    _, report = build_casebase(tmp_path, max_moves=20)
    assert report.games_read == report.games_indexed + sum(report.skipped.values())
    for message in report.skipped_messages:
        assert "\n" not in message and "Traceback" not in message


def test_a_huge_file_is_refused_in_one_line(tmp_path, real_records):
    path = tmp_path / "huge.sgf"
    path.write_bytes(real_records[0] + b" " * (MAX_SGF_BYTES + 1))
    session = Session(size=19, playouts=10)
    ok, answer = framed(session, f"loadsgf {path}")
    assert not ok and answer == "cannot load file: larger than 16 MB"
