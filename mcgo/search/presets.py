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

import numpy as np

from .. import options

# Slots of the parameter vector: a named setting's is declared with it
# (:data:`mcgo.options.NAMED_SETTINGS`); these are the others and the kernels' names for all.
_SLOT = {name: setting.slot for name, setting in options.NAMED_SETTINGS.items()
         if setting.slot is not None}
P_EXPLORATION = _SLOT["exploration"]    # C in C * sqrt(ln(parent visits) / visits)
P_RAVE = _SLOT["rave"]                  # 1: blend AMAF values in
P_RAVE_EQUIV = _SLOT["rave_equiv"]      # visits at which MC and AMAF weigh alike (Silver's b^2 = 1 / equiv)
P_PRIORS = _SLOT["priors"]              # 1: virtual wins from playout knowledge at expansion
P_EXPAND_AFTER = _SLOT["expand_after"]  # a leaf is expanded once it has this many visits
P_KOMI = 5            # komi, plus the stones black placed minus white's under territory scoring
P_POLICY = 6          # playout policy number (mcgo.playout.dispatch)
P_SKIP_EYES = _SLOT["skip_eyes"]        # 1: never search filling one's own true eye
P_FIRST_PLAY = _SLOT["first_play"]      # value of an unvisited child without priors
P_VIRTUAL_LOSS = _SLOT["virtual_loss"]  # visits without wins put on a path while a thread plays it out
P_MODEL_PRIOR = _SLOT["model_prior"]    # virtual visits of the learned move model's prior (0: no model)
P_MODEL_DEPTH = _SLOT["model_depth"]    # ... only for children this many plies from the root or fewer (0: all)
P_MODEL_SHAPE = _SLOT["model_prior_shape"]  # how the model's probabilities become virtual wins (priors.set_model_priors)
P_TERRITORY = 13      # 1: territory scoring, each stone placed in the tree costs its side a point
NPARAMS = 14
assert sorted(list(_SLOT.values()) + [P_KOMI, P_POLICY, P_TERRITORY]) == list(range(NPARAMS))

THESIS_EXPLORATION = options.THESIS_EXPLORATION
STRONG_EXPLORATION = options.STRONG_EXPLORATION

THESIS = "thesis"
STRONG = "strong"
PRESETS = options.PRESETS
assert set(PRESETS) == {STRONG, THESIS}

# What makes a preset besides its named settings' values.
IDENTITY = {
    THESIS: dict(final_by="winrate", reuse_tree=False),
    STRONG: dict(final_by="visits", reuse_tree=True),
}


def describe_settings(preset):
    """One line per named setting: its name, its value in ``preset`` and its meaning."""
    check_preset(preset)
    lines = []
    for name, setting in options.NAMED_SETTINGS.items():
        value = setting.value(preset)
        shown = "(model default)" if value is None else f"{value:g}"
        lines.append(f"{name:<14} {shown:<16} {setting.help}")
    return "\n".join(lines)


def check_preset(preset):
    """ValueError naming the presets unless ``preset`` is one."""
    if preset not in IDENTITY:
        raise ValueError(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}")


def settings(preset):
    """The preset's settings by name: its identity and its named settings' values (but
    those chosen elsewhere, as the model's prior)."""
    check_preset(preset)
    out = dict(IDENTITY[preset])
    for name, setting in options.NAMED_SETTINGS.items():
        if setting.value(preset) is not None:
            out[name] = setting.value(preset)
    return out


def parameter_vector(preset, komi, policy, shared_tree=False, **overrides):
    """The float64 vector the search kernels read, for ``preset`` with some named settings
    replaced (for experiments: ``exploration=0.1``...). The virtual loss is used only when
    threads share a tree (``shared_tree``)."""
    s = settings(preset)
    s.update(overrides)
    params = np.zeros(NPARAMS, dtype=np.float64)
    for name, slot in _SLOT.items():
        params[slot] = s.get(name, 0.0)
    params[P_KOMI] = komi
    params[P_POLICY] = policy
    if not shared_tree:
        params[P_VIRTUAL_LOSS] = 0.0
    return params
