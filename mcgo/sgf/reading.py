"""Reading SGF (and ``.mgt``, which is the same syntax) into :class:`GameRecord` objects.

sgfmill does the parsing; this module decides what the quirks of real collections mean:

* **Collections:** every game of a file is read, not only the first. If game *k* of a file is
  broken, games before it are still returned and the error names game *k*; what follows a
  broken game is not trusted and not read.
* **Main line and setup:** the first variation at every branch is the main line. ``AB``/``AW``/
  ``AE`` are honoured in *every* node of it (sgfmill's ``get_setup_and_moves`` only takes them
  from the root), and a node holding both setup and a move has its setup applied first.
* **Text decoding:** without ``CA`` the raw bytes are decoded as UTF-8 with ``errors="replace"``
  (files without ``CA`` often hold UTF-8 cut mid-character); ``CA[GB2312]`` (and GBK, CP936,
  EUC-CN) is decoded as its superset GB18030; an unknown charset falls back to UTF-8 with a
  warning. Undecodable bytes become U+FFFD and the record gets a warning; nothing raises.
* **Komi:** see :func:`parse_komi` (Fox's ``KM[650]`` is 6.5, ``KM[375]`` is 7.5).
* **Errors:** an empty or truncated file, a board size mcgo cannot play, a move or setup point
  off the board, a node with both ``B`` and ``W``: each becomes an :class:`SgfError` naming the
  file, the game and what was wrong.

>>> data = b"(;GM[1]SZ[9]KM[650]PB[Ann]PW[Bob]RE[W+R];B[ee];W[cc]C[tesuji])(;SZ[9];B[dd])"
>>> first, second = read_games(data)
>>> first.komi, first.black, first.result, first.gtp_moves(), first.comments
(6.5, 'Ann', 'W+R', [('B', 'E5'), ('W', 'C7')], {2: 'tesuji'})
>>> second.game_index, second.gtp_moves()
(1, [('B', 'D6')])
>>> read_game(b"(;SZ[19];B[pd];W[dp")
Traceback (most recent call last):
...
mcgo.sgf.record.SgfError: <bytes> game 1: truncated file (unexpected end of SGF data)
"""

import codecs
import os
import pathlib
import re

from sgfmill import sgf, sgf_grammar, sgf_properties

from ..board import BLACK, WHITE, coords
from .record import GameRecord, Setup, SgfError

GB_CHARSETS = {"gb2312", "gb-2312", "gb2312-80", "gb-2312-80", "gbk", "cp936", "euc-cn", "x-gbk",
               "gb18030", "csgb2312", "chinese"}
TEXT_PROPERTIES = {"C", "GC"}  # SGF "Text" (keeps line breaks); every other one is SimpleText
SGF_SUFFIXES = (".sgf", ".mgt")

_whole_number = re.compile(r"\A[+-]?\d+\Z")


# ----------------------------------------------------------------------------- public API
def read_games(source, errors="raise"):
    """Every game in an SGF file or byte string, as :class:`GameRecord` objects.

    ``source`` is ``bytes``, a path (``str`` or ``os.PathLike``) or a binary file object.
    With ``errors="raise"`` (the default) the first game that cannot be read raises
    :class:`SgfError`; with ``errors="yield"`` that error is yielded in the game's place
    instead, so a caller can log ``error.reason`` and go on.

    >>> [g.black for g in read_games(b"(;PB[A])(;PB[B])(;PB[C])")]
    ['A', 'B', 'C']
    >>> [str(g) if isinstance(g, SgfError) else g.black
    ...  for g in read_games(b"(;PB[A])(;SZ[40]PB[B])", errors="yield")]
    ['A', '<bytes> game 2: board size 40 is not supported (mcgo plays 2 to 25)']
    """
    if errors not in ("raise", "yield"):
        raise ValueError(f"errors must be 'raise' or 'yield', not {errors!r}")
    try:
        data, name = _load(source)
    except OSError as e:
        error = SgfError(f"cannot read file: {e.strerror or e}", str(source))
        if errors == "raise":
            raise error from e
        yield error
        return
    for item in _games_in(data, name):
        if isinstance(item, SgfError) and errors == "raise":
            raise item
        yield item


def read_game(source):
    """The first game of an SGF file or byte string; raises :class:`SgfError` if unreadable.

    >>> record = read_game(b"(;FF[4]SZ[19]HA[2]AB[dd][pp]PL[W];W[qd])")
    >>> record.handicap, len(record.setup.black), record.gtp_moves()
    (2, 2, [('W', 'R16')])
    """
    for item in read_games(source):
        return item
    raise SgfError("no game found", _name_of(source))  # pragma: no cover - _games_in never yields nothing


def read_directory(directory, suffixes=SGF_SUFFIXES):
    """Every game of every ``.sgf``/``.mgt`` file under ``directory`` (recursively, sorted),
    yielding a :class:`GameRecord` or, for what could not be read, an :class:`SgfError`.

    Never raises for a bad file: its error is yielded with the reason, and reading goes on.
    """
    root = pathlib.Path(directory)
    paths = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)
    for path in paths:
        yield from read_games(path, errors="yield")


def parse_komi(text):
    """Komi in points from the text of ``KM``, and a note when it was not taken literally.

    The rule (mcgo's own; Fox and a few other servers write komi scaled):

    1. A decimal comma is accepted (``6,5``). Text that is no number gives ``(None, note)``.
    2. A value written as a whole number (no decimal point) of magnitude 50 or more is taken
       as written in hundredths, as Fox does: ``KM[650]`` is 6.5, ``KM[50]`` is 0.5. No real
       game gives 50 points of komi, while KGS and others always write a decimal point
       (``KM[50.00]`` stays 50).
    3. If that scaled value is a whole number of quarter points (``3.75``, ``3.25``, ``2.75``),
       it counts stones in the Chinese way (one stone = two points) and is doubled:
       ``KM[375]`` is 7.5, ``KM[325]`` is 6.5. ``KM[350]`` stays 3.5: it cannot be told apart
       from 3.5 points, and the note says so.

    >>> parse_komi("6.5"), parse_komi("650"), parse_komi("375"), parse_komi("50.00")
    ((6.5, None), (6.5, 'KM[650] read as 6.5 (komi in hundredths, as Fox writes it)'), (7.5, 'KM[375] read as 7.5 (komi in hundredths of stones, as Fox writes it for Chinese rules)'), (50.0, None))
    >>> parse_komi("5,5"), parse_komi("")
    ((5.5, None), (None, 'KM[] is not a number; komi unknown'))
    """
    stripped = text.strip()
    try:
        value = float(stripped.replace(",", "."))
    except ValueError:
        return None, f"KM[{text}] is not a number; komi unknown"
    if value != value or value in (float("inf"), float("-inf")):
        return None, f"KM[{text}] is not a number; komi unknown"
    if not (_whole_number.match(stripped) and abs(value) >= 50):
        return value, None
    scaled = value / 100
    quarters = scaled * 4
    if quarters == int(quarters) and int(quarters) % 2 == 1:
        return scaled * 2, (f"KM[{text}] read as {scaled * 2:g} (komi in hundredths of stones, "
                            "as Fox writes it for Chinese rules)")
    note = f"KM[{text}] read as {scaled:g} (komi in hundredths, as Fox writes it)"
    if scaled * 2 != int(scaled * 2):
        note += "; not a half-point value, so possibly misread"
    elif abs(scaled) < 4:
        note += f"; could also mean {scaled:g} stones = {scaled * 2:g} points"
    return scaled, note


def choose_codec(charset):
    """The Python codec for the text of a game whose ``CA`` is ``charset`` (bytes or None),
    and a warning when the charset was not understood.

    >>> choose_codec(None), choose_codec(b"GB2312"), choose_codec(b"UTF-8")
    (('utf-8', None), ('gb18030', None), ('utf-8', None))
    >>> choose_codec(b"Klingon-1")
    ('utf-8', 'unknown charset CA[Klingon-1]; text decoded as UTF-8')
    """
    if charset is None:
        return "utf-8", None
    name = charset.decode("ascii", "replace").strip()
    if name.lower().replace("_", "-") in GB_CHARSETS:
        return "gb18030", None
    try:
        info = codecs.lookup(name)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        return "utf-8", f"unknown charset CA[{name}]; text decoded as UTF-8"
    return info.name, None


# ----------------------------------------------------------------------------- internals
def _name_of(source):
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "<bytes>"
    if isinstance(source, (str, os.PathLike)):
        return str(source)
    return getattr(source, "name", "<file>")


def _load(source):
    """(raw bytes, name for messages) of a source."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>"
    if isinstance(source, str) and source.lstrip().startswith("("):
        raise TypeError("a str is a file name; give SGF data as bytes (for example text.encode())")
    if isinstance(source, (str, os.PathLike)):
        return pathlib.Path(source).read_bytes(), str(source)
    if hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            raise TypeError("open SGF files in binary mode ('rb'): the charset is in the file")
        return data, _name_of(source)
    raise TypeError(f"an SGF source is bytes, a path or a binary file, not {type(source).__name__}")


def _games_in(data, name):
    """Yield a GameRecord or an SgfError for each game of ``data``; stop after a broken one."""
    position = 0
    index = 0
    while True:
        tokens, end = sgf_grammar.tokenise(data, position)
        if not tokens:
            break
        try:
            tree = sgf_grammar.parse_sgf_game(data[position:end])
        except ValueError as e:
            if str(e) == "unexpected end of SGF data":
                tail = data[end:]
                if b")" in tail and tail.strip():
                    reason = f"cannot parse SGF at byte {end} ({tail[:20]!r})"
                else:  # the data ends before the game is closed
                    reason = "truncated file (unexpected end of SGF data)"
            else:
                reason = f"malformed SGF: {e}"
            yield SgfError(reason, name, index)
            return
        try:
            yield _record_from_tree(tree, name, index)
        except SgfError as e:
            yield e
        position = end
        index += 1
    if index == 0:
        reason = "empty file" if not data.strip() else "no SGF game in the file (no '(;' found)"
        yield SgfError(reason, name)


def _decode(raw, codec, text=False):
    value = sgf_grammar.text_value(raw) if text else sgf_grammar.simpletext_value(raw)
    return value.decode(codec, errors="replace")


def _board_size(root, name, index):
    if "SZ" not in root:
        return 19
    text = root["SZ"][0].decode("ascii", "replace").strip()
    columns, _, rows = text.partition(":")
    try:
        size, height = int(columns), int(rows or columns)
    except ValueError:
        raise SgfError(f"bad board size SZ[{text}]", name, index) from None
    if height != size:
        raise SgfError(f"rectangular board SZ[{text}] is not supported", name, index)
    if not coords.MIN_SIZE <= size <= coords.MAX_SIZE:
        raise SgfError(f"board size {size} is not supported (mcgo plays {coords.MIN_SIZE} to "
                       f"{coords.MAX_SIZE})", name, index)
    return size


def _record_from_tree(tree, name, index):
    root = tree.sequence[0]
    record = GameRecord(source=name, game_index=index)
    warnings = record.warnings

    game_type = root.get("GM", [b"1"])[0].strip()
    if game_type not in (b"1", b""):
        raise SgfError(f"not a game of Go (GM[{game_type.decode('ascii', 'replace')}])", name, index)
    codec, note = choose_codec(root.get("CA", [None])[0])
    if note:
        warnings.append(note)
    record.size = size = _board_size(root, name, index)

    replaced = []  # properties where undecodable bytes were replaced

    def text(ident, node=None):
        raws = root.get(ident) if node is None else node.get_raw_list(ident)
        if not raws:
            return ""
        out = _decode(raws[0], codec, ident in TEXT_PROPERTIES)
        if "\ufffd" in out and ident not in replaced:
            replaced.append(ident)
        return out.strip() if ident in TEXT_PROPERTIES else " ".join(out.split())

    record.properties = {ident: [_decode(v, codec, ident in TEXT_PROPERTIES) for v in values]
                         for ident, values in root.items()}
    record.black, record.white = text("PB"), text("PW")
    record.black_rank, record.white_rank = text("BR"), text("WR")
    record.result, record.date = text("RE"), text("DT")
    record.event, record.rules = text("EV"), text("RU")
    record.name = text("GN")

    if "KM" in root:
        record.komi, note = parse_komi(text("KM"))
        if note:
            warnings.append(note)
    elif "KI" in root:  # pre-FF[4] files (IGS era) give komi doubled, as an integer, in KI
        ki = text("KI")
        try:
            record.komi = int(ki) / 2
            warnings.append(f"no KM; komi {record.komi:g} taken from KI[{ki}] (komi doubled)")
        except ValueError:
            warnings.append(f"no KM and KI[{ki}] is not a number; komi unknown")
    if "HA" in root:
        handicap = text("HA")
        try:
            record.handicap = int(float(handicap))
        except (ValueError, OverflowError):
            warnings.append(f"HA[{handicap}] is not a number; handicap taken as 0")
    player = text("PL").upper()
    if player:
        record.player_to_move = {"B": BLACK, "W": WHITE, "1": BLACK, "2": WHITE}.get(player[:1])
        if record.player_to_move is None:
            warnings.append(f"PL[{player}] names no player; ignored")

    root["SZ"] = [str(size).encode()]  # sgfmill wants a plain number
    game = sgf.Sgf_game.from_coarse_game_tree(tree, override_encoding="UTF-8")
    presenter = game.get_property_presenter()
    moves = record.moves
    for node_number, node in enumerate(game.get_main_sequence()):
        where = f"node {node_number} (after move {len(moves)})"
        if node.has_setup_stones():
            raws = {k: [_point_bytes(v, warnings, where) for v in node.get_raw_list(k)]
                    for k in ("AB", "AW", "AE") if node.has_property(k)}
            try:
                black, white, empty = (sgf_properties.interpret_point_list(raws.get(k, []), presenter)
                                       for k in ("AB", "AW", "AE"))
            except ValueError:
                raise SgfError(f"{where}: setup {_show(raws)} names a point off the "
                               f"{size}x{size} board", name, index) from None
            setup = Setup(*(tuple(sorted(coords.from_sgfmill(p, size) for p in points))
                            for points in (black, white, empty)))
            before = record.setups.get(len(moves))
            record.setups[len(moves)] = setup if before is None else before.then(setup)
        if node.has_property("B") and node.has_property("W"):
            raise SgfError(f"{where}: one node holds both B and W", name, index)
        color, raw = node.get_raw_move()
        if color is not None:
            raw = _point_bytes(raw, warnings, f"move {len(moves) + 1}")
            try:
                move = sgf_properties.interpret_go_point(raw, size)
            except ValueError:
                raise SgfError(f"move {len(moves) + 1} {color.upper()}[{raw.decode('ascii', 'replace')}] "
                               f"is not a point of the {size}x{size} board", name, index) from None
            moves.append((BLACK if color == "b" else WHITE, coords.from_sgfmill(move, size)))
        if node.has_property("C"):
            comment = text("C", node=node)
            if comment:
                earlier = record.comments.get(len(moves))
                record.comments[len(moves)] = comment if earlier is None else earlier + "\n\n" + comment
        if node_number and node.has_property("SZ"):
            warnings.append(f"{where}: SZ outside the root ignored")
    if replaced:
        warnings.append(f"bytes that are not valid {codec} replaced by U+FFFD in "
                        f"{', '.join(replaced)}")
    return record


def _point_bytes(raw, warnings, where):
    """A point value without the whitespace that line-wrapping mailers put into some old files."""
    cleaned = b"".join(raw.split())
    if cleaned != raw:
        warnings.append(f"{where}: whitespace removed from point value {raw!r}")
    return cleaned


def _show(raws):
    return "".join(k + "".join(f"[{v.decode('ascii', 'replace')}]" for v in vs) for k, vs in raws.items())
