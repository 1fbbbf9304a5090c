"""The ladder reader (:mod:`mcgo.tactics.ladder`) against Fuego's ladder suite and GNU Go.

* Fuego's ``ladder.tst`` (its regression suites, under ``$MCGO_REFERENCE_DATA``) gives, for
  each chain, ``captured``, ``unsettled`` (whoever moves first wins) or ``escaped``. For a
  chain in atari with its owner to move, our "captured" must be Fuego's ``captured``; for a
  chain with two liberties, an atari that starts a working ladder must exist exactly when
  Fuego does not say ``escaped``.
* GNU Go 3.8's ``defend`` reads every chain in atari of real positions (Fuego's SGFs,
  professional games): where our reader says the chain dies in a ladder, GNU Go must find no
  defence (bar the rare ko, which the reader does not read).
* The priors use it: the escape from atari does not run out of a working ladder, and the
  atari that starts one on the last move's chain is found.
"""

import pytest

import mcgo
from mcgo.board import kernels as K
from mcgo.gtp.controller import GtpEngine
from mcgo.match.regress import read_tst
from mcgo.tactics import atari, ladder, liberties

import helpers
from test_tactics import chains, load_into_gnugo, positions_of, vertex

FUEGO_SAMPLE_STEP = 6          # every 6th SGF of Fuego's regression suites
PRO_GAMES = 10
PRO_MOVE_NUMBERS = (40, 80, 120, 160)
GNUGO_AGREEMENT = 0.95         # measured 0.99 on a sample three times larger
FUEGO_STATUS = {"captured", "unsettled", "escaped"}


def fuego_ladder_cases(fuego_regression_dir):
    """(test id, board, vertex, Fuego's status) for every ``go_ladder`` and
    ``go_static_ladder`` test of ladder.tst, the position set up as the suite says."""
    session = helpers.Session()
    cases = []
    for step in read_tst(fuego_regression_dir / "ladder.tst"):
        if step.test_id is None:
            if not step.command.startswith("go_param"):   # a Fuego setting: simple ko here too
                session.send(step.command)
            continue
        name, target = step.command.split()
        assert name in ("go_ladder", "go_static_ladder") and step.expectation.pattern in FUEGO_STATUS
        cases.append((step.test_id, session.engine.game.board.copy(), target, step.expectation.pattern))
    return cases


def working_ataris(board, space, point):
    """The ataris on the two-liberty chain at ``point`` that start a working ladder."""
    head = board.pts[K.HEAD, point]
    defender = board.pts[K.COLOR, head]
    found = []
    for atari in liberties.two_liberties(board.pts, board.size + 2, head):
        if board.legality(atari, 3 - defender) is None and ladder.atari_starts_ladder(
                board.pts, board.info, board.zob, space, point, atari, 3 - defender):
            found.append(atari)
    return found


def test_fuego_ladder_suite(fuego_regression_dir):
    cases = fuego_ladder_cases(fuego_regression_dir)
    assert len(cases) == 13
    kinds = set()
    for test_id, board, target, status in cases:
        point = board.point(target)
        before = board.pts.copy()
        space = ladder.new_ladder_space(board.size)
        libs = board.pts[K.LIBS, board.pts[K.HEAD, point]]
        if libs == 1:
            captured = ladder.ladder_captures(board.pts, board.info, board.zob, space, point)
            assert captured == (status == "captured"), test_id
        else:
            assert libs == 2, test_id
            assert bool(working_ataris(board, space, point)) == (status != "escaped"), test_id
        assert (board.pts == before).all()     # reading leaves the position as it was
        kinds.add((int(libs), status))
    assert kinds >= {(1, "captured"), (1, "unsettled"), (2, "unsettled"), (2, "escaped")}


@pytest.fixture(scope="module")
def sample_positions(fuego_regression_dir, goban_games_dir):
    found = []
    for path in sorted((fuego_regression_dir / "sgf").rglob("*.sgf"))[::FUEGO_SAMPLE_STEP]:
        found += positions_of(path, (None, 40, 80))
    games = sorted(goban_games_dir.glob("*.sgf"))
    for path in games[::len(games) // PRO_GAMES][:PRO_GAMES]:
        found += positions_of(path, PRO_MOVE_NUMBERS)
    return found


def test_reader_agrees_with_gnugo_defend(sample_positions, gnugo_command):
    """Where the reader says a chain dies in a ladder (in atari, its owner to move; or after an
    atari it finds), GNU Go's ``defend`` finds no defence either."""
    agree = disagree = 0
    color_name = {mcgo.BLACK: "black", mcgo.WHITE: "white"}
    with GtpEngine(gnugo_command) as gnugo:
        for name, board in sample_positions:
            space = ladder.new_ladder_space(board.size)
            claims = []        # (atari to play first or None, chain stone)
            for head, color, _ in chains(board):
                libs = board.pts[K.LIBS, head]
                if libs == 1 and ladder.ladder_captures(board.pts, board.info, board.zob, space, head):
                    claims.append((None, head))
                elif libs == 2:
                    claims += [(atari, head) for atari in working_ataris(board, space, head)]
            if not claims:
                continue
            load_into_gnugo(gnugo, board)
            for atari, head in claims:
                if atari is not None:
                    attacker = 3 - board.color_at(head)
                    gnugo.send(f"play {color_name[attacker]} {vertex(board, atari)}")
                answer = gnugo.send(f"defend {vertex(board, head)}").split()[0]
                if atari is not None:
                    gnugo.send("undo")
                agree += answer == "0"
                disagree += answer != "0"
    assert agree >= 100, (agree, disagree)
    assert agree / (agree + disagree) >= GNUGO_AGREEMENT, (agree, disagree)


# ------------------------------------------------------------------------- in the playouts
# White D5 with two liberties (D4, E5) between black C5, D6 and E4: an atari at either
# liberty starts a ladder that runs to the edge, unless a white stone stands in its way.
LADDER_ROWS = [".........",
               ".........",
               ".........",
               "...X.....",
               "..XO.....",
               "....X....",
               ".........",
               ".........",
               "........."]
BREAKERS = [None, "C3", "B3", "C2", "B4", "B2"]   # None: no breaker, the ladder works


def ladder_position(breaker):
    """LADDER_ROWS with a white stone at ``breaker`` (if any), black to move."""
    board = helpers.board_from_rows(LADDER_ROWS, to_move=mcgo.WHITE)
    board.play(breaker or "pass")
    return board


@pytest.mark.parametrize("breaker", BREAKERS)
def test_escape_from_atari_avoids_a_working_ladder_as_gnugo_reads_it(breaker, gnugo_command):
    """After black's atari at E5, white's capture-or-escape answer extends at D4 exactly when
    GNU Go's ``defend D5`` finds that defence, and proposes nothing when GNU Go says the chain
    cannot be saved."""
    board = ladder_position(breaker)
    board.play("E5")
    space = ladder.new_ladder_space(9)
    move = atari.capture_or_escape(board.pts, board.info, board.zob, space, board.point("E5"),
                                   mcgo.WHITE, True)
    with GtpEngine(gnugo_command) as gnugo:
        helpers.load_rows(gnugo, LADDER_ROWS, 0)
        if breaker:
            gnugo.send(f"play white {breaker}")
        gnugo.send("play black E5")
        answer = gnugo.send("defend D5").split()
    if answer[0] == "0":
        assert move == K.PASS
    else:
        assert mcgo.to_gtp(move, 9) == answer[1]
    assert (answer[0] == "0") == (breaker is None)     # the position holds both cases


@pytest.mark.parametrize("breaker", BREAKERS)
def test_ladder_attack_starts_a_working_ladder(breaker, gnugo_command):
    """White's last move D5 has two liberties: the reader's atari on it (the priors' ladder
    attack) starts a working ladder, and GNU Go then finds no defence; when the reader finds
    none, GNU Go defends D5 after either atari."""
    board = helpers.board_from_rows([row.replace("O", ".") for row in LADDER_ROWS],
                                    to_move=mcgo.WHITE)
    if breaker:
        board.play(breaker)
        board.play("pass")
    board.play("D5")                          # white's last move, black to play
    space = ladder.new_ladder_space(9)
    attack = ladder.ladder_attack(board.pts, board.info, board.zob, space, board.point("D5"),
                                  mcgo.BLACK)
    with GtpEngine(gnugo_command) as gnugo:
        def defended_after(move):
            helpers.load_rows(gnugo, LADDER_ROWS, 0)
            if breaker:
                gnugo.send(f"play white {breaker}")
            gnugo.send(f"play black {move}")
            return gnugo.send("defend D5").split()[0] != "0"
        if attack == K.PASS:
            assert defended_after("D4") and defended_after("E5")
        else:
            assert not defended_after(mcgo.to_gtp(attack, 9))


@pytest.mark.parametrize("breakers", [[], ["C3"], ["B2"], ["C3", "F6"], ["B3", "F7"], ["B2", "G6"]])
def test_ladder_threat_agrees_with_gnugo_attack(breakers, gnugo_command):
    """Black's last move C5 leaves white D5 with two liberties: the reader sees the threat
    exactly when GNU Go's ``attack D5`` finds a way to capture it (white stones on both
    ladder paths save it)."""
    board = helpers.board_from_rows([row.replace("X", ".", 1) if row == "..XO....." else row
                                     for row in LADDER_ROWS], to_move=mcgo.WHITE)
    for breaker in breakers:
        board.play(breaker)
        board.play("pass")
    board.play("pass")
    board.play("C5")
    head = board.pts[K.HEAD, board.point("D5")]
    threat = ladder.ladder_threat(board.pts, board.info, board.zob, ladder.new_ladder_space(9),
                                  board.point("C5"), mcgo.WHITE)
    with GtpEngine(gnugo_command) as gnugo:
        helpers.load_rows(gnugo, LADDER_ROWS, 0)
        for breaker in breakers:
            gnugo.send(f"play white {breaker}")
        attacked = gnugo.send("attack D5").split()[0] != "0"
    assert threat in (K.PASS, head)
    assert (threat == head) == attacked
    assert attacked == (len(breakers) < 2)      # the positions hold both cases
