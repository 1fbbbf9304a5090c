"""The GTP engine: every command against the GTP 2 specification, and against GNU Go 3.8's
answers on the same positions (stones, captures, legality, handicap vertices, final score
and dead stones of finished games). The engine runs in-process (fast) and, for the protocol
details that only a process shows (ids, stdin garbage, streaming analysis), as ``mcgo gtp``.
"""

import random
import re
import select
import subprocess
import sys
import time

import pytest

import mcgo
from mcgo.board import coords
from helpers import RESPONSE, Session, fails, load_rows
from mcgo.board.handicap import fixed_points
from mcgo.gtp.controller import GtpEngine, GtpFailure
from mcgo.gtp.engine import command_names

LZ_ENTRY = re.compile(r"info move (?:[A-HJ-Z]\d{1,2}|pass) visits \d+ winrate \d+ prior \d+ "
                      r"lcb \d+ order \d+ pv(?: (?:[A-HJ-Z]\d{1,2}|pass))+")


@pytest.fixture
def gtp():
    return Session(size=9, komi=7.0, seed=1)


@pytest.fixture
def gnugo(gnugo_command):
    with GtpEngine(gnugo_command) as engine:
        yield engine


def both(ours, gnugo, command):
    """Send a command to both; return the two answers (or the failure flags)."""
    results = []
    for engine in (ours, gnugo):
        try:
            results.append(("=", engine.send(command)))
        except GtpFailure:
            results.append(("?", None))
    return results


# --------------------------------------------------------------------------- spec
def test_administrative_commands(gtp):
    assert gtp.send("protocol_version") == "2"
    assert gtp.send("name") == "mcgo"
    assert gtp.send("version") == mcgo.__version__
    listed = gtp.send("list_commands").split("\n")
    required = ("protocol_version name version known_command list_commands quit boardsize "
                "clear_board komi fixed_handicap place_free_handicap set_free_handicap play "
                "genmove undo time_settings time_left final_score final_status_list loadsgf "
                "reg_genmove showboard kgs-genmove_cleanup kgs-time_settings kgs-game_over "
                "printsgf is_legal all_legal list_stones captures set_random_seed lz-analyze "
                "lz-genmove_analyze gogui-analyze_commands mcgo-tree").split()
    for name in required:
        assert name in listed
        assert gtp.send(f"known_command {name}") == "true"
    assert gtp.send("known_command frobnicate") == "false"
    assert listed == command_names()


def test_errors_follow_the_spec(gtp):
    assert fails(gtp, "frobnicate") == "unknown command"
    assert fails(gtp, "play b Z99") == "invalid coordinate"
    assert fails(gtp, "play b") == "syntax error"
    assert fails(gtp, "play x E5") == "invalid color"
    assert fails(gtp, "boardsize x") == "syntax error"
    assert fails(gtp, "boardsize 99") == "unacceptable size"
    assert fails(gtp, "komi seven") == "syntax error"
    gtp.send("play b E5")
    assert fails(gtp, "play w E5") == "illegal move"
    assert fails(gtp, "final_status_list sometimes") == "invalid status"


def test_ids_are_echoed(gtp):
    assert gtp.raw("17 name") == "=17 mcgo\n\n"
    assert gtp.raw("18 frobnicate") == "?18 unknown command\n\n"
    assert gtp.raw("19 play b E5") == "=19\n\n"
    assert gtp.raw("  # a comment only") == ""
    assert gtp.raw("20 name # comment") == "=20 mcgo\n\n"


def test_boardsize_clear_board_komi(gtp):
    gtp.send("play b E5")
    gtp.send("boardsize 13")
    assert gtp.engine.game.board.size == 13 and not gtp.engine.game.board.moves
    gtp.send("komi 6.5")
    gtp.send("play b D4")
    gtp.send("clear_board")
    assert gtp.engine.game.board.komi == 6.5 and gtp.send("list_stones black") == ""


def test_play_undo_and_genmove(gtp):
    gtp.send("play b E5")
    gtp.send("play w C3")
    gtp.send("undo")
    assert gtp.send("list_stones white") == ""
    gtp.send("undo")
    assert fails(gtp, "undo") == "cannot undo"
    move = gtp.send("genmove b")
    assert gtp.send("list_stones black") == move
    reply = gtp.send("reg_genmove w")
    assert gtp.send("list_stones white") == ""           # reg_genmove does not play
    assert reply.lower() == "pass" or gtp.send(f"is_legal w {reply}") == "1"


def test_genmove_passes_back_when_passing_wins(gtp):
    # Black's five stones own the whole board once white has passed: passing back wins.
    gtp.send("komi 0.5")
    for v in "C3 C7 G3 G7 E5".split():
        gtp.send(f"play b {v}")
        gtp.send("play w pass")
    assert gtp.send("genmove b") == "pass"


def test_genmove_does_not_pass_when_passing_loses(gtp):
    gtp.send("komi 0.5")
    for v in "C3 C7 G3 G7 E5".split():
        gtp.send(f"play w {v}")
        gtp.send("play b pass")
    gtp.send("play w pass")
    assert gtp.send("genmove b") not in ("pass", "resign")


def test_time_commands(gtp):
    gtp.send("time_settings 0 1 1")
    gtp.send("time_left b 1 1")
    gtp.send("kgs-time_settings byoyomi 10 1 3")
    gtp.send("kgs-time_settings canadian 60 30 10")
    gtp.send("kgs-time_settings absolute 60")
    gtp.send("kgs-time_settings none")
    assert fails(gtp, "kgs-time_settings sideways 1") == "syntax error"
    assert fails(gtp, "time_settings 1 2") == "syntax error"
    assert fails(gtp, "time_left b x 0") == "syntax error"


@pytest.mark.slow
def test_thinking_time_runs_from_when_the_command_arrived():
    """A genmove that waited (for a cold start-up, say) before the engine could take it up
    does not think its whole budget on top of the wait."""
    session = Session(size=9, komi=7.0, seed=1, playouts=None, seconds=3.0)
    out = session.out
    session.engine.handle("genmove b\n", received_at=time.monotonic() - 10.0)
    assert re.fullmatch(r"= [A-HJ][1-9]\n\n", out.getvalue())
    assert session.engine.game.search.last_result.seconds < 0.5
    session.engine.handle("genmove w\n")   # arrived now: the whole budget
    assert session.engine.game.search.last_result.seconds > 2.0


def test_handicap_commands(gtp):
    # GTP 2 section 4.1.1: four stones on 9x9 go on the four 3-3 points, and they are the
    # stones on the board.
    answer = gtp.send("fixed_handicap 4").split()
    assert sorted(answer) == sorted(gtp.send("list_stones black").split()) == ["C3", "C7", "G3", "G7"]
    assert fails(gtp, "fixed_handicap 2") == "board not empty"
    gtp.send("clear_board")
    stones = gtp.send("place_free_handicap 5").split()
    assert len(stones) == 5 and set(stones) == set(gtp.send("list_stones black").split())
    assert gtp.engine.game.board.to_move == mcgo.WHITE
    gtp.send("clear_board")
    assert fails(gtp, "set_free_handicap A1 A1") == "bad vertex list"
    assert fails(gtp, "set_free_handicap A1") == "bad vertex list"
    gtp.send("set_free_handicap A1 J9 E5")
    assert set(gtp.send("list_stones black").split()) == {"A1", "J9", "E5"}
    gtp.send("clear_board")
    assert fails(gtp, "place_free_handicap 1") == "invalid number of stones"
    assert fails(gtp, "fixed_handicap 10") == "invalid number of stones"


def test_loadsgf_and_printsgf_round_trip(gtp, tmp_path):
    path = tmp_path / "game.sgf"
    path.write_text("(;GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[cg])")
    assert gtp.send(f"loadsgf {path} 3") == "black"       # before move 3: two moves played
    assert gtp.send("list_stones black") == "E5"
    assert gtp.send("list_stones white") == "C7"
    gtp.send(f"loadsgf {path}")
    assert gtp.send("list_stones white") == "C3 C7"
    assert gtp.engine.game.board.komi == 6.5
    text = gtp.send("printsgf")
    assert "B[ee]" in text and "W[cg]" in text and "SZ[9]" in text
    out = tmp_path / "out.sgf"
    gtp.send(f"printsgf {out}")
    from mcgo import sgf
    record = sgf.read_game(out.read_bytes())
    assert [coords.to_gtp(p, 9) for _, p in record.moves] == ["E5", "C7", "G3", "C3"]
    assert fails(gtp, f"loadsgf {tmp_path / 'missing.sgf'}") == "cannot load file: no such file"


def test_printsgf_keeps_handicap_stones(gtp):
    gtp.send("fixed_handicap 2")
    gtp.send("play w E5")
    from mcgo import sgf
    record = sgf.read_game(gtp.send("printsgf").encode())
    assert sorted(coords.to_gtp(p, 9) for p in record.setup.black) == ["C3", "G7"]
    assert sgf.replay(record).stones(mcgo.WHITE) == [coords.from_gtp("E5", 9)]


def test_set_random_seed_reproduces_genmove():
    answers = []
    for _ in range(2):
        s = Session(size=9, komi=7.0)
        s.send("set_random_seed 42")
        answers.append([s.send("genmove b"), s.send("genmove w")])
    assert answers[0] == answers[1]


def test_mcgo_tree_prints_the_thesis_format(gtp):
    gtp.send("play b E5")
    text = gtp.send("mcgo-tree 3")
    lines = text.split("\n")
    top = [l for l in lines if not l.startswith(" ")]
    assert len(top) == 3
    node = re.compile(r"^( *)([A-HJ-Z]\d+|pass): [\d.e-]+ \([\d.]+ / [\d.]+\) uct\[[\d.e+-]+|inf\]$")
    for line in lines:
        assert node.match(line), line
    assert any(l.startswith("  ") for l in lines)   # children indented


def test_mcgo_tree_shows_the_case_base_label():
    import numpy as np

    class Advisor:
        def advise(self, board):
            bonus = np.zeros(board.pts.shape[1])
            p = coords.from_gtp("C3", board.size)
            bonus[p] = 0.3
            return bonus, {p: "D4: 0.3 Jud-1982-4.sgf"}

    s = Session(size=9, komi=7.0, seed=1, preset="thesis", opening_advisor=Advisor())
    s.send("genmove b")
    assert "cbr[D4: 0.3 Jud-1982-4.sgf]" in s.send("mcgo-tree 80")


GFX_VERTEX = re.compile(r"[A-HJ][1-9]|pass", re.IGNORECASE)   # a point of the 9x9 board


def check_gfx(answer):
    """Every line of a GoGui ``gfx`` answer as GoGui's analyze-command documentation defines
    it: ``INFLUENCE`` vertex/value pairs (-1..1), ``LABEL`` vertex/text pairs, ``VAR``
    colour/vertex pairs, ``BLACK``/``WHITE``/``MARK``/... vertex lists, ``TEXT`` any text."""
    for line in answer.split("\n"):
        keyword, *rest = line.split()
        if keyword == "TEXT":
            continue
        if keyword == "INFLUENCE":
            assert len(rest) % 2 == 0, line
            for vertex, value in zip(rest[::2], rest[1::2]):
                assert GFX_VERTEX.fullmatch(vertex) and -1.0 <= float(value) <= 1.0, line
        elif keyword == "LABEL":
            assert rest and len(rest) % 2 == 0, line
            assert all(GFX_VERTEX.fullmatch(v) for v in rest[::2]), line
        elif keyword == "VAR":
            assert rest and len(rest) % 2 == 0, line
            assert all(c in ("b", "w") for c in rest[::2]), line
            assert all(GFX_VERTEX.fullmatch(v) for v in rest[1::2]), line
        else:
            assert keyword in ("BLACK", "WHITE", "MARK", "CIRCLE", "SQUARE", "TRIANGLE",
                               "CLEAR"), line
            assert all(GFX_VERTEX.fullmatch(v) for v in rest), line


def test_gogui_analyze_commands_all_answer(gtp):
    gtp.send("play b E5")
    gtp.send("play w C3")
    commands = [line.split("/", 2) for line in gtp.send("gogui-analyze_commands").split("\n")]
    assert all(kind in ("gfx", "string", "plist", "none", "sboard", "cboard")
               for kind, _, _ in commands)
    for kind, label, command in commands:
        answer = gtp.send(command)
        if kind == "gfx":
            check_gfx(answer)
        elif kind == "plist":
            assert all(GFX_VERTEX.fullmatch(v) for v in answer.split()), (command, answer)
    # The ownership map has both stones' points, each on its owner's side.
    influence = dict(zip(*[iter(gtp.send("mcgo-ownership").split()[1:])] * 2))
    assert float(influence["E5"]) > 0 > float(influence["C3"])


def test_lz_genmove_analyze_in_process(gtp):
    text = gtp.raw("5 lz-genmove_analyze b 1")
    assert text.startswith("=5\n")
    assert text.endswith("\n\n")
    body = text.split("\n")[1:-2]
    assert body[-1].startswith("play ")
    move = body[-1].split()[1]
    assert gtp.send("list_stones black") == move


# --------------------------------------------------------------------------- GNU Go
def random_game(seed, size, moves):
    rng = random.Random(seed)
    board = mcgo.Board(size)
    played = []
    for _ in range(moves):
        legal = board.legal_moves()
        move = rng.choice(legal) if legal and rng.random() > 0.03 else mcgo.PASS
        color = board.to_move
        board.play(move)
        played.append(("b" if color == mcgo.BLACK else "w", coords.to_gtp(move, size)))
    return played


@pytest.mark.parametrize("seed", range(4))
def test_stones_captures_and_legality_agree_with_gnugo(gnugo, seed):
    size = 9
    ours = Session(size=size, komi=7.0)
    for engine in (ours, gnugo):
        engine.send(f"boardsize {size}")
        engine.send("clear_board")
    for i, (color, vertex) in enumerate(random_game(seed, size, 120)):
        a, b = both(ours, gnugo, f"play {color} {vertex}")
        assert a[0] == b[0] == "="
        if i % 10 == 9:
            for c in ("black", "white"):
                stones_ours = sorted(ours.send(f"list_stones {c}").split())
                stones_gnugo = sorted(gnugo.send(f"list_stones {c}").split())
                assert stones_ours == stones_gnugo
                assert ours.send(f"captures {c}") == gnugo.send(f"captures {c}")
    for p in coords.all_points(size):
        v = coords.to_gtp(p, size)
        for c in ("b", "w"):
            assert ours.send(f"is_legal {c} {v}") == gnugo.send(f"is_legal {c} {v}"), (c, v)


@pytest.mark.parametrize("size", [7, 8, 9, 13, 19])
def test_fixed_handicap_vertices_agree_with_gnugo(gnugo, size):
    ours = Session(size=size, komi=0.5)
    for n in range(0, 11):
        for engine in (ours, gnugo):
            engine.send(f"boardsize {size}")
            engine.send("clear_board")
        (sa, a), (sb, b) = both(ours, gnugo, f"fixed_handicap {n}")
        assert sa == sb, (size, n)
        if sa == "=":
            assert sorted(a.split()) == sorted(b.split()), (size, n)
            assert set(a.split()) == {coords.to_gtp(p, size) for p in fixed_points(size, n)}


FINISHED = {
    # Settled: white top (eyes), black bottom (eyes); score is area only.
    "settled": ([". O . O . O . O .",
                 "O O O O O O O O O",
                 "O . O . O . O . O",
                 "O O O O O O O O O",
                 "O O O O O O O O O",
                 "X X X X X X X X X",
                 "X X . X X . X . X",
                 "X . X X . X X X X",
                 "X X X X X X X . X"], 7.0),
    # A dead white stone in black's area and a dead black stone in white's.
    "dead stones": ([". O . O . . . O .",
                     "O O O O . X . O O",
                     "O . O O . . . O .",
                     "O O O O O O O O O",
                     "X X X X X X X X X",
                     ". X . X . . . X .",
                     "X X X X . O . X X",
                     ". X . X . . . X .",
                     "X X X X X X X X X"], 6.5),
}


@pytest.mark.parametrize("status_search", [0, 3000])
@pytest.mark.parametrize("passes", [0, 2])
@pytest.mark.parametrize("name", sorted(FINISHED))
def test_final_score_and_dead_stones_agree_with_gnugo(gnugo, name, passes, status_search):
    """... judged by the playouts, or by a tree search's ownership (``--status-search``)."""
    rows, komi = FINISHED[name]
    ours = Session(size=9, komi=komi, seed=1, status_search=status_search)
    for engine in (ours, gnugo):
        load_rows(engine, rows, komi, passes)   # 2: a game that ended by two passes
    assert ours.send("final_score") == gnugo.send("final_score").replace(".0", "")
    for status in ("dead", "alive", "seki"):
        mine = sorted(ours.send(f"final_status_list {status}").split())
        theirs = sorted(gnugo.send(f"final_status_list {status}").split())
        assert mine == theirs, status


# --------------------------------------------------------------------------- process
def run_gtp(lines, *args, timeout=300):
    proc = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--playouts", "100", *args],
                          input=lines, capture_output=True, timeout=timeout)
    return proc


def test_process_survives_garbage_and_quits_cleanly():
    junk = (b"\x00\x01\x02\xff\xfe garbage\n"
            b"\x1b[31m red \x1b[0m\n"
            b"1 boardsize 9\n"
            b"2 play b E5\r\n"
            b"3 play w \xc3\xa9\n"
            b"4\n"
            b"   \t  \n"
            b"5 list_stones black\n"
            b"6 quit\n"
            b"7 name\n")
    proc = run_gtp(junk)
    assert proc.returncode == 0
    out = proc.stdout.decode()
    assert "=1\n\n" in out and "=2\n\n" in out
    assert "?3 invalid coordinate\n\n" in out
    assert "?4 syntax error\n\n" in out
    assert "=5 E5\n\n" in out
    assert "=6\n\n" in out
    assert "=7" not in out                  # nothing after quit
    for block in out.strip("\n").split("\n\n"):
        assert RESPONSE.match(block), block


def test_first_commands_answered_during_start_up_match_the_engines_answers(gtp):
    # mcgo gtp answers identity commands and quit while its engine starts in the background;
    # the replies must be the ones the engine gives, with ids, and nothing after quit.
    lines = ["1 protocol_version", "name", "  2 version # comment", "", "3 name extra"]
    expected = "".join(gtp.raw(line) for line in lines) + "=4\n\n"
    proc = run_gtp(("\n".join(lines) + "\n4 quit\n5 name\n").encode())
    assert proc.returncode == 0
    assert proc.stdout.decode() == expected
    assert expected.startswith("=1 2\n\n= mcgo\n\n=2 " + mcgo.__version__ + "\n\n")


def test_warmup_command_loads_every_kernel():
    proc = subprocess.run([sys.executable, "-m", "mcgo", "warmup"], capture_output=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert re.fullmatch(rb"kernels ready in \d+\.\d s\n", proc.stdout)


def test_a_missing_case_base_file_is_refused_before_any_answer():
    proc = run_gtp(b"name\n", "--casebase", "/no/such/file.mcgocb")
    assert proc.returncode == 2 and proc.stdout == b""
    assert b"no case base file /no/such/file.mcgocb" in proc.stderr


ANALYSIS_TIMEOUT = 120.0   # seconds for the engine to start (a cold compile) and stream


def read_line_before(stream, deadline):
    """One line of ``stream``, or a test failure once ``deadline`` (monotonic) has passed."""
    left = deadline - time.monotonic()
    if left <= 0 or not select.select([stream], [], [], left)[0]:
        pytest.fail("no analysis line in time")
    return stream.readline()


def test_lz_analyze_streams_until_the_next_command():
    script = b"boardsize 9\n9 lz-analyze b 10\n"
    proc = subprocess.Popen([sys.executable, "-m", "mcgo", "gtp", "--playouts", "100"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        proc.stdin.write(script)
        proc.stdin.flush()
        deadline = time.monotonic() + ANALYSIS_TIMEOUT
        lines = []
        while len([l for l in lines if l.startswith(b"info")]) < 2:
            lines.append(read_line_before(proc.stdout, deadline))
            assert lines[-1], "the engine closed its output"
        proc.stdin.write(b"10 name\nquit\n")
        proc.stdin.flush()
        rest, _ = proc.communicate(timeout=ANALYSIS_TIMEOUT)
    finally:
        proc.kill()
        proc.wait()
    text = b"".join(lines).decode() + rest.decode()
    assert text.startswith("=\n\n=9\n")
    infos = [l for l in text.split("\n") if l.startswith("info")]
    for line in infos:
        entries = re.split(r" (?=info move)", line)
        assert all(LZ_ENTRY.fullmatch(e) for e in entries), line
        orders = [int(re.search(r"order (\d+)", e).group(1)) for e in entries]
        assert orders == list(range(len(orders)))
    # The analysis answer ends with an empty line before the next answer.
    assert "\n\n=10 mcgo\n\n" in text


def test_kgs_genmove_cleanup_removes_dead_stones_before_passing():
    rows, komi = FINISHED["dead stones"]
    ours = Session(size=9, komi=komi, seed=1, playouts=1000)
    load_rows(ours, rows, komi)
    ours.send("play w pass")
    assert ours.send("genmove b") == "pass"          # normal play: the game is won as it is
    ours.send("undo")
    move = ours.send("kgs-genmove_cleanup b")
    assert move != "pass"                             # F3 (the dead white stone) is still there
    for _ in range(8):
        if "F3" not in ours.send("list_stones white").split():
            break
        ours.send("play w pass")
        ours.send("kgs-genmove_cleanup b")
    assert "F3" not in ours.send("list_stones white").split()


def test_mcgo_play_in_the_terminal():
    from click.testing import CliRunner
    from mcgo.cli import main
    result = CliRunner().invoke(main, ["play", "--playouts", "50", "--seed", "1"],
                                input="E5\nZ99\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "mcgo plays" in result.output
    assert "cannot play 'z99'" in result.output


def test_loadsgf_refuses_devices_and_directories(gtp, tmp_path):
    for path in ("/dev/zero", str(tmp_path)):
        assert fails(gtp, f"loadsgf {path}") == "cannot load file: not a file"
    assert gtp.send("name") == "mcgo"


def test_each_game_of_a_session_draws_new_random_numbers_and_replays_exactly():
    """With a fixed number of simulations, the games of one session differ (a match between
    two such engines is not one game repeated), the same session replays the same games,
    and ``set_random_seed`` starts the sequence again."""
    def opening(session):
        session.send("clear_board")
        return [session.send(f"genmove {color}") for color in "bwbw"]

    first = Session(playouts=60, seed=3)
    first.send("boardsize 9")
    games = [opening(first) for _ in range(3)]
    again = Session(playouts=60, seed=3)
    again.send("boardsize 9")
    assert [opening(again) for _ in range(3)] == games
    assert len({tuple(g) for g in games}) > 1
    again.send("set_random_seed 3")
    assert opening(again) == games[0]


def test_named_settings_on_the_command_line():
    """``--list-settings`` lists every named setting with the preset's own value; a bad
    ``--set`` is one line of error and exit 2, before the engine starts."""
    from click.testing import CliRunner
    from mcgo import options
    from mcgo.cli import main
    from mcgo.search.presets import settings
    listed = CliRunner().invoke(main, ["gtp", "--preset", "thesis", "--list-settings"])
    assert listed.exit_code == 0
    rows = {line.split()[0]: line.split()[1] for line in listed.output.splitlines()[1:]}
    assert set(rows) == set(options.NAMED_SETTINGS)
    assert float(rows["exploration"]) == pytest.approx(settings("thesis")["exploration"], abs=1e-6)
    assert float(rows["rave"]) == settings("thesis")["rave"]
    for bad, says in (("rave_equiv=abc", "not a number"), ("foo=1", "unknown setting 'foo'"),
                      ("expand_after", "NAME=VALUE"), ("first_play=-1", ">= 0")):
        result = CliRunner().invoke(main, ["gtp", "--set", bad])
        assert result.exit_code == 2 and says in result.output, (bad, result.output)
