"""UCT search over the playouts (thesis 8.3, 9.3), in preallocated arrays.

* :mod:`.tree`: the node pool (arrays) and its layout;
* :mod:`.presets`: ``thesis`` and ``strong`` as a parameter vector;
* :mod:`.priors`: prior knowledge at expansion;
* :mod:`.opening`: opening knowledge at the root (the empty corners first);
* :mod:`.kernels`: selection, expansion, playout and backup (Numba);
* :mod:`.search`: :class:`Search` (limits, threads, tree reuse, the final choice);
* :mod:`.results`: what a search found (:class:`MoveStats`, :class:`SearchResult`);

The players that use it are in :mod:`mcgo.engine`, the end-of-game judge in
:mod:`mcgo.judge`.
"""

from .presets import PRESETS, STRONG, THESIS
from .search import MoveStats, Search, SearchResult

__all__ = ["Search", "SearchResult", "MoveStats", "PRESETS", "STRONG", "THESIS"]
