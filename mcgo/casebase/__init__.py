"""The case base (thesis chapters 7, 8.5, 8.6.1, 9.6, 9.7): professional positions indexed
by flow-influence codes, retrieved by popcount similarity, steering the opening search.

* :mod:`.influence`: flow influence and its classification (Numba);
* :mod:`.codes`: 3-bit one-hot codes packed into uint64 words, popcount;
* :mod:`.retrieval`: best and top-k kernels over the code matrix;
* :mod:`.base`: :class:`CaseBase` (retrieval, voting) and :class:`Match`;
* :mod:`.storage`: the versioned, memory-mapped file;
* :mod:`.indexing`: one game as cases (positions before moves 1..N);
* :mod:`.advisor`: the opening bonus for the search (:class:`OpeningAdvisor`);

Its builder (``mcgo build-casebase``: files, folders, archives, in parallel) is
:mod:`mcgo.train.casebase_build`; the picture of ``mcgo influence`` is
:mod:`mcgo.apps.casebase_picture`.

>>> import mcgo
>>> from mcgo.casebase import CaseBase, OpeningAdvisor
>>> from mcgo.sgf import read_game
>>> cb = CaseBase.from_records([read_game(b"(;SZ[19];B[pd];W[dp];B[pq];W[dd])")])
>>> advisor = OpeningAdvisor(cb)
>>> board = mcgo.Board(19)
>>> board.play("Q16")
>>> bonus, labels = advisor.advise(board)
>>> float(bonus[mcgo.from_gtp("D4", 19)]), labels[mcgo.from_gtp("D5", 19)]
(0.4, 'D4: 0.3 <bytes>')
"""

from .advisor import DEFAULT_BONUS_MOVES, OpeningAdvisor, bonus_for, bonus_map, default_casebase_path, open_casebase
from .base import DEFAULT_MAX_MOVES, DEFAULT_TOP_K, CaseBase, Match
from .influence import DEFAULT_THRESHOLD, FLOW_STEPS, influence_map, influence_sums
from .storage import CaseBaseError

__all__ = ["CaseBase", "Match", "CaseBaseError", "OpeningAdvisor",
           "influence_map", "influence_sums", "bonus_for", "bonus_map", "default_casebase_path",
           "open_casebase", "DEFAULT_THRESHOLD", "FLOW_STEPS", "DEFAULT_MAX_MOVES", "DEFAULT_TOP_K",
           "DEFAULT_BONUS_MOVES"]
