"""The one reader of the models' weight files: a ``.npz`` of NumPy arrays with a JSON entry
(``metadata``, or seed statistics' ``header``) whose ``format`` names what the file is.

The entry is stored as a string array (``np.array(json.dumps(...))``) or as its UTF-8 bytes
(``np.frombuffer(text.encode(), np.uint8)``); both read the same. Each model checks its own
version and arrays after :func:`read`; what this module checks, it checks once for all:

>>> import io, json, numpy as np
>>> buffer = io.BytesIO()
>>> np.savez(buffer, w=np.zeros(2), metadata=np.array(json.dumps({"format": "demo"})))
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "demo.npz"
>>> _ = path.write_bytes(buffer.getvalue())
>>> arrays, meta = read(path, "demo", "demo net")
>>> sorted(arrays), meta
(['w'], {'format': 'demo'})
>>> read(path, "other", "other net")
Traceback (most recent call last):
...
ValueError: ...demo.npz: not an other net file (format 'demo', expected 'other')
"""

import json
import pathlib
import zipfile

import numpy as np


def entry_text(array):
    """The text of a JSON entry stored as a string array or as UTF-8 bytes."""
    if array.dtype.kind == "U":
        return str(array)
    return array.tobytes().decode()


def read(path, file_format, kind, error=ValueError, entry="metadata"):
    """``(arrays, metadata)`` of the weights file ``path``: every array but the JSON
    ``entry``, and that entry as a dict whose ``format`` is ``file_format``. Otherwise
    raises ``error`` naming the file and what is wrong (no such file, not a readable
    ``.npz``, no entry, an entry that is not JSON, another format); ``kind`` names what the
    file holds in the messages ("move model")."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise error(f"{path}: no such {kind} file")
    kind = ("an " if kind[0].lower() in "aeiou" else "a ") + kind
    if not zipfile.is_zipfile(path):
        raise error(f"{path}: not {kind} file (not a .npz archive)")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise error(f"{path}: not {kind} file (damaged or truncated: {e})") from None
    if entry not in arrays:
        raise error(f"{path}: not {kind} file (no {entry})")
    try:
        meta = json.loads(entry_text(arrays.pop(entry)))
    except (ValueError, UnicodeDecodeError):
        raise error(f"{path}: not {kind} file (its {entry} is not JSON)") from None
    found = meta.get("format") if isinstance(meta, dict) else None
    if found != file_format:
        raise error(f"{path}: not {kind} file (format {found!r}, expected {file_format!r})")
    return arrays, meta


def is_format(path, file_format, entry="metadata"):
    """True when ``path`` opens as a weights file of ``file_format`` (any version)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if entry not in data.files:
                return False
            meta = json.loads(entry_text(data[entry]))
    except Exception:  # noqa: BLE001 - anything unreadable is simply not one
        return False
    return isinstance(meta, dict) and meta.get("format") == file_format
