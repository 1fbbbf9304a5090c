"""KataGo's GTP analysis extensions (``kata-analyze``, ``kata-genmove_analyze``,
``kata-get-param``/``kata-set-param``/``kata-list-params``, ``kata-get-rules``) and
pondering (``mcgo gtp --ponder``).

Every analysis line is read by a parser written here from KataGo's published format
(docs/GTP_Extensions.md of lightvector/KataGo: ``info`` groups of key-value pairs, the
``pv`` a list of vertices, ``ownership`` size*size floats in [-1, 1] row by row from the
top left, winrate, prior and lcb floats in [0, 1] for the side to move), strict about the
keys, and once more by a GTP client others wrote, ``@sabaki/gtp`` (the library Sabaki talks
to engines with), when node and the package are at hand.
"""

import io
import json
import os
import pathlib
import queue
import re
import subprocess
import sys
import threading
import time

import pytest

from conftest import sabaki_package

import mcgo
from mcgo.board import coords
from helpers import Session, fails, load_rows
from mcgo.config import EngineConfig
from mcgo.gtp.engine import Engine, command_names

ROOT = pathlib.Path(__file__).resolve().parent.parent
JS_DIR = ROOT / "tests" / "js"
STARTUP_TIMEOUT = 120.0        # seconds for an engine process to start and stream (a cold compile)

# ---------------------------------------------------------------- KataGo's line format
VERTEX = re.compile(r"pass|[A-HJ-T](?:[1-9]|1[0-9])")
INT = re.compile(r"-?\d+")
FLOAT = re.compile(r"-?\d+\.\d+")      # with a decimal point: Sabaki reads "48" as 0.48%
FIELD_TYPES = {"move": "vertex", "isSymmetryOf": "vertex", "visits": "int", "order": "int",
               "utility": "float", "winrate": "float", "scoreMean": "float",
               "scoreStdev": "float", "scoreLead": "float", "scoreSelfplay": "float",
               "prior": "float", "lcb": "float", "utilityLcb": "float"}
LIST_TYPES = {"pv": "vertex", "pvVisits": "int", "pvEdgeVisits": "int",
              "movesOwnership": "float", "movesOwnershipStdev": "float"}
GROUPS = {"info", "rootInfo", "ownership", "ownershipStdev"}
NEEDED = {"move", "visits", "winrate", "prior", "lcb", "order", "pv"}


def parse_kata_line(line, size):
    """The groups of one ``kata-analyze`` line: ``[(kind, fields)]``, an ``info`` or
    ``rootInfo`` group's fields a dict (a list for the list-valued keys), an ``ownership``
    group's a list of floats. Fails the test on anything KataGo's format does not allow."""
    tokens = line.split()
    assert tokens and tokens[0] == "info", line[:80]
    groups = []
    i = 0
    while i < len(tokens):
        kind = tokens[i]
        assert kind in GROUPS, f"unknown group {kind!r}"
        i += 1
        if kind in ("ownership", "ownershipStdev"):
            values = tokens[i:i + size * size]
            assert len(values) == size * size
            assert all(FLOAT.fullmatch(v) for v in values), values
            groups.append((kind, [float(v) for v in values]))
            i += size * size
            continue
        fields = {}
        while i < len(tokens) and tokens[i] not in GROUPS:
            key = tokens[i]
            i += 1
            assert key not in fields, f"{key} twice in a group"
            if key in LIST_TYPES:
                start = i
                while i < len(tokens) and tokens[i] not in GROUPS \
                        and tokens[i] not in FIELD_TYPES and tokens[i] not in LIST_TYPES:
                    i += 1
                fields[key] = [_value(v, LIST_TYPES[key]) for v in tokens[start:i]]
            else:
                assert key in FIELD_TYPES, f"unknown key {key!r} in {kind}"
                assert i < len(tokens), f"no value for {key}"
                fields[key] = _value(tokens[i], FIELD_TYPES[key])
                i += 1
        groups.append((kind, fields))
    return groups


def _value(word, kind):
    if kind == "vertex":
        assert VERTEX.fullmatch(word), word
        return word
    if kind == "int":
        assert INT.fullmatch(word), word
        return int(word)
    assert FLOAT.fullmatch(word), word
    return float(word)


def check_info_groups(groups, board, color, size):
    """The checks every ``info`` group must pass; returns the groups' fields."""
    infos = [f for kind, f in groups if kind == "info"]
    assert infos
    for order, f in enumerate(infos):
        assert NEEDED <= set(f), f
        assert f["order"] == order
        assert f["visits"] >= 0
        for key in ("winrate", "prior", "lcb"):
            assert 0.0 <= f[key] <= 1.0, (key, f[key])
        assert -1.0 <= f["utility"] <= 1.0 and -1.0 <= f["utilityLcb"] <= 1.0
        if f["visits"]:
            assert f["lcb"] <= f["winrate"] + 1e-9
        assert f["pv"] and f["pv"][0] == f["move"]
        replay = board.copy()
        mover = color
        for vertex in f["pv"]:           # the variation is playable, colours alternating
            replay.play(coords.from_gtp(vertex, size), mover)
            mover = 3 - mover
        if "pvVisits" in f:
            assert len(f["pvVisits"]) == len(f["pv"]) == len(f["pvEdgeVisits"])
            assert all(v >= 0 for v in f["pvVisits"])
    assert sum(f["prior"] for f in infos) <= 1.0 + 1e-3
    assert len({f["move"] for f in infos}) == len(infos)
    return infos


# ---------------------------------------------------------------- in-process sessions
def analyze(engine, out, command, lines=2, timeout=60.0):
    """Run a streaming ``kata-analyze`` on an in-process engine until it has written
    ``lines`` lines after its ``=``, stop it with ``name``; the analysis answer's text."""
    start = out.tell()
    engine.handle(command + "\n")
    deadline = time.monotonic() + timeout
    while out.getvalue()[start:].count("\n") < lines + 1:
        assert time.monotonic() < deadline, "no analysis lines in time"
        time.sleep(0.02)
    engine.handle("name\n")
    text = out.getvalue()[start:]
    answer, _, rest = text.partition("\n\n")
    assert rest == "= mcgo\n\n"                  # the next answer comes after the empty line
    return answer


def engine_on(rows=None, size=9, komi=7.0, **options):
    out = io.StringIO()
    engine = Engine(EngineConfig.of(size=size, komi=komi, seed=1, **options), out=out,
                    verbose=False)
    if rows:
        session = _Sender(engine, out)
        load_rows(session, rows, komi)
    return engine, out


class _Sender:
    """``send`` for load_rows on an engine that writes to ``out``."""

    def __init__(self, engine, out):
        self.engine, self.out = engine, out

    def send(self, command):
        start = self.out.tell()
        self.engine.handle(command + "\n")
        self.out.seek(start)
        text = self.out.read()
        assert text.startswith("="), (command, text)
        return text[1:].strip()


# Black walls off the top-left corner, white the top-right one; the lower board is open.
CORNERS = [
    "...X.O...",
    "...X.O...",
    "XXXX.OOOO",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
]


def test_kata_analyze_lines_follow_katagos_format():
    engine, out = engine_on(playouts=100)
    answer = analyze(engine, out, "7 kata-analyze b 5 ownership true ownershipStdev true "
                                  "rootInfo true pvVisits true minmoves 4 maxmoves 12")
    head, *lines = answer.split("\n")
    assert head == "=7" and len(lines) >= 2
    for line in lines:
        groups = parse_kata_line(line, 9)
        infos = check_info_groups(groups, engine.game.board, mcgo.BLACK, 9)
        assert 4 <= len(infos) <= 12
        kinds = [kind for kind, _ in groups]
        assert kinds == ["info"] * len(infos) + ["rootInfo", "ownership", "ownershipStdev"]
        root = dict(groups)["rootInfo"]
        assert root["visits"] >= max(f["visits"] for f in infos)
        assert 0.0 <= root["winrate"] <= 1.0
        # A visited move's score is its playouts' mean margin (the three names one number,
        # within the board's points and komi); an unvisited one has none.
        scored = [f for f in infos if f["visits"] > 0]
        assert scored and all(f["scoreLead"] == f["scoreMean"] == f["scoreSelfplay"]
                              and abs(f["scoreLead"]) <= 81 + 7 for f in scored)
        assert all("scoreLead" not in f for f in infos if f["visits"] == 0)
        assert all(-1.0 <= v <= 1.0 for v in dict(groups)["ownership"])
        assert all(0.0 <= v <= 1.0 for v in dict(groups)["ownershipStdev"])
    # Visits only grow while the analysis runs.
    totals = [sum(f["visits"] for k, f in parse_kata_line(l, 9) if k == "info") for l in lines]
    assert totals == sorted(totals)


def test_plain_kata_analyze_keeps_the_pv_last_in_each_group():
    """Without pvVisits or rootInfo, a group ends with its pv (Sabaki reads it from the end)
    and nothing but ``info`` groups make the line."""
    engine, out = engine_on(playouts=100)
    answer = analyze(engine, out, "kata-analyze 5")
    for line in answer.split("\n")[1:]:
        for entry in re.split(r" (?=info )", line):
            assert re.fullmatch(r"info move \S+ .* pv(?: (?:pass|[A-HJ-T]\d+))+", entry), entry
        check_info_groups(parse_kata_line(line, 9), engine.game.board, mcgo.BLACK, 9)


@pytest.mark.parametrize("color,sign", [("b", 1.0), ("w", -1.0)])
def test_ownership_runs_from_the_top_left_for_the_side_to_move(color, sign):
    engine, out = engine_on(CORNERS)
    answer = analyze(engine, out, f"kata-analyze {color} 20 ownership true", lines=3)
    last = answer.split("\n")[-1]
    owner = dict(parse_kata_line(last, 9))["ownership"]
    assert len(owner) == 81
    black = [sign * v for v in owner]          # +1: black's
    top_left = [black[r * 9 + c] for r in range(2) for c in range(3)]     # A9-C8
    top_right = [black[r * 9 + c] for r in range(2) for c in range(6, 9)]  # G9-J8
    assert min(top_left) > 0.5, top_left
    assert max(top_right) < -0.5, top_right
    assert black[3] > 0.5 and black[5] < -0.5      # the walls' stones D9 (black), F9 (white)
    # The lower board is open: its mean ownership is far from a side's.
    assert abs(sum(black[45:]) / 36) < 0.5


def test_kata_genmove_analyze_streams_then_plays():
    engine, out = engine_on(playouts=3000)
    start = out.tell()
    engine.handle("12 kata-genmove_analyze w 1 ownership true\n")
    text = out.getvalue()[start:]
    assert text.endswith("\n\n") and text.count("\n\n") == 1
    head, *lines, play = text[:-2].split("\n")
    assert head == "=12"
    assert re.fullmatch(r"play (?:pass|resign|[A-HJ-T]\d+)", play)
    assert lines, "no analysis line while the move was searched"
    before = mcgo.Board(9, komi=7.0)
    for line in lines:
        groups = parse_kata_line(line, 9)
        check_info_groups(groups, before, mcgo.WHITE, 9)
        assert len(dict(groups)["ownership"]) == 81
    vertex = play.split()[1]
    assert engine.game.board.history[-1].color == mcgo.WHITE        # white played it
    assert coords.to_gtp(engine.game.board.history[-1].point, 9) == vertex


def test_kata_analyze_arguments_are_checked_before_the_answer():
    gtp = Session(size=9, komi=7.0, seed=1)
    assert fails(gtp, "kata-analyze b 10 ownership maybe") == "expected true or false, got maybe"
    assert fails(gtp, "kata-analyze b 10 minmoves -1") == "syntax error"
    assert fails(gtp, "kata-analyze b 10 avoid b D4,E5") is not None
    assert fails(gtp, "kata-analyze b 10 avoid x D4 1") == "x: not a player (b or w)"
    assert fails(gtp, "kata-analyze b 10 avoid b Z99 1") == "Z99: not a vertex of the 9x9 board"
    assert fails(gtp, "kata-genmove_analyze b 10 interval") == "no value for interval"
    assert gtp.send("name") == "mcgo"


def test_kata_commands_are_listed():
    gtp = Session(size=9, komi=7.0, seed=1)
    listed = gtp.send("list_commands").split("\n")
    for name in ("kata-analyze", "kata-genmove_analyze", "kata-get-param", "kata-set-param",
                 "kata-list-params", "kata-get-rules", "stop"):
        assert name in listed and gtp.send(f"known_command {name}") == "true"
    assert listed == command_names()


def test_kata_params_change_what_the_engine_reports_and_does():
    gtp = Session(size=9, komi=7.0, seed=1, playouts=200)
    names = gtp.send("kata-list-params").split()
    for name in ("exploration", "rave_equiv", "expand_after", "maxVisits", "maxTime",
                 "playouts", "numSearchThreads"):
        assert name in names
    for name in names:                           # every listed name can be read
        assert gtp.send(f"kata-get-param {name}")
    gtp.send("kata-set-param rave_equiv 250")
    assert float(gtp.send("kata-get-param rave_equiv")) == 250.0
    gtp.send("kata-set-param expand_after 3")
    assert gtp.send("kata-get-param expand_after") == "3"
    gtp.send("kata-set-param maxVisits 60")
    assert gtp.send("kata-get-param playouts") == "60"
    gtp.send("genmove b")
    assert 60 <= gtp.engine.game.search.last_result.simulations < 120   # the new limit holds
    gtp.send("kata-set-param maxTime 2.5")
    assert float(gtp.send("kata-get-param seconds")) == 2.5
    gtp.send("kata-set-param maxTime none")
    assert gtp.send("kata-get-param maxTime") == "none"
    gtp.send("kata-set-param numSearchThreads 2")
    assert gtp.send("kata-get-param numSearchThreads") == "2"
    gtp.send("genmove w")
    assert len(gtp.engine.game.search.workers) == 2
    assert fails(gtp, "kata-set-param frobnicate 1") == "unknown parameter frobnicate"
    assert fails(gtp, "kata-get-param frobnicate") == "unknown parameter frobnicate"
    for bad in ("rave_equiv -1", "rave_equiv nan", "expand_after 1.5", "maxVisits 0",
                "maxVisits lots", "maxTime -2", "numSearchThreads 0", "exploration"):
        assert fails(gtp, f"kata-set-param {bad}"), bad
    assert float(gtp.send("kata-get-param rave_equiv")) == 250.0     # a refusal changes nothing


def test_kata_set_param_configures_the_engine_as_set_does():
    """``kata-set-param NAME V`` after the start and ``--set NAME=V`` at the start (the
    engine's ``settings``) give one configuration: the same search (its tree, grown with an
    expansion threshold no leaf reaches, holds the root and its children only) and the same
    pass check, whose search keeps the threads and the settings."""
    by_set = Session(size=9, komi=7.0, seed=1, playouts=300, settings={"expand_after": 10 ** 6})
    by_gtp = Session(size=9, komi=7.0, seed=1, playouts=300)
    by_gtp.send("kata-set-param expand_after 1000000")
    assert by_gtp.engine.game.config == by_set.engine.game.config
    assert by_gtp.send("genmove b") == by_set.send("genmove b")
    for session in (by_set, by_gtp):
        assert session.engine.game.search.trees[0].used == 1 + 81 + 1   # the root, its moves, pass
        session.send("kata-set-param numSearchThreads 2")
        check = session.engine.game.player.pass_search.config
        assert check.threads == 2 and check.settings == {"expand_after": 10 ** 6}
    assert by_gtp.engine.game.config == by_set.engine.game.config


def test_kata_get_rules_names_area_scoring_and_positional_superko():
    rules = json.loads(Session(size=9, komi=7.0, seed=1).send("kata-get-rules"))
    assert rules["scoring"] == "AREA" and rules["ko"] == "POSITIONAL"
    assert rules["suicide"] is False and rules["tax"] == "NONE"
    assert rules["whiteHandicapBonus"] == "N"      # Chinese rules, mcgo's default, as KataGo's


# ---------------------------------------------------------------- pondering
def test_pondering_answers_at_once_and_the_next_move_reuses_it():
    playouts = 200
    engine, out = engine_on(playouts=playouts, ponder=True)
    sender = _Sender(engine, out)
    sender.send("genmove b")
    time.sleep(1.0)                              # the opponent thinks; mcgo ponders
    start = time.monotonic()
    tree = sender.send("mcgo-tree 1")            # stops the pondering, shows its tree
    assert time.monotonic() - start < 1.0
    reply, visits = re.match(r"(\S+): \S+ \(\S+ / (\d+(?:\.\d+)?)\)", tree).groups()
    pondered = float(visits)
    assert pondered > 5 * playouts               # it searched the opponent's replies
    sender.send(f"play w {reply.rstrip(':')}")
    engine.ponder = False                        # keep the genmove's own result to look at
    sender.send("genmove b")
    result = engine.game.search.last_result
    assert result.simulations < 2 * playouts
    # The root starts with the pondered visits of the opponent's move, then adds its own.
    assert result.root_visits >= 0.9 * pondered + playouts


def test_ponder_goes_on_while_the_position_stays_and_ends_at_stop_or_a_new_move():
    engine, out = engine_on(playouts=100, ponder=True)
    sender = _Sender(engine, out)
    sender.send("genmove b")
    assert engine._analysis is not None          # pondering
    sender.send("time_left b 10 0")              # the position stays: it ponders on
    assert engine._analysis is not None
    sender.send("stop")                          # KataGo's stop: no more pondering
    assert engine._analysis is None
    sender.send("genmove w")
    assert engine._analysis is not None
    sender.send("play b pass")                   # the game moved on
    assert engine._analysis is None
    sender.send("undo")                          # back to the pondered position: not again
    assert engine._analysis is None


class Lines:
    """The lines of a process's output, read by a thread (a pipe's buffering hides lines
    from ``select``)."""

    def __init__(self, stream):
        self.queue = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in iter(stream.readline, ""):
            self.queue.put(line)
        self.queue.put("")

    def line(self, deadline):
        try:
            line = self.queue.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            pytest.fail("no output in time")
        assert line, "the engine closed its output"
        return line

    def answer(self, deadline):
        """One GTP answer (its lines up to the empty line), stripped."""
        lines = [self.line(deadline)]
        while lines[-1] != "\n":
            lines.append(self.line(deadline))
        return "".join(lines).strip()


def test_mcgo_gtp_ponder_flag_and_kata_analyze_over_a_pipe():
    proc = subprocess.Popen([sys.executable, "-m", "mcgo", "gtp", "--ponder", "--playouts",
                             "200", "--quiet"], cwd=ROOT, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        output = Lines(proc.stdout)

        def send(command, timeout=STARTUP_TIMEOUT):
            proc.stdin.write(command + "\n")
            proc.stdin.flush()
            return output.answer(time.monotonic() + timeout)

        assert send("boardsize 9") == "="
        assert re.fullmatch(r"= [A-HJ]\d", send("genmove b"))
        time.sleep(1.0)
        start = time.monotonic()
        tree = send("2 mcgo-tree 1", timeout=5.0)
        assert time.monotonic() - start < 1.0    # the pondering stopped at once
        visits = float(re.search(r"/ (\d+(?:\.\d+)?)\)", tree).group(1))
        assert visits > 1000                     # it pondered: far beyond the 200 playouts
        # kata-analyze streams until the next command; its answer ends before the next one.
        proc.stdin.write("3 kata-analyze w 5 ownership true\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        assert output.line(deadline) == "=3\n"
        lines = [output.line(deadline), output.line(deadline)]
        proc.stdin.write("4 name\n")
        proc.stdin.flush()
        while lines[-1] != "\n":                 # lines written before it stopped, then ""
            lines.append(output.line(deadline))
        assert output.answer(deadline) == "=4 mcgo"
        for line in lines[:-1]:
            groups = parse_kata_line(line, 9)
            assert len(dict(groups)["ownership"]) == 81
        assert send("quit") == "="
        proc.wait(timeout=10)
    finally:
        proc.kill()
        proc.wait()


# ---------------------------------------------------------------- @sabaki/gtp
@pytest.fixture(scope="module")
def sabaki_gtp():
    """(node, NODE_PATH) with ``@sabaki/gtp`` (:func:`conftest.sabaki_package`)."""
    return sabaki_package("gtp")


def test_sabaki_gtp_controller_reads_kata_analyze(sabaki_gtp):
    node, modules = sabaki_gtp
    env = dict(os.environ, NODE_PATH=modules)
    done = subprocess.run([node, str(JS_DIR / "kata_analyze.js"), sys.executable, "--playouts",
                           "2000", "--quiet"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=STARTUP_TIMEOUT)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    # The controller took the analysis as one successful answer, ended by the empty line,
    # and the command that stopped it got its own answer.
    assert report["analysis"]["error"] is False
    assert report["name"] == {"id": None, "content": "mcgo", "error": False}
    assert len(report["lines"]) >= 2
    assert report["analysis"]["content"].split("\n")[:2] == report["lines"][:2]
    for line in report["lines"]:
        groups = parse_kata_line(line, 9)
        check_info_groups(groups, mcgo.Board(9), mcgo.BLACK, 9)
        assert len(dict(groups)["ownership"]) == 81
    # kata-genmove_analyze: info lines, then the move, in one answer.
    genmove = report["genmove"]
    assert genmove["error"] is False
    *infos, play = genmove["content"].split("\n")
    assert re.fullmatch(r"play (?:pass|[A-HJ-T]\d)", play)
    for line in infos:
        check_info_groups(parse_kata_line(line, 9), mcgo.Board(9), mcgo.WHITE, 9)
