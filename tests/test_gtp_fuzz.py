"""Fuzzing the GTP engine with thousands of random and malformed lines (Hypothesis).

Whatever arrives, every non-empty line gets exactly one well-formed answer (``=`` or ``?``,
the id echoed, an empty line at the end), the engine keeps running, and the board's
incremental bookkeeping stays consistent with a full recount (``check_consistency``).
"""

import contextlib
import io
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mcgo.board import kernels as K
from helpers import Session
from mcgo.gtp.engine import command_names, preprocess

# ``=id text``, or a streamed answer's ``=id`` and its lines (``lz-analyze``, KataGo's form)
ANSWER = re.compile(r"^[=?](\d*)(?:[ \n].*)?$", re.S)
VERTICES = ["A1", "E5", "J9", "T19", "Z1", "I5", "A0", "pass", "PASS", "resign", "e5", "K10"]
WORDS = (["b", "w", "black", "white", "x", "-1", "0", "1", "2", "9", "19", "25", "26", "7.5",
          "nan", "inf", "1e9", "dead", "alive", "seki", "none", "byoyomi", "canadian",
          "absolute", "/nonexistent.sgf", "", "#", "\t"] + VERTICES)
# Commands that think are kept cheap (10 playouts). A streaming answer (``lz-analyze``,
# ``kata-analyze``) ends when the next line arrives, as in ``Engine.serve``.
COMMANDS = command_names()

structured = st.builds(
    lambda ident, name, args: " ".join(([str(ident)] if ident is not None else []) + [name] + args),
    st.one_of(st.none(), st.integers(0, 10 ** 12)),
    st.sampled_from(COMMANDS + ["frobnicate", "PLAY", "genmove_black", ""]),
    st.lists(st.sampled_from(WORDS), max_size=5))
garbage = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x2FF), max_size=40)
lines = st.lists(st.one_of(structured, structured, garbage), min_size=1, max_size=25)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A working folder for the fuzzed engine: ``printsgf FILE`` and ``loadsgf FILE`` with a
    relative name write and read there, never in the folder the tests run from."""
    return tmp_path_factory.mktemp("gtp-fuzz")


def engine():
    session = Session(size=9, komi=7.0, playouts=10, seed=1)
    return session.engine, session.out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
@example(batch=["kata-analyze"])     # once failed: the streamed answer was read before its end
@example(batch=["lz-analyze 10", "kata-genmove_analyze b", "lz-analyze b 0 minmoves"])
def test_every_line_gets_one_well_formed_answer(scratch, batch):
    with contextlib.chdir(scratch):
        check_answers(batch)


def check_answers(batch):
    eng, out = engine()
    for line in batch:
        if "\n" in line or "\r" in line:
            continue                      # one command per line: the tests feed lines
        start = out.tell()
        keep_going = eng.handle(line + "\n")
        eng.stop_analysis()                 # as the next line would: a streamed answer ends
        out.seek(start)
        text = out.read()
        expect_answer = bool(preprocess(line))
        if not expect_answer:
            assert text == ""
            continue
        assert text.endswith("\n\n"), (line, text)
        assert text.count("\n\n") == 1, (line, text)
        match = ANSWER.match(text[:-2])
        assert match, (line, text)
        words = [w for w in preprocess(line).split(" ") if w]    # GTP's whitespace only
        if words[0].isascii() and words[0].isdigit():
            assert match.group(1) == words[0]
        if not keep_going:
            break
        board = eng.game.board
        assert K.check_consistency(board.pts, board.info, board.zob) == 0


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=400))
def test_raw_bytes_never_kill_the_loop(scratch, data):
    eng, out = engine()
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    with contextlib.chdir(scratch):
        eng.serve(stream)                      # returns at quit or the end of input
    text = out.getvalue()
    for block in [b for b in text.split("\n\n") if b]:
        assert ANSWER.match(block.lstrip("\n")), block


def lines_gtp_answers(data):
    """How many answers GTP version 2 (section 3.1, "Preprocessing") wants for ``data``,
    written from the specification: split at LF; remove every control character but HT and
    LF (CR and DEL included); HT becomes a space; a ``#`` starts a comment; a line that is
    then empty or only spaces is ignored, any other line gets one answer."""
    count = 0
    for line in data.split(b"\n"):
        kept = bytes(b for b in line if b == 9 or not (b < 32 or b == 127)).replace(b"\t", b" ")
        kept = kept.split(b"#", 1)[0]
        if kept.strip(b" "):
            count += 1
    return count


def test_every_byte_inside_and_around_a_command_gets_one_answer_per_line(scratch):
    """Every byte value 0-255 before, inside and after ``name`` and ``version``, through
    the real command (stdin as bytes): exactly one answer per line the specification keeps,
    e.g. ``name\\rversion`` is one (unknown) command, and a line of non-breaking spaces is
    answered."""
    data = b"".join(bytes([b]) + b"name\n" + b"name" + bytes([b]) + b"version\n" +
                    b"version" + bytes([b]) + b"\n" for b in range(256))
    data += "\u00a0\u00a0\n".encode() + b"name\rversion\n" + b"list_commands\n"
    done = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--quiet", "--casebase", "none",
                           "--playouts", "10"], input=data, capture_output=True, timeout=300,
                          cwd=scratch)
    text = done.stdout.decode("utf-8", errors="replace")
    assert done.returncode == 0 and text.endswith("\n\n"), done.stderr
    answers = text[:-2].split("\n\n")
    assert len(answers) == lines_gtp_answers(data), (len(answers), lines_gtp_answers(data))
    for answer in answers:
        assert ANSWER.match(answer), answer
    assert answers[-3:-1] == ["? unknown command", "? unknown command"]   # NBSP line, CR inside
    assert "name" in answers[-1].split("\n")
