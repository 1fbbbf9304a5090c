"""The value heads of the policy net (mcgo.models.policy_net version 2, trained by
mcgo.train.value_train on the positions of mcgo.train.value_data): targets against GNU Go's
verdict on the final positions of counted games, the NumPy forward pass against JAX's,
training that learns and resumes, and the value in the search."""

import pathlib
import zipfile

import numpy as np
import pytest

import mcgo
from mcgo.board import coords
from mcgo.gtp.controller import GtpEngine
from mcgo.models import policy_net as PN
from mcgo.sgf import read_game, replay
from mcgo.train.movemodel import read_records
from mcgo.train.results import COUNT, parse_result

# Our own 9x9 games against Pachi 12.90, counted by GNU Go 3.8 (benchmarks/matches/).
GAMES = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "matches" \
    / "9x9-a23f304-vs-pachi" / "games.zip"


@pytest.fixture(scope="module")
def records():
    return [r for r in read_records([str(GAMES)]) if r.size == 9]


def counted_files(n):
    """``(sgf text, record)`` of the first ``n`` counted games that ended with two passes."""
    out = []
    with zipfile.ZipFile(GAMES) as z:
        for name in sorted(z.namelist()):
            text = z.read(name)
            record = read_game(text)
            if parse_result(record.result)[2] == COUNT and record.moves \
                    and record.moves[-1][1] == mcgo.PASS:
                out.append((text, record))
            if len(out) == n:
                break
    return out


def test_targets_of_counted_games_match_gnugo_final_status(records, gnugo_command, tmp_path):
    """The final ownership of a counted game gives each stone GNU Go 3.8 calls alive to its
    colour and each stone it calls dead to the other; the outcome and score follow RE. A
    game whose count by the engine's judge disagrees with RE (a capturing race both engines
    left on the board) has no ownership: few of them."""
    from mcgo.train.value_data import game_positions, game_targets
    engine = GtpEngine(gnugo_command)
    checked = agree = dead_seen = left_out = 0
    try:
        for n, (text, record) in enumerate(counted_files(12)):
            winner, margin, owner = game_targets(record, seed=n)
            if owner is None:                   # the judge's count and RE disagree
                left_out += 1
                continue
            assert owner.shape == (9, 9)
            board = replay(record)
            path = tmp_path / f"g{n}.sgf"
            path.write_bytes(text)
            engine.send(f"loadsgf {path}")
            dead = {coords.from_gtp(v, 9) for v in engine.send("final_status_list dead").split()}
            dead_seen += len(dead)
            for colour in (mcgo.BLACK, mcgo.WHITE):
                for p in board.stones(colour):
                    row, col = coords.row_col(p, 9)
                    expected = (1 if colour == mcgo.BLACK else -1) * (-1 if p in dead else 1)
                    checked += 1
                    agree += owner[row, col] == expected
            rows = list(game_positions(record, 1.0, (winner, margin, owner)))
            for row in rows:
                black = row["komi"] < 0        # Black gives the komi
                assert row["outcome"] == (0 if winner is None else
                                          (1 if (winner == mcgo.BLACK) == black else -1))
                assert row["score"] == pytest.approx(margin if black else -margin)
    finally:
        engine.close()
    assert checked > 300 and agree / checked >= 0.97, (agree, checked)
    assert dead_seen > 0 and left_out <= 3


@pytest.mark.parametrize("value_layers", [0, 2])
def test_numpy_value_heads_equal_the_jax_ones(records, value_layers):
    """The engine's NumPy value, score and ownership equal the training's JAX pass, with the
    value's own convolutions or without."""
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    import jax.numpy as jnp
    from mcgo.train.value_data import positions
    from mcgo.train.value_train import forward, random_heads
    net = PN.PolicyNet.random(size=9, layers=4, channels=16, seed=5)
    heads = random_heads(net, seed=2, value_layers=value_layers, value_channels=8)
    net = PN.PolicyNet(dict(net.arrays, **heads), dict(net.metadata, value_layers=value_layers))
    assert net.has_value
    arrays, _ = positions(records[:10], rate=0.5)
    part = arrays["train"]
    x = PN.planes(part["stones"][:40], part["liberties"][:40], part["moves"][:40])
    win, score, owner = net.values(x, part["komi"][:40])
    trunk = {k: jnp.asarray(v) for k, v in net.arrays.items() if k.startswith("conv")}
    heads = {k: jnp.asarray(v) for k, v in heads.items()}
    logit, s, o = forward(trunk, heads, jnp.asarray(x), jnp.asarray(part["komi"][:40]), net.layers)
    assert np.allclose(win, 1 / (1 + np.exp(-np.asarray(logit))), atol=1e-5)
    assert np.allclose(score, np.asarray(s) * PN.SCORE_SCALE, atol=1e-3)
    assert np.allclose(owner, np.asarray(o), atol=1e-5)
    assert len(set(np.round(win, 4))) > 5            # the positions differ, so do their values


def test_training_learns_and_resumes(records, tmp_path):
    """The whole 9x9 net trained on some of our games with its value heads: its ownership
    of the validation games' final positions beats saying nobody owns a point, and a run stopped half way and started again from
    its checkpoint ends with the weights of the run that never stopped. Trained heads alone
    leave the trunk and the policy as they were."""
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    from mcgo.train.value_data import positions
    from mcgo.train.value_train import train
    arrays, games = positions(records, rate=0.3)
    assert games["train"] > 100 and len(arrays["validation"]["outcome"]) > 100
    net = PN.load(PN.SIZE_NETS[9][0])
    options = dict(steps=400, batch_size=64, learning_rate=3e-3, eval_every=200, whole=True)
    whole, history = train(net, arrays, **options)
    assert [h["step"] for h in history] == [200, 400]
    checkpoint = tmp_path / "value.ckpt.npz"
    train(net, arrays, checkpoint=checkpoint, stop_at=200, **options)
    again, _ = train(net, arrays, checkpoint=checkpoint, **options)
    for name in whole.arrays:
        assert np.allclose(whole.arrays[name], again.arrays[name], rtol=1e-4, atol=1e-5), name
    # Who owns each point at the end is learned first (the value needs more games than
    # these: the shipped net's test below): better than saying nobody owns anything.
    part = arrays["validation"]
    x = PN.planes(part["stones"], part["liberties"], part["moves"])
    _, _, owner = whole.values(x, part["komi"])
    known = part["has_ownership"]
    nobody = np.mean(part["ownership"][known].astype(float) ** 2)
    learned = np.mean((owner[known] - part["ownership"][known]) ** 2)
    assert learned < 0.9 * nobody, (learned, nobody)
    heads, trained = train(net, arrays, steps=10, batch_size=32, eval_every=10, value_layers=1,
                           value_tap=net.layers - 2)
    for name in net.arrays:                          # the trunk and the policy did not move
        assert np.array_equal(heads.arrays[name], net.arrays[name]), name
    # The engine's NumPy heads, the features' scale folded in, judge the validation
    # positions as the training measured them (on scaled float16 features).
    win, _, _ = heads.values(PN.planes(part["stones"], part["liberties"], part["moves"]),
                             part["komi"])
    y = (part["outcome"] + 1) / 2.0
    p = np.clip(win, 1e-7, 1 - 1e-7)
    numpy_loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    assert numpy_loss == pytest.approx(trained[-1]["validation_log_loss"], abs=2e-3)
    heads.save(tmp_path / "heads.npz")
    x = PN.planes(part["stones"][:16], part["liberties"][:16], part["moves"][:16])
    assert np.array_equal(PN.load(tmp_path / "heads.npz").values(x, part["komi"][:16])[0],
                          heads.values(x, part["komi"][:16])[0])
    assert heads.value_layers() == 1 and "vconv0_w" in heads.arrays
    assert not np.array_equal(whole.arrays["conv1_w"], net.arrays["conv1_w"])
    saved = tmp_path / "net.npz"
    whole.save(saved)
    loaded = PN.load(saved)
    assert loaded.metadata["version"] == 2 and loaded.has_value
    x = PN.planes(*PN.compact(replay(records[0]).pts, replay(records[0]).info))[None]
    assert np.array_equal(loaded.values(x, [7.0])[0], whole.values(x, [7.0])[0])


def _compact_by_sgfmill(board, move, colour):
    """The policy net's compact form of the position after ``colour`` plays ``move`` on
    ``board``, the opponent to move, built from sgfmill's board (its captures, a flood fill
    of its chains' liberties): the reference for the search's own replay."""
    from helpers import sgfmill_board, sgfmill_group
    ref = sgfmill_board(board)
    row, col = coords.row_col(move, 9)
    ref.play(row, col, "b" if colour == mcgo.BLACK else "w")
    mover = "w" if colour == mcgo.BLACK else "b"
    stones = np.zeros((9, 9), np.int8)
    liberties = np.zeros((9, 9), np.int8)
    for r in range(9):
        for c in range(9):
            here = ref.get(r, c)
            if here is not None:
                stones[r, c] = PN.OWN if here == mover else PN.OPPONENT
                liberties[r, c] = min(3, len(sgfmill_group(ref, 9, r, c)[1]))
    last = board.moves[-1][1] if board.moves else -1
    moves = np.array([row * 9 + col, PN.point_index(int(last), 9), -1], np.int16)
    return stones, liberties, moves


def test_value_prior_gives_each_node_with_the_visits_the_value_of_its_position(records, monkeypatch):
    """With ``value_prior`` W and ``policy_net_after`` N, each root move the search visited N
    times gets W virtual visits of its own beyond the rules' and the policy net's priors,
    ``W * (1 - v)`` of them won, ``v`` the net's chance that the opponent wins the position
    after the move (built by sgfmill here, the komi the opponent's); a move with fewer visits
    gets none, nor any move on a net without heads. The move's reported win rate and score
    (what kata-analyze, the analysis engine and review show) mix the net's value and its
    score head's margin in with the same W. A separate value net (``--value-net``)
    beside a policy net without heads values as that net's own heads do, whether the search
    sees that they share a trunk (and gives a node its priors and its value in one trunk
    pass) or not (two passes)."""
    from mcgo.search import Search, control, netprior
    from mcgo.search.tree import MOVE, PRIOR_VISITS, PRIOR_WINS, VISITS
    from mcgo.train.value_train import random_heads
    base = PN.load(PN.SIZE_NETS[9][0])
    heads = random_heads(base, seed=7, value_layers=1)
    heads["value_w2"] = heads["value_w2"] * 0.02     # the trunk's features are large: no saturation
    net = PN.PolicyNet(dict(base.arrays, **heads), dict(base.metadata, value_layers=1))
    record = next(r for r in records if len(r.moves) > 30 and not r.setups)
    board = mcgo.Board(9, komi=7.0)
    for colour, p in record.moves[:21]:
        board.play(p, colour)
    assert board.to_move == mcgo.WHITE
    after, late = 20, 20 + netprior.SCAN_BATCHES * control.BATCH
    search = Search(seed=1, policy="pattern", policy_prior=(net, 10.0))
    search.run(board, playouts=1)
    t = search.trees[0]
    alone = {int(t.ints[MOVE, c]): (t.floats[PRIOR_VISITS, c], t.floats[PRIOR_WINS, c])
             for c in t.children(t.root)}
    runs, reports = {}, {}
    for name, n, value_net in (("value", net, None), ("no heads", base, None),
                               ("value net", base, net), ("other trunk", base, net)):
        if name == "other trunk":   # the priors and the values in two passes, as for a net
            monkeypatch.setattr(PN.PolicyNet, "same_policy", lambda self, other: False)
        search = Search(seed=1, policy="pattern", policy_prior=(n, 10.0), value_net=value_net,
                        settings={"value_prior": 20.0, "policy_net_after": after})
        result = search.run(board, playouts=3000)
        t = search.trees[0]
        runs[name] = {int(t.ints[MOVE, c]): (t.floats[VISITS, c], t.floats[PRIOR_VISITS, c],
                                             t.floats[PRIOR_WINS, c])
                      for c in t.children(t.root)}
        reports[name] = {m.move: m for m in result.moves}
    value = runs["value"]
    valued = [p for p, (v, _, _) in value.items() if v >= late and p != mcgo.PASS]
    unvalued = [p for p, (v, _, _) in value.items() if v < after]
    assert len(valued) >= 3 and len(unvalued) > 10
    compact = [_compact_by_sgfmill(board, p, mcgo.WHITE) for p in valued]
    win, margin, _ = net.values(PN.planes(*(np.stack(a) for a in zip(*compact))),
                                np.full(len(valued), -7.0, np.float32))   # Black to move after
    for p, w, black in zip(valued, win, margin):
        assert value[p][1] - alone[p][0] == pytest.approx(20.0)
        assert value[p][2] - alone[p][1] == pytest.approx(20.0 * (1 - w), abs=1e-4)
        # The reports mix it as the search does: the move's win rate for White, and its
        # score (Black's margin, the score head's for Black to move).
        m = reports["value"][p]
        assert m.winrate == pytest.approx((m.wins + 20.0 * (1 - w)) / (m.visits + 20.0), abs=1e-5)
        assert m.score == pytest.approx((m.score_sum + 20.0 * black) / (m.visits + 20.0), abs=1e-3)
    for p in unvalued:
        m = reports["value"].get(p)
        assert m is None or m.net_visits == 0.0
    for p in unvalued:
        assert value[p][1:] == pytest.approx(alone[p])
    assert np.ptp(win) > 0.01                       # the moves' values differ
    for p, (_, visits, wins) in runs["no heads"].items():
        assert (visits, wins) == pytest.approx(alone[p])
    for name in ("value net", "other trunk"):       # the same search, the same values
        for p, stats in runs[name].items():
            assert stats == pytest.approx(value[p])


def test_selfplay_games_end_as_gnugo_counts_them_and_resume(gnugo_command, tmp_path):
    """Self-play games are played to two passes with the dead stones captured, so GNU Go
    3.8's final_score of each agrees with its RE; a run started again plays only the games
    missing, and a game is the same whichever run plays it (its own seed)."""
    from mcgo.match.archive import match_games
    from mcgo.train.selfplay import selfplay
    assert selfplay(tmp_path / "a", 2, playouts=60, random_moves=4) == 2
    assert selfplay(tmp_path / "a", 3, playouts=60, random_moves=4) == 1
    assert selfplay(tmp_path / "b", 1, playouts=60, random_moves=4) == 1
    games = dict(match_games(tmp_path / "a"))
    assert len(games) == 3 and games[sorted(games)[0]] == dict(match_games(tmp_path / "b"))[sorted(games)[0]]
    engine = GtpEngine(gnugo_command)
    try:
        for n, (name, data) in enumerate(sorted(games.items())):
            record = read_game(data)
            assert [p for _, p in record.moves[-2:]] == [mcgo.PASS, mcgo.PASS]
            assert len({p for _, p in record.moves[:4]}) == 4
            path = tmp_path / f"g{n}.sgf"
            path.write_bytes(data)
            engine.send(f"loadsgf {path}")
            assert parse_result(engine.send("final_score")) == parse_result(record.result), name
    finally:
        engine.close()


def test_the_shipped_value_net_judges_held_out_kgs_games_as_its_metadata_records(kgs_games_dir):
    """The shipped 19x19 value net (``--value-net default``) on the positions at moves 60,
    100 and 140 of the first KGS 6d+ games of the test split (which its metadata's split
    never trained on; 300 positions, the benchmark's): the outcome (the games' RE) is better
    predicted than by a coin (log loss 0.693), and within noise of the test log loss its
    metadata records over 20,000 positions. Its metadata names its data, split and commit."""
    from mcgo.train.value_data import held_out_positions
    from mcgo.search.netprior import readings
    from mcgo.train.value_train import outcome_metrics
    net = PN.open_value_net("default")
    meta = net.metadata
    assert net.size == 19 and net.has_value
    assert meta["value_split"] == "mcgo-split-1" and len(meta["value_commit"]) == 40
    assert all(name.startswith("KGS-") for name in meta["value_data"])
    positions = held_out_positions(sorted(kgs_games_dir.glob("*.tar.gz")), 19, (60, 100, 140),
                                   "test", 300)
    assert len(positions) == 300
    win, _, _ = readings(net, [(b.pts, b.info) for b, _ in positions],
                         np.array([b.komi for b, _ in positions], np.float32))
    label = np.array([1 if won else -1 for _, won in positions])
    metrics = outcome_metrics(win, label)
    assert metrics["log_loss"] < 0.685
    assert abs(metrics["log_loss"] - meta["value_metrics"]["test"]["log_loss"]) < 0.03
