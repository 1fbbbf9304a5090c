"""White's compensation for Black's handicap stones, by the rules, against GNU Go 3.8 and the
rules' texts.

GNU Go 3.8 counts a finished handicap game under ``--chinese-rules`` with N points for White
for N stones (area minus komi minus N), and without it by territory (no compensation: a
handicap stone is no point of territory), as the Chinese and Japanese rules say. The other
rule sets are checked against their texts, by the difference to GNU Go's Chinese count:
the AGA's rules give White N-1 points ("White receives one point for each handicap stone
after the first"), Tromp-Taylor, New Zealand and CGOS none; KataGo's ``whiteHandicapBonus``
(``0``, ``N``, ``N-1``) names the same three and counts N as KataGo does (Black's stones set
up, or Black's first moves before White's, when more than one).
"""

import json

import pytest

from helpers import Session, load_rows
from test_gtp import FINISHED
from mcgo.sgf.reading import read_game
from mcgo.sgf.replaying import replay
from mcgo.apps.analysis_query import QueryError, read_query
from mcgo.board.handicap import max_fixed
from mcgo.gtp.controller import GtpEngine, GtpFailure

POSITIONS = [(size, n) for size in (9, 13, 19) for n in range(2, max_fixed(size) + 1)]
# White's points for N stones beyond the Chinese rules' N, by the rules' texts.
BEYOND_CHINESE = {"aga": -1, "new_zealand": None, "tromp-taylor": None, "cgos": None,
                  "kgs": 0}


@pytest.fixture(scope="module")
def gnugo(gnugo_command):
    with GtpEngine(gnugo_command) as engine:
        yield engine


def referee(command, size, stones):
    """GNU Go's ``final_score`` of :func:`finished`, from a new GNU Go: 3.8 keeps the first
    ``set_free_handicap``'s number of stones for its count across ``clear_board``."""
    with GtpEngine(command) as engine:
        return finished(engine, size, stones)


def margin(result):
    """Black's margin of a ``final_score`` answer: ``B+3.5`` 3.5, ``W+2`` -2, ``0`` 0."""
    if result == "0":
        return 0.0
    return float(result[2:]) * (1 if result[0] == "B" else -1)


def settled_rows(size):
    """A finished game of ``size``: White's wall with eyes on the top half, Black's on the
    bottom, every point someone's, nothing to judge."""
    top = size // 2

    def row(r):
        color = "O" if r < top else "X"
        eyes = (r == 0 and color == "O") or (r == size - 1 and color == "X")
        return " ".join("." if eyes and c % 2 == 0 else color for c in range(size))

    return [row(r) for r in range(size)]


def finished(engine, size, stones, komi=0.5):
    """``final_score`` of a finished game whose first ``stones`` black stones (of the row
    next to White's wall) were a free handicap (``set_free_handicap``), both sides passed."""
    rows = settled_rows(size)
    given = [f"{'ABCDEFGHJKLMNOPQRST'[c]}{size - size // 2}" for c in range(stones)]
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"set_free_handicap {' '.join(given)}")
    skip = {f"play b {v}" for v in given} | {f"boardsize {size}", "clear_board"}
    load_rows(_Skip(engine, skip), rows, komi, passes=2)
    return engine.send("final_score")


@pytest.fixture(scope="module")
def ours():
    return Session(size=9, komi=0.5, seed=1)


@pytest.mark.gnugo
@pytest.mark.parametrize("size,stones", POSITIONS)
def test_chinese_and_japanese_counts_equal_gnugos(ours, gnugo_command, size, stones):
    japanese = [c for c in gnugo_command if c != "--chinese-rules"]
    for rules, command in (("chinese", gnugo_command), ("japanese", japanese)):
        ours.send(f"kgs-rules {rules}")
        assert finished(ours, size, stones) == referee(command, size, stones), rules


@pytest.mark.gnugo
@pytest.mark.parametrize("rules", sorted(BEYOND_CHINESE))
@pytest.mark.parametrize("size,stones", [(9, 2), (13, 5), (19, 9)])
def test_other_rule_sets_count_as_their_texts_say(ours, gnugo_command, rules, size, stones):
    ours.send(f"kgs-rules {rules}")
    beyond = BEYOND_CHINESE[rules]
    white_gets = stones + beyond if beyond is not None else 0
    chinese = margin(referee(gnugo_command, size, stones))   # komi and N taken
    assert margin(finished(ours, size, stones)) == chinese + stones - white_gets


@pytest.mark.gnugo
def test_free_handicap_with_dead_stones_counts_as_gnugo(ours, gnugo):
    """A finished game whose first black stones were a free handicap (``set_free_handicap``),
    with a dead stone of each colour: the count and the compensation both as GNU Go's."""
    rows = FINISHED["dead stones"][0]         # test_gtp's finished game with dead stones
    ours.send("kgs-rules chinese")
    answers = []
    for engine in (ours, gnugo):
        engine.send("boardsize 9")
        engine.send("clear_board")
        engine.send("set_free_handicap A1 B1 C1")
        load_rows(_Skip(engine, {"play b A1", "play b B1", "play b C1", "boardsize 9",
                                 "clear_board"}), rows, 0.5, passes=2)
        answers.append(engine.send("final_score"))
    assert answers[0] == answers[1].replace(".0", "")


class _Skip:
    """An engine that ignores the commands ``skip`` (stones already set up)."""

    def __init__(self, engine, skip):
        self.engine, self.skip = engine, skip

    def send(self, command):
        return "" if command in self.skip else self.engine.send(command)


def test_kata_rules_report_and_set_the_compensation(ours):
    ours.send("kgs-rules aga")
    assert json.loads(ours.send("kata-get-rules"))["whiteHandicapBonus"] == "N-1"
    ours.send("kata-set-rule whiteHandicapBonus 0")
    assert json.loads(ours.send("kata-get-rules"))["whiteHandicapBonus"] == "0"
    with pytest.raises(GtpFailure, match="unknown handicap bonus"):
        ours.send("kata-set-rule whiteHandicapBonus 2")
    with pytest.raises(GtpFailure, match="mcgo plays ko POSITIONAL"):
        ours.send("kata-set-rule ko SIMPLE")
    ours.send("kata-set-rule ko POSITIONAL")         # what it plays: accepted
    ours.send("kata-set-rules japanese")
    assert json.loads(ours.send("kata-get-rules"))["whiteHandicapBonus"] == "0"


def query(**fields):
    base = {"id": "h", "boardXSize": 19, "boardYSize": 19, "komi": 0.5, "moves": [],
            "rules": "chinese",
            "initialStones": [["B", p] for p in ("D4", "Q16", "D16", "Q4")]}
    return read_query(json.dumps({**base, **fields}))


@pytest.mark.parametrize("rules,bonus", [
    ("chinese", 4), ("chinese-ogs", 4), ("aga", 3), ("japanese", 0), ("tromp-taylor", 0),
    ("new zealand", 0), ({"scoring": "AREA", "whiteHandicapBonus": "N-1"}, 3),
    ({"scoring": "AREA"}, 0)])
def test_analysis_queries_count_the_handicap_as_katago(rules, bonus):
    """KataGo's table (its rules' ``whiteHandicapBonus``) and its count of the stones."""
    board = query(rules=rules).positions[0][1]
    assert board.handicap_bonus == bonus


def test_analysis_query_handicap_from_first_moves_and_override():
    moves = [["B", "D4"], ["B", "Q16"], ["B", "D16"], ["W", "Q4"], ["B", "K10"]]
    q = query(initialStones=[], moves=moves, analyzeTurns=[0, 5])
    assert [b.handicap_bonus for _, b in q.positions] == [3, 3]
    assert query(whiteHandicapBonus="0").positions[0][1].handicap_bonus == 0
    # Stones of both colours set up: a position, not a handicap (KataGo's rule).
    assert query(initialStones=[["B", "D4"], ["B", "Q16"], ["W", "K10"]]) \
        .positions[0][1].handicap_bonus == 0
    with pytest.raises(QueryError, match="whiteHandicapBonus"):
        query(whiteHandicapBonus="N+1")


def test_a_records_handicap_counts_by_its_rules():
    """sgfmill writes the record; the replayed board counts as RU says, and its result is the
    score GNU Go's Chinese count gives an empty board with the stones (area - komi - N)."""
    from sgfmill import sgf as sgfmill_sgf

    for ru, bonus in (("Chinese", 4), ("AGA", 3), ("Japanese", 0), ("NZ", 0), (None, 4)):
        game = sgfmill_sgf.Sgf_game(size=9)
        root = game.get_root()
        root.set("KM", 0.5)
        root.set("HA", 4)
        if ru:
            root.set("RU", ru)
        root.set_setup_stones([(2, 2), (6, 6), (2, 6), (6, 2)], [])
        board = replay(read_game(game.serialise()))
        assert board.handicap_bonus == bonus, ru
        assert board.score() == 81 - 0.5 - bonus


def test_a_loaded_records_handicap_counts_by_the_engines_rules(ours, tmp_path):
    """GTP ``loadsgf`` of a record with four handicap stones (sgfmill writes it): White's
    compensation is the engine's rules' (``kgs-rules``), not the record's RU, as GNU Go
    keeps its own rules; without HA the stones are a position (a problem's), no handicap."""
    from sgfmill import sgf as sgfmill_sgf

    for ha, rules, bonus in ((4, "aga", 3), (None, "chinese", 0), (4, "japanese", 0)):
        game = sgfmill_sgf.Sgf_game(size=9)
        root = game.get_root()
        root.set("KM", 0.5)
        root.set("RU", "Chinese")
        if ha:
            root.set("HA", ha)
        root.set_setup_stones([(2, 2), (6, 6), (2, 6), (6, 2)], [])
        path = tmp_path / "handicap.sgf"
        path.write_bytes(game.serialise())
        ours.send(f"kgs-rules {rules}")
        ours.send(f"loadsgf {path}")
        assert ours.engine.game.board.handicap_bonus == bonus, (ha, rules)
