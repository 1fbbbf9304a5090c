"""UCT search over the playouts (thesis 8.3, 9.3), in preallocated arrays.

* :mod:`.tree`: the node pool (arrays) and its layout;
* :mod:`.presets`: ``thesis`` and ``strong`` as a parameter vector;
* :mod:`.priors`: prior knowledge at expansion;
* :mod:`.opening`: opening knowledge at the root (the empty corners first);
* :mod:`.kernels`: selection, expansion, playout and backup (Numba);
* :mod:`.search`: :class:`Search` (limits, threads, tree reuse, the final choice);
* :mod:`.results`: what a search found (:class:`MoveStats`, :class:`SearchResult`);
* :mod:`.timecontrol`: how long to think under GTP time settings;
* :mod:`.player`: how a move is chosen: limits, case-base advice, pass and resign;
* :mod:`.status`: dead stones, seki and the final score, one estimate per position;
* :mod:`.structure`: the position's chains, regions, Benson life, seki and nakade, for
  :mod:`.status`;
"""

from .presets import PRESETS, STRONG, THESIS
from .search import MoveStats, Search, SearchResult

__all__ = ["Search", "SearchResult", "MoveStats", "PRESETS", "STRONG", "THESIS"]
