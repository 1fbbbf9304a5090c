"""Who wins a held-out game, predicted from one of its positions (issue 74): the value net
alone, the default search's win rate at N simulations, a coin, and the base rate (the share
of the training split's positions at the same moves that Black won, a constant), side by
side (accuracy, log loss, Brier score; the label: Black won). Positions at the given move
numbers of the test-split games (mcgo.train.split, never trained on) that have a result (a
count or a resignation; jigos, time losses and unreadable results are left out).

    python benchmarks/value/outcome_prediction.py GAMES... --size 9 --moves 20,30,40 \
        --net mcgo/models/weights/policy-net-9x9.npz --simulations 1000 --limit 300
    python benchmarks/value/outcome_prediction.py ../shared/data/kgs-6d --size 19 --moves 60,100,140 ...

``--net`` a policy net with value heads (``mcgo learn value-net``); ``--simulations 0``
leaves the search out (the search is the default engine's, as the recipe of ``mcgo gtp``
builds it). The net's ownership head is read as seed 003 reads an ownership map, by the
expected area (Black's less White's, komi counted), a chance through a slope fitted on the
training split's positions (the base rate's); its score head's sign beside them. Two more
anchors, each a sign (so only its accuracy is given): ``--gnugo`` GNU Go 3.8's
``estimate_score`` (its lead, komi counted, level 8), ``--ownership`` seed 003's expected area
(Black's expected area from the shipped DAG-RNN's ownership, less White's and komi).
``--katago COMMAND`` adds a strong net's judgement as a yardstick, not a target: the raw
win rate (one visit) of a KataGo analysis engine started by ``COMMAND``, whose config reports
win rates as Black's (``reportAnalysisWinratesAs = BLACK``). Every figure is given for all the
positions and apart for even games and handicap games (Black's stones set up before the first
move), whose outcomes depend on different things: in a handicap game the players' strengths,
which the board does not show. Prints JSON, then a short table.
"""

import json
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import click
import numpy as np

from mcgo import BLACK
from mcgo.engine.recipe import Recipe
from mcgo.match.settings import GNUGO
from mcgo.models import policy_net as PN
from mcgo.search.netprior import readings
from mcgo.sgf import record_from_board, write_sgf
from mcgo.train.value_data import held_out_positions
from mcgo.train.value_train import outcome_metrics

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import yardstick  # noqa: E402


GNUGO_LEVEL = 8         # as benchmarks/strength/opening_estimate.py: quick and stable
ESTIMATE = re.compile(r"^= ([BW])\+([0-9.]+)")


def gnugo_leads(boards):
    """Black's lead by GNU Go's ``estimate_score`` of each board (None where it gives none),
    each position loaded from an SGF of its history."""
    process = subprocess.Popen([GNUGO, "--mode", "gtp", "--level", str(GNUGO_LEVEL),
                                "--chinese-rules"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)

    def send(line):
        process.stdin.write(line + "\n")
        process.stdin.flush()
        lines = []
        while True:
            text = process.stdout.readline()
            if not text:
                raise RuntimeError(f"GNU Go stopped after {line!r}")
            if not text.strip() and lines:
                return " ".join(lines)
            if text.strip():
                lines.append(text.strip())

    leads = []
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "position.sgf"
        try:
            for board in boards:
                write_sgf(record_from_board(board), path)
                if not send(f"loadsgf {path}").startswith("="):
                    leads.append(None)
                    continue
                answer = send("estimate_score")
                found = ESTIMATE.match(answer)
                if found:
                    lead = float(found.group(2))
                    leads.append(lead if found.group(1) == "B" else -lead)
                else:
                    leads.append(0.0 if answer.startswith("= 0") else None)
        finally:
            process.stdin.close()
            process.wait(timeout=60)
    return leads


def katago_winrates(boards, command):
    """Black's raw win rate by a KataGo analysis engine (one visit: its value net alone) for each
    board (:func:`yardstick.board_query`); None for a board KataGo refuses or no query says."""
    queries = [q for q in (yardstick.board_query(i, b) for i, b in enumerate(boards)) if q]
    found = yardstick.evaluate(queries, command)
    return [found[str(i)]["winrate"] if str(i) in found else None for i in range(len(boards))]


def kind_of(board):
    """``"handicap"`` where Black's stones were set up before the first move, else ``"even"``."""
    return "handicap" if record_from_board(board).setup.black else "even"


def net_readings(net, boards, batch=256):
    """Black's view of each board by the net's one pass (:func:`mcgo.search.netprior.readings`):
    ``(chance by the value head, margin by the score head, expected area by the ownership
    head)``, in batches."""
    out = [readings(net, [(b.pts, b.info) for b in boards[i:i + batch]],
                    np.array([b.komi for b in boards[i:i + batch]], np.float32))
           for i in range(0, len(boards), batch)]
    return tuple(np.concatenate(parts) for parts in zip(*out)) if out else (np.zeros(0),) * 3


def fitted_slope(x, label, slopes=np.linspace(0.0, 0.3, 301)):
    """The ``k`` of ``1 / (1 + exp(-k x))`` with the least log loss on ``label`` (+1 / -1): a
    grid, as one number needs no optimiser (0 where there is nothing to fit)."""
    if not len(x):
        return 0.0
    losses = [np.mean(np.logaddexp(0.0, -label * k * x)) for k in slopes]
    return float(slopes[int(np.argmin(losses))])


def sign_accuracy(leads, label):
    """The share of positions whose lead's sign (Black ahead: Black wins) is the outcome's;
    a lead of 0 or none counts half."""
    score = [0.5 if not lead else float((lead > 0) == (y > 0)) for lead, y in zip(leads, label)]
    return {"positions": len(score), "accuracy": float(np.mean(score)), "log_loss": None,
            "brier": None}


@click.command()
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--size", type=int, default=9, show_default=True)
@click.option("--moves", default="20,30,40", show_default=True, help="Move numbers, commas.")
@click.option("--net", "net_file", required=True, help="A policy net with value heads.")
@click.option("--simulations", type=int, default=1000, show_default=True,
              help="The default search's simulations (0: no search).")
@click.option("--split", default="test", show_default=True)
@click.option("--limit", type=int, default=300, show_default=True, help="Positions at most.")
@click.option("--base-positions", type=int, default=3000, show_default=True,
              help="Training-split positions that give the base rate.")
@click.option("--gnugo", is_flag=True, help="GNU Go's estimate_score sign beside them.")
@click.option("--ownership", is_flag=True, help="Seed 003's expected area sign beside them.")
@click.option("--katago", metavar="COMMAND",
              help="A KataGo analysis engine's command line: its raw win rate beside them.")
def main(games, size, moves, net_file, simulations, split, limit, base_positions, gnugo,
         ownership, katago):
    net = PN.load(net_file)
    if not net.has_value or net.size != size:
        raise click.UsageError(f"{net_file}: not a {size}x{size} net with value heads")
    numbers = [int(m) for m in moves.split(",")]
    positions = held_out_positions(games, size, numbers, split, limit)
    if not positions:
        raise click.UsageError("no held-out positions in GAMES")
    label = np.array([1 if won else -1 for _, won in positions])
    predicted = {"coin": np.full(len(positions), 0.5)}
    # A constant that knows only how often Black wins such positions: an anchor a value must
    # beat to know anything of the position (the test games' own share would be a peek).
    base = held_out_positions(games, size, numbers, "train", base_positions)
    base_rate = float(np.mean([won for _, won in base])) if base else 0.5
    predicted["base rate"] = np.full(len(positions), base_rate)
    # The same constant for each kind of game apart: still nothing of the position itself.
    base_kinds = [kind_of(b) for b, _ in base]
    kind_rate = {kind: float(np.mean([won for (_, won), k in zip(base, base_kinds) if k == kind]))
                 for kind in set(base_kinds)}
    predicted["base rate by kind"] = np.array([kind_rate.get(kind_of(b), base_rate)
                                               for b, _ in positions])
    started = time.perf_counter()
    win, score, area = net_readings(net, [b for b, _ in positions])
    predicted["value net"] = win
    net_seconds = (time.perf_counter() - started) / len(positions)
    # Seed 003's reading of the net's ownership head: Black's expected area less White's, komi
    # in, as Black's chance 1 / (1 + exp(-k area)), k fitted on the training split's positions.
    k = fitted_slope(net_readings(net, [b for b, _ in base])[2],
                     np.array([1 if won else -1 for _, won in base]))
    predicted["value net ownership area"] = 1.0 / (1.0 + np.exp(-k * area))
    if simulations:
        from mcgo.search import Search
        search = Search(Recipe().search_config())
        rates = []
        for board, _ in positions:
            r = search.run(board, playouts=simulations, early_stop=False).winrate
            rates.append(r if board.to_move == BLACK else 1 - r)
        predicted[f"search {simulations}"] = np.array(rates)
    if katago:
        # A position KataGo refuses is left out of its row only (NaN): its "positions" says so.
        rates = katago_winrates([b for b, _ in positions], katago)
        predicted["KataGo net (yardstick)"] = np.array([np.nan if r is None else r for r in rates])
    signs = {"value net score head": list(score)}
    if gnugo:
        signs["GNU Go estimate"] = gnugo_leads([b for b, _ in positions])
    if ownership:
        from mcgo.models.ownership.model import open_ownership
        model = open_ownership("dagrnn")
        # P(Black owns) summed is Black's expected area; White's is the rest of the board.
        signs["seed 003 area"] = [2 * model.black_area(b.pts, b.info) - b.size ** 2 - b.komi
                                  for b, _ in positions]
    kinds = np.array([kind_of(b) for b, _ in positions])

    def measured(where):
        out = {k: outcome_metrics(v[where & ~np.isnan(v)], label[where & ~np.isnan(v)])
               for k, v in predicted.items()}
        out.update({k: sign_accuracy([x for x, w in zip(v, where) if w], label[where])
                    for k, v in signs.items()})
        return out

    results = measured(np.ones(len(positions), bool))
    by_kind = {kind: measured(kinds == kind) for kind in ("even", "handicap")
               if (kinds == kind).any()}
    report = {"games": [str(g) for g in games], "size": size, "moves": numbers, "split": split,
              "positions": len(positions), "net": net_file,
              "base_rate": {"positions": len(base), "black_won": base_rate,
                            "by_kind": kind_rate},
              "net_ms_per_position": round(1000 * net_seconds, 3), "ownership_slope": k,
              "results": results, "by_kind": by_kind}
    print(json.dumps(report, indent=1))
    for title, table in [("all", results)] + list(by_kind.items()):
        n = next(iter(table.values()))["positions"]
        print(f"\n{title + f' ({n} positions)':<24} {'accuracy':>9} {'log loss':>9} {'Brier':>7}")
        for k, m in table.items():
            if m["log_loss"] is None:
                print(f"{k:<24} {m['accuracy']:9.3f} {'-':>9} {'-':>7}")
            else:
                print(f"{k:<24} {m['accuracy']:9.3f} {m['log_loss']:9.3f} {m['brier']:7.3f}")


if __name__ == "__main__":
    main()
