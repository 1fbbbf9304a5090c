"""Levels (``--level``, ``kata-set-param level``): the weak levels' choice against KaTrain's
calibrated rank bots (KaTrain 1.20's own ``RankStrategy``, run here on a stand-in game), and
what a person of any rank does (no first-line move in the opening, no own eye filled).
The ranks the levels earn are measured by games (``benchmarks/RESULTS.md``), not here."""

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

import mcgo
from mcgo.board import coords
from mcgo.engine.levels import LEVEL_KYU, LevelPlayer, moves_seen, sure_thresholds

from helpers import Session, fails

katrain_ai = pytest.importorskip("katrain.core.ai", reason="KaTrain (pip install -e '.[katrain]')")


class StandIn:
    """What KaTrain's RankStrategy reads of its game: the board size and a log."""

    def __init__(self, size):
        self.board_size = (size, size)
        self.current_node = None
        self.engines = {}
        self.katrain = SimpleNamespace(log=lambda *args, **kwargs: None)


def katrain_rank(kyu, size):
    return katrain_ai.RankStrategy(StandIn(size), {"kyu_rank": kyu})


class FakeMove:
    def __init__(self, passing=False):
        self.is_pass = passing


@pytest.mark.parametrize("kyu", sorted(set(LEVEL_KYU.values())))
@pytest.mark.parametrize("size,legal", [(19, 361), (19, 250), (19, 90), (13, 120), (9, 81),
                                        (9, 30)])
def test_moves_seen_and_thresholds_are_katrains(kyu, size, legal, monkeypatch):
    strategy = katrain_rank(kyu, size)
    moves = [(0.01, FakeMove())] * legal
    assert moves_seen(kyu, legal, size * size) == strategy.get_n_moves(moves)
    # KaTrain's overrides: the top move alone above the first, the top two above the second.
    top, pair = sure_thresholds(kyu, legal, size * size)
    seen = {}

    def record(self, policy_moves, top_5_pass, override=0.0, overridetwo=1.0):
        seen.update(top=override, pair=overridetwo)
        return None, ""

    monkeypatch.setattr(katrain_ai.AIStrategy, "should_play_top_move", record)
    strategy.should_play_top_move(moves, False)
    assert (top, pair) == pytest.approx((seen["top"], seen["pair"]))


def test_the_weakest_level_keeps_off_the_first_line_in_the_opening_and_its_eyes():
    """Level 1 on 19x19, 40 openings of 30 moves against itself: no first-line move in the
    opening's 60 moves of the board (a sixth of its points), and never an own eye filled."""
    first_line = 0
    for seed in range(40):
        session = Session(size=19, komi=7.5, seed=seed, level=1)
        board = session.engine.game.board
        for _ in range(30):
            answer = session.send(f"genmove {'b' if board.to_move == mcgo.BLACK else 'w'}")
            r, c = coords.row_col(coords.from_gtp(answer, 19), 19)
            first_line += min(r, c, 18 - r, 18 - c) == 0
    assert first_line == 0


def test_the_weakest_level_never_fills_its_own_eyes():
    """A black wall along the first two lines with one-point eyes at A1 and J1 (among
    others): whatever the moves it draws, the weakest level plays neither."""
    board = mcgo.Board(9, komi=7.0)
    board.setup(black=["A2", "B2", "B1", "C1", "C2", "D2", "D1", "E1", "E2", "F2", "F1",
                       "G1", "G2", "H2", "H1", "J2"],
                white=["A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3", "J3"])
    session = Session(size=9, komi=7.0, seed=1, level=1)
    player = session.engine.game.move_player
    assert isinstance(player, LevelPlayer)
    eyes = {board.point(v) for v in ("A1", "J1")}
    for seed in range(50):
        player.seed = seed
        assert player.choose(board) not in eyes


def test_level_through_gtp_and_the_command_line():
    session = Session(size=9, komi=7.0, seed=1, playouts=50)
    session.send("kata-set-param level 1")
    assert session.send("kata-get-param level") == "1"
    assert isinstance(session.engine.game.move_player, LevelPlayer)
    session.send("kata-set-param level 10")        # a search level: the search, capped
    assert session.engine.game.move_player is None
    assert session.engine.game.player.limits(session.engine.game.board, mcgo.BLACK).playouts == 50
    session.send("kata-set-param maxVisits 5000")
    assert session.engine.game.player.limits(session.engine.game.board, mcgo.BLACK).playouts == 1000
    session.send("kata-set-param level 11")
    assert session.engine.game.player.limits(session.engine.game.board, mcgo.BLACK).playouts == 5000
    assert "level 12: must be 1 to 11" in fails(session, "kata-set-param level 12")
    done = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--level", "2", "--player", "cfg"],
                          input="quit\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "--level 2 chooses the moves itself" in done.stderr


def test_analysis_level_answers_first_the_move_gtp_level_plays():
    """``mcgo analysis --level`` (for KaTrain, whose default AI plays the move of order 0)
    answers first the move ``mcgo gtp --level`` plays with the same seed, valued by a search
    when the main search did not visit it; the other moves stay the search's."""
    positions = [[], [["B", "Q16"], ["W", "D4"]]]
    for level in (1, 4):
        gtp_moves = []
        for moves in positions:
            script = "".join(f"play {c} {m}\n" for c, m in moves) + "genmove " + \
                ("b" if len(moves) % 2 == 0 else "w") + "\nquit\n"
            done = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--level", str(level),
                                   "--seed", "5", "--simulations", "50"], input=script,
                                  capture_output=True, text=True, timeout=300)
            answered = [line for line in done.stdout.splitlines() if line.startswith("=")]
            gtp_moves.append(answered[-2].split()[1])          # genmove's (quit's is last)
        queries = "".join(json.dumps({"id": str(i), "moves": moves, "rules": "chinese",
                                      "komi": 7.5, "boardXSize": 19, "boardYSize": 19,
                                      "maxVisits": 50}) + "\n"
                          for i, moves in enumerate(positions))

        def first_moves(level):
            infos = []
            for query in queries.splitlines(keepends=True):   # one engine a position: each
                done = subprocess.run([sys.executable, "-m", "mcgo", "analysis", "--level",
                                       str(level), "--seed", "5", "-analysis-threads", "1"],
                                      input=query, capture_output=True, text=True, timeout=300)
                answer = json.loads(done.stdout.splitlines()[-1])      # draws from the seed
                infos.append(min(answer["moveInfos"], key=lambda m: m["order"]))
            return infos

        firsts = first_moves(level)
        assert [m["move"] for m in firsts] == [m.upper() for m in gtp_moves], (level, firsts)
        assert all(m["visits"] > 0 and 0 <= m["winrate"] <= 1 for m in firsts)
        if level == 1:       # a beginner's moves are not the full search's
            assert [m["move"] for m in first_moves(8)] != [m["move"] for m in firsts]


def test_the_strongest_policy_level_plays_the_nets_choices_and_the_search_levels_cap_it(
        goban_games_dir):
    """Level 7 on the middle games of professional records, past the opening's rule, ten
    seeds a position: every move it plays is legal and fills no own eye, it plays the 19x19
    policy net's favourite (the probabilities as the net gives them, not the level's own
    softmax) wherever the net is as sure as KaTrain's override asks, and it plays the
    favourite more often than level 6, which looks at fewer moves; level 8's genmove
    searches 100 simulations, whatever the clock."""
    import io

    from mcgo.engine.cfg_player import own_one_point_eye
    from mcgo.engine.recipe import Recipe
    from mcgo.gtp.engine import Engine
    from mcgo.sgf import read_game, replay

    def engine(level):                   # the engine mcgo gtp --level builds
        return Engine(Recipe(level=level, seed=1).engine_config(19), out=io.StringIO(),
                      verbose=False)

    players = {level: engine(level).game.move_player for level in (6, 7)}
    net = players[7].search.policy_net_of(mcgo.Board(19))[0]
    assert net is not None
    favourites, sure, checked = {6: 0, 7: 0}, 0, 0
    for path in sorted(goban_games_dir.rglob("*.sgf"))[:10]:
        record = read_game(path.read_bytes())
        for n in (70, 110, 150):
            if record.size != 19 or len(record.moves) <= n:
                continue
            board = replay(record, max_moves=n)
            legal = set(board.legal_moves(board.to_move))
            probabilities = {m: q for m, q in net.probabilities(board).items()
                             if m in legal and not own_one_point_eye(board, m, board.to_move)}
            best = sorted(probabilities.values(), reverse=True)
            favourite = max(probabilities, key=probabilities.get)
            top, pair = sure_thresholds(-8, len(probabilities), 361)
            is_sure = best[0] > top or best[0] + best[1] > pair
            sure += is_sure
            for seed in range(10):
                for level, player in players.items():
                    player.seed = seed
                    move = player.choose(board)
                    assert move in probabilities
                    favourites[level] += move == favourite
                    if level == 7 and is_sure:
                        assert move == favourite
            checked += 1
    assert checked >= 20 and sure >= 1
    assert favourites[7] > favourites[6], favourites
    searcher = engine(8)
    searcher.handle("time_settings 0 30 1\n")
    searcher.handle("genmove b\n")
    assert searcher.game.player.search.last_result.simulations == 100
