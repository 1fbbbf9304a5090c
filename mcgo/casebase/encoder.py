"""From a position to its case code (and the codes of its 8 symmetric images).

>>> import mcgo
>>> encoder = PositionEncoder(19)
>>> board = mcgo.Board(19)
>>> board.play("Q16")
>>> code = encoder.code(board.pts)
>>> code.shape, int(similarity(code, code))
((17,), 361)
>>> codes = encoder.symmetric_codes(board.pts)
>>> sorted(int(similarity(code, c)) for c in codes)[-1]
361
"""

import numpy as np

from .codes import code_words, encode, encode_permuted, similarity  # noqa: F401 (doctest)
from .influence import DEFAULT_THRESHOLD, FLOW_STEPS, InfluenceScratch, classify, margin_units
from ..board.symmetry import SYMMETRIES, images


class PositionEncoder:
    """Influence map -> 3-bit code, for one board size and one set of parameters.

    Holds scratch arrays, so one encoder must not be shared between threads.
    """

    def __init__(self, size, threshold=DEFAULT_THRESHOLD, steps=FLOW_STEPS):
        self.size = size
        self.threshold = float(threshold)
        self.steps = int(steps)
        self.margin = margin_units(threshold)
        self.words = code_words(size)
        self._scratch = InfluenceScratch(size)
        self._images = images(size)

    def classes(self, pts):
        """EMPTY/BLACK/WHITE of every point, ``i = row * size + col`` (a fresh int8 array)."""
        return self._classify(pts).copy()

    def _classify(self, pts):
        s = self._scratch
        s.run(pts, self.steps)
        classify(pts, self.size, s.black, s.white, self.margin, s.classes)
        return s.classes

    def code(self, pts, out=None):
        """The code of a position (``pts`` of a board of this size) as uint64 words."""
        out = np.empty(self.words, dtype=np.uint64) if out is None else out
        encode(self._classify(pts), out)
        return out

    def symmetric_codes(self, pts):
        """(8, words): row ``s`` is the code of the position moved by symmetry ``s``."""
        classes = self._classify(pts)
        out = np.empty((SYMMETRIES, self.words), dtype=np.uint64)
        for s in range(SYMMETRIES):
            encode_permuted(classes, self._images[s], out[s])
        return out
