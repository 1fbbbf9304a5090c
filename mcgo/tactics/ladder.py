"""Ladders: whether a chain in atari can run, read move by move on copies of the position.

The question is always about one chain *in atari* with its owner (the defender) to move.
The reader plays the defender's only two ways out and the attacker's answers:

* the defender captures an attacker chain in atari next to it: counted as an escape
  (a capture gives liberties; reading on past it is left to the search);
* else it extends at its liberty: three or more liberties is an escape, one is capture;
* with exactly two, the attacker tries an atari at each of the two liberties in turn, and
  the ladder *works* when either atari leaves a chain that is captured in its turn.

This is the whole of a ladder (a net or a loose ladder is not read: the defender's chain must
be in atari at every step). The read stops after :data:`LADDER_BUDGET` attacker moves or
:data:`LADDER_DEPTH` attacker moves in a row and then counts as an escape: the reader only
says "captured" when it has read it out.

The positions of a read live in a *ladder space* made once per thread by
:func:`new_ladder_space` (one position per depth), so the kernels allocate nothing.

>>> import mcgo
>>> board = mcgo.Board(9)
>>> for move in ["C5", "D5", "D6", "pass", "E4", "pass", "E5"]:   # black E5: atari on D5
...     board.play(move)
>>> space = new_ladder_space(9)
>>> bool(ladder_captures(board.pts, board.info, board.zob, space, board.point("D5")))
True
>>> board.undo()
>>> for move in ["pass", "B3", "E5"]:                              # white B3 breaks the ladder
...     board.play(move)
>>> bool(ladder_captures(board.pts, board.info, board.zob, space, board.point("D5")))
False
"""

import numpy as np

from ..board.kernels import (COLOR, HEAD, LEGAL, LIBS, NFIELDS, NINFO, PASS, WIDTH,
                             copy_position, legality, play_legal)
from ..jit import allocating_kernel, kernel
from .liberties import (chain_liberties, extension_liberties, first_liberty, liberties_after,
                        touches_atari, two_liberties)

LADDER_DEPTH = 48       # attacker moves in a row kept as positions (a 19x19 ladder needs ~36)
LADDER_BUDGET = 96      # attacker moves tried in one read before it gives up (as an escape)

ESCAPED = 0             # the defender's chain gets out (or the read gave up)
CAPTURED = 1            # the defender's chain is captured
ATTACK = 2              # the defender extended to exactly two liberties: the attacker's turn

# Columns of the per-depth row of the ladder space's third array.
FIRST_LIB = 0           # the defender's two liberties after its extension
SECOND_LIB = 1
TRIED = 2               # how many of them the attacker has tried at this depth
MOVES = 3               # the attacker moves in a row up to this depth (LADDER_DEPTH's count)
SKIPPED = 4             # the tries that failing out of this depth adds to the budget
LADDER_COLUMNS = 5


@allocating_kernel
def new_ladder_space(size):
    """The work arrays of the ladder reader for a ``size`` board: ``(positions, infos,
    liberties)``, one position per depth of a read."""
    w = size + 2
    return (np.zeros((LADDER_DEPTH, NFIELDS, w * w), dtype=np.int32),
            np.zeros((LADDER_DEPTH, NINFO), dtype=np.int64),
            np.zeros((LADDER_DEPTH, LADDER_COLUMNS), dtype=np.int32))


@kernel
def defend(pts, info, zob, libs_row, stone):
    """The defender's move in a ladder position where the chain of ``stone`` is in atari and
    its owner to move, played in place: ESCAPED, CAPTURED, or ATTACK with the two liberties
    left in ``libs_row`` (and its TRIED count set to 0)."""
    w = info[WIDTH]
    head = pts[HEAD, stone]
    defender = pts[COLOR, head]
    if touches_atari(pts, w, head, 3 - pts[COLOR, head]):
        return ESCAPED
    lib = first_liberty(pts, w, head)
    if legality(pts, info, lib, defender) != LEGAL:
        return CAPTURED
    play_legal(pts, info, zob, lib, defender)
    head = pts[HEAD, stone]
    libs = pts[LIBS, head]
    if libs >= 3:
        return ESCAPED
    if libs <= 1:
        return CAPTURED
    chain_liberties(pts, w, head, libs_row)
    libs_row[TRIED] = 0
    return ATTACK


@kernel
def foreseen_defence(pts, w, head, atari, attacker, runs):
    """What :func:`defend` answers to ``attacker``'s legal atari at ``atari``, a liberty of
    the chain ``head`` (two liberties), where that is certain without playing it: ESCAPED
    when the atari's own chain is left in atari (the defender takes it); CAPTURED when the
    atari captures nothing, no attacker chain next to ``head`` is in atari and the
    defender's extension at its other liberty has ``runs`` (its
    :func:`~.liberties.extension_liberties` with ``atari`` taken) at most one liberty;
    else ATTACK: the read must play it. Spares the copy of the position in those cases."""
    libs_after, _ = liberties_after(pts, w, atari, attacker)
    if libs_after < 2:
        return ESCAPED
    if runs > 1 or touches_atari(pts, w, head, attacker):
        return ATTACK
    for q in (atari - 1, atari + 1, atari - w, atari + w):
        if pts[COLOR, q] == 3 - attacker and pts[LIBS, pts[HEAD, q]] == 1:
            return ATTACK       # the atari captures: liberties change around it
    return CAPTURED


@kernel
def atari_outcome(pts, info, stone, atari, other, attacker):
    """What ``attacker``'s atari at ``atari`` on the chain of ``stone`` (two liberties,
    ``atari`` and ``other``) comes to, where it is known without playing it: ESCAPED when
    it is no legal move or the defender gets out (its extension at ``other`` runs free, or
    :func:`foreseen_defence`), CAPTURED (:func:`foreseen_defence`), else ATTACK: to be
    played and read on."""
    if legality(pts, info, atari, attacker) != LEGAL:
        return ESCAPED
    runs = extension_liberties(pts, info[WIDTH], other, 3 - attacker, atari)
    if runs >= 3:
        return ESCAPED
    return foreseen_defence(pts, info[WIDTH], pts[HEAD, stone], atari, attacker, runs)


@kernel
def read_ladder(space, zob, stone):
    """Read the ladder from depth 0 of ``space`` (the chain of ``stone`` in atari, its owner
    to move): True when the chain is captured whatever it does.

    Depth by depth the attacker tries the defender's two liberties in turn, each on a copy
    of the position, so that the other can still be tried from it. When the other is known
    to fail (:func:`atari_outcome`) or has been tried, the atari is played in place instead
    (most ladder steps: one side lets the defender run): the depth's row then stands for
    the next attacker move, and counts the try it skipped so that the budget runs out as
    in a read of every try."""
    positions, infos, libs = space
    outcome = defend(positions[0], infos[0], zob, libs[0], stone)
    if outcome != ATTACK:
        return outcome == CAPTURED
    libs[0, MOVES] = 0
    libs[0, SKIPPED] = 0
    attacker = 3 - positions[0][COLOR, stone]
    depth = 0
    tried = 0
    while True:
        row = libs[depth]
        if row[TRIED] >= 2:                     # both ataris fail here: back up one level
            tried += row[SKIPPED]
            if depth == 0 or tried > LADDER_BUDGET:
                return False
            depth -= 1
            libs[depth, TRIED] += 1
            continue
        atari = row[row[TRIED]]
        tried += 1
        if tried > LADDER_BUDGET or row[MOVES] + 1 >= LADDER_DEPTH:
            return False
        other = row[SECOND_LIB] if atari == row[FIRST_LIB] else row[FIRST_LIB]
        pts = positions[depth]
        outcome = atari_outcome(pts, infos[depth], stone, atari, other, attacker)
        if outcome == ATTACK:
            in_place = row[TRIED] == 1 or \
                atari_outcome(pts, infos[depth], stone, other, atari, attacker) == ESCAPED
            moves = row[MOVES] + 1
            skipped = row[SKIPPED] + 1 - row[TRIED] if in_place else 0
            child = depth if in_place else depth + 1
            if not in_place:
                copy_position(pts, infos[depth], positions[child], infos[child])
            play_legal(positions[child], infos[child], zob, atari, attacker)
            outcome = defend(positions[child], infos[child], zob, libs[child], stone)
            if outcome == ATTACK:
                libs[child, MOVES] = moves
                libs[child, SKIPPED] = skipped
                depth = child
                continue
            if outcome == ESCAPED and in_place:
                row[TRIED] = 2                  # the other try is known to fail (or done)
                row[SKIPPED] = skipped
                continue
        if outcome == CAPTURED:
            return True
        row[TRIED] += 1


@kernel
def ladder_captures(pts, info, zob, space, stone):
    """True when the chain of ``stone``, in atari with its owner to move, is captured in a
    ladder however it runs. The position is not changed."""
    w = info[WIDTH]
    defender = pts[COLOR, stone]
    if extension_liberties(pts, w, first_liberty(pts, w, pts[HEAD, stone]), defender, PASS) >= 3:
        return False        # the cheap test that spares most reads: the extension runs free
    positions, infos, _ = space
    copy_position(pts, info, positions[0], infos[0])
    return read_ladder(space, zob, stone)


@kernel
def atari_starts_ladder(pts, info, zob, space, stone, atari, attacker):
    """True when ``attacker`` playing the legal move ``atari`` puts the chain of ``stone``
    (two liberties) in atari and that chain is then captured in a ladder. The position is not
    changed. An atari that is itself in atari is not counted (the defender takes it)."""
    positions, infos, _ = space
    w = info[WIDTH]
    head = pts[HEAD, stone]
    first, second = two_liberties(pts, w, head)
    runs = extension_liberties(pts, w, second if atari == first else first, 3 - attacker, atari)
    if runs >= 3:
        return False
    libs_after, _ = liberties_after(pts, w, atari, attacker)
    if libs_after < 2:
        return False
    if runs <= 1 and not touches_atari(pts, w, head, 3 - pts[COLOR, head]):
        return True         # the extension is itself in atari: captured, no need to read
    copy_position(pts, info, positions[0], infos[0])
    play_legal(positions[0], infos[0], zob, atari, attacker)
    if positions[0][LIBS, positions[0][HEAD, stone]] != 1:
        return False
    return read_ladder(space, zob, stone)


@kernel
def ladder_attack(pts, info, zob, space, last, color):
    """An atari by ``color`` on the chain of the opponent's last move ``last``, when that
    chain has two liberties and the atari starts a ladder that captures it; PASS if none."""
    if last <= 0 or pts[COLOR, last] != 3 - color:
        return PASS
    head = pts[HEAD, last]
    if pts[LIBS, head] != 2:
        return PASS
    first, second = two_liberties(pts, info[WIDTH], head)
    for atari in (first, second):
        if legality(pts, info, atari, color) == LEGAL \
                and atari_starts_ladder(pts, info, zob, space, last, atari, color):
            return atari
    return PASS


@kernel
def ladder_threat(pts, info, zob, space, last, color):
    """The head of a chain of ``color`` next to the opponent's last move ``last`` that has two
    liberties and dies in a ladder if the opponent ataris it next; PASS if there is none.
    (The answer is to make it more liberties first.)"""
    if last <= 0:
        return PASS
    w = info[WIDTH]
    opp = 3 - color
    read = PASS                 # a chain touching the last move twice is read once
    for q in (last - 1, last + 1, last - w, last + w):
        if pts[COLOR, q] != color:
            continue
        head = pts[HEAD, q]
        if pts[LIBS, head] != 2 or head == read:
            continue
        read = head
        first, second = two_liberties(pts, w, head)
        for atari in (first, second):
            if legality(pts, info, atari, opp) == LEGAL \
                    and atari_starts_ladder(pts, info, zob, space, q, atari, opp):
                return head
    return PASS
