"""Positions for the GTP tests, as text rows (top row first; X black, O white, . empty)."""

from mcgo.board import coords


def load_rows(engine, rows, komi, passes=0):
    """Set up the rows' position on a GTP engine (anything with ``send``) by playing its
    stones in, then ``passes`` passes (black first)."""
    size = len(rows)
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"komi {komi}")
    for i, line in enumerate(rows):
        for col, ch in enumerate(line.split()):
            if ch in "XO":
                vertex = coords.to_gtp(coords.point(size - 1 - i, col, size), size)
                engine.send(f"play {'b' if ch == 'X' else 'w'} {vertex}")
    for color in "bw"[:passes]:
        engine.send(f"play {color} pass")
