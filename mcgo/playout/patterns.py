"""The MoGo 3x3 shapes (Gelly, Wang, Munos and Teytaud 2006, figure 2) as a lookup table.

A point's neighbourhood is coded in 16 bits, 2 bits per neighbour holding the neighbour's
colour (EMPTY 0, BLACK 1, WHITE 2, OFFBOARD 3), neighbours in the order of
``NEIGHBOUR_OFFSETS``: top-left, top, top-right, left, right, bottom-left, bottom,
bottom-right. ``pattern_table()[code]`` is 1 when a shape matches in any of the 8 symmetries
and either colouring, so the playout looks a point up instead of matching shape by shape.

Shape letters, centre = the candidate move (always empty):
``X`` one colour, ``O`` the other, ``.`` empty, ``x`` not X (empty or O), ``o`` not O,
``#`` off the board, ``?`` anything.

>>> table = pattern_table()
>>> int(table[neighbourhood_code(["XOX", "...", "..."])])  # enclosing hane
1
>>> int(table[neighbourhood_code(["OXO", "...", "..."])])  # the same, colours swapped
1
>>> int(table[neighbourhood_code(["...", "...", "..."])])  # nothing around: no shape
0
"""

import numpy as np

from ..board.kernels import BLACK, EMPTY, OFFBOARD, WHITE

# (name, rows top to bottom) of the shapes of the paper.
MOGO_SHAPES = [
    ("hane: enclosing hane", ["XOX",
                              "...",
                              "???"]),
    ("hane: non-cutting hane", ["XO.",
                                "...",
                                "?.?"]),
    ("hane: magari", ["XO?",
                      "X..",
                      "x.?"]),
    ("hane: katatsuke", [".O.",
                         "X..",
                         "..."]),
    ("cut1: unprotected cut", ["XO?",
                               "O.o",
                               "?o?"]),
    ("cut1: peeped cut", ["XO?",
                          "O.X",
                          "???"]),
    ("cut2: de", ["?X?",
                  "O.O",
                  "ooo"]),
    ("cut: keima", ["OX?",
                    "o.O",
                    "???"]),
    ("edge: chase", ["X.?",
                     "O.?",
                     "##?"]),
    ("edge: block side cut", ["OX?",
                              "X.O",
                              "###"]),
    ("edge: block side connection", ["?X?",
                                     "x.O",
                                     "###"]),
    ("edge: sagari", ["?XO",
                      "x.x",
                      "###"]),
    ("edge: cut", ["?OX",
                   "X.O",
                   "###"]),
]

# Cells of the 3x3 grid (row, col, top row first) in code order, centre left out.
CODE_CELLS = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]

LETTER_COLOURS = {
    ".": (EMPTY,),
    "X": (BLACK,),
    "O": (WHITE,),
    "x": (EMPTY, WHITE),
    "o": (EMPTY, BLACK),
    "#": (OFFBOARD,),
    "?": (EMPTY, BLACK, WHITE, OFFBOARD),
}
SWAP_LETTERS = str.maketrans("XOxo", "OXox")


def neighbourhood_offsets(width):
    """Index offsets of the 8 neighbours in code order, for a board of this width (size+2).
    Row 0 is the bottom of the board, so 'top' is ``+width``."""
    return [width - 1, width, width + 1, -1, 1, -width - 1, -width, -width + 1]


def symmetries(rows):
    """The 8 rotations and reflections of a 3x3 shape."""
    grid = [list(r) for r in rows]
    out = []
    for _ in range(4):
        grid = [list(r) for r in zip(*grid[::-1])]  # rotate a quarter turn
        out.append(["".join(r) for r in grid])
        out.append(["".join(r[::-1]) for r in grid])  # and its mirror image
    return out


def neighbourhood_code(rows):
    """Code of a concrete 3x3 neighbourhood (letters ``.XO#`` only)."""
    colour = {".": EMPTY, "X": BLACK, "O": WHITE, "#": OFFBOARD}
    return sum(colour[rows[r][c]] << (2 * i) for i, (r, c) in enumerate(CODE_CELLS))


def _codes(rows):
    """Every neighbourhood code a shape with wildcards matches."""
    codes = [0]
    for i, (r, c) in enumerate(CODE_CELLS):
        codes = [code | (colour << (2 * i)) for code in codes for colour in LETTER_COLOURS[rows[r][c]]]
    return codes


def pattern_table(shapes=MOGO_SHAPES):
    """uint8 table of 65536 entries: 1 where a shape matches the neighbourhood code."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    for _, rows in shapes:
        if rows[1][1] != ".":
            raise ValueError(f"the centre of a shape must be empty: {rows}")
        for variant in symmetries(rows):
            for coloured in (variant, [r.translate(SWAP_LETTERS) for r in variant]):
                table[_codes(coloured)] = 1
    return table
