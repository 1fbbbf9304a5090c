"""``auto`` with the tactical playout in place of the pattern playout: on 19x19 the
thesis's random fill for the first :data:`.auto_policy.AUTO_FILL_MOVES` moves of the game,
then the tactical playout (:mod:`.tactical_policy`), which also plays on smaller boards.

Why: on 19x19 the tactical playout won 15-7 against ``auto`` at 5,000 simulations each but
lost 4-7 at 1 s a move, where ``auto`` runs some 2.5 times the simulations, and from the
empty board to move 40 it races the tactical reads with a fill that costs a fraction of
them. This policy keeps that fill and reads the fights after it; its A/B is in
benchmarks/journal/.
"""

from ..jit import kernel
from . import fill_policy, tactical_policy
from .auto_policy import uses_fill


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """A fill playout where ``auto`` plays one (:func:`.auto_policy.uses_fill`), else a
    tactical playout."""
    if uses_fill(info):
        return fill_policy.play_out(pts, info, zob, pat3, work, rng, owner, record, model)
    return tactical_policy.play_out(pts, info, zob, pat3, work, rng, owner, record, model)
