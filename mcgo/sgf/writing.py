"""Writing a :class:`GameRecord` as SGF (FF[4], CA[UTF-8]) through sgfmill.

Written: size, komi, handicap, players, ranks, result, date, event, rules, game name, ``PL``, setup stones
(at the root, and in their own nodes where they stood later in the game), every move and the
comments. Reading the output gives the same record back (bar ``source`` and ``warnings``).

>>> from mcgo.sgf import read_game
>>> from mcgo import BLACK, WHITE, from_gtp
>>> record = GameRecord(size=9, komi=7.0, black="mcgo", white="GNU Go", result="B+3",
...                     moves=[(BLACK, from_gtp("E5", 9)), (WHITE, from_gtp("C3", 9))],
...                     comments={2: "fine"})
>>> data = write_sgf(record)
>>> data.startswith(b"(;FF[4]")
True
>>> again = read_game(data)
>>> again.moves == record.moves, again.komi, again.result, again.comments
(True, 7.0, 'B+3', {2: 'fine'})
"""

import datetime
import pathlib

from sgfmill import sgf, sgf_grammar

from ..board import BLACK, coords
from .record import GameRecord

APPLICATION = "mcgo"


def write_sgf(record, path=None, properties=None, variations=None):
    """The record as SGF bytes (UTF-8); also written to ``path`` when one is given.

    ``properties``: ``{n: {identifier: text}}``, more properties for the node of the
    position after ``n`` moves (``0``: the root), written as given (Sabaki's ``SBKV``...);
    ``variations``: ``{n: [(color, point), ...]}``, a line of moves that branches off after
    move ``n``, beside the main line (its second child, so readers keep the game as the
    main line).

    >>> from mcgo import BLACK, WHITE, from_gtp
    >>> record = GameRecord(size=9, moves=[(BLACK, from_gtp("E5", 9)), (WHITE, from_gtp("C3", 9))])
    >>> write_sgf(record, properties={1: {"SBKV": "55.5"}},
    ...           variations={1: [(WHITE, from_gtp("G7", 9)), (BLACK, from_gtp("C7", 9))]}).split(b"SZ[9]")[1].strip()
    b';B[ee]SBKV[55.5](;W[cg])(;W[gc];B[cc]))'
    """
    properties = properties or {}
    size = record.size
    game = sgf.Sgf_game(size, encoding="UTF-8")
    root = game.get_root()
    root.set("AP", (APPLICATION, _version()))
    if record.komi is not None:
        root.set("KM", float(record.komi))
    if record.handicap:
        root.set("HA", int(record.handicap))
    for ident, value in (("PB", record.black), ("PW", record.white), ("BR", record.black_rank),
                         ("WR", record.white_rank), ("RE", record.result), ("DT", record.date),
                         ("EV", record.event), ("RU", record.rules), ("GN", record.name)):
        if value:
            root.set(ident, value)
    if record.player_to_move is not None:
        root.set("PL", "b" if record.player_to_move == BLACK else "w")

    def place_setup(node, setup):
        node.set_setup_stones(*({coords.to_sgfmill(p, size) for p in points}
                                for points in (setup.black, setup.white, setup.empty)))

    def comment(node, number):
        text = record.comments.get(number)
        if text:
            node.set("C", text)

    def annotate(node, number):
        for ident, text in properties.get(number, {}).items():
            node.set_raw(ident, sgf_grammar.escape_text(str(text).encode("utf-8")))

    def move_node(parent, color, point):
        node = parent.new_child()
        node.set_move("b" if color == BLACK else "w", coords.to_sgfmill(point, size))
        return node

    if record.setups.get(0):
        place_setup(root, record.setups[0])
    comment(root, 0)
    annotate(root, 0)
    node = root
    position_nodes = {0: root}
    for number, (color, point) in enumerate(record.moves, start=1):
        node = move_node(node, color, point)
        comment(node, number)
        annotate(node, number)
        setup = record.setups.get(number)
        if setup is not None and not setup.is_empty():
            node = node.new_child()
            place_setup(node, setup)
        position_nodes[number] = node
    for number, line in sorted((variations or {}).items()):
        branch = position_nodes.get(number)
        if branch is None or not line or not branch:   # no main line to stand beside
            continue
        for color, point in line:
            branch = move_node(branch, color, point)
    data = game.serialise()
    if path is not None:
        pathlib.Path(path).write_bytes(data)
    return data


def today():
    """Today's date as SGF's ``DT`` wants it (``YYYY-MM-DD``)."""
    return datetime.date.today().isoformat()


def _version():
    from .. import __version__
    return __version__


__all__ = ["write_sgf", "today", "GameRecord"]
