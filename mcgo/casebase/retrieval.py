"""Retrieval kernels: popcount similarity of query codes against a contiguous code matrix.

The case base keeps the cases of each side to move in one contiguous block of rows, so
"only positions with the same side to move are compared" is a row range ``[start, stop)``.
Several queries (the 8 symmetric images of one position) are scored in the same pass, so
each case's words are read from memory once.

Ties go to the lower row (the earlier game and move), so results are reproducible.

>>> import numpy as np
>>> codes = np.array([[0b001], [0b011], [0b111]], dtype=np.uint64)
>>> query = np.array([[0b011]], dtype=np.uint64)
>>> index, score = np.empty(1, np.int64), np.empty(1, np.int64)
>>> best_matches(codes, 0, 3, query, index, score)
>>> int(index[0]), int(score[0])
(1, 2)
>>> index, score = np.empty((1, 2), np.int64), np.empty((1, 2), np.int64)
>>> top_matches(codes, 0, 3, query, index, score)
>>> index.tolist(), score.tolist()
([[1, 2]], [[2, 2]])
"""

from ..jit import kernel
from .codes import popcount64


@kernel
def best_matches(codes, start, stop, queries, best_index, best_score):
    """For each query row ``q``: the row of ``codes[start:stop]`` with the most bits in common
    (``best_index[q]``, -1 if the range is empty) and that count (``best_score[q]``)."""
    nq = queries.shape[0]
    words = codes.shape[1]
    for q in range(nq):
        best_index[q] = -1
        best_score[q] = -1
    for i in range(start, stop):
        for q in range(nq):
            s = 0
            for j in range(words):
                s += popcount64(codes[i, j] & queries[q, j])
            if s > best_score[q]:
                best_score[q] = s
                best_index[q] = i


@kernel
def top_matches(codes, start, stop, queries, top_index, top_score):
    """For each query row ``q``: the ``k = top_index.shape[1]`` best rows, best first
    (``top_index[q]``, padded with -1) and their scores (``top_score[q]``, padded with -1)."""
    nq = queries.shape[0]
    words = codes.shape[1]
    k = top_index.shape[1]
    for q in range(nq):
        for t in range(k):
            top_index[q, t] = -1
            top_score[q, t] = -1
    for i in range(start, stop):
        for q in range(nq):
            s = 0
            for j in range(words):
                s += popcount64(codes[i, j] & queries[q, j])
            if s <= top_score[q, k - 1]:
                continue
            t = k - 1
            while t > 0 and top_score[q, t - 1] < s:
                top_score[q, t] = top_score[q, t - 1]
                top_index[q, t] = top_index[q, t - 1]
                t -= 1
            top_score[q, t] = s
            top_index[q, t] = i
