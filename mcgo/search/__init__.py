"""UCT search over the playouts (thesis 8.3, 9.3), in preallocated arrays.

* :mod:`.tree`: the node pool (arrays) and its layout;
* :mod:`.presets`: ``thesis`` and ``strong`` as a parameter vector;
* :mod:`.priors`: prior knowledge at expansion;
* :mod:`.netprior`: the policy net's prior, at the root and at nodes with enough visits;
* :mod:`.kernels`: selection, expansion, playout and backup (Numba);
* :mod:`.search`: :class:`Search` (limits, threads, tree reuse, the final choice);
* :mod:`.control`: when a search stops (playouts, clock, settled best move);
* :mod:`.movefilter`: the moves a search may not try (the GUIs' allow and avoid);
* :mod:`.results`: what a search found (:class:`MoveStats`, :class:`SearchResult`);
* :mod:`.report`: what the trees show beyond a result (the root's win rate, the tree's top);

The players that use it are in :mod:`mcgo.engine`, the end-of-game judge in
:mod:`mcgo.judge`.
"""

from .presets import PRESETS, STRONG, THESIS
from .results import MoveStats, SearchResult
from .search import Search

__all__ = ["Search", "SearchResult", "MoveStats", "PRESETS", "STRONG", "THESIS"]
