"""``mcgo play``: a game against the engine in the terminal, for people who just want to try.

The board is drawn as in the thesis's figure 9.1 (columns A-T without I, rows numbered from
the bottom, X black, O white); moves are typed as GTP vertices (``D4``), ``pass``, ``undo``
(takes back your last move and the engine's answer), ``save FILE`` (the game so far as SGF,
written by GTP ``printsgf``: :func:`mcgo.sgf.record_from_board`) or ``quit``.
"""

import click

from ..board.kernels import BLACK, WHITE

PROMPT = "your move (D4, pass, undo, save FILE, quit)"


def send(engine, command):
    """Run one GTP command on the engine; returns (ok, text)."""
    import io

    out = io.StringIO()
    saved, engine.out = engine.out, out
    try:
        engine.handle(command + "\n")
    finally:
        engine.out = saved
    reply = out.getvalue().strip()
    return reply.startswith("="), reply[1:].strip()


def play_in_terminal(engine, color_name):
    human = BLACK if color_name == "black" else WHITE
    letter = {BLACK: "b", WHITE: "w"}
    computer = 3 - human
    click.echo(f"mcgo {engine.board.size}x{engine.board.size}, komi {engine.board.komi:g}; "
               f"you play {color_name}.")
    passes = 0
    while passes < 2:
        click.echo(str(engine.board))
        if engine.board.to_move == computer:
            ok, move = send(engine, f"genmove {letter[computer]}")
            click.echo(f"mcgo plays {move}")
            if move == "resign":
                click.echo("mcgo resigns. You win!")
                return
            passes = passes + 1 if move == "pass" else 0
            continue
        typed = click.prompt(PROMPT, default="", show_default=False).strip()
        text = typed.lower()
        if text in ("quit", "q", "exit"):
            return
        if text.startswith("save ") and typed[5:].strip():
            path = typed[5:].strip()
            ok, answer = send(engine, f"printsgf {path}")
            click.echo(f"saved {path}" if ok else f"cannot save {path}: {answer}")
            continue
        if text == "undo":
            for _ in range(2):
                send(engine, "undo")
            continue
        ok, answer = send(engine, f"play {letter[human]} {text}")
        if not ok:
            click.echo(f"cannot play {text!r}: {answer}")
            continue
        passes = passes + 1 if text == "pass" else 0
    ok, score = send(engine, "final_score")
    click.echo(str(engine.board))
    click.echo(f"game over: {score}")
