"""``mcgo analysis`` against KataGo's analysis engine protocol (lightvector/KataGo,
docs/Analysis_Engine.md): the engine runs as a subprocess on KataGo's own command line
(``analysis -model M -config C -override-config ...``), reads one JSON query a line and
answers one JSON line per analysed turn.

What the document fixes and is checked here: the answer's fields and their types
(``id, turnNumber, isDuringSearch, moveInfos[{move, order, visits, winrate, scoreLead,
scoreMean, scoreSelfplay, utility, prior, lcb, pv}], rootInfo{winrate, scoreLead,
scoreSelfplay, utility, visits}, ownership, policy``), the orders of ``ownership`` and
``policy`` (row by row from the top left, pass last, -1 on illegal points, the rest summing
to 1), ``analyzeTurns`` (default: the last position), ``avoidMoves`` and ``allowMoves``,
``reportAnalysisWinratesAs``, ``priority``, the actions ``query_version``, ``clear_cache``,
``terminate`` (``noResults`` for a turn never started, the partial result of a running one)
and ``terminate_all``, and the error answers: ``{"error"}`` for a line that is not JSON,
``{"id", "error", "field"}`` for a bad field, ``{"id", "warning", "field"}`` for one not
used; the engine answers the other queries all the same.
"""

import math
import pathlib

import pytest
from sgfmill import boards

from analysis_client import AnalysisClient

VISITS = 60
NUMBER = (int, float)


def query(qid, moves=(), size=9, **fields):
    q = {"id": qid, "moves": [list(m) for m in moves], "rules": "chinese", "komi": 7,
         "boardXSize": size, "boardYSize": size, "maxVisits": VISITS}
    q.update(fields)
    return q


@pytest.fixture(scope="module")
def katago_config(tmp_path_factory):
    """A config file as KataGo's analysis configs write them (KaTrain ships one like it)."""
    path = tmp_path_factory.mktemp("katago") / "analysis.cfg"
    path.write_text("# KataGo analysis config\nlogDir = analysis_logs\n"
                    "reportAnalysisWinratesAs = BLACK   # BLACK, WHITE or SIDETOMOVE\n"
                    "maxVisits = 500\nnumAnalysisThreads = 12\nnnCacheSizePowerOfTwo = 20\n")
    return path


@pytest.fixture(scope="module")
def engine(katago_config, tmp_path_factory):
    model = tmp_path_factory.mktemp("model") / "net.bin.gz"
    model.write_bytes(b"not read")
    client = AnalysisClient("-model", str(model), "-config", str(katago_config),
                            "-override-config", "homeDataDir=/tmp/x,nnMaxBatchSize=8",
                            "-analysis-threads", "2")
    yield client
    assert client.close() == 0


@pytest.fixture()
def serial():
    """One position at a time: the order of the answers shows the queue's order."""
    client = AnalysisClient("-analysis-threads", "1")
    yield client
    client.close()


def final(answers, qid, turn=None):
    found = [a for a in answers if a.get("id") == qid and a.get("isDuringSearch") is False
             and (turn is None or a["turnNumber"] == turn)]
    assert len(found) == 1, answers
    return found[0]


# ------------------------------------------------------------------ fields
def check_answer(a, size, to_move):
    assert isinstance(a["id"], str) and isinstance(a["turnNumber"], int)
    assert a["isDuringSearch"] is False
    root = a["rootInfo"]
    for key in ("winrate", "scoreLead", "scoreSelfplay", "utility"):
        assert isinstance(root[key], NUMBER) and math.isfinite(root[key])
    assert 0 <= root["winrate"] <= 1 and -1 <= root["utility"] <= 1
    assert isinstance(root["visits"], int) and root["visits"] >= VISITS
    assert root["currentPlayer"] == to_move
    assert abs(root["scoreLead"]) <= size * size + 10
    infos = a["moveInfos"]
    assert infos and [m["order"] for m in infos] == list(range(len(infos)))
    assert sum(m["visits"] for m in infos) <= root["visits"]
    for m in infos:
        assert isinstance(m["move"], str) and m["pv"][0] == m["move"]
        assert all(isinstance(v, str) for v in m["pv"])
        assert isinstance(m["visits"], int) and m["visits"] > 0
        for key in ("winrate", "lcb", "prior", "utility", "scoreLead", "scoreMean",
                    "scoreSelfplay"):
            assert isinstance(m[key], NUMBER) and math.isfinite(m[key]), key
        assert 0 <= m["winrate"] <= 1 and 0 <= m["prior"] <= 1
        assert m["scoreMean"] == m["scoreLead"]


def test_answer_fields_turns_ownership_policy(engine):
    moves = [("B", "E5"), ("W", "C3"), ("B", "G7")]
    engine.send(query("fields", moves, analyzeTurns=[0, 1, 3], includeOwnership=True,
                      includeOwnershipStdev=True, includePolicy=True, includePVVisits=True,
                      analysisPVLen=3, includeMovesOwnership=True))
    answers = engine.collect(lambda a: sum(x.get("id") == "fields" and "warning" not in x
                                           for x in a) >= 3)
    assert not [a for a in answers if "warning" in a]
    answers = [a for a in answers if "warning" not in a]
    assert {a["turnNumber"] for a in answers} == {0, 1, 3}
    for a in answers:
        turn = a["turnNumber"]
        check_answer(a, 9, "B" if turn % 2 == 0 else "W")
        assert len(a["ownership"]) == 81 and all(-1 <= v <= 1 for v in a["ownership"])
        for owner, stdev in zip(a["ownership"], a["ownershipStdev"]):
            assert math.isclose(stdev, math.sqrt(1 - owner * owner), abs_tol=1e-9)
        # includeMovesOwnership: each move's own map, from Black's side as the root's; on
        # a nearly empty board the stone just played ends the playouts after it on its
        # side's ground.
        mover = 1 if turn % 2 == 0 else -1
        for m in a["moveInfos"]:
            assert len(m["ownership"]) == 81 and all(-1 <= v <= 1 for v in m["ownership"])
        best = a["moveInfos"][0]
        if best["move"] != "pass":
            row, col = 9 - int(best["move"][1:]), "ABCDEFGHJ".index(best["move"][0])
            assert mover * best["ownership"][row * 9 + col] > 0, best
        for m in a["moveInfos"]:
            assert 1 <= len(m["pv"]) <= 3 and len(m["pvVisits"]) == len(m["pv"])
            assert m["pvVisits"][0] == m["visits"]
            assert m["pvVisits"] == sorted(m["pvVisits"], reverse=True)
        policy = a["policy"]
        assert len(policy) == 82
        assert math.isclose(sum(v for v in policy if v >= 0), 1.0, abs_tol=1e-6)
        played = {v for _, v in moves[:turn]}
        for vertex in ("E5", "C3", "G7"):
            row, col = 9 - int(vertex[1:]), "ABCDEFGHJ".index(vertex[0])
            assert (policy[row * 9 + col] == -1) == (vertex in played)   # A9 first
        assert policy[-1] > 0                                             # pass, last
        for m in a["moveInfos"]:
            if m["move"] != "pass":
                row, col = 9 - int(m["move"][1:]), "ABCDEFGHJ".index(m["move"][0])
                assert math.isclose(m["prior"], policy[row * 9 + col])


SETTLED_5X5 = ["XXXOO",
               "X.XO.",
               "XXXOO",
               "X.XO.",
               "XXXOO"]


def test_scores_come_from_the_playouts(engine):
    """The root's scoreLead is the mean final margin of the search's playouts and each
    move's is that of its own playouts, so the moves' scores weighted by their visits give
    the root's (a fresh tree: every playout went through one root move)."""
    engine.send({"id": "cc", "action": "clear_cache"})
    assert engine.next() == {"id": "cc", "action": "clear_cache"}
    engine.send(query("weights", [("B", "E5"), ("W", "E3")], maxVisits=400,
                      initialStones=[["B", "A1"]]))
    a = final(engine.finals(["weights"]), "weights")
    infos, root = a["moveInfos"], a["rootInfo"]
    assert sum(m["visits"] for m in infos) == root["visits"]
    weighted = sum(m["visits"] * m["scoreLead"] for m in infos) / root["visits"]
    assert math.isclose(weighted, root["scoreLead"], abs_tol=1e-6)
    assert len({round(m["scoreLead"], 6) for m in infos}) > 1       # the moves differ


def test_score_of_a_settled_position_is_its_count(engine):
    """A finished 5x5 position, both sides alive with two one-point eyes: every playout
    ends at the count, so every score is sgfmill's area score less komi (and its negative
    from white's side)."""
    board = boards.Board(5)
    stones = []
    for i, line in enumerate(SETTLED_5X5):
        for col, ch in enumerate(line):
            if ch != ".":
                board.play(4 - i, col, "b" if ch == "X" else "w")
                stones.append(["B" if ch == "X" else "W", "ABCDE"[col] + str(5 - i)])
    lead = board.area_score() - 0.5
    for side in ("BLACK", "WHITE"):
        engine.send(query(f"settled{side}", size=5, komi=0.5, initialStones=stones,
                          maxVisits=50, overrideSettings={"reportAnalysisWinratesAs": side}))
    answers = engine.finals(["settledBLACK", "settledWHITE"])
    for side, sign in (("BLACK", 1), ("WHITE", -1)):
        a = final(answers, f"settled{side}")
        assert a["rootInfo"]["scoreLead"] == sign * lead
        assert a["moveInfos"] and all(m["scoreLead"] == sign * lead for m in a["moveInfos"])


def test_default_turn_and_perspectives(engine):
    """Without analyzeTurns the last position; with a komi of -60 black wins nearly every
    playout: BLACK values say so, WHITE ones the opposite, and SIDETOMOVE ones too when
    white moves."""
    moves = [("B", "E5"), ("W", "C3"), ("B", "C7")]
    for side in ("BLACK", "WHITE", "SIDETOMOVE"):
        engine.send(query(side, moves, komi=-60, maxVisits=100,
                          overrideSettings={"reportAnalysisWinratesAs": side}))
    answers = engine.finals(["BLACK", "WHITE", "SIDETOMOVE"])
    black, white, mover = (final(answers, s) for s in ("BLACK", "WHITE", "SIDETOMOVE"))
    assert black["turnNumber"] == white["turnNumber"] == mover["turnNumber"] == 3
    assert black["rootInfo"]["winrate"] > 0.7 and black["rootInfo"]["scoreLead"] > 30
    for a in (white, mover):
        assert a["rootInfo"]["currentPlayer"] == "W"
        assert a["rootInfo"]["winrate"] < 0.3 and a["rootInfo"]["scoreLead"] < -30
    assert all(m["winrate"] > 0.5 and m["scoreLead"] > 0 for m in black["moveInfos"]
               if m["visits"] >= 10)
    assert all(m["winrate"] < 0.5 and m["scoreLead"] < 0 for m in white["moveInfos"]
               if m["visits"] >= 10)


def test_default_side_is_the_config_files(engine):
    """The config's reportAnalysisWinratesAs (BLACK, as in KataGo's and KaTrain's) holds
    when the query says nothing: white to move, black far ahead, black's values."""
    engine.send(query("cfg", [("B", "E5")], komi=-60, maxVisits=100))
    a = final(engine.finals(["cfg"]), "cfg")
    assert a["rootInfo"]["currentPlayer"] == "W" and a["rootInfo"]["winrate"] > 0.7


def test_avoid_and_allow_moves(engine):
    centre = [f"{c}{r}" for c in "CDEFG" for r in range(3, 8)]
    engine.send(query("avoid", avoidMoves=[{"player": "B", "moves": centre, "untilDepth": 1}],
                      maxVisits=150))
    engine.send(query("allow", allowMoves=[{"player": "B", "moves": ["A1", "J9"],
                                            "untilDepth": 1}]))
    answers = engine.finals(["avoid", "allow"])
    avoided = {m["move"] for m in final(answers, "avoid")["moveInfos"]}
    assert avoided and not avoided & set(centre)
    allowed = {m["move"] for m in final(answers, "allow")["moveInfos"]}
    assert allowed and allowed <= {"A1", "J9", "pass"} and allowed & {"A1", "J9"}


def test_rules_and_initial_position(engine):
    """KataGo's rules names and objects, initialStones and initialPlayer."""
    engine.send(query("jp", [("W", "C3")], rules="japanese", komi=6.5,
                      initialStones=[["B", "D4"], ["B", "F6"]], initialPlayer="W"))
    engine.send(query("obj", rules={"ko": "SIMPLE", "scoring": "TERRITORY", "tax": "NONE",
                                    "suicide": False, "hasButton": False,
                                    "whiteHandicapBonus": "0"}, includePolicy=True,
                      analyzeTurns=[0], initialStones=[["W", "E5"]], initialPlayer="W"))
    answers = engine.finals(["jp", "obj"])
    assert final(answers, "jp")["rootInfo"]["currentPlayer"] == "B"
    obj = final(answers, "obj")
    assert obj["rootInfo"]["currentPlayer"] == "W" and obj["policy"][4 * 9 + 4] == -1


# ------------------------------------------------------------------ actions
def test_query_version(engine):
    engine.send({"id": "ver", "action": "query_version"})
    a = engine.next()
    assert a["id"] == "ver" and a["action"] == "query_version"
    assert all(isinstance(a[k], str) for k in ("version", "git_hash"))
    assert [int(x) for x in a["version"].split(".")] >= [1, 6]


def test_terminate_queued_and_running(serial):
    """One worker: a long search runs (with reports during the search), another waits.
    Terminating the waiting one answers noResults at once; terminating the running one ends
    it with a final answer of what it found."""
    serial.send(query("long", maxVisits=10_000_000, reportDuringSearchEvery=0.2))
    serial.send(query("wait", [("B", "E5")], analyzeTurns=[0, 1]))
    during = serial.collect(lambda a: any(x.get("isDuringSearch") for x in a))
    assert during[-1]["id"] == "long" and during[-1]["rootInfo"]["visits"] > 0
    serial.send({"id": "t1", "action": "terminate", "terminateId": "wait", "turnNumbers": [1]})
    got = serial.collect(lambda a: any(x.get("noResults") for x in a))
    assert {"id": "t1", "action": "terminate", "terminateId": "wait",
            "turnNumbers": [1]} in got
    assert [x for x in got if x.get("noResults")] == [
        {"id": "wait", "isDuringSearch": False, "noResults": True, "turnNumber": 1}]
    serial.send({"id": "t2", "action": "terminate", "terminateId": "long"})
    answers = serial.finals(["long", "wait"])
    stopped = final(answers, "long")
    assert 0 < stopped["rootInfo"]["visits"] < 10_000_000 and stopped["moveInfos"]
    assert final(answers, "wait", 0)["rootInfo"]["visits"] >= VISITS   # the turn not terminated


def test_terminate_all_and_priority(serial):
    """Queued queries run highest priority first; terminate_all stops everything."""
    serial.send(query("blocker", maxVisits=10_000_000, reportDuringSearchEvery=0.2))
    serial.collect(lambda a: any(x.get("isDuringSearch") for x in a))
    serial.send(query("low", priority=1))
    serial.send(query("high", priority=5))
    serial.send({"id": "stop", "action": "terminate", "terminateId": "blocker"})
    answers = serial.finals(["blocker", "low", "high"])
    order = [a["id"] for a in answers if a.get("isDuringSearch") is False]
    assert order.index("high") < order.index("low")
    serial.send(query("a", maxVisits=10_000_000))
    serial.send(query("b", maxVisits=10_000_000))
    serial.send({"id": "all", "action": "terminate_all"})
    answers = serial.finals(["a", "b"], timeout=60)
    assert final(answers, "b").get("noResults") is True


# ------------------------------------------------------------------ errors
def test_errors_per_id_while_others_go_on(engine):
    engine.send(query("ok1"))
    engine.send(query("illegal", [("B", "E5"), ("W", "E5")]))
    engine.send(query("oblong", boardXSize=9, boardYSize=13))
    engine.send(query("huge", size=30))
    engine.send('{"id": "broken", "moves": [')
    engine.send(query("badvisits", maxVisits="many"))
    engine.send(query("badturn", analyzeTurns=[5]))
    engine.send({"id": "norules", "moves": [], "boardXSize": 9, "boardYSize": 9})
    engine.send(query("unknown", rootPolicyTemperature=1.5, someField=1))
    engine.send(query("ok2", [("B", "D4")]))
    answers = engine.finals(["ok1", "illegal", "oblong", "huge", "badvisits", "badturn",
                             "norules", "unknown", "ok2"])
    errors = {a.get("id"): a for a in answers if "error" in a}
    assert "Illegal move" in errors["illegal"]["error"] and errors["illegal"]["field"] == "moves"
    assert errors["oblong"]["field"] == "boardYSize"
    assert errors["huge"]["field"] == "boardXSize"
    assert errors["badvisits"]["field"] == "maxVisits"
    assert errors["badturn"]["field"] == "analyzeTurns"
    assert errors["norules"]["field"] == "rules"
    assert set(errors[None]) == {"error"}                  # the line that is not JSON
    warnings = {a["field"] for a in answers if a.get("id") == "unknown" and "warning" in a}
    assert warnings == {"rootPolicyTemperature", "someField"}
    for qid in ("ok1", "ok2", "unknown"):
        assert final(answers, qid)["moveInfos"]


def test_twenty_queries_in_flight(engine):
    ids = [f"many{i}" for i in range(20)]
    for i, qid in enumerate(ids):
        engine.send(query(qid, [("B", "E5"), ("W", "C3")][:i % 3], maxVisits=30,
                          priority=i % 4))
    answers = engine.finals(ids)
    for qid in ids:
        assert final(answers, qid)["rootInfo"]["visits"] >= 30


def test_stderr_never_says_error(engine):
    """KaTrain shows every stderr line with the word "error" as a failure: the notes on
    the unused overrides and network say what they are without it."""
    engine.send({"id": "ping", "action": "query_version"})
    engine.collect(lambda a: any(x.get("id") == "ping" for x in a))
    text = "\n".join(engine.stderr)
    assert "homeDataDir" in text and "nnMaxBatchSize" in text and "ready" in text
    assert "error" not in text.lower()


def test_engine_ends_with_the_shell_that_started_it(tmp_path):
    """KaTrain stops a custom command by ending its shell: the engine, whose stdin stays
    open, must end too rather than run on (KaTrain waits for its output to close)."""
    import os
    import subprocess
    import sys
    import time
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shell = subprocess.Popen(["sh", "-c", f"{sys.executable} -m mcgo analysis; true"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL,
                             env=dict(os.environ, PYTHONPATH=root))
    children = pathlib.Path(f"/proc/{shell.pid}/task/{shell.pid}/children")
    end = time.monotonic() + 30
    while not children.read_text().split():
        assert time.monotonic() < end
        time.sleep(0.05)
    engine = int(children.read_text().split()[0])
    shell.stdin.write(b'{"id": "v", "action": "query_version"}\n')
    shell.stdin.flush()
    assert b"query_version" in shell.stdout.readline()      # the engine is serving
    shell.terminate()
    shell.wait()
    while pathlib.Path(f"/proc/{engine}").exists() and \
            "zombie" not in pathlib.Path(f"/proc/{engine}/status").read_text():
        assert time.monotonic() < end + 10, "the engine ran on after its shell ended"
        time.sleep(0.1)
    shell.stdin.close()


def test_end_of_input_finishes_the_queue_unless_told_not_to_wait():
    """At the end of stdin the queued queries are answered, then the engine exits; with
    -quit-without-waiting they end at once (a running one with what it found)."""
    for flags, visits in (((), 40), (("-quit-without-waiting",), 10_000_000)):
        client = AnalysisClient("-analysis-threads", "1", *flags)
        client.send(query("first", maxVisits=visits, reportDuringSearchEvery=0.1))
        client.send(query("second", [("B", "E5")], maxVisits=visits))
        if flags:
            client.collect(lambda a: any(x.get("isDuringSearch") for x in a))
        assert client.close(timeout=60) == 0
        answers = []
        while not client.answers.empty():
            answers.append(client.answers.get())
        first, second = final(answers, "first"), final(answers, "second")
        assert first["rootInfo"]["visits"] >= 40 if not flags else first["moveInfos"]
        assert second.get("noResults") is (True if flags else None)


def test_max_visits_counts_the_root_as_katago_does(serial):
    """maxVisits limits the root's visits: a position following the one searched before
    keeps that tree (the move's visits), and the search adds only what is left."""
    serial.send(query("before", [("B", "E5")], maxVisits=200))
    before = final(serial.finals(["before"]), "before")
    top = before["moveInfos"][0]
    assert before["rootInfo"]["visits"] == 200 and top["visits"] > 1
    serial.send(query("after", [("B", "E5"), ("W", top["move"])], maxVisits=200))
    after = final(serial.finals(["after"]), "after")
    assert after["rootInfo"]["visits"] == 200


KO_STONES = [["B", "A2"], ["B", "B3"], ["B", "B1"], ["W", "B2"], ["W", "C3"], ["W", "D2"],
             ["W", "C1"]]


def test_a_ko_retake_is_an_illegal_move_and_after_a_threat_it_is_not(engine):
    """Black takes the ko at C2; white's retake at once is illegal (error for that id),
    after an exchange elsewhere it is a move like any other."""
    engine.send(query("ko", [("B", "C2"), ("W", "B2")], size=5, initialStones=KO_STONES))
    engine.send(query("threat", [("B", "C2"), ("W", "E5"), ("B", "E4"), ("W", "B2")], size=5,
                      initialStones=KO_STONES, includePolicy=True))
    answers = engine.finals(["ko", "threat"])
    error = [a for a in answers if a.get("id") == "ko"][0]
    assert error["field"] == "moves" and error["error"].startswith("Illegal move 1: W B2")
    after = final(answers, "threat")
    assert after["rootInfo"]["currentPlayer"] == "B"
    assert after["policy"][3 * 5 + 2] == -1            # C2 taken back: black may not retake
