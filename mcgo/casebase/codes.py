"""Case codes (thesis 8.6.1): 3 bits per point, exactly one set, packed into uint64 words.

Point ``i`` (``i = row * size + col``, row 0 at the bottom) of class ``k`` (EMPTY 0,
BLACK 1, WHITE 2) sets bit ``3 * i + k``; bit ``b`` lives in word ``b // 64`` at position
``b % 64``. The similarity of two codes is ``popcount(a AND b)`` summed over the words: the
number of points classified alike (so a position matches itself with ``size * size``).

>>> import numpy as np
>>> classes = np.array([0, 1, 2, 0], dtype=np.int8)          # a 2x2 board
>>> code = np.zeros(code_words(2), dtype=np.uint64)
>>> encode(classes, code)
>>> bin(int(code[0]))
'0b1100010001'
>>> int(similarity(code, code))
4
"""

import numpy as np
from numba import types
from numba.extending import intrinsic

from ..jit import kernel

BITS_PER_POINT = 3
WORD_BITS = 64


@intrinsic
def popcount64(typingctx, x):
    """Number of set bits of a uint64 (LLVM ``ctpop``, one instruction on x86-64)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.uint64)
        return builder.ctpop(value)

    return sig, codegen


def code_words(size):
    """uint64 words in the code of a ``size`` x ``size`` board (17 for 19x19)."""
    return (BITS_PER_POINT * size * size + WORD_BITS - 1) // WORD_BITS


@kernel
def encode(classes, out):
    """Pack the classes (0/1/2 per point) into ``out`` (uint64 words, cleared here)."""
    for j in range(out.shape[0]):
        out[j] = 0
    for i in range(classes.shape[0]):
        bit = 3 * i + classes[i]
        out[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)


@kernel
def encode_permuted(classes, image, out):
    """Pack the classes moved by a symmetry: point ``i`` goes to ``image[i]``."""
    for j in range(out.shape[0]):
        out[j] = 0
    for i in range(classes.shape[0]):
        bit = 3 * image[i] + classes[i]
        out[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)


@kernel
def similarity(a, b):
    """popcount(a AND b) over all words."""
    total = 0
    for j in range(a.shape[0]):
        total += popcount64(a[j] & b[j])
    return total


@kernel
def popcount_words(a):
    """Set bits of all words (``size * size`` for a valid code)."""
    total = 0
    for j in range(a.shape[0]):
        total += popcount64(a[j])
    return total
