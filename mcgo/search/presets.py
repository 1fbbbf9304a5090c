"""The two ways of searching, as a parameter vector the kernels read.

``thesis``: section 8.3 of the thesis exactly: every node scored by eq. 8.1,
``wins/plays + sqrt(ln(parent.plays) / (5 * plays))`` (+ the case-base bonus), a node
expanded at its second visit, no prior knowledge, no AMAF, the final move by the highest
win rate (+ bonus).

``strong``: what the strong Monte Carlo engines of 2008-2012 do: RAVE (Gelly and Silver's
AMAF blended in with Silver's minimum-error weight), prior knowledge from the playout rules as
virtual wins and losses at expansion, expansion after a few visits, the final move by visits,
and the tree kept between moves.
"""

import math

import numpy as np

from .. import options

# Slots of the parameter vector.
P_EXPLORATION = 0     # C in C * sqrt(ln(parent visits) / visits)
P_RAVE = 1            # 1: blend AMAF values in
P_RAVE_EQUIV = 2      # visits at which MC and AMAF weigh alike (Silver's b^2 = 1 / equiv)
P_PRIORS = 3          # 1: virtual wins from playout knowledge at expansion
P_EXPAND_AFTER = 4    # a leaf is expanded once it has this many visits
P_KOMI = 5            # komi, plus the stones black placed minus white's under territory scoring
P_POLICY = 6          # playout policy number (mcgo.playout.dispatch)
P_SKIP_EYES = 7       # 1: never search filling one's own true eye
P_FIRST_PLAY = 8      # value of an unvisited child without priors
P_VIRTUAL_LOSS = 9    # visits without wins put on a path while a thread plays it out
P_MODEL_PRIOR = 10    # virtual visits of the learned move model's prior (0: no model)
P_MODEL_DEPTH = 11    # ... only for children this many plies from the root or fewer (0: all)
P_MODEL_SHAPE = 12    # how the model's probabilities become virtual wins (priors.set_model_priors)
P_WIDEN = 13          # progressive widening: children open at first, by prior (0: all, no widening)
P_WIDEN_VISITS = 14   # ... one more child at this many visits of the node,
P_WIDEN_FACTOR = 15   # ... and one more each time the visits grow by this factor
P_SCORE_WEIGHT = 16   # share of a playout's value from its score (playout.scoring.black_value)
P_VITAL_PRIOR = 17    # virtual wins of the vital point of a small eyespace (priors.set_priors)
P_TERRITORY = 18      # 1: territory scoring, each stone placed in the tree costs its side a point
NPARAMS = 19

THESIS_EXPLORATION = math.sqrt(1.0 / 5.0)  # eq. 8.1: sqrt(ln(parent plays) / (5 * plays))
# Beside RAVE and the priors a small UCT term still matters: without it a move whose AMAF
# value the playouts spoil is never tried (Fuego's 9x9 suites: 315 -> 327 of 499 at 0.05);
# 0.1 found as many but lost in games (benchmarks/RESULTS.md, "A small exploration term").
STRONG_EXPLORATION = 0.05

THESIS = "thesis"
STRONG = "strong"
PRESETS = options.PRESETS
assert set(PRESETS) == {STRONG, THESIS}

SETTINGS = {
    THESIS: dict(exploration=THESIS_EXPLORATION, rave=0, rave_equiv=0.0, priors=0,
                 expand_after=1, skip_eyes=0, first_play=1e9, model_depth=0, model_prior_shape=0,
                 widen=0, widen_visits=50.0, widen_factor=1.3, score_weight=0.0, vital_prior=0.0,
                 final_by="winrate", reuse_tree=False, virtual_loss=1.0, bonus_visits=0.0,
                 corner_prior=0.0),
    STRONG: dict(exploration=STRONG_EXPLORATION, rave=1, rave_equiv=1000.0, priors=1,
                 expand_after=2, skip_eyes=1, first_play=1.0, model_depth=4, model_prior_shape=0,
                 widen=0, widen_visits=50.0, widen_factor=1.3, score_weight=0.0, vital_prior=0.0,
                 final_by="visits", reuse_tree=True, virtual_loss=1.0, bonus_visits=0.0,
                 corner_prior=0.0),
}


def describe_settings(preset):
    """One line per named setting: its name, its value in ``preset`` and its meaning."""
    values = settings(preset)
    values.setdefault("model_prior", None)
    lines = []
    for name, (_, meaning) in options.NAMED_SETTINGS.items():
        value = values.get(name)
        shown = "(model default)" if value is None else f"{value:g}"
        lines.append(f"{name:<14} {shown:<16} {meaning}")
    return "\n".join(lines)


def settings(preset):
    try:
        return dict(SETTINGS[preset])
    except KeyError:
        raise ValueError(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}") from None


def parameter_vector(preset, komi, policy, shared_tree=False, **overrides):
    """The float64 vector the search kernels read, for ``preset`` with some settings
    replaced (for experiments: ``exploration=0.1``...). The virtual loss is used only when
    threads share a tree (``shared_tree``)."""
    s = settings(preset)
    s.update(overrides)
    params = np.zeros(NPARAMS, dtype=np.float64)
    params[P_EXPLORATION] = s["exploration"]
    params[P_RAVE] = s["rave"]
    params[P_RAVE_EQUIV] = s["rave_equiv"]
    params[P_PRIORS] = s["priors"]
    params[P_EXPAND_AFTER] = s["expand_after"]
    params[P_KOMI] = komi
    params[P_POLICY] = policy
    params[P_SKIP_EYES] = s["skip_eyes"]
    params[P_FIRST_PLAY] = s["first_play"]
    params[P_VIRTUAL_LOSS] = s["virtual_loss"] if shared_tree else 0.0
    params[P_MODEL_PRIOR] = s.get("model_prior", 0.0)
    params[P_MODEL_DEPTH] = s["model_depth"]
    params[P_MODEL_SHAPE] = s["model_prior_shape"]
    if s["widen"] and (s["widen_visits"] <= 0 or s["widen_factor"] <= 1):
        raise ValueError("widening needs widen_visits > 0 and widen_factor > 1")
    params[P_WIDEN] = s["widen"]
    params[P_WIDEN_VISITS] = s["widen_visits"]
    params[P_WIDEN_FACTOR] = s["widen_factor"]
    for name, top in options.SETTING_MAXIMA.items():
        if s[name] > top:
            raise ValueError(f"{name} must be at most {top:g}")
    params[P_SCORE_WEIGHT] = s["score_weight"]
    params[P_VITAL_PRIOR] = s["vital_prior"]
    return params
