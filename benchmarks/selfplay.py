"""Self-play at equal simulations (issue 5): two search configurations play each other on
9x9 in-process, colours alternating, the same number of simulations per move for both.

    python benchmarks/selfplay.py --a strong/pattern --b thesis/pattern --games 20 --playouts 1000
    python benchmarks/selfplay.py --a strong/pattern --b strong/random --games 20 --playouts 1000

A game ends after two passes, a resignation, or 3 x size^2 moves; it is scored by area
after removing the stones the playouts find dead (the engine's own ``final_score``); a jigo
counts half. Prints JSON with the win rate of A and its 95% Wilson interval.
"""

import json

import click

import mcgo
from mcgo.search import Search
from mcgo.engine.player import pick_move, should_resign
from mcgo.judge.status import estimate, score_without
from mcgo.stats import wilson_interval


def rounded(interval):
    """An interval rounded for the report."""
    return tuple(round(x, 4) for x in interval)


def player(spec, seed):
    preset, policy = spec.split("/")
    return Search(preset=preset, policy=policy, seed=seed)


def play_game(black, white, size, komi, playouts, resign=0.1):
    board = mcgo.Board(size, komi=komi)
    searches = {mcgo.BLACK: black, mcgo.WHITE: white}
    for _ in range(3 * size * size):
        color = board.to_move
        result = searches[color].run(board, playouts=playouts)
        if should_resign(board, result, resign):
            return 3 - color, "resign"
        move = pick_move(board, result)
        board.play(move)
        if board.consecutive_passes >= 2:
            break
    score = score_without(board, estimate(board, playouts=1000, policy="pattern").dead)
    if score == 0:
        return None, "jigo"
    return (mcgo.BLACK if score > 0 else mcgo.WHITE), f"{score:+g}"


@click.command()
@click.option("--a", "spec_a", default="strong/pattern", show_default=True)
@click.option("--b", "spec_b", default="thesis/pattern", show_default=True)
@click.option("--games", type=int, default=20, show_default=True)
@click.option("--playouts", type=int, default=1000, show_default=True)
@click.option("--size", type=int, default=9, show_default=True)
@click.option("--komi", type=float, default=7.0, show_default=True)
@click.option("--seed", type=int, default=1)
def main(spec_a, spec_b, games, playouts, size, komi, seed):
    wins_a = 0
    records = []
    for g in range(games):
        a, b = player(spec_a, seed + 2 * g), player(spec_b, seed + 2 * g + 1)
        a_black = g % 2 == 0
        black, white = (a, b) if a_black else (b, a)
        winner, how = play_game(black, white, size, komi, playouts)
        a_score = 0.5 if winner is None else float((winner == mcgo.BLACK) == a_black)
        wins_a += a_score
        label = {1.0: "A", 0.0: "B", 0.5: "nobody"}[a_score]
        records.append(dict(game=g, a_color="black" if a_black else "white", winner=label,
                            how=how))
        click.echo(f"game {g}: A {'black' if a_black else 'white'}, {label} won ({how}); "
                   f"A {wins_a:g}/{g + 1}", err=True)
    print(json.dumps(dict(a=spec_a, b=spec_b, games=games, playouts=playouts, size=size,
                          komi=komi, a_wins=wins_a, a_win_rate=round(wins_a / games, 3),
                          wilson_95=rounded(wilson_interval(wins_a, games)), games_detail=records), indent=2))


if __name__ == "__main__":
    main()
