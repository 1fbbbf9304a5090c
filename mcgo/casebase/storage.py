"""The case-base file: a JSON header and raw arrays at known offsets, memory-mapped on load.

Layout (little-endian)::

    bytes 0-7    magic  b"MCGOCASE"
    bytes 8-15   uint64 length of the JSON header in bytes
    bytes 16-    the JSON header (UTF-8), then zero padding to a 64-byte boundary
    then         each array's raw bytes at the offset the header gives (64-byte aligned)

The header holds ``format`` (this module writes ``FORMAT_VERSION``), ``mcgo_version``, the
board ``size``, the influence ``threshold`` and ``steps``, ``max_moves``, the counts of cases
with black and with white to move (black's rows come first), build statistics, and for each
array its dtype, shape and offset. Loading reads the header and maps the arrays (no copy), so
a case base of millions of positions opens in milliseconds.

Arrays:

* ``codes``  uint64 (cases, words): the influence codes;
* ``moves``  int16 (cases,): the professional's next move (internal point index);
* ``move_numbers`` uint16 (cases,): the number of that move in its game (1-based);
* ``games``  uint32 (cases,): index into the game names;
* ``names``  uint8: the game names, UTF-8, one per line.

>>> import os, tempfile, numpy as np, mcgo
>>> from mcgo.casebase.storage import save_arrays, load
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.mcgocb")
>>> codes = np.ones((3, 2), dtype=np.uint64)
>>> save_arrays(path, dict(size=5, threshold=0.5, steps=5, max_moves=40, black_cases=2),
...             codes=codes, moves=np.array([7, 8, 9], np.int16),
...             move_numbers=np.array([1, 3, 2], np.uint16), games=np.zeros(3, np.uint32),
...             names=["a.sgf"])
>>> header, arrays, names = load(path)
>>> header["size"], arrays["codes"].shape, names
(5, (3, 2), ['a.sgf'])
>>> gif_path = os.path.join(os.path.dirname(path), "picture.gif")
>>> _ = open(gif_path, "wb").write(b"GIF89a, a picture")
>>> load(gif_path)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mcgo.casebase.storage.CaseBaseError: ...picture.gif is not an mcgo case base (it starts with b'GIF89a, ', not b'MCGOCASE')
"""

import json
import os
import struct

import numpy as np

from .. import __version__

MAGIC = b"MCGOCASE"
FORMAT_VERSION = 1
ALIGNMENT = 64
PREFIX = struct.Struct("<8sQ")
MAX_HEADER_BYTES = 1 << 24
ARRAY_DTYPES = {"codes": np.uint64, "moves": np.int16, "move_numbers": np.uint16,
                "games": np.uint32, "names": np.uint8}
REQUIRED_KEYS = ("format", "size", "threshold", "steps", "max_moves", "black_cases", "arrays")


class CaseBaseError(ValueError):
    """A case-base file that cannot be used: missing, foreign, corrupt, truncated or newer."""


def _aligned(n):
    return (n + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


def save_arrays(path, header, *, codes, moves, move_numbers, games, names):
    """Write a case-base file (atomically: a temporary file renamed into place)."""
    arrays = {"codes": np.ascontiguousarray(codes, dtype=np.uint64),
              "moves": np.ascontiguousarray(moves, dtype=np.int16),
              "move_numbers": np.ascontiguousarray(move_numbers, dtype=np.uint16),
              "games": np.ascontiguousarray(games, dtype=np.uint32),
              "names": np.frombuffer("\n".join(names).encode("utf-8"), dtype=np.uint8)}
    n = arrays["codes"].shape[0]
    for name in ("moves", "move_numbers", "games"):
        if arrays[name].shape != (n,):
            raise ValueError(f"{name} has shape {arrays[name].shape}, expected ({n},)")
    if "\n" in "".join(names):
        raise ValueError("a game name contains a line break")
    header = dict(header, format=FORMAT_VERSION, mcgo_version=__version__, cases=n,
                  game_count=len(names))
    # Offsets depend on the header's length, which depends on the offsets: lay out twice.
    layout = {}
    for _ in range(2):
        header["arrays"] = layout
        text = json.dumps(header, sort_keys=True).encode("utf-8")
        offset = _aligned(PREFIX.size + len(text) + 256)  # slack for the offsets' digits
        layout = {}
        for name, array in arrays.items():
            layout[name] = {"dtype": np.dtype(array.dtype).str, "shape": list(array.shape),
                            "offset": offset}
            offset = _aligned(offset + array.nbytes)
    header["arrays"] = layout
    text = json.dumps(header, sort_keys=True).encode("utf-8")
    first = min(spec["offset"] for spec in layout.values())
    assert PREFIX.size + len(text) <= first
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(PREFIX.pack(MAGIC, len(text)))
        f.write(text)
        for name, array in arrays.items():
            f.write(b"\0" * (layout[name]["offset"] - f.tell()))
            f.write(array.tobytes())
    os.replace(tmp, path)


def load(path):
    """(header dict, arrays dict of read-only memory maps, game names) of a case-base file.

    Raises :class:`CaseBaseError` with the reason for a missing, foreign, corrupt, truncated
    or newer-format file.
    """
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            prefix = f.read(PREFIX.size)
            if len(prefix) < PREFIX.size or not prefix.startswith(MAGIC):
                raise CaseBaseError(f"{path} is not an mcgo case base (it starts with "
                                    f"{prefix[:8]!r}, not {MAGIC!r})")
            _, length = PREFIX.unpack(prefix)
            if length > MAX_HEADER_BYTES:
                raise CaseBaseError(f"{path}: corrupt header (length {length})")
            text = f.read(length)
        file_size = os.path.getsize(path)
    except OSError as e:
        raise CaseBaseError(f"cannot read case base {path}: {e.strerror or e}") from None
    if len(text) < length:
        raise CaseBaseError(f"{path} is truncated (header cut off)")
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CaseBaseError(f"{path}: corrupt header ({e})") from None
    if not isinstance(header, dict) or any(k not in header for k in REQUIRED_KEYS):
        missing = [k for k in REQUIRED_KEYS if not isinstance(header, dict) or k not in header]
        raise CaseBaseError(f"{path}: corrupt header (missing {', '.join(missing)})")
    if header["format"] != FORMAT_VERSION:
        raise CaseBaseError(f"{path} has case-base format {header['format']}; this mcgo "
                            f"({__version__}) reads format {FORMAT_VERSION}: rebuild it with "
                            f"mcgo build-casebase")
    arrays = {}
    try:
        for name, dtype in ARRAY_DTYPES.items():
            spec = header["arrays"][name]
            shape = tuple(int(x) for x in spec["shape"])
            if np.dtype(spec["dtype"]) != np.dtype(dtype):
                raise CaseBaseError(f"{path}: array {name} has dtype {spec['dtype']}")
            end = spec["offset"] + int(np.prod(shape)) * np.dtype(dtype).itemsize
            if end > file_size:
                raise CaseBaseError(f"{path} is truncated: {name} needs bytes up to {end}, "
                                    f"the file has {file_size}")
            if 0 in shape:
                arrays[name] = np.zeros(shape, dtype=dtype)
            else:
                arrays[name] = np.memmap(path, dtype=dtype, mode="r", offset=spec["offset"],
                                         shape=shape).view(np.ndarray)
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, CaseBaseError):
            raise
        raise CaseBaseError(f"{path}: corrupt header ({type(e).__name__}: {e})") from None
    n = arrays["codes"].shape[0]
    if any(arrays[k].shape != (n,) for k in ("moves", "move_numbers", "games")) \
            or not 0 <= header["black_cases"] <= n:
        raise CaseBaseError(f"{path}: corrupt header (array lengths disagree)")
    names = bytes(arrays.pop("names")).decode("utf-8", errors="replace").split("\n")
    if n and int(arrays["games"].max()) >= len(names):
        raise CaseBaseError(f"{path}: corrupt file (game index beyond the {len(names)} names)")
    return header, arrays, names
