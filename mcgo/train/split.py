"""One key per game, and the split of games into train, validation and test by that key.

The key is a 64-bit hash of the game's set-up stones and moves (colours and points, in
order), taken as the smallest over the 8 symmetries of the board: the same game recorded
rotated or mirrored has the same key, so it is counted once (deduplication) and lands in
the same part of the split. The header (players, date, comments) does not count.

The split is by game, never by position: ``split_of(key)`` looks at the key alone, so it is
deterministic, needs no list of games, and a game stays in its part when more games are
added. Shares: :data:`TEST_PERCENT` test, :data:`VALIDATION_PERCENT` validation, the rest
train.

>>> from mcgo.sgf import read_game
>>> a = read_game(b"(;SZ[19];B[pd];W[dp];B[pp])")
>>> b = read_game(b"(;SZ[19];B[dd];W[pp];B[dp])")     # the same game, mirrored
>>> game_key(a) == game_key(b)
True
>>> split_of(game_key(a)) in SPLITS
True
"""

import hashlib

import numpy as np

from ..board import coords
from ..board.symmetry import SYMMETRIES, images

TRAIN, VALIDATION, TEST = "train", "validation", "test"
SPLITS = (TRAIN, VALIDATION, TEST)
TEST_PERCENT = 10
VALIDATION_PERCENT = 10
SPLIT_SALT = b"mcgo-split-1"    # a new salt is a new split: change it never, or say so


def _sequence(record):
    """The game as (kind, colour, row-major index) triples: set-ups first where they stand,
    then the moves; a pass is index -1."""
    size = record.size
    out = []

    def index(p):
        rc = coords.row_col(p, size)
        return -1 if rc is None else rc[0] * size + rc[1]

    for n in range(len(record.moves) + 1):
        setup = record.setups.get(n)
        if setup is not None:
            for kind, points in ((1, setup.black), (2, setup.white), (3, setup.empty)):
                out.extend((kind, 0, index(p)) for p in sorted(points))
        if n < len(record.moves):
            color, point = record.moves[n]
            out.append((0, int(color), index(point)))
    return np.array(out, dtype=np.int32).reshape(-1, 3)


def game_key(record):
    """The game's 64-bit key, the same under the 8 symmetries (see the module docstring)."""
    seq = _sequence(record)
    table = images(record.size)
    best = None
    for s in range(SYMMETRIES):
        moved = seq.copy()
        on_board = moved[:, 2] >= 0
        moved[on_board, 2] = table[s][moved[on_board, 2]]
        # Set-up stones of one node are a set: sort them again after the symmetry.
        moved = _sorted_setups(moved)
        digest = hashlib.blake2b(np.int32(record.size).tobytes() + moved.tobytes(),
                                 digest_size=8).digest()
        key = int.from_bytes(digest, "little")
        if best is None or key < best:
            best = key
    return best


def _sorted_setups(seq):
    """Runs of set-up rows (kind > 0) sorted by (kind, point); moves keep their order."""
    out = seq.copy()
    start = None
    for i in range(len(out) + 1):
        inside = i < len(out) and out[i, 0] > 0
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            block = out[start:i]
            out[start:i] = block[np.lexsort((block[:, 2], block[:, 0]))]
            start = None
    return out


def split_of(key):
    """``"train"``, ``"validation"`` or ``"test"`` for a game key."""
    bucket = int.from_bytes(hashlib.blake2b(SPLIT_SALT + int(key).to_bytes(8, "little"),
                                            digest_size=8).digest(), "little") % 100
    if bucket < TEST_PERCENT:
        return TEST
    if bucket < TEST_PERCENT + VALIDATION_PERCENT:
        return VALIDATION
    return TRAIN
