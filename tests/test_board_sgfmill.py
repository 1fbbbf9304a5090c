"""The board against sgfmill's board, move by move, in long random games.

sgfmill (written by Matthew Woodcraft, not by anyone on this project) is the reference for
the stones, the captures, the simple-ko point and the area count. Its board allows suicide
and knows no superko, so it only ever receives moves our board accepts; the moves our board
refuses are judged against it on a throw-away copy instead:

* occupied  - sgfmill has a stone there;
* ko        - the point is the simple-ko point sgfmill returned for the last move, and the
              player is the one whose stone was just taken;
* suicide   - on sgfmill's copy the played stone is gone after the move;
* superko   - on sgfmill's copy the whole board after the move equals one seen earlier.

After every move the whole board is compared (sgfmill's list of rows against ours turned
into the same form), the stones each side lost, the ko point, and ``check_consistency``
(chains, sizes, liberties, empty list and Zobrist hash recomputed from scratch) must be 0.

The seeded games play at least 200,000 moves in all (the issue's minimum); ``MOVE_BUDGET``
says how they split over the sizes.
"""

import random

import numpy as np
import pytest
import sgfmill.boards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcgo
from mcgo.board import coords, opponent
from mcgo.board import kernels as K

SGFMILL_COLOUR = {mcgo.BLACK: "b", mcgo.WHITE: "w"}
# Our COLOR row turned into sgfmill's cell values in one numpy gather.
CELL = np.array([None, "b", "w", None], dtype=object)

# Moves per board size in the seeded games: 210,000 in all, at least the 200,000.
MOVE_BUDGET = {9: 100_000, 13: 55_000, 19: 55_000}
SEEDS = {9: 9009, 13: 1313, 19: 1919}


def position_key(rows):
    """A hashable copy of an sgfmill board's rows."""
    return tuple(map(tuple, rows))


class Lockstep:
    """One game played on mcgo.Board and sgfmill.boards.Board side by side."""

    def __init__(self, size, superko=True):
        self.size = size
        self.width = size + 2
        self.board = mcgo.Board(size, superko=superko)
        self.ref = sgfmill.boards.Board(size)
        # sgfmill's simple-ko point after the last move and the colour it binds (the player
        # whose stone was taken), or None.
        self.ref_ko = None
        self.ref_ko_colour = None
        self.ref_count = {"b": 0, "w": 0}
        self.seen = {position_key(self.ref.board)}
        self.stats = {"moves": 0, "passes": 0, "captures": 0, "kos": 0, "occupied": 0,
                      "ko": 0, "suicide": 0, "superko": 0}

    # ------------------------------------------------------------- comparison
    def our_rows(self):
        """Our stones as sgfmill's rows: row 0 at the bottom, 'b' / 'w' / None."""
        w = self.width
        return CELL[self.board.pts[K.COLOR].reshape(w, w)[1:-1, 1:-1]].tolist()

    def check_same(self):
        board = self.board
        assert self.our_rows() == self.ref.board, f"boards differ after {board.moves[-1:]}:\n{board}"
        assert K.check_consistency(board.pts, board.info, board.zob) == 0
        expected_ko = K.PASS if self.ref_ko is None else coords.from_sgfmill(self.ref_ko, self.size)
        assert int(board.info[K.KO_POINT]) == expected_ko
        if self.ref_ko is not None:
            assert int(board.info[K.KO_COLOR]) == (mcgo.BLACK if self.ref_ko_colour == "b" else mcgo.WHITE)
        assert self.size * self.size - int(board.info[K.NEMPTY]) == self.ref_count["b"] + self.ref_count["w"]
        # The last move the playouts' shape steps look next to (a pass is PASS).
        points = [p for _, p in board.moves]
        assert int(board.info[K.LAST_MOVE]) == (points[-1] if points else -1)

    def ref_after(self, rc, colour):
        """A copy of sgfmill's board after the move, and the returned ko point."""
        trial = self.ref.copy()
        ko = trial.play(rc[0], rc[1], colour)
        return trial, ko

    # ------------------------------------------------------------------ moves
    def pass_move(self, color):
        self.board.play(mcgo.PASS, color)
        self.ref_ko = self.ref_ko_colour = None  # any move, a pass too, lifts the simple ko
        self.stats["passes"] += 1
        self.stats["moves"] += 1
        self.check_same()

    def try_move(self, p, color):
        """Offer ``color`` at point ``p`` to our board and judge its answer against sgfmill.
        Returns True when the move was legal (and is now played on both boards)."""
        board, ref = self.board, self.ref
        rc = coords.to_sgfmill(p, self.size)
        colour = SGFMILL_COLOUR[color]
        other = "w" if colour == "b" else "b"
        reason = board.legality(p, color)
        is_ko_retake = rc == self.ref_ko and colour == self.ref_ko_colour
        if reason is not None:
            self.stats[reason] += 1
            with pytest.raises(mcgo.IllegalMove) as refused:
                board.play(p, color)
            assert refused.value.reason == reason
            if reason == "occupied":
                assert ref.get(*rc) is not None
                return False
            assert ref.get(*rc) is None, f"{coords.to_gtp(p, self.size)} refused as {reason} but empty"
            if reason == "ko":
                assert is_ko_retake
                return False
            assert not is_ko_retake
            trial, _ = self.ref_after(rc, colour)
            if reason == "suicide":
                assert trial.get(*rc) is None, "refused as suicide, but sgfmill's stone survives"
            else:
                assert reason == "superko" and board.superko
                assert trial.get(*rc) == colour
                assert position_key(trial.board) in self.seen, "refused as superko, but the position is new"
            return False

        # Legal for us: it must be legal by the reference too.
        assert ref.get(*rc) is None
        assert not is_ko_retake, "a simple-ko retake was accepted"
        captures_before = board.captures(color)
        board.play(p, color)
        self.ref_ko = ref.play(rc[0], rc[1], colour)
        self.ref_ko_colour = other if self.ref_ko is not None else None
        assert ref.get(*rc) == colour, "accepted a suicide"
        before = self.ref_count[other]
        self.ref_count[colour] = sum(row.count(colour) for row in ref.board)
        self.ref_count[other] = sum(row.count(other) for row in ref.board)
        taken = before - self.ref_count[other]
        assert board.captures(color) - captures_before == taken
        key = position_key(ref.board)
        if board.superko:
            assert key not in self.seen, "accepted a move that repeats a position"
        self.seen.add(key)
        self.stats["moves"] += 1
        self.stats["captures"] += taken
        self.stats["kos"] += self.ref_ko is not None
        self.check_same()
        return True

    def finish(self):
        """End-of-game checks: captures per side and the area count against sgfmill."""
        board = self.board
        # Every stone a side captured is a stone the other side lost; the totals agree with the
        # stones that were played minus those on the board.
        played = {c: sum(1 for col, p in board.moves if col == c and p != mcgo.PASS)
                  for c in (mcgo.BLACK, mcgo.WHITE)}
        for c, colour in SGFMILL_COLOUR.items():
            lost = played[c] - self.ref_count[colour]
            assert board.captures(opponent(c)) == lost
        assert board.area() == self.ref.area_score()


def own_eye(board, p, color):
    """A point whose every neighbour on the board is ``color``'s stone."""
    w = board.size + 2
    for q in (p - 1, p + 1, p - w, p + w):
        c = board.pts[K.COLOR, q]
        if c != color and c != K.OFFBOARD:
            return False
    return True


def candidate_order(board, rng, nempty):
    """Empty points in random order, each once: a few random draws first (cheap when most
    points are legal), then the rest shuffled."""
    tried = set()
    for _ in range(min(8, nempty)):
        p = int(board.pts[K.EMPTIES, rng.randrange(nempty)])
        if p not in tried:
            tried.add(p)
            yield p
    tail = [int(q) for q in board.pts[K.EMPTIES, :nempty] if int(q) not in tried]
    rng.shuffle(tail)
    yield from tail


def random_game(game, rng, max_moves, fill_eyes, out_of_turn=0.0, pass_rate=0.0):
    """Play random moves until ``max_moves`` or two passes.

    Each move offers random empty points until one is legal, so illegal tries (suicide, ko,
    superko) are judged on the way; sometimes it first offers the ko point on purpose. With
    ``fill_eyes`` False a side never fills its own one-point eye, so the game ends with every
    empty point an eye and the area count is meaningful.
    """
    board = game.board
    passes = 0
    while game.stats["moves"] < max_moves and passes < 2:
        color = board.to_move
        if out_of_turn and rng.random() < out_of_turn:
            color = opponent(color)
        ko = int(board.info[K.KO_POINT])
        if ko != K.PASS and int(board.info[K.KO_COLOR]) == color and rng.random() < 0.5:
            assert not game.try_move(ko, color)  # the retake must be refused as ko
        if pass_rate and rng.random() < pass_rate:
            game.pass_move(color)
            passes += 1
            continue
        played = False
        nempty = int(board.info[K.NEMPTY])
        # A few random draws find a legal move cheaply; when they fail, go through every
        # empty point in random order, so a pass always means that no move was left.
        for p in candidate_order(board, rng, nempty):
            if not fill_eyes and own_eye(board, p, color):
                continue
            if game.try_move(p, color):
                played = True
                break
        if played:
            passes = 0
        else:
            game.pass_move(color)
            passes += 1


@pytest.mark.slow
@pytest.mark.parametrize("size", sorted(MOVE_BUDGET))
def test_random_games_match_sgfmill(size):
    """Seeded random games on 9x9, 13x13 and 19x19 until the size's move budget is spent."""
    rng = random.Random(SEEDS[size])
    budget = MOVE_BUDGET[size]
    total = {}
    games = 0
    while total.get("moves", 0) < budget:
        # Half the games fill eyes (long, capture-heavy games on a full board), half do not
        # (games that end with both sides passing, so the final area is checked too).
        fill_eyes = games % 2 == 0
        game = Lockstep(size)
        left = budget - total.get("moves", 0)
        # Games cut at 1.5 * size**2 moves: longer eye-filling games build ever larger
        # chains, which mostly slow sgfmill down (it floods every chain it touches).
        random_game(game, rng, min(left, 3 * size * size // 2), fill_eyes,
                    out_of_turn=0.02, pass_rate=0.002)
        game.finish()
        for k, v in game.stats.items():
            total[k] = total.get(k, 0) + v
        games += 1
    print(f"{size}x{size}: {games} games {total}")
    # The games must have exercised what they claim to check.
    assert total["moves"] >= budget
    assert total["captures"] > budget // 10
    assert total["kos"] > 0 and total["ko"] > 0 and total["suicide"] > 0


# ------------------------------------------------------------------ hypothesis
# Adversarial games on small boards: Hypothesis picks each move, and can prefer captures,
# ko retakes, suicide attempts, passes and out-of-turn moves, then shrinks any failure to a
# short game.
MOVE = st.tuples(
    st.sampled_from(["any", "any", "capture", "capture", "self_atari", "ko", "pass"]),
    st.integers(min_value=0, max_value=10_000),
    st.booleans(),  # out of turn
)


def candidate_points(board, kind, color):
    """Empty points fitting ``kind``, judged from the stones alone (neighbours in atari)."""
    w = board.size + 2
    empties = sorted(int(q) for q in board.pts[K.EMPTIES, :int(board.info[K.NEMPTY])])
    if kind == "any":
        return empties
    out = []
    for p in empties:
        for q in (p - 1, p + 1, p - w, p + w):
            c = board.pts[K.COLOR, q]
            if c in (mcgo.BLACK, mcgo.WHITE) and board.pts[K.LIBS, board.pts[K.HEAD, q]] <= 2:
                if (kind == "capture") == (c != color):
                    out.append(p)
                    break
    return out or empties


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(size=st.sampled_from([2, 3, 4, 5, 6, 7]), moves=st.lists(MOVE, max_size=200),
       superko=st.booleans())
def test_adversarial_games_match_sgfmill(size, moves, superko):
    game = Lockstep(size, superko=superko)
    board = game.board
    for kind, pick, out_of_turn in moves:
        color = opponent(board.to_move) if out_of_turn else board.to_move
        if kind == "pass":
            game.pass_move(color)
            continue
        if kind == "ko":
            if board.ko_point is None:
                continue
            points = [board.ko_point]
        else:
            points = candidate_points(board, kind, color)
        if not points:
            continue
        # Offer points from the picked one on until one is legal: the refusals are checked too.
        for i in range(len(points)):
            if game.try_move(points[(pick + i) % len(points)], color):
                break
    game.finish()
