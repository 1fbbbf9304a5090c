"""KaTrain drives mcgo: KaTrain's own engine object (``katrain.core.engine.KataGoEngine``),
built headless (no window: Kivy is imported with ``KIVY_NO_WINDOW``) from KaTrain's own
package config, with its KataGo executable set to a ``mcgo`` command, starts
``mcgo analysis -model ... -config ... -override-config homeDataDir=...`` exactly as it
starts KataGo, and its ``Game`` plays moves on it:

* every node's analysis completes, with KaTrain reading the answers into its nodes (score,
  win rate, candidate moves with the points lost, which it computes from each move's
  ``scoreLead``, and the policy);
* its AI move generators (the default, which plays the engine's top move, and the score-loss
  one, which weighs the moves by their points lost) play legal moves from mcgo's analysis
  (checked on sgfmill's board);
* its region-of-interest analysis (``avoidMoves`` for both players) keeps the moves in the
  region; its pondering (``reportDuringSearchEvery``) is stopped by its ``terminate``;
* nothing reaches KaTrain's log as an error, and no line on stderr has the word KaTrain
  shows as a failure.

The package is the ``katrain`` extra (``pip install -e .[katrain]``); without it the test
skips, and fails under ``MCGO_REQUIRE_REFERENCES=1``.
"""

import pathlib
import sys
import time

import pytest
from sgfmill import boards

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMEOUT = 180.0
VISITS = 40


def wait_until(condition, what, timeout=TIMEOUT):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def mcgo_command(tmp_path_factory):
    """An ``mcgo`` executable running this checkout (as an installed ``mcgo`` would)."""
    path = tmp_path_factory.mktemp("bin") / "mcgo"
    path.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT}${{PYTHONPATH:+:$PYTHONPATH}} "
                    f"exec {sys.executable} -m mcgo \"$@\"\n")
    path.chmod(0o755)
    return path


@pytest.fixture(scope="module")
def katrain(katrain_package, mcgo_command):
    ai, constants, engine_module, game_module, base, Move = katrain_package

    class HeadlessKaTrain(base.KaTrainBase):
        """KaTrain's settings and log without its GUI; the log is kept."""

        def __init__(self):
            self.messages = []
            super().__init__(force_package_config=True, debug_level=0)

        def log(self, message, level=constants.OUTPUT_INFO):
            self.messages.append((level, str(message)))

    k = HeadlessKaTrain()
    config = dict(k.config("engine"), katago=str(mcgo_command), max_visits=VISITS,
                  fast_visits=VISITS, max_time=30.0, allow_recovery=False)
    engine = engine_module.KataGoEngine(k, config)
    assert engine.katago_process is not None, k.messages
    yield k, engine, ai, constants, game_module, Move
    engine.shutdown(finish=False)


def errors_in(k, constants):
    return [m for level, m in k.messages if level == constants.OUTPUT_ERROR
            or (level == constants.OUTPUT_KATAGO_STDERR and "error" in m.lower())]


def legal_on_sgfmill(game, size):
    """Replay KaTrain's main line on sgfmill's board: every move on an empty point."""
    board = boards.Board(size)
    for node in game.current_node.nodes_from_root:
        for m in node.moves:
            if m.is_pass:
                continue
            col, row = m.coords
            assert board.get(row, col) is None, f"{m.gtp()} on an occupied point"
            board.play(row, col, m.player.lower())


def test_katrain_game_on_mcgo(katrain):
    k, engine, ai, constants, game_module, Move = katrain
    assert engine.command[1:3] == ["analysis", "-model"] and "-override-config" in engine.command
    game = game_module.Game(k, engine, game_properties={"SZ": 9, "KM": 7.0, "RU": "chinese"})
    for gtp in ("E5", "C3"):
        game.play(Move.from_gtp(gtp, player=game.current_node.next_player))
    for mode in (constants.AI_DEFAULT, constants.AI_SCORELOSS, constants.AI_DEFAULT):
        move, node = ai.generate_ai_move(game, mode, k.config(f"ai/{mode}"))
        assert node is not None and not move.is_pass
        parent = node.parent
        assert move.gtp() in {m["move"] for m in parent.candidate_moves}
    legal_on_sgfmill(game, 9)
    nodes = game.current_node.nodes_from_root
    wait_until(lambda: all(n.analysis_complete for n in nodes), "every node's analysis")
    for n in nodes:
        assert n.root_visits >= VISITS
        assert n.score is not None and 0 <= n.winrate <= 1
        assert len(n.policy) == 82 and len(n.ownership) == 81
        cands = n.candidate_moves
        assert cands and all(isinstance(c["pointsLost"], float) for c in cands)
    assert not errors_in(k, constants)


def test_katrain_region_of_interest_and_pondering(katrain):
    k, engine, ai, constants, game_module, Move = katrain
    game = game_module.Game(k, engine, game_properties={"SZ": 9, "KM": 7.0, "RU": "japanese"})
    node = game.play(Move.from_gtp("E5", player="B"))
    wait_until(lambda: node.analysis_complete, "the first analysis")
    answers = []
    # Columns A-D, rows 1-4 (KaTrain's coordinates: x from the left, y from the bottom).
    engine.request_analysis(node, callback=lambda a, partial: answers.append((a, partial)),
                            region_of_interest=[0, 3, 0, 3])
    wait_until(lambda: any(not partial for _, partial in answers), "the region's analysis")
    final = [a for a, partial in answers if not partial][-1]
    moves = {m["move"] for m in final["moveInfos"]}
    assert moves and all(m == "pass" or (m[0] in "ABCD" and int(m[1:]) <= 4) for m in moves)

    node.analyze(engine, ponder=True)
    wait_until(lambda: node.root_visits > 2 * VISITS, "pondering's reports")
    engine.stop_pondering()
    wait_until(engine.is_idle, "the pondering query to end after terminate", timeout=60)
    assert not errors_in(k, constants)


def test_katrain_custom_command(katrain, mcgo_command):
    """KaTrain's custom backend (its "Override Engine Command"): a shell command line."""
    k, _, ai, constants, game_module, Move = katrain
    config = dict(k.config("engine"), backend="custom",
                  altcommand=f"{mcgo_command} analysis -analysis-threads 1 --visits 30",
                  max_visits=VISITS, fast_visits=VISITS, max_time=30.0, allow_recovery=False)
    from katrain.core.engine import KataGoEngine
    engine = KataGoEngine(k, config)
    try:
        assert engine.shell and engine.command.endswith("--visits 30")
        game = game_module.Game(k, engine, game_properties={"SZ": 9, "KM": 6.5, "RU": "japanese"})
        node = game.play(Move.from_gtp("C3", player="B"))
        wait_until(lambda: node.analysis_complete, "the custom engine's analysis")
        assert node.root_visits >= VISITS and node.candidate_moves
    finally:
        engine.shutdown(finish=False)
    assert not errors_in(k, constants)

