"""Territory scoring (Japanese and Korean rules): the score, the GTP commands that choose
the rules, and the endgame play they call for.

References: GNU Go 3.8's own count under ``--japanese-rules``, and Fuego's regression suite
``cleanup_japanese_rules.tst``: its expected scores at the end of two famous 9x9 examples
(Yamato's and Aja Huang's, where each move inside one's own territory turns the result), and
its expected moves where territory counting calls for another move than area counting.
"""

import json
import os
import re

import pytest

import references
from helpers import Session, fails, load_rows
from mcgo.gtp.controller import GtpEngine
from mcgo.engine.recipe import Recipe
from test_gtp import FINISHED

CLEANUP = references.reference_path(references.FUEGO_REGRESSION) / "cleanup_japanese_rules.tst"
FINAL_MOVES = "sgf/final_moves/"


def cleanup_cases():
    """The Yamato and Aja examples of Fuego's ``cleanup_japanese_rules.tst``: (sgf path,
    move number, colour to move, expected final_score regex, expected genmove regex)."""
    cases, loaded, move = [], None, None
    lines = iter(CLEANUP.read_text().splitlines())
    for line in lines:
        words = line.split()
        if words[:1] == ["loadsgf"]:
            loaded = (words[1], int(words[2])) if words[1].startswith(FINAL_MOVES) else None
        elif loaded and len(words) == 3 and words[1] == "reg_genmove":
            color, move = words[2], next(lines).split()[1]
        elif loaded and words[1:] == ["final_score"]:
            score = next(lines).split()[1]
            cases.append((*loaded, color, score, move))
    return cases


# The cases are read at collection. Where the suite is absent one placeholder stands for them:
# its tests ask for the fuego_regression_dir fixture, which skips them (fails under CI) first.
ABSENT = [pytest.param("absent", 0, "b", "[]", "[]", id="fuego-regression-absent")]
CASES = cleanup_cases() if CLEANUP.is_file() else ABSENT


def test_the_suite_has_both_examples(fuego_regression_dir):
    assert len(CASES) == 12
    assert {os.path.basename(c[0]) for c in CASES} == {"yamato-example2.sgf", "aja-example.sgf"}


def japanese(**options):
    options.setdefault("seed", 1)
    session = Session(size=9, komi=6.5, **options)
    session.send("kgs-rules japanese")
    return session


def expected(regex_text):
    """Fuego's ``#? [...]`` answer as a regex (a trailing ``*`` marks a known failure)."""
    return re.compile(regex_text.rstrip("*")[1:-1], re.IGNORECASE)


@pytest.mark.parametrize("sgf, number, color, score, move", CASES)
def test_final_score_counts_territory_as_fuego_expects(fuego_regression_dir, sgf, number, color,
                                                       score, move):
    session = japanese()
    session.send(f"loadsgf {fuego_regression_dir / sgf} {number}")
    assert expected(score).fullmatch(session.send("final_score"))


def test_area_rules_score_the_same_positions_by_area(fuego_regression_dir):
    """Under Chinese rules a move inside one's own territory changes nothing: where no stone
    is dead, the score is sgfmill's area count of the same position, whoever played last."""
    from sgfmill import sgf as sgfmill_sgf, sgf_moves
    session = Session(size=9, komi=6.5, seed=1)
    for sgf, number, *_ in CASES:
        path = fuego_regression_dir / sgf
        session.send(f"loadsgf {path} {number}")
        game = sgfmill_sgf.Sgf_game.from_bytes(open(path, "rb").read())
        board, plays = sgf_moves.get_setup_and_moves(game)
        for colour, move in plays[:number - 1]:
            board.play(*move, colour)
        if session.send("final_status_list dead"):
            continue      # sgfmill counts every stone alive (Tromp-Taylor)
        margin = board.area_score() - game.get_komi()
        assert session.send("final_score") == f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"


# Fuego's tests 10, 150 and 160 of cleanup_japanese_rules.tst, which Fuego itself fails
# (starred): (sgf, move number, colour, Fuego's expected answer). Under area rules mcgo passes
# in the first (a point inside its own territory is free there) and the third (white has
# just passed; "passing as in the game loses by 0.5"), and plays H2 in the second.
TERRITORY_MOVES = [("sgf/games/2010/LittleGolem/1173624.sgf", 48, "w", "[A1]*"),
                   ("sgf/games/2012/KGS/Charles60-FuegoBot.sgf", 43, "b", "[B8]*"),
                   ("sgf/games/2012/KGS/Charles60-FuegoBot.sgf", 45, "b", "[B8]*")]


SEEDS = range(1, 10)
# The engine of --model auto without the policy net, its settings as the recipe chooses them.
AUTO_MODEL = Recipe(model="auto", policy_net="none")


@pytest.mark.parametrize("sgf, number, color, move", TERRITORY_MOVES)
def test_territory_rules_choose_fuegos_move(fuego_regression_dir, sgf, number, color, move):
    """The last points under territory scoring, where each stone placed counts: the engine
    as ``mcgo gtp`` makes it, with the shipped move model's priors, chooses Fuego's move under
    most of nine seeds. One seed's answer is not the measure: in the first position the moves
    are within 0.03 of each other and a search can settle on another early (seed 1 plays J5
    with the 9x9 model of our own games, seed 6 with the goban games' model; 9 of 12 seeds play
    A1 with either)."""
    session = japanese(playouts=5000, resign=0, search=AUTO_MODEL.search_config())
    answers = []
    for seed in SEEDS:
        session.send(f"set_random_seed {seed}")
        session.send(f"loadsgf {fuego_regression_dir / sgf} {number}")
        answers.append(session.send(f"genmove {color}"))
    assert sum(bool(expected(move).fullmatch(a)) for a in answers) > len(SEEDS) / 2, answers


# The Yamato and Aja Huang examples where nothing dead stands inside a territory (Aja's: each
# side fills its own; Yamato's after move 20, the position its comment describes): Fuego
# expects a pass, since every move there costs a point (starred: Fuego fails them itself).
# Every empty region is one side's, so the tree tries the pass like any other move.
# Aja's example, Yamato's at move 21 (the borders just drawn) and at 24, with one dead black
# invader inside white's territory (geometry.has_open_region's invaders).
CLOSED_CASES = ([case for case in CASES if "aja" in case[0] or case[1] in (21, 24)]
                if CASES is not ABSENT else ABSENT)


@pytest.mark.parametrize("sgf, number, color, score, move", CLOSED_CASES)
def test_closed_territories_are_passed_as_fuego_expects(fuego_regression_dir, sgf, number, color,
                                                        score, move):
    """At the simulations of the Fuego figures (10,000; at 5,000 seed 1 still plays C3 in
    the first position of each), with seeds 1-3. Without the pass's prior once every border
    is drawn (``PRIOR_CLOSED_PASS``) one seed in six lost a pass here (Aja's move 22 with
    seed 1, Yamato's 24 with seed 3): the pass's first playout was lost, and an invasion the
    playouts misread, looking even, took the visits."""
    auto = AUTO_MODEL.search_config()
    for seed in (1, 2, 3):
        session = japanese(playouts=10000, resign=0, search=auto, seed=seed)
        session.send(f"loadsgf {fuego_regression_dir / sgf} {number}")
        assert expected(score).fullmatch(session.send("final_score"))
        assert expected(move).fullmatch(session.send(f"genmove {color}")), seed


@pytest.fixture
def gnugo_japanese(gnugo_command):
    command = [w for w in gnugo_command if w != "--chinese-rules"] + ["--japanese-rules"]
    with GtpEngine(command) as engine:
        yield engine


# The dead white stone F3 taken off by four black moves inside black's own territory: under
# territory scoring they cost black four points and gain one prisoner.
CAPTURE_F3 = ["play b E3", "play w pass", "play b G3", "play w pass", "play b F4",
              "play w pass", "play b F2"]


@pytest.mark.parametrize("name, extra", [(name, []) for name in sorted(FINISHED)]
                         + [("dead stones", CAPTURE_F3)])
def test_territory_score_agrees_with_gnugo_japanese_rules(gnugo_japanese, name, extra):
    rows, komi = FINISHED[name]
    ours = japanese()
    for engine in (ours, gnugo_japanese):
        load_rows(engine, rows, komi)
        for command in extra:
            engine.send(command)
    assert ours.send("final_score") == gnugo_japanese.send("final_score").replace(".0", "")


def test_rules_commands():
    session = Session(size=9, komi=6.5, seed=1)
    assert json.loads(session.send("kata-get-rules"))["scoring"] == "AREA"
    for command in ("kgs-rules Japanese", "kata-set-rules korean", "go_rules japanese"):
        session.send("kgs-rules chinese")
        session.send(command)
        assert json.loads(session.send("kata-get-rules"))["scoring"] == "TERRITORY", command
        assert session.send("go_rules") == "japanese"
    for command in ("kgs-rules aga", "kata-set-rules tromp-taylor", "go_rules cgos",
                    "go_rules kgs"):
        session.send(command)
        assert json.loads(session.send("kata-get-rules"))["scoring"] == "AREA", command
    assert fails(session, "kgs-rules ing") == "unknown rules ing"
    assert fails(session, "kgs-rules") == "syntax error"
    assert json.loads(session.send("kata-get-rules"))["scoring"] == "AREA"   # unchanged
    session.send("kgs-rules japanese")
    session.send("boardsize 9")           # a new game keeps the rules
    assert json.loads(session.send("kata-get-rules"))["scoring"] == "TERRITORY"


def test_a_pass_that_wins_only_if_every_stone_counts_is_for_cgos_alone(fuego_regression_dir):
    """Fuego's ``uct_pass_basics.tst`` 10 and 20, as the file runs them: after white's pass,
    black's J8 stands dead in white's area. Counting every stone alive (CGOS, Tromp-Taylor)
    black wins by passing or by A1; under KGS rules, where the dead stones come off, only
    A1 wins."""
    from mcgo.match.regress import read_tst
    session = Session(size=9, playouts=3000, resign=0, seed=1)
    answers = {}
    for step in read_tst(fuego_regression_dir / "uct_pass_basics.tst"):
        if step.command.startswith("uct_param_player max_games"):
            continue                      # the simulations are the session's, as Fuego's 3000
        if step.test_id in (10, 20):
            answer = session.send(step.command)
            assert step.expectation.matches(answer), (step.test_id, answer)
            answers[step.test_id] = answer
        elif step.test_id is None:
            session.send(step.command)
        else:
            break
    assert answers[20] == "A1" and set(answers) == {10, 20}


def test_rules_on_the_command_line():
    import subprocess
    import sys
    assert Session(size=9, rules="japanese").send("go_rules") == "japanese"
    with pytest.raises(ValueError, match="unknown rules"):
        Session(size=9, rules="ing")
    proc = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--rules", "ing"],
                          input=b"", capture_output=True, timeout=120)
    assert proc.returncode == 2 and b"--rules" in proc.stderr


def test_printsgf_names_territory_rules_for_sgfmill():
    from sgfmill import sgf as sgfmill_sgf
    session = japanese()
    session.send("play b E5")
    game = sgfmill_sgf.Sgf_game.from_string(session.send("printsgf"))
    assert game.get_root().get("RU") == "Japanese"
    session.send("kgs-rules chinese")
    game = sgfmill_sgf.Sgf_game.from_string(session.send("printsgf"))
    assert not game.get_root().has_property("RU")


def test_fuego_go_param_rules():
    session = Session(size=9, komi=6.5, seed=1)
    assert session.send("go_param_rules") == "capture_dead 0\njapanese_scoring 0"
    session.send("go_param_rules japanese_scoring 1")
    assert json.loads(session.send("kata-get-rules"))["scoring"] == "TERRITORY"
    session.send("go_param_rules capture_dead 1")
    assert session.send("go_param_rules") == "capture_dead 1\njapanese_scoring 1"
    assert fails(session, "go_param_rules ko_rule simple") == "unknown parameter ko_rule"
    assert fails(session, "go_param_rules capture_dead yes") == "capture_dead must be 0 or 1"
    assert fails(session, "go_param_rules capture_dead") == "syntax error"


def test_settled_game_under_territory_scoring_is_passed_out_as_fuego_expects(fuego_regression_dir):
    """Fuego's ``simpleplayers.tst`` 2000-2002 (``test-pass.sgf``): under Japanese scoring
    with every chain settled, both sides pass, the winner leaving the dead stones in its
    territory and the loser placing no stone that could only lose a point more; once dead
    stones must be captured (``capture_dead 1``), the winner does not pass."""
    session = Session(size=9, komi=7.5, playouts=10000, resign=0, seed=1)
    session.send(f"loadsgf {fuego_regression_dir / 'sgf/simpleplayers/test-pass.sgf'}")
    session.send("go_param_rules japanese_scoring 1")
    session.send("go_param_rules capture_dead 0")
    assert session.send("reg_genmove white") == "pass"
    assert session.send("reg_genmove black") == "pass"
    session.send("go_param_rules capture_dead 1")
    assert session.send("reg_genmove black") != "pass"


def test_cleanup_takes_a_liberty_of_a_dead_chain_on_the_edge(fuego_regression_dir):
    """``kgs-genmove_cleanup`` where the dead chains stand on the edge (a neighbour off the
    board once made it fail): Fuego expects a move, not a pass (``simpleplayers.tst`` 2002);
    the white chain along the first line is dead, its liberties E1 and F1."""
    session = japanese(playouts=3000, resign=0)
    session.send(f"loadsgf {fuego_regression_dir / 'sgf/simpleplayers/test-pass.sgf'}")
    dead = session.send("final_status_list dead").split()
    assert {"A1", "B1", "C1", "D1"} <= set(dead)
    move = session.send("kgs-genmove_cleanup black")
    assert move != "pass"
