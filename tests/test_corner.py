"""Seed 004's corner life-and-death net: Table 5.4's windows, the standardized 8x8 corner, the
training library against the engine's NumPy path, and the net as a judge of dead stones,
checked against sgfmill and GNU Go."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from sgfmill import boards

from mcgo import BLACK, WHITE, Board
from mcgo.board import coords
from mcgo.cli import main
from mcgo.gtp.controller import EngineProcess
from mcgo.models.corner import (LAYERS, CornerNet, corner_groups, pattern_inputs,
                               shipped_corner_net, window_mask, windows)
from mcgo.train.corner_train import fan_ins, initial_params, load_patterns
from mcgo.train.split import game_key, split_of
from mcgo.sgf import read_game, replay


def test_windows_are_table_5_4():
    wins = windows()
    sizes = [s for s, _, _ in wins]
    assert [sizes.count(s) for s in (3, 4, 5, 6, 7)] == [36, 25, 16, 9, 4]
    assert len(wins) == 90
    mask = window_mask()
    assert mask.shape == (128, 150) == (LAYERS[0], LAYERS[1])
    per_unit = mask[:, :90].sum(axis=0)
    expected = {3: 18, 4: 32, 5: 50, 6: 72, 7: 98}
    assert [int(n) for n in per_unit] == [expected[s] for s in sizes]
    assert per_unit.min() == 18 and per_unit.max() == 98
    assert (mask[:, 90:] == 1).all()                     # the 60 fully connected units
    # each windowed unit sees the same cells of the board map and of the location map
    assert (mask[:64, :90] == mask[64:, :90]).all()
    assert (mask[:64, :90].sum(axis=1) > 0).all()        # together they cover the 8x8 corner


def test_initial_weights_follow_the_fan_in():
    ws, bs = initial_params(seed=3)
    mask = window_mask()
    for w, b, f in zip(ws, bs, fan_ins()):
        assert (np.abs(w) <= 2.4 / f[None, :] + 1e-12).all()
        assert (np.abs(b) <= 2.4 / f + 1e-12).all()
    assert (ws[0][mask == 0] == 0).all()
    assert [w.shape for w in ws] == [(a, b) for a, b in zip(LAYERS[:-1], LAYERS[1:])]


# A black group in the lower-left corner (sgfmill rows count from the bottom, as mcgo's).
GROUP = [(0, 2), (1, 2), (1, 1), (2, 1), (2, 0), (1, 3), (0, 3)]
WHITE_STONES = [(0, 5), (1, 4), (2, 4), (2, 3), (2, 2), (3, 1), (3, 0), (1, 5)]


def images(size):
    """The 8 symmetries of the square board on sgfmill (row, col) coordinates."""
    n = size - 1
    return [lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (n - r, c),
            lambda r, c: (c, n - r), lambda r, c: (r, n - c), lambda r, c: (n - c, r),
            lambda r, c: (n - r, n - c), lambda r, c: (n - c, n - r)]


@pytest.mark.parametrize("swap", [False, True])
def test_the_pattern_is_the_same_in_every_corner_and_colour(swap):
    """Placed by sgfmill in each of the 8 orientations (and with colours swapped), the group
    gives one pattern: the corner at the top left, the group black."""
    seen = []
    for f in images(19):
        ref = boards.Board(19)
        own, other = ("w", "b") if swap else ("b", "w")
        for r, c in GROUP:
            ref.play(*f(r, c), own)
        for r, c in WHITE_STONES:
            ref.play(*f(r, c), other)
        board = Board(19)
        board.setup(black=[coords.from_sgfmill(p, 19) for c, p in ref.list_occupied_points() if c == "b"],
                    white=[coords.from_sgfmill(p, 19) for c, p in ref.list_occupied_points() if c == "w"])
        groups = corner_groups(board)
        ours = [g for g in groups if coords.to_sgfmill(g[2][0], 19) in {f(r, c) for r, c in GROUP}]
        assert len(ours) == 1
        corner, color, chain = ours[0]
        assert color == (WHITE if swap else BLACK)
        assert sorted(coords.to_sgfmill(p, 19) for p in chain) == sorted(f(r, c) for r, c in GROUP)
        x, xt = (pattern_inputs(board, corner, color, chain, t) for t in (False, True))
        seen.append({x.tobytes(), xt.tobytes()})
        # the group's stones are +1 and marked in the location map; the others are -1
        assert x[:64].sum() == len(GROUP) - len(WHITE_STONES) and x[64:].sum() == len(GROUP)
    assert all(s == seen[0] for s in seen)


def test_corner_groups_are_gnugos_worms_inside_a_7x7_corner(gnugo_command, goban_games_dir):
    path = goban_games_dir / "Hon-41-2.mgt"
    board = replay(read_game(path))
    engine = EngineProcess(gnugo_command, timeout=60)
    try:
        engine.send(f"loadsgf {path}")
        worms = {}
        for color in ("black", "white"):
            for v in engine.send(f"list_stones {color}").split():
                p = coords.from_gtp(v, 19)
                if p not in worms:
                    worm = frozenset(coords.from_gtp(u, 19) for u in engine.send(f"worm_stones {v}").split())
                    worms.update({q: worm for q in worm})
    finally:
        engine.close()

    def in_a_corner(worm):
        rc = [coords.row_col(p, 19) for p in worm]
        return any(all((r if top else 18 - r) < 7 and (c if left else 18 - c) < 7 for r, c in rc)
                   for top in (True, False) for left in (True, False))

    expected = {w for w in worms.values() if in_a_corner(w)}
    assert expected
    assert {frozenset(chain) for _, _, chain in corner_groups(board)} == expected


def test_the_numpy_path_equals_jax():
    jnp = pytest.importorskip("jax.numpy")
    from mcgo.train.corner_train import jax_outputs
    ws, bs = initial_params(seed=1)
    rng = np.random.default_rng(0)
    # larger weights than at the start, so every layer matters
    ws = [w * 20 for w in ws]
    x = rng.integers(-1, 2, (5, 128)).astype(np.float64)
    ours = CornerNet(ws, bs).outputs(x)
    theirs = np.asarray(jax_outputs(([jnp.asarray(w) for w in ws], [jnp.asarray(b) for b in bs]),
                                    jnp.asarray(x)))
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)   # JAX computes in float32
    assert ours.shape == (5, 2) and ((ours > 0) & (ours < 1)).all()


def test_patterns_training_and_the_file(tmp_path, goban_games_dir):
    """Two counted professional games: patterns with both judges, two epochs of training, and
    the written net equals the training library's outputs."""
    pytest.importorskip("jax")
    games = [goban_games_dir / name for name in ("Hon-41-2.mgt", "Hon-41-3.mgt")]
    patterns = tmp_path / "p.npz"
    result = CliRunner().invoke(main, ["learn", "corner-patterns", *map(str, games), "-o", str(patterns),
                                       "--playouts", "500"])
    assert result.exit_code == 0, result.output
    arrays, meta = load_patterns(patterns)
    assert len(meta["games"]) == 2 and len(arrays["x"]) > 10
    # every pattern's group is in the location map, and its stones are +1 in the board map
    loc = arrays["x"][:, 64:]
    assert (loc.sum(axis=1) > 0).all() and (arrays["x"][:, :64][loc == 1] == 1).all()
    splits = {split_of(game_key(read_game(g))) for g in games}
    assert set(arrays["split"]) <= splits
    # the training command needs train and validation patterns: make both splits present
    arrays["split"][: len(arrays["split"]) // 2] = "train"
    arrays["split"][len(arrays["split"]) // 2:] = "validation"
    with open(patterns, "wb") as f:
        np.savez(f, metadata=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays)
    out = tmp_path / "net.npz"
    figures = tmp_path / "fig.json"
    result = CliRunner().invoke(main, ["learn", "corner", str(patterns), "-o", str(out), "--epochs", "2",
                                       "--json", str(figures)])
    assert result.exit_code == 0, result.output
    net = CornerNet.load(out)
    assert net.metadata["best_epoch"] in (1, 2)
    assert (net.w[0][window_mask() == 0] == 0).all()
    assert json.loads(figures.read_text())["validation"]["patterns"] > 0


def test_shipped_net_judges_final_positions_as_gnugo(gnugo_command, goban_games_dir):
    """On test-split professional games (never trained on), the shipped net's confident
    verdicts on corner groups agree with GNU Go's final_status_list, more often than calling
    every group alive would."""
    net = shipped_corner_net()
    assert net.metadata["format"] == "mcgo-corner-net"
    names = net.metadata["test_games"]
    checked = agree = alive = 0
    engine = EngineProcess(gnugo_command, timeout=120)
    try:
        for name in names[:6]:
            path = goban_games_dir / name
            record = read_game(path)
            assert split_of(game_key(record)) == "test"
            board = replay(record)
            engine.send(f"loadsgf {path}")
            dead = {coords.from_gtp(v, 19) for v in engine.send("final_status_list dead").split()}
            for chain, lives, confident in net.verdicts(board):
                if confident:
                    checked += 1
                    agree += lives == (chain[0] not in dead)
                    alive += chain[0] not in dead
    finally:
        engine.close()
    assert checked >= 30 and agree / checked >= 0.85 and agree > alive


def test_bad_corner_net_option_is_one_line_error(tmp_path):
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"not a net")
    result = CliRunner().invoke(main, ["gtp", "--corner-net", str(bad)])
    assert result.exit_code == 2 and "not a corner net file" in result.output



def test_survivors_match_an_sgfmill_replay(goban_games_dir):
    """The stones that stay to the count, 30 moves before the end, as sgfmill replays the
    record: same colour on the point in every later position."""
    from sgfmill import sgf, sgf_moves
    from mcgo.train.corner_train import survivors
    path = goban_games_dir / "Hon-41-2.mgt"
    record = read_game(path)
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    ref, plays = sgf_moves.get_setup_and_moves(game)
    n = len(plays)
    assert n == len(record.moves)
    start = n - 30
    for colour, move in plays[:start]:
        if move is not None:
            ref.play(*move, colour)
    keep = {p: c for c, p in ref.list_occupied_points()}
    for colour, move in plays[start:]:
        if move is not None:
            ref.play(*move, colour)
        keep = {p: c for p, c in keep.items() if ref.get(*p) == c}
    assert survivors(record, start) == {coords.from_sgfmill(p, 19) for p in keep}
    assert len(keep) > 100
