"""Old import path: chain status lives in :mod:`.status`, the choice of a move (pass and
resign) in :mod:`.player`. Re-exported here so that existing imports keep working."""

from .player import best_non_pass, pick_move, should_resign  # noqa: F401
from .status import (Verdict, chain_means, chains, dame_left, estimate, is_settled,  # noqa: F401
                     judge, owner_from_sum, score_without)
