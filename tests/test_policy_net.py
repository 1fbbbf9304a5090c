"""The small convolutional policy net (mcgo.models.policy_net, its training in
mcgo.train.policy_net_train): its inputs against sgfmill's reading of professional games and
under the board's 8 symmetries, the NumPy forward pass against JAX's, training that learns
and resumes where it stopped, and bad files and command lines."""

import numpy as np
import pytest
from click.testing import CliRunner

import mcgo
from helpers import sgfmill_board, sgfmill_group
from mcgo.board import coords
from mcgo.board.symmetry import SYMMETRIES, map_point
from mcgo.cli import main
from mcgo.models import policy_net as PN
from mcgo.sgf import SgfError, read_directory

MOVE_NUMBERS = (30, 90, 150)


@pytest.fixture(scope="module")
def records(goban_games_dir):
    return [r for r in read_directory(goban_games_dir)
            if not isinstance(r, SgfError) and r.size == 19 and not r.setups
            and len(r.moves) > max(MOVE_NUMBERS)][:40]


def board_at(record, n):
    board = mcgo.Board(19, komi=7.5)
    for color, p in record.moves[:n]:
        board.play(p, color)
    return board


def test_inputs_are_the_position_as_sgfmill_reads_it(records):
    """Own and opponent stones as the side to move sees them, each stone's chain's liberties
    (capped at 3) by a flood fill of sgfmill's board, the last two moves of the record."""
    checked = 0
    for record in records[:4]:
        for n in MOVE_NUMBERS:
            board = board_at(record, n)
            ref = sgfmill_board(board)
            stones, liberties, moves = PN.compact(board.pts, board.info)
            x = PN.planes(stones, liberties, moves)
            mine = "b" if board.to_move == mcgo.BLACK else "w"
            for row in range(19):
                for col in range(19):
                    colour = ref.get(row, col)
                    i = row * 19 + col
                    assert x[row, col, PN.P_EMPTY] == (colour is None)
                    assert x[row, col, PN.P_OWN] == (colour == mine)
                    assert x[row, col, PN.P_OPPONENT] == (colour not in (None, mine))
                    if colour is not None:
                        libs = min(3, len(sgfmill_group(ref, 19, row, col)[1]))
                        plane = (PN.P_OWN_1 if colour == mine else PN.P_OPP_1) + libs - 1
                        assert x[row, col, plane] == 1.0 and liberties[row, col] == libs, (i, libs)
                        checked += 1
            last, previous = record.moves[n - 1][1], record.moves[n - 2][1]
            for plane, point in ((PN.P_LAST, last), (PN.P_PREVIOUS, previous)):
                row, col = coords.row_col(point, 19)
                assert x[:, :, plane].sum() == 1 and x[row, col, plane] == 1
            assert (x[:, :, PN.P_ONES] == 1).all()
    assert checked > 500


def test_the_trainers_symmetries_are_the_boards(records):
    """A batch turned by symmetry s is the compact form of the game replayed turned by s
    (mcgo.board.symmetry.map_point), the move played included."""
    from mcgo.train.policy_net_train import transformed
    record = records[0]
    n = 60
    board = board_at(record, n)
    target = record.moves[n][1]
    original = PN.compact(board.pts, board.info)
    batch = tuple(a[None] for a in original) + (np.array([coords.row_col(target, 19)[0] * 19
                                                          + coords.row_col(target, 19)[1]]),)
    for s in range(SYMMETRIES):
        image = mcgo.Board(19, komi=7.5)
        for color, p in record.moves[:n]:
            image.play(map_point(p, s, 19), color)
        stones, liberties, moves = PN.compact(image.pts, image.info)
        turned = transformed(batch, s)
        assert (turned[0][0] == stones).all() and (turned[1][0] == liberties).all(), s
        assert (turned[2][0] == moves).all(), s
        row, col = coords.row_col(map_point(target, s, 19), 19)
        assert turned[3][0] == row * 19 + col, s


def test_numpy_forward_equals_the_jax_forward(records):
    """The engine's NumPy pass and the training's JAX pass give the same logits."""
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    import jax.numpy as jnp
    from mcgo.train.policy_net_train import forward
    net = PN.PolicyNet.random(size=19, layers=4, channels=16, seed=3)
    xs = np.stack([PN.planes(*PN.compact(b.pts, b.info))
                   for b in (board_at(r, n) for r in records[:3] for n in MOVE_NUMBERS)])
    mine = np.stack([net.logits(x).reshape(-1) for x in xs])
    theirs = np.asarray(forward({k: jnp.asarray(v) for k, v in net.arrays.items()},
                                jnp.asarray(xs), net.layers))
    assert mine.shape == theirs.shape == (9, 361)
    assert np.allclose(mine, theirs, rtol=1e-4, atol=1e-4)
    probs = net.probabilities(board_at(records[0], 30))
    assert abs(sum(probs.values()) - 1.0) < 1e-9 and all(v > 0 for v in probs.values())


def test_training_learns_and_a_stopped_run_goes_on_from_its_checkpoint(records, tmp_path):
    """On goban games split by game: the trained net predicts the validation games'
    professional moves well above chance (1/361), and a run stopped half way and started
    again from its checkpoint ends with the weights of the run that never stopped."""
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    from mcgo.train.policy_net_train import evaluate, positions, train
    arrays, games = positions(records, rate=0.3)
    assert games["train"] > 20 and len(arrays["validation"]["targets"]) > 50
    options = dict(layers=3, channels=8, steps=60, batch_size=32, learning_rate=3e-3,
                   eval_every=30)
    whole, history = train(arrays, **options)
    assert [h["step"] for h in history] == [30, 60]
    checkpoint = tmp_path / "run.ckpt.npz"
    train(arrays, checkpoint=checkpoint, stop_at=30, **options)
    again, history2 = train(arrays, checkpoint=checkpoint, **options)
    assert [h["step"] for h in history2] == [30, 60]
    for name, value in whole.arrays.items():
        assert np.allclose(value, again.arrays[name], rtol=1e-5, atol=1e-6), name
    top1, n = evaluate(whole, arrays["validation"])
    assert n == len(arrays["validation"]["targets"])
    assert top1 == pytest.approx(max(h["validation_top1"] for h in history))
    assert top1 > 5 / 361


def test_net_file_round_trip_and_bad_files(tmp_path):
    net = PN.PolicyNet.random(size=9, layers=3, channels=4, seed=2)
    path = tmp_path / "net.npz"
    net.save(path)
    again = PN.load(path)
    board = mcgo.Board(9)
    board.play("C3")
    assert again.probabilities(board) == net.probabilities(board)
    with pytest.raises(PN.PolicyNetError, match="no such"):
        PN.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(PN.PolicyNetError, match="not a .npz archive"):
        PN.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", metadata=np.array('{"format": "x"}'))
    with pytest.raises(PN.PolicyNetError, match="format 'x'"):
        PN.load(tmp_path / "other.npz")
    with pytest.raises(PN.PolicyNetError, match="not 19x19"):
        again.move_logits(mcgo.Board(19).pts, mcgo.Board(19).info)


@pytest.mark.parametrize("args, says", [
    (["-o", "{tmp}/n.npz"], "give GAMES"),
    (["{games}", "-o", "{tmp}/n.npz", "--stop-at", "5"], "--stop-at needs --checkpoint"),
    (["{games}", "-o", "{tmp}/no/n.npz"], "there is no folder"),
    (["{games}", "-o", "{tmp}/n.npz", "--rate", "0"], "--rate"),
])
def test_command_line_errors_are_one_line_before_any_work(tmp_path, goban_games_dir, args, says):
    args = [a.format(tmp=tmp_path, games=goban_games_dir) for a in args]
    result = CliRunner().invoke(main, ["learn", "policy-net"] + args)
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert not (tmp_path / "n.npz").exists()


def test_the_prediction_table_scores_the_net_as_its_probabilities_rank_the_moves(records):
    """``mcgo learn evaluate NET``'s table counts a hit where the net's most probable legal
    move is the professional's, and its log-probability is the softmax's over the legal
    points (the pass has no chance)."""
    from mcgo.train.evaluate import evaluate
    net = PN.PolicyNet.random(size=19, layers=3, channels=8, seed=4)
    games = records[:3]
    table = evaluate(net, games, moves=(80, 83), split=None)
    hits, log_p, n = 0, 0.0, 0
    for record in games:
        for number in range(80, 84):
            board = board_at(record, number - 1)
            played = record.moves[number - 1][1]
            probs = net.probabilities(board)
            hits += max(probs, key=probs.get) == played
            log_p += np.log(probs[played])
            n += 1
    assert table["all"]["positions"] == n == 12
    assert table["all"]["top1"] == pytest.approx(hits / n)
    assert table["all"]["mean_log_p"] == pytest.approx(log_p / n, rel=1e-5)


def test_the_shipped_net_predicts_the_professionals_as_its_metadata_records(goban_games_dir):
    """The shipped 19x19 net names its data, split and training, and on goban test games
    (split by game, never trained on) its top-1 is near the test top-1 its training
    recorded on the KGS and goban test positions."""
    from mcgo.train.evaluate import evaluate
    from mcgo.train.movemodel import read_records
    net = PN.open_policy_net("default")
    meta = net.metadata
    assert net.size == 19 and meta["format"] == PN.FORMAT and meta["version"] in PN.VERSIONS
    assert meta["data"] == ["goban-original-games", "kgs-6d"] and meta["split"]
    assert meta["trained_steps"] >= meta["best_step"] > 0 and len(meta["commit"]) == 40
    table = evaluate(net, read_records([goban_games_dir]), moves=(1, 120))
    assert table["all"]["positions"] > 3000
    assert abs(table["all"]["top1"] - meta["metrics"]["test_top1"]) < 0.06
    assert PN.open_policy_net("none") is None


@pytest.mark.parametrize("command", ["gtp", "play"])
def test_a_bad_policy_net_is_a_one_line_usage_error(tmp_path, command):
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    result = CliRunner().invoke(main, [command, "--policy-net", str(tmp_path / "bad.npz")])
    assert result.exit_code == 2
    assert "--policy-net" in result.output and "not a policy net file" in result.output


def test_the_devices_batches_are_the_hosts(records):
    """The planes and targets the trainer makes on JAX's device, each position turned by its
    own symmetry, equal the host's turn (checked against the replayed boards above) and
    planes, position by position."""
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    import jax.numpy as jnp
    from mcgo.train.policy_net_train import device_batch, positions, symmetry_tables, transformed
    arrays, _ = positions(records[:2], rate=0.2)
    split = arrays["train"]
    count = len(split["targets"])
    assert count > 16
    syms = np.arange(count, dtype=np.int32) % SYMMETRIES
    batch = tuple(split[a] for a in ("stones", "liberties", "moves", "targets"))
    x, y = device_batch(tuple(jnp.asarray(t) for t in symmetry_tables(19)),
                        *(jnp.asarray(a) for a in batch), jnp.asarray(syms))
    for i in range(count):
        turned = transformed(tuple(a[i:i + 1] for a in batch), int(syms[i]))
        assert (np.asarray(x[i]) == PN.planes(*turned[:3])[0]).all(), i
        assert int(y[i]) == int(turned[3][0]), i


def test_positions_read_by_several_processes_are_those_read_by_one(goban_games_dir):
    """The goban games' positions read by 3 processes, each every third file, are the ones
    of reading every game in one (the same positions, games and splits; records by sgfmill
    as the inputs test above checks)."""
    from mcgo.train.movemodel import read_records
    from mcgo.train.policy_net_train import ARRAYS, positions, read_positions
    one, games_one = positions(read_records([goban_games_dir]), rate=0.05)
    three, games_three = read_positions([goban_games_dir], rate=0.05, jobs=3)
    assert games_three == games_one and games_one["train"] > 300

    def rows(split):
        flat = np.concatenate([split[a].reshape(len(split["targets"]), -1).astype(np.int64)
                               for a in ARRAYS if a != "games"], axis=1)
        return flat[np.lexsort(flat.T[::-1])]

    for name in one:
        assert len(three[name]["targets"]) == len(one[name]["targets"]) > 0, name
        assert (rows(three[name]) == rows(one[name])).all(), name


def test_the_validation_measure_counts_the_positions_it_names(records):
    """The trainer's validation top-1 over its first N positions is the NumPy net's top-1
    over the same N (not over a whole batch of them: N below the measuring chunk)."""
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    from mcgo.train.policy_net_train import evaluate, positions, train
    arrays, _ = positions(records[:20], rate=0.3)
    assert len(arrays["validation"]["targets"]) > 40
    net, history = train(arrays, layers=3, channels=8, steps=30, batch_size=32,
                         learning_rate=3e-3, eval_every=30, validation_positions=37)
    top1, n = evaluate(net, arrays["validation"], 37)
    assert n == 37 and history[-1]["validation_top1"] == pytest.approx(top1)


@pytest.fixture(scope="module")
def games_9x9():
    """mcgo's own 9x9 match records (a record of this repository: mcgo against Pachi)."""
    import pathlib
    path = pathlib.Path(__file__).parents[1] / "benchmarks/matches/36028eb-vs-pachi-9x9/games.zip"
    return path


def test_9x9_positions_are_the_games_moves_as_sgfmill_reads_them(games_9x9):
    """``--size 9``: the positions of the 9x9 records only, each target the move sgfmill
    reads from the SGF at that point; a net trained on them is a 9x9 net."""
    import zipfile
    from sgfmill import sgf as sgfmill_sgf
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    from mcgo.train.movemodel import read_records
    from mcgo.train.policy_net_train import positions, train
    records = list(read_records([games_9x9]))[:60]
    arrays, games = positions(records, size=9)
    assert sum(games.values()) == 60 and games["validation"] > 0
    assert positions(records, size=19)[1] == {s: 0 for s in games}
    with zipfile.ZipFile(games_9x9) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".sgf"))
        expected = []                         # each game's row-major moves, passes left out
        for name in names:
            game = sgfmill_sgf.Sgf_game.from_bytes(z.read(name))
            moves = [node.get_move()[1] for node in game.get_main_sequence()[1:]]
            expected.append(tuple(m[0] * 9 + m[1] for m in moves if m is not None))
    got = [t for s in arrays.values() for t in s["targets"].tolist()]
    found = 0
    for split in arrays.values():
        starts = np.flatnonzero(np.diff(np.r_[-1, split["games"]]))
        for a, b in zip(starts, list(starts[1:]) + [len(split["games"])]):
            seq = tuple(split["targets"][a:b].tolist())
            assert seq in expected                        # a whole game, move for move
            found += 1
    assert found == 60 and len(got) > 60 * 20
    net, _ = train(arrays, layers=2, channels=4, steps=2, batch_size=8, eval_every=2)
    assert net.size == 9


def test_the_shipped_9x9_net_predicts_its_test_games_as_its_metadata_records(games_9x9):
    """The 9x9 net ``default`` reads on 9x9 names its data (our own match records), split
    and training; on the test games (split by game, never trained on) of one of its records
    its top-1 is near the test top-1 its training recorded, and above the shipped 9x9 move
    model's on the same positions."""
    from mcgo.models.movemodel import open_model
    from mcgo.train.evaluate import evaluate
    from mcgo.train.movemodel import read_records
    net = PN.open_policy_net("default").for_size(9)
    meta = net.metadata
    assert net.size == 9 and meta["format"] == PN.FORMAT and meta["split"]
    assert any(games_9x9.parent.name in d for d in meta["data"]) and len(meta["commit"]) == 40
    records = list(read_records([games_9x9]))
    table = evaluate(net, records, size=9)
    assert table["all"]["positions"] > 500
    assert abs(table["all"]["top1"] - meta["metrics"]["test_top1"]) < 0.06
    model = evaluate(open_model("auto").for_size(9), records, size=9)
    assert model["all"]["positions"] == table["all"]["positions"]
    assert table["all"]["top1"] > model["all"]["top1"]


def test_the_default_net_on_13x13_is_the_19x19_nets_and_predicts_gnugo_better_than_the_model():
    """``--policy-net default`` on 13x13 reads the shipped 19x19 net on that size
    (:meth:`~mcgo.models.policy_net.PolicyNet.on_size`: its convolutions, each point's bias
    from the 19x19 point as far from the edges). On GNU Go 3.8's moves (level 10) in ten
    games of a committed 13x13 match, replayed as sgfmill reads them, the net's first choice
    is GNU Go's move more often than the learned move model's (the 13x13 prior before it:
    0.351 against 0.267 over 20 games). The bias matters little (0.326 with none over these
    ten games, against 0.334): the convolutions carry the net to the other size."""
    import pathlib
    import zipfile

    from sgfmill import sgf

    from mcgo.models.movemodel import open_model
    net = PN.open_policy_net("default")
    thirteen = net.for_size(13)
    assert thirteen.size == 13 and thirteen.metadata["trained_size"] == 19
    assert not thirteen.has_value and all((thirteen.arrays[k] == net.arrays[k]).all()
                                          for k in thirteen.arrays if k != "out_b")
    model = open_model("auto").for_size(13)
    path = pathlib.Path(__file__).parents[1] / "benchmarks/matches/13x13-6a31703-vs-gnugo10-2s/games.zip"
    first = {"net": 0, "model": 0}
    moves = 0
    with zipfile.ZipFile(path) as z:
        for name in sorted(z.namelist())[:10]:
            game = sgf.Sgf_game.from_bytes(z.read(name))
            gnugo = "b" if "gnugo" in game.root.get("PB") else "w"
            board = mcgo.Board(13, komi=7.5)
            for node in game.get_main_sequence()[1:]:
                colour, move = node.get_move()
                if colour is None:
                    continue
                point = coords.from_sgfmill(move, 13)
                if colour == gnugo and move is not None:
                    moves += 1
                    for label, source in (("net", thirteen), ("model", model)):
                        p = source.probabilities(board)
                        first[label] += max(p, key=p.get) == point
                board.play(point)
    assert moves > 300
    assert first["net"] / moves > first["model"] / moves + 0.03, (first, moves)
