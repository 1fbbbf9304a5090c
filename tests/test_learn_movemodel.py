"""The learned move model: features against sgfmill and hand-worked boards, the 3x3 code's
invariance, MM against a known generating distribution, prediction above the uniform baseline
on held-back professional games, the model file, and the Numba scorer against the training
code's NumPy path."""

import itertools
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from sgfmill import boards

import mcgo
from helpers import Session, sgfmill_group
from mcgo import sgf
from mcgo.board import coords
from mcgo.board import kernels as K
from mcgo.board.symmetry import map_point
from mcgo.cli import main
from mcgo.models import move_features as F
from mcgo.models import spatial as S
from mcgo.train import mm
from mcgo.models import movemodel as M
from mcgo.train import movemodel as MT
from mcgo.train.evaluate import evaluate
from mcgo.train.split import TEST

SGF_COLOR = {mcgo.BLACK: "b", mcgo.WHITE: "w"}
PRO_GAMES = 6
PRO_MOVE_NUMBERS = (40, 100, 160, 220)
SMALL_TRAINING_GAMES = 20


# ----------------------------------------------------------------------------- positions
def pro_positions(goban_games_dir):
    """(board, previous move) of a few professional games at several move numbers."""
    games = sorted(goban_games_dir.glob("*.sgf"))
    out = []
    for path in games[::len(games) // PRO_GAMES][:PRO_GAMES]:
        record = sgf.read_game(path)
        for n in PRO_MOVE_NUMBERS:
            if n >= len(record.moves):
                continue
            try:
                board = sgf.replay(record, max_moves=n, superko=False)
            except sgf.SgfError:
                continue
            out.append((board, record.moves[n - 2][1]))
    return out


def random_positions(count=6, plies=220, seed=5):
    """Boards after random legal moves (many captures, ataris and self-ataris)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        board = mcgo.Board(13, superko=False)
        previous = -1
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves:
                break
            previous = board.last_move if board.moves else -1
            board.play(int(rng.choice(moves)))
        out.append((board, previous))
    return out


@pytest.fixture(scope="module")
def positions(goban_games_dir):
    return pro_positions(goban_games_dir) + random_positions()


def sgfmill_board(board):
    ref = boards.Board(board.size)
    for color in (mcgo.BLACK, mcgo.WHITE):
        for p in board.stones(color):
            ref.play(*coords.row_col(p, board.size), SGF_COLOR[color])
    return ref


def neighbours(size, row, col):
    return [(a, b) for a, b in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1))
            if 0 <= a < size and 0 <= b < size]


# ----------------------------------------------------------------------------- features
def test_tactical_features_agree_with_sgfmill(positions):
    """Capture, self-atari, escape and atari as sgfmill's board sees them after the move."""
    seen = {"capture": 0, "self_atari": 0, "escape": 0, "atari": 0}
    for board, previous in positions:
        size, color = board.size, board.to_move
        ref = sgfmill_board(board)
        mine, theirs = SGF_COLOR[color], SGF_COLOR[3 - color]
        keys = F.position_keys(board, previous=previous)
        for p, key in keys.items():
            if p == K.PASS:
                continue
            v = F.unpack(key)
            row, col = coords.row_col(p, size)
            adjacent = neighbours(size, row, col)
            before = {}
            for a, b in adjacent:
                if ref.get(a, b) is not None:
                    before[(a, b)] = sgfmill_group(ref, size, a, b)
            after = ref.copy()
            after.play(row, col, mine)
            captured = sum(1 for c, _ in ref.list_occupied_points() if c == theirs) \
                - sum(1 for c, _ in after.list_occupied_points() if c == theirs)
            chain, libs = sgfmill_group(after, size, row, col)
            # capture: stones removed, in the size bucket
            assert (v["capture"] > 0) == (captured > 0), (coords.to_gtp(p, size), v)
            if captured:
                bucket = 0 if captured == 1 else (1 if captured <= 3 else 2)
                assert (v["capture"] - 1) % 3 == bucket
                seen["capture"] += 1
            # self-atari: one liberty left, nothing captured; value 1 for a lone stone
            self_atari = captured == 0 and len(libs) == 1
            assert (v["self_atari"] > 0) == self_atari, (coords.to_gtp(p, size), v)
            if self_atari:
                assert (v["self_atari"] == 1) == (len(chain) == 1)
                seen["self_atari"] += 1
            # escape: an own chain next to p was in atari and now has 2+ liberties (or a capture)
            in_atari = any(ref.get(*q) == mine and len(before[q][1]) == 1 for q in before)
            escape = in_atari and (captured > 0 or len(libs) >= 2)
            assert (v["escape"] > 0) == escape, (coords.to_gtp(p, size), v)
            seen["escape"] += escape
            # atari: an opponent chain next to p had two liberties and now has one
            atari = any(ref.get(*q) == theirs and len(before[q][1]) == 2 for q in before)
            assert (v["atari"] > 0) == atari, (coords.to_gtp(p, size), v)
            seen["atari"] += atari
    assert min(seen.values()) >= 10, seen


def line_value(a, b):
    """The line feature of a point on lines a <= b, counted along the definition's order
    (1,1) (1,2) .. (1,6) (2,2) .. (2,6) (3,3) .. (4,6)."""
    if a > 4:
        return 0
    order = [(x, y) for x in range(1, 5) for y in range(x, 7)]
    return order.index((a, min(b, 6))) + 1


def test_distances_and_lines_by_the_definition():
    """d = dx + dy + max(dx, dy) (Coulom 2007), value min(d, 17) - 1; the lines of the point."""
    board = mcgo.Board(19)
    board.play("D4")
    board.play("Q16")
    keys = F.position_keys(board, previous=board.point("D4"))
    cases = {  # move: (distance to Q16, to D4, line)
        "R16": (2 - 1, 16, line_value(3, 4)), "R17": (3 - 1, 16, line_value(3, 3)),
        "O14": (6 - 1, 16, line_value(6, 6)), "E5": (16, 3 - 1, line_value(5, 5)),
        "F5": (16, 5 - 1, line_value(5, 6)), "A1": (16, 3 + 3 + 3 - 1, line_value(1, 1)),
        "T19": (3 + 3 + 3 - 1, 16, line_value(1, 1)), "K10": (16, 16, line_value(10, 10)),
        "B18": (16, 16, line_value(2, 2)), "C10": (16, 1 + 6 + 6 - 1, line_value(3, 10)),
        "D16": (16, 16, line_value(4, 4)), "A4": (16, 3 + 0 + 3 - 1, line_value(1, 4))}
    for vertex, (last, prev, line) in cases.items():
        v = F.unpack(keys[board.point(vertex)])
        assert (v["last_distance"], v["previous_distance"], v["line"]) == (last, prev, line), vertex
    assert F.unpack(keys[K.PASS])["pass"] == 1
    board.play("pass")
    assert F.unpack(F.position_keys(board)[K.PASS])["pass"] == 2


def test_pattern_code_of_a_hand_worked_corner():
    """Black to play at B2 under a white stone at B3: with two liberties, then in atari."""
    #   4  X . .
    #   3  X O X
    #   2  . * .      * = B2
    #   1  . . .
    #      A B C
    board = mcgo.Board(9)
    board.setup(black=[board.point(v) for v in ("A4", "A3", "C3")], white=[board.point("B3")])
    board.to_move = mcgo.BLACK
    # Neighbours in row-major order (dy, dx) from the bottom-left: A1 B1 C1 A2 C2 A3 B3 C3.
    states = [F.N_EMPTY, F.N_EMPTY, F.N_EMPTY, F.N_EMPTY, F.N_EMPTY,
              F.N_OWN, F.N_OPP, F.N_OWN]        # white B3 has 2 liberties (B4 and B2)
    expected = sum(s * F.NSTATES ** k for k, s in enumerate(states))
    assert F.raw_code_of(board.pts, board.info, board.point("B2"), mcgo.BLACK) == expected
    board.setup(black=[board.point("B4")])
    states[6] = F.N_OPP_ATARI                   # now in atari
    expected = sum(s * F.NSTATES ** k for k, s in enumerate(states))
    assert F.raw_code_of(board.pts, board.info, board.point("B2"), mcgo.BLACK) == expected
    # the same from white's side: own stone in atari, opponent stones around
    states = [F.N_EMPTY] * 5 + [F.N_OPP, F.N_OWN_ATARI, F.N_OPP]
    expected = sum(s * F.NSTATES ** k for k, s in enumerate(states))
    assert F.raw_code_of(board.pts, board.info, board.point("B2"), mcgo.WHITE) == expected


def test_pattern_code_is_invariant_under_symmetry_and_colour(positions):
    canon = F.canonical_table()
    differ = 0
    for board, _ in positions[:8]:
        size, color = board.size, board.to_move
        black, white = board.stones(mcgo.BLACK), board.stones(mcgo.WHITE)
        for s in range(8):
            image = mcgo.Board(size, superko=False)
            image.setup(black=[map_point(p, s, size) for p in white],     # colours swapped too
                        white=[map_point(p, s, size) for p in black])
            for p in board.legal_moves(color)[::7]:
                q = map_point(p, s, size)
                a = F.raw_code_of(board.pts, board.info, p, color)
                b = F.raw_code_of(image.pts, image.info, q, 3 - color)
                assert canon[a] == canon[b]
                differ += a != b
                # the spatial patterns: the same canonical hashes at every size, and the
                # image's content, read back in its 8 orientations, gives that hash
                here = S.canonical_hashes(board.pts, board.info, p, color)
                assert (here == S.canonical_hashes(image.pts, image.info, q, 3 - color)).all()
                content = np.zeros(S.WORDS, dtype=np.int64)
                S.content_into(image.pts, image.info, q, 3 - color, content)
                for j in (0, 3, S.NSIZES - 1):
                    orbit = S.orbit_hashes(S.truncate(content, j)[None, :], np.array([j]))[0]
                    assert orbit.min() == here[j]
    assert differ > 100          # the raw codes do change: the table folds them
    # the table: every code maps to the smallest of its orbit, itself included
    assert np.all(canon <= np.arange(F.NCODES))
    assert np.all(canon[canon] == canon)


# ----------------------------------------------------------------------------- MM
def test_mm_recovers_the_gammas_that_generated_the_choices():
    rng = np.random.default_rng(11)
    sizes = [5, 4]
    truth = [np.array([1.0, 4.0, 0.5, 2.0, 0.2]), np.array([1.0, 3.0, 0.3, 1.5])]
    positions, candidates = 6000, 8
    values = np.stack([rng.integers(0, s, positions * candidates) for s in sizes], axis=1)
    strength = truth[0][values[:, 0]] * truth[1][values[:, 1]]
    pos = np.repeat(np.arange(positions), candidates)
    winners = np.empty(positions, dtype=np.int64)
    for j in range(positions):
        block = strength[j * candidates:(j + 1) * candidates]
        winners[j] = j * candidates + rng.choice(candidates, p=block / block.sum())
    data = mm.Rows(values, np.ones(len(values)), pos, winners)
    gammas = mm.fit(data, sizes, prior=0.0, iterations=200, tolerance=0)
    for got, want in zip(gammas, truth):
        assert np.allclose(np.log(got), np.log(want), atol=0.12), (got, want)
    # the fit is a better explanation than the uniform one, and than a wrong one
    assert mm.log_likelihood(data, [np.log(g) for g in gammas]) > \
        mm.log_likelihood(data, [np.zeros(s) for s in sizes])


# ----------------------------------------------------------------------------- the model
@pytest.fixture(scope="module")
def small_model(goban_games_dir):
    records = MT.read_records([goban_games_dir])
    return MT.train(records, max_games=SMALL_TRAINING_GAMES, iterations=8)


def test_model_predicts_held_back_professional_moves_above_uniform(small_model, goban_games_dir):
    meta = small_model.metadata
    assert meta["train_games"] == SMALL_TRAINING_GAMES and meta["patterns"] > 100
    test_games = [r for r, part in MT.split_records(MT.read_records([goban_games_dir]))
                  if part == TEST][:6]
    table = evaluate(small_model, test_games, moves=(1, 150))
    whole = table["all"]
    assert whole["positions"] > 500
    assert whole["mean_log_p"] > whole["random"]["mean_log_p"] + 1.0
    assert whole["top1"] > 5 * whole["random"]["top1"]
    assert whole["top10"] > whole["random"]["top10"]


def test_numba_scorer_equals_the_training_path(small_model, goban_games_dir):
    """The probability of each played move: Numba scorer vs the MM rows' NumPy log-strengths."""
    record = sgf.read_game(sorted(goban_games_dir.glob("*.sgf"))[3])
    samples = MT.Samples()
    samples.add_game(record, MT.SpatialDictionary.of_model(small_model))
    data = MT._rows(samples, small_model.pattern_codes)
    log_gammas = [np.concatenate([[0.0], small_model.pattern_log_gamma])] + \
        [small_model.group_log_gamma[g, :n] for g, n in enumerate(F.NVALUES) if g > 0] + \
        [np.concatenate([[0.0], small_model.spatial_log_gamma])]
    assert np.count_nonzero(data.values[:, MT.SPATIAL]) > 1000      # the spatial patterns do take part
    ls = mm.log_strengths(data, log_gammas)
    total = np.bincount(data.positions, weights=data.counts * np.exp(ls), minlength=data.npositions)
    training_p = np.exp(ls[data.winners]) / total
    scorer_p = []
    for _, pts, info, color, point in MT.game_states(record):
        moves, scores = small_model.scores(pts, info, color)
        p = np.exp(scores - scores.max())
        scorer_p.append(p[moves == point][0] / p.sum())
    assert len(scorer_p) == len(training_p) > 100
    assert np.allclose(scorer_p, training_p, rtol=1e-9, atol=0)


def test_positions_know_the_move_before_the_last_as_the_record_has_it(goban_games_dir):
    """The move before the last of every training position (the board's own PREVIOUS_MOVE,
    which the tree's and the playouts' model also read) is the move two before, passes included, as
    sgfmill reads the record's file; the first two moves have none (-1) and one."""
    from sgfmill import sgf as sgfmill_sgf
    path = sorted(goban_games_dir.glob("*.sgf"))[3]
    game = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes())
    size = game.get_size()
    played = [node.get_move()[1] for node in game.get_main_sequence()[1:]
              if node.get_move()[0] is not None]
    point = [coords.from_sgfmill(m, size) for m in played]
    seen = [int(info[K.PREVIOUS_MOVE]) for _, _, info, _, _ in MT.game_states(sgf.read_game(path))]
    assert len(seen) == len(point) > 100
    assert seen[:2] == [-1, -1] and seen[2:] == point[:-2]


def test_model_file_round_trip_and_bad_files(small_model, tmp_path):
    path = tmp_path / "m.npz"
    small_model.save(path)
    again = M.load(path)
    assert again.metadata["train_games"] == small_model.metadata["train_games"]
    assert again.metadata["format"] == M.FORMAT and again.metadata["feature_version"] == F.FEATURE_VERSION
    board = mcgo.Board(19)
    for move in ["Q16", "D4", "R4", "C16"]:
        board.play(move)
    assert again.probabilities(board) == small_model.probabilities(board)

    with pytest.raises(M.ModelError, match="no such move model file"):
        M.load(tmp_path / "missing.npz")
    cut = tmp_path / "cut.npz"
    cut.write_bytes(path.read_bytes()[:200])
    with pytest.raises(M.ModelError, match="not a move model file"):
        M.load(cut)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(M.ModelError, match="no metadata"):
        M.load(other)
    z = dict(np.load(path))
    del z["spatial_contents"]
    np.savez(other, **z)
    with pytest.raises(M.ModelError, match="missing spatial_contents"):
        M.load(other)
    for change, message in (({"format": "something"}, "format"), ({"version": 99}, "version")):
        z = dict(np.load(path))
        meta = json.loads(str(z["metadata"]))
        meta.update(change)
        z["metadata"] = np.array(json.dumps(meta))
        bad = tmp_path / "bad.npz"
        np.savez(bad, **z)
        with pytest.raises(M.ModelError, match=message):
            M.load(bad)
    z = dict(np.load(path))
    z["group_log_gamma"] = z["group_log_gamma"][:, :3]
    np.savez(tmp_path / "shape.npz", **z)
    with pytest.raises(M.ModelError, match="wrong shape"):
        M.load(tmp_path / "shape.npz")


def test_uniform_model_is_the_random_baseline(goban_games_dir):
    records = list(itertools.islice(MT.read_records([goban_games_dir]), 3))
    table = evaluate(M.MoveModel.uniform(), records, split=None, moves=(1, 30))
    whole = table["all"]
    # the uniform model also counts pass: 1/(n+1) against the baseline's 1/n
    assert whole["positions"] == 90
    assert abs(whole["mean_log_p"] - whole["random"]["mean_log_p"]) < 0.01
    assert math.isclose(whole["top1"] * 1.0, whole["random"]["top1"], rel_tol=0.01)


def test_hand_priors_predict_professional_moves_above_random_and_below_the_model(goban_games_dir):
    """``mcgo learn evaluate hand``: the tree's hand-written priors as a predictor, on
    professional games' middle-game moves: better than the random baseline, worse than the
    shipped model on the same positions."""
    from mcgo.train.evaluate import HandPriors
    records = list(itertools.islice(MT.read_records([goban_games_dir]), 4))
    hand = evaluate(HandPriors(), records, split=None, moves=(21, 120))["all"]
    shipped = evaluate(M.open_model("default"), records, split=None, moves=(21, 120))["all"]
    assert hand["positions"] == shipped["positions"] >= 300
    assert hand["top5"] > 2 * hand["random"]["top5"]
    assert hand["mean_log_p"] > hand["random"]["mean_log_p"]
    assert shipped["top1"] > hand["top1"] and shipped["mean_log_p"] > hand["mean_log_p"]


def test_commands_reject_bad_input_in_one_line(tmp_path, goban_games_dir):
    runner = CliRunner()
    for args, text in ((["evaluate", str(tmp_path / "none.npz"), str(goban_games_dir)], "no such move model"),
                       (["evaluate", "uniform", str(goban_games_dir), "--moves", "9-3"], "--moves"),
                       (["evaluate", "uniform", str(tmp_path / "nowhere")], "no such file"),
                       (["moves", str(tmp_path), "-o", str(tmp_path / "m.npz")], "no SGF"),
                       (["moves", str(goban_games_dir), "-o", str(tmp_path / "x" / "m.npz")], "no folder")):
        result = runner.invoke(main, ["learn"] + args)
        assert result.exit_code == 2, result.output
        assert text in result.output


# ----------------------------------------------------------------------------- tree priors
def test_tree_priors_follow_the_model(small_model):
    """With the hand priors off, each root child's prior is MODEL_PRIOR_VISITS visits with
    that many times P(move) / P(best) wins, P from the model's own probabilities."""
    from mcgo.search.priors import MODEL_PRIOR_VISITS
    from mcgo.search.search import Search
    board = mcgo.Board(19)
    for move in ["Q16", "D4", "R4", "C16", "O3"]:
        board.play(move)
    probs = small_model.probabilities(board)
    assert probs != small_model.probabilities(board, previous=-1)  # C16, the move before O3, counts
    best = max(probs.values())
    search = Search(seed=3, model=small_model, priors=0)
    search.run(board, playouts=50)
    stats = search.root_stats(board)
    assert len(stats) == len(probs)
    for s in stats:
        assert s.prior_visits == MODEL_PRIOR_VISITS
        assert math.isclose(s.prior_wins, MODEL_PRIOR_VISITS * probs[s.move] / best, rel_tol=1e-9)
    # without a model (and without the hand priors) the children start with no prior at all
    plain = Search(seed=3, priors=0)
    plain.run(board, playouts=50)
    assert all(s.prior_visits == 0 for s in plain.root_stats(board))

def test_sqrt_shaped_tree_priors_follow_the_model(small_model):
    """``model_prior_shape=1`` (Pachi's pattern-prior form): each root child gets
    ``model_prior * sqrt(P(move))`` virtual visits, every one a win, P from the model's own
    probabilities (which sum to 1 over the legal moves and pass)."""
    from mcgo.search.search import Search
    board = mcgo.Board(19)
    for move in ["Q16", "D4", "R4", "C16", "O3"]:
        board.play(move)
    probs = small_model.probabilities(board)
    assert math.isclose(sum(probs.values()), 1.0, rel_tol=1e-9)
    search = Search(seed=3, model=small_model, priors=0, model_prior=300, model_prior_shape=1)
    search.run(board, playouts=50)
    stats = search.root_stats(board)
    assert len(stats) == len(probs)
    for s in stats:
        assert math.isclose(s.prior_visits, 300 * math.sqrt(probs[s.move]), rel_tol=1e-9)
        assert s.prior_wins == s.prior_visits



@pytest.mark.parametrize("depth", [1, 2])
def test_model_depth_limits_the_model_prior_to_the_first_plies(small_model, depth):
    """``model_depth=1``: only the root's children get the model's prior; ``2``: the children
    of the most visited root move get it too, each from the model's own probabilities in the
    position after that move."""
    from mcgo.search.priors import MODEL_PRIOR_VISITS
    from mcgo.search.search import Search
    from mcgo.search.tree import MOVE, PRIOR_VISITS, PRIOR_WINS, VISITS
    board = mcgo.Board(19)
    for move in ["Q16", "D4", "R4", "C16", "O3"]:
        board.play(move)
    search = Search(seed=3, model=small_model, priors=0, model_depth=depth)
    search.run(board, playouts=300)
    assert all(s.prior_visits == MODEL_PRIOR_VISITS for s in search.root_stats(board))
    tree = search.trees[0]
    top = max(tree.children(tree.root), key=lambda c: tree.floats[VISITS, c])
    grandchildren = list(tree.children(top))
    assert grandchildren, "the most visited root move was expanded"
    after = board.copy()
    after.play(int(tree.ints[MOVE, top]))
    probs = small_model.probabilities(after)
    best = max(probs.values())
    for c in grandchildren:
        if depth == 1:
            assert tree.floats[PRIOR_VISITS, c] == 0.0
        else:
            assert tree.floats[PRIOR_VISITS, c] == MODEL_PRIOR_VISITS
            assert math.isclose(tree.floats[PRIOR_WINS, c],
                                MODEL_PRIOR_VISITS * probs[int(tree.ints[MOVE, c])] / best,
                                rel_tol=1e-9)


@pytest.mark.parametrize("rule_priors", [0, 1])
def test_a_kept_tree_gets_the_model_prior_where_the_root_moved_near(small_model, rule_priors):
    """With ``model_depth=2`` a node two plies below the root is expanded without the model's
    prior. Once the game plays those two moves and the tree is kept, that node is the root:
    its children then get the prior of the model in the new position, on top of the playout
    rules' priors they already had (the new root's are compared with a fresh search's)."""
    from mcgo.search.priors import MODEL_PRIOR_VISITS
    from mcgo.search.search import Search
    from mcgo.search.tree import MODEL_PRIORED, MOVE, PRIOR_VISITS, PRIOR_WINS, VISITS
    board = mcgo.Board(19)
    for move in ["Q16", "D4", "R4", "C16", "O3"]:
        board.play(move)
    search = Search(seed=5, model=small_model, priors=rule_priors, model_depth=2)
    search.run(board, playouts=400)
    tree = search.trees[0]
    line = []
    node = tree.root
    for _ in range(2):
        node = max(tree.children(node), key=lambda c: tree.floats[VISITS, c])
        line.append(int(tree.ints[MOVE, node]))
    assert tree.ints[MODEL_PRIORED, node] == 0 and len(tree.children(node)) > 0, \
        "the line's second move was expanded, without the model (three plies deep)"
    before = {int(tree.ints[MOVE, c]): (tree.floats[PRIOR_VISITS, c], tree.floats[PRIOR_WINS, c])
              for c in tree.children(node)}
    for move in line:
        board.play(move)
    search.run(board, playouts=1)
    assert tree.root == node, "the tree was kept"
    assert tree.ints[MODEL_PRIORED, node] == 1
    probs = small_model.probabilities(board)
    best = max(probs[m] for m in before)
    for c in tree.children(node):
        move = int(tree.ints[MOVE, c])
        visits, wins = before[move]
        assert tree.floats[PRIOR_VISITS, c] == visits + MODEL_PRIOR_VISITS
        assert math.isclose(tree.floats[PRIOR_WINS, c] - wins,
                            MODEL_PRIOR_VISITS * probs[move] / best, rel_tol=1e-9, abs_tol=1e-12)


def test_auto_model_gives_priors_on_the_measured_sizes_with_their_settings():
    """``--model auto`` is the shipped model for the tree's priors on the sizes where it was
    measured to help (9x9 at every depth in the sqrt shape, 13x13 and 19x19 within 2 in the
    ratio shape) and no prior elsewhere (7x7); ``default`` gives them on every size with the
    preset's settings; a ``--set`` value wins over both. The recipe chooses those settings
    (the model carries none)."""
    from mcgo.engine.recipe import Recipe
    from mcgo.search.priors import MODEL_PRIOR_VISITS
    from mcgo.search.search import Search

    def search(model, **settings):
        return Search(Recipe(model=model, policy_net="none", seed=1,
                             settings=settings).search_config())

    auto = M.open_model("auto")
    assert not hasattr(auto, "prior_settings")       # the settings are the recipe's
    assert {s: v["model_depth"] for s, v in M.AUTO_MODEL_PRIORS.items()} == {9: 0, 13: 2, 19: 2}
    default = M.open_model("default")
    for size, moves in ((7, ["D4", "C3", "E5"]), (9, ["E5", "C3", "G4"]), (13, ["K10", "D4", "K4"]),
                        (19, ["Q16", "D4", "R4"])):
        board = mcgo.Board(size)
        for move in moves:
            board.play(move)
        probs = default.probabilities(board)
        for choice, used in (("auto", size in (9, 13, 19)), ("default", True)):
            s = search(choice, priors=0)
            s.run(board, playouts=30)
            stats = s.root_stats(board)
            if not used:
                assert {x.prior_visits for x in stats} == {0.0}
            elif choice == "auto" and size == 9:    # sqrt shape: strength * sqrt(P), all won,
                nine = auto.for_size(9).probabilities(board)  # P of the 9x9 model
                assert nine != probs and auto.for_size(19) is auto
                for x in stats:
                    assert math.isclose(x.prior_visits, 100 * math.sqrt(nine[x.move]), rel_tol=1e-9)
                    assert x.prior_wins == x.prior_visits
            else:
                assert {x.prior_visits for x in stats} == {MODEL_PRIOR_VISITS}, (size, used)
        assert search("auto").model_depth(board) == {9: 0, 13: 2, 19: 2}.get(size, 4)
        assert search("auto", model_depth=7).model_depth(board) == 7
        assert search("auto", model_prior=50).model_setting(board, "model_prior") == 50
    # GTP reports what the search uses: the prior's visits where it applies, else 0
    for size, prior, depth, shape in ((7, 0, 4, 0), (9, 100, 0, 1), (13, MODEL_PRIOR_VISITS, 2, 0),
                                      (19, MODEL_PRIOR_VISITS, 2, 0)):
        session = Session(size=size, search=Recipe(model="auto", policy_net="none").search_config())
        assert float(session.send("kata-get-param model_prior")) == prior
        assert float(session.send("kata-get-param model_depth")) == depth
        assert float(session.send("kata-get-param model_prior_shape")) == shape


def test_gtp_model_option_rejects_a_bad_file(tmp_path):
    result = CliRunner().invoke(main, ["gtp", "--model", str(tmp_path / "none.npz")])
    assert result.exit_code == 2 and "no such move model file" in result.output


def test_the_shipped_model_loads_and_matches_its_recorded_metadata(goban_games_dir):
    """The default model (trained on the goban and KGS games, which may be shipped) is of this
    code's format and features, and the Numba scorer on the goban validation games it stopped
    on gives back the validation log-likelihood the training path recorded for them."""
    model = M.open_model("default")
    meta = model.metadata
    assert meta["format"] == M.FORMAT and meta["version"] == M.FORMAT_VERSION
    assert meta["feature_version"] == F.FEATURE_VERSION
    assert "goban" in meta["training_data"]
    goban, = (v for k, v in meta["validation_by_source"].items() if "goban" in k)
    table = evaluate(model, MT.read_records([goban_games_dir]), split="validation")
    assert table["all"]["positions"] == goban["positions"]
    assert table["all"]["mean_log_p"] == pytest.approx(goban["log_likelihood"], abs=1e-9)
    assert M.open_model("none") is None


def _ladder_board(breaker):
    """The ladder of mcgo.tactics.ladder's example (9x9): black to play E5, an atari on the
    white stone D5 that chases it along the diagonal; white's B3 (``breaker``) breaks it."""
    board = mcgo.Board(9)
    for move in ["C5", "D5", "D6", "pass", "E4", "pass"]:
        board.play(move)
    if breaker:
        board.play("pass")
        board.play("B3")
    return board


@pytest.mark.parametrize("breaker", [False, True])
def test_ladder_flags_of_a_hand_worked_ladder_under_the_8_symmetries(breaker):
    board = _ladder_board(breaker)
    for s in range(8):
        image = mcgo.Board(9)
        image.setup(black=[map_point(p, s, 9) for p in board.stones(mcgo.WHITE)],   # colours swapped
                    white=[map_point(p, s, 9) for p in board.stones(mcgo.BLACK)])
        image.to_move = mcgo.WHITE
        atari = F.unpack(F.position_keys(image)[map_point(board.point("E5"), s, 9)])["atari"]
        other = F.unpack(F.position_keys(image)[map_point(board.point("D4"), s, 9)])["atari"]
        assert atari == 1 + (0 if breaker else F.LADDER_FLAG)     # a lone stone, no ko
        assert other in (1, 1 + F.LADDER_FLAG)                    # D4 ataris it too
        image.play(map_point(board.point("E5"), s, 9))            # the atari
        escape = F.unpack(F.position_keys(image)[map_point(board.point("D4"), s, 9)])["escape"]
        # D4 extends the stone the last move put in atari (value 1: one stone) to two
        # liberties, and the ladder catches it unless the breaker stands
        assert escape == 1 + (0 if breaker else F.LADDER_FLAG)
