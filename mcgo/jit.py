"""The two ways mcgo compiles a kernel.

``kernel``: hot code that allocates nothing. Compiled without Numba's reference-counting
runtime (``_nrt=False``): with it, every call that passes an array does atomic
increments and decrements of the array's reference count, which measured about 75 ns per
call here, against 2 ns without (more than the whole work of a legality check).

``inline_kernel``: a ``kernel`` of a few lines called on every move (index arithmetic,
the random generator): inlined into its callers at compile time, because a call passes
every array as a struct of about eight words, which costs more than such a body.

``allocating_kernel``: code that creates arrays (new positions, tables, test oracles); it
may call ``kernel`` functions freely.

Both are cached on disk (``cache=True``) so a warm start does not compile, and release the
GIL (``nogil=True``) so Python threads run playouts on all cores.
"""

from numba import njit

kernel = njit(cache=True, nogil=True, _nrt=False)
inline_kernel = njit(cache=True, nogil=True, _nrt=False, inline="always")
allocating_kernel = njit(cache=True, nogil=True)
