"""``allow`` and ``avoid`` as Leela Zero's and KataGo's GTP extensions define them (KaTrain
and Lizzie send them for a region of interest): the search never tries a barred move up to
the clause's depth, every analysis line and the chosen move respect it, and anything the
engine does not support is a ``?`` answer, never ignored."""

import re
import time

import pytest

from helpers import Session
from mcgo import BLACK, WHITE
from mcgo.board import coords
from mcgo.search.movefilter import MoveFilter, MoveFilterError
from mcgo.search.tree import MOVE, VISITS

COLUMNS = "ABCDEFGHJ"


def streamed(session, command, seconds=0.6):
    start = len(session.out.getvalue())
    session.raw(command)
    time.sleep(seconds)
    session.raw("name")
    return session.out.getvalue()[start:]


def test_clauses_parse_as_the_extensions_write_them():
    f = MoveFilter.parse(["avoid", "w", "pass,A1", "20", "allow", "B", "D4,D5,E4", "1"], 9)
    assert not f.allows(WHITE, coords.from_gtp("A1", 9), 20)
    assert f.allows(WHITE, coords.from_gtp("A1", 9), 21)
    assert f.allows(BLACK, coords.from_gtp("D5", 9), 1) and not f.allows(BLACK, coords.from_gtp("J9", 9), 1)
    assert f.allows(BLACK, 0, 1)                           # pass stays possible under allow
    for words, says in ((["allow", "b", "D4"], "needs PLAYER"), (["allow", "x", "D4", "1"], "not a player"),
                        (["avoid", "b", "Z9", "1"], "not a vertex"), (["avoid", "b", "D4", "0"], "1 or more"),
                        (["avoid", "b", "D4", "x"], "whole number"), (["deny", "b", "D4", "1"], "allow or avoid")):
        with pytest.raises(MoveFilterError, match=says):
            MoveFilter.parse(words, 9)


@pytest.mark.parametrize("command", ["lz-genmove_analyze b 0 allow b A1,B1 1",
                                     "kata-genmove_analyze b allow b A1,B1 1"])
def test_a_search_told_allow_answers_one_of_those_moves(command):
    session = Session(size=9, playouts=300, seed=5)
    reply = session.raw(command)
    move = re.search(r"^play (\S+)$", reply, re.M).group(1)
    assert move in ("A1", "B1", "pass"), reply
    assert session.send("genmove b") not in ("A1", "B1")     # the filter held for one command


def tree_nodes_by_depth(search):
    """``(depth, mover, move)`` of every visited node of the search's trees."""
    out = []
    for tree in search.trees:
        todo = [(tree.root, 0)]
        while todo:
            node, depth = todo.pop()
            for c in tree.children(node):
                if tree.floats[VISITS, c] > 0:
                    out.append((depth + 1, c, int(tree.ints[MOVE, c])))
                    todo.append((c, depth + 1))
    return out


def test_avoid_holds_until_its_depth_and_not_after():
    session = Session(size=9, playouts=3000, seed=1)
    search = session.engine.game.search
    e5 = coords.from_gtp("E5", 9)
    search.move_filter = MoveFilter.parse(["avoid", "b", "E5", "3", "avoid", "w", "E5", "2"], 9)
    search.run(session.engine.game.board.copy(), playouts=3000)
    nodes = tree_nodes_by_depth(search)
    on_e5 = [(depth, 'b' if depth % 2 else 'w') for depth, _, move in nodes if move == e5]
    assert on_e5, "the tree never reached E5"
    assert all(depth > (3 if mover == "b" else 2) for depth, mover in on_e5), on_e5


def test_analysis_lines_only_show_allowed_moves():
    session = Session(size=9, playouts=100000, seed=2)
    allowed = {"C3", "C4", "D3", "D4", "pass"}
    for command in ("lz-analyze b 10 allow b C3,C4,D3,D4 1", "kata-analyze b 10 allow b C3,C4,D3,D4 1"):
        text = streamed(session, command)
        moves = set(re.findall(r"info move (\S+)", text))
        assert moves and moves <= allowed, (command, moves)


@pytest.mark.parametrize("command, says", [
    ("lz-analyze b 10 nosuch 3", "unknown argument nosuch"),
    ("kata-analyze b 10 nosuch true", "unknown argument nosuch"),
    ("lz-analyze b 10 allow b Z99 1", "not a vertex"),
    ("kata-analyze b 10 avoid q D4 1", "not a player"),
    ("lz-genmove_analyze b 10 avoid b D4", "needs PLAYER"),
])
def test_what_is_not_supported_is_an_error(command, says):
    session = Session(size=9, playouts=50)
    reply = session.raw(command)
    assert reply.startswith("? ") and says in reply and reply.endswith("\n\n"), reply
    assert session.send("name") == "mcgo"
