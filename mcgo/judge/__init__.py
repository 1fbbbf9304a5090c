"""The end-of-game judge: which chains are dead, which live in seki, and the final score.

* :mod:`.structure`: the position's chains, regions, Benson life, seki and nakade;
* :mod:`.status`: one estimate per position from the playouts' (or a tree search's)
  ownership, with the learned models' second opinions where given.

The judge sits above the search: with ``search`` simulations its ownership map is a tree
search's (:func:`.status.search_ownership`).
"""
