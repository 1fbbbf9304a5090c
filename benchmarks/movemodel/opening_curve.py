"""Does more thinking help the opening? (issue 46) The share of an engine's answers near the
professional's move, moves 1-20 of the goban test games, at several simulation counts.

For the first ``--games`` games (default 15) of the learning code's test split with no
handicap, and each of their moves 1-20, the engine is set up on the position before that
move over GTP (``clear_board``, the game's ``komi``, the moves so far as ``play``: a fresh
search, no tree kept from another position) and asked ``genmove`` for the professional's
colour. An answer counts within distance ``d`` when its Euclidean distance to the
professional's move is at most ``d`` (2 is the figure; 0, 1 and 4 are reported too), with the
95% Wilson interval. A pass or a resignation is a miss. A record without ``KM`` is played at
komi 6.5 (as :mod:`opening_prediction` does); the others at their own komi, the same for
every engine.

In a symmetric position (the empty board, a first stone on a diagonal or the centre line,
and so on: 28 of the 300 default positions) moves that a symmetry of the board maps onto each
other are the same move, and an engine that plays the professional's 4-4 point in another
corner is as near as one that plays it in the same one. Every answer also records its
``symmetric_distance``, the least distance to an image of the professional's move under the
symmetries of the position; ``--symmetric`` makes the tables and the pairs count that
instead (files saved before it get it computed from their positions).

Engines (``--engine``, repeatable), each run as a GTP subprocess, one at a time:

* ``mcgo``: ``python -m mcgo gtp --quiet --playouts N --threads 1``, as a user starts it
  (its defaults: the strong preset, ``--casebase auto`` = none with it, ``--model auto`` =
  the shipped move model's prior on 19x19, the ``auto`` playouts); ``mcgo:ARGS`` adds
  ``mcgo gtp`` arguments, e.g. ``"mcgo:--policy pattern"`` or ``"mcgo:--set rave=0"``;
* ``model``: no search, the shipped move model's most probable move (its features given
  the last two moves, as in training): what the tree's prior knows on its own (its count,
  0, is the only one);
* ``pachi``: ``$MCGO_PACHI`` (else ``pachi`` on PATH) ``-t =N threads=1,pondering=0 -s 1``
  in its own folder (its pattern and joseki files; no fuseki book, which Pachi reads only with
  ``-f``); Pachi takes no fewer than 500 fixed playouts; ``pachi:ARGS`` adds arguments.

Prints one JSON object per engine and simulation count (``--save FILE`` appends them, with
every answer, as JSON lines), then a table; ``--table FILE`` prints the table of a saved file,
``--places FILE`` where its answers go (near the last move, near a stone) beside the
professionals', ``--pairs FILE`` each of its results against one (``--baseline``) position by
position, with the exact McNemar (sign) test. ``--losses FILE --katago COMMAND`` judges a
saved file's answers by a stronger yardstick than the distance to one professional's move:
the points each answer loses by KataGo's raw net (its score lead for the mover after the
answer, less its lead before; one visit, ``benchmarks/yardstick.py``), the professionals'
moves on the same positions beside them; ``--judged CACHE`` keeps KataGo's leads between runs.

    python benchmarks/movemodel/opening_curve.py --engine mcgo --sims 100,1000,10000 --save runs/opening-curve.jsonl
    python benchmarks/movemodel/opening_curve.py --engine pachi --sims 500,1000,10000 --save runs/opening-curve.jsonl
    python benchmarks/movemodel/opening_curve.py --engine "mcgo:--policy pattern" --sims 1000 --save runs/opening-curve.jsonl
    python benchmarks/movemodel/opening_curve.py --engine model --sims 0 --save runs/opening-curve.jsonl
    python benchmarks/movemodel/opening_curve.py --table runs/opening-curve.jsonl
    python benchmarks/movemodel/opening_curve.py --table runs/opening-curve.jsonl --symmetric
    python benchmarks/movemodel/opening_curve.py --places runs/opening-curve.jsonl
    python benchmarks/movemodel/opening_curve.py --pairs runs/opening-curve.jsonl --baseline mcgo@1
    python benchmarks/movemodel/opening_curve.py --losses runs/opening-curve.jsonl --katago "KATAGO analysis -model M -config C"
"""

import json
import math
import pathlib
import shlex
import subprocess
import sys
import time

import click
import numpy as np

from mcgo.board import PASS, Board, coords, symmetry
from mcgo.gtp.controller import GtpEngine
from mcgo.match.opponents import EngineNameError, pachi_binary
from mcgo.sgf import GameRecord
from mcgo.stats import mcnemar, wilson_interval
from mcgo.train.split import SPLITS, TEST

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import yardstick  # noqa: E402
from opening_prediction import GOBAN, split_games  # noqa: E402

MOVES = 20
DISTANCES = (0, 1, 2, 4)
KOMI_WITHOUT_KM = 6.5
PACHI_MIN_PLAYOUTS = 500          # Pachi's GJ_MINGAMES: -t =N refuses fewer
PACHI_ARGS = ("threads=1,pondering=0", "-s", "1")
ANSWER_TIMEOUT = 900.0            # seconds for one genmove at the largest count


def engine_command(spec, sims):
    """``(argv, cwd)`` of the engine ``spec`` (``mcgo[:ARGS]`` or ``pachi[:ARGS]``) at
    ``sims`` simulations a move, one thread.

    >>> engine_command("mcgo:--policy pattern", 100)[0][1:]
    ['-m', 'mcgo', 'gtp', '--quiet', '--playouts', '100', '--threads', '1', '--policy', 'pattern']
    """
    name, _, extra = spec.partition(":")
    extra = shlex.split(extra)
    if spec == "model":
        if sims != 0:
            raise click.BadParameter("the model alone searches nothing: give --sims 0",
                                     param_hint="--sims")
        return None, None
    if name == "mcgo":
        return ([sys.executable, "-m", "mcgo", "gtp", "--quiet", "--playouts", str(sims),
                 "--threads", "1", *extra], None)
    if name == "pachi":
        if sims < PACHI_MIN_PLAYOUTS:
            raise click.BadParameter(f"Pachi takes at least {PACHI_MIN_PLAYOUTS} fixed playouts, "
                                     f"not {sims}", param_hint="--sims")
        try:
            binary = pachi_binary()
        except EngineNameError as e:
            raise click.UsageError(str(e)) from None
        return [str(binary), "-t", f"={sims}", *PACHI_ARGS, *extra], str(binary.parent)
    raise click.BadParameter(f"{spec!r}: an engine is mcgo[:ARGS], pachi[:ARGS] or model",
                             param_hint="--engine")


def test_games(folder, part, limit):
    """The first ``limit`` games of ``part`` without handicap (name order)."""
    games = [g for g in split_games(folder, part, None)
             if not g.handicap and not any(s.black or s.white for s in g.setups.values())]
    return games[:limit]


def positions(games, moves):
    """``(game name, komi, moves before, colour, professional's point)`` for moves 1 to
    ``moves`` of each game (up to its first pass)."""
    for record in games:
        komi = record.komi if record.komi is not None else KOMI_WITHOUT_KM
        name = pathlib.Path(str(record.source)).name
        for n, (color, p) in enumerate(record.moves[:moves]):
            if p == PASS:
                break
            yield name, komi, record.moves[:n], color, p


def symmetric_distance(answer, professional, before, size=19):
    """The least distance from ``answer`` to an image of the professional's move under the
    symmetries of the position after the moves ``before``
    (:func:`mcgo.board.symmetry.position_symmetries`); None when ``answer`` is no point.

    >>> q16 = coords.from_gtp("Q16", 19)
    >>> symmetric_distance("D4", q16, []), symmetric_distance("Q4", coords.from_gtp("D17", 19), [(1, q16)])
    (0.0, 1.0)
    """
    if answer.lower() in ("pass", "resign"):
        return None
    board = Board(size, 0)
    for c, q in before:
        board.play(q, c)
    return min(distance(answer, q, size) for q in symmetry.equivalent_points(board, professional))


def distance(answer, professional, size=19):
    """Euclidean distance between two points (None when ``answer`` is no point)."""
    if answer.lower() in ("pass", "resign"):
        return None
    (ar, ac), (pr, pc) = (coords.row_col(coords.from_gtp(answer, size), size),
                          coords.row_col(professional, size))
    return math.hypot(ar - pr, ac - pc)


def color_word(color):
    return "b" if color == 1 else "w"


def model_answers(games, moves):
    """The shipped move model's most probable move in every position: a list of dicts."""
    from mcgo.models.movemodel import open_model

    model = open_model("default")
    out = []
    for name, komi, before, color, p in positions(games, moves):
        board = Board(19, komi)
        for c, q in before:
            board.play(q, c)
        probabilities = model.probabilities(board, color)
        answer = coords.to_gtp(max(probabilities, key=probabilities.get), 19)
        out.append(dict(game=name, move=len(before) + 1, color=color_word(color),
                        professional=coords.to_gtp(p, 19), answer=answer,
                        distance=distance(answer, p),
                        symmetric_distance=symmetric_distance(answer, p, before)))
    return out


def ask_all(spec, sims, games, moves):
    """Every position's answer by ``spec`` at ``sims`` simulations: a list of dicts."""
    if spec == "model":
        return model_answers(games, moves)
    argv, cwd = engine_command(spec, sims)
    out = []
    with GtpEngine(argv, cwd=cwd, stderr=subprocess.DEVNULL) as engine:
        engine.send("boardsize 19", timeout=300)     # mcgo may compile its kernels first
        for name, komi, before, color, p in positions(games, moves):
            engine.send("clear_board")
            engine.send(f"komi {komi:g}")
            for c, q in before:
                engine.send(f"play {color_word(c)} {coords.to_gtp(q, 19)}")
            answer = engine.send(f"genmove {color_word(color)}", timeout=ANSWER_TIMEOUT)
            out.append(dict(game=name, move=len(before) + 1, color=color_word(color),
                            professional=coords.to_gtp(p, 19), answer=answer,
                            distance=distance(answer, p),
                            symmetric_distance=symmetric_distance(answer, p, before)))
            click.echo(f"{spec} @{sims}: {name} move {len(before) + 1}: {answer} "
                       f"(pro {coords.to_gtp(p, 19)})", err=True)
    return out


def near(answer, d=2, key="distance"):
    """Whether an answer is within distance ``d`` (by ``key``) of the professional's move."""
    return answer[key] is not None and answer[key] <= d + 1e-9


def summary(spec, sims, answers, part, seconds, key="distance"):
    """The shares within each distance (by ``key``) and the Wilson interval of distance 2."""
    n = len(answers)
    hits = {d: sum(near(a, d, key) for a in answers) for d in DISTANCES}
    low, high = wilson_interval(hits[2], n)
    out = dict(engine=spec, sims=sims, split=part, games=len({a["game"] for a in answers}),
               positions=n, share={f"d<={d}": round(hits[d] / max(n, 1), 4) for d in DISTANCES},
               wilson_95_d2=[round(low, 4), round(high, 4)], seconds=round(seconds, 1))
    if key == "distance" and all("symmetric_distance" in a for a in answers):
        out["symmetric_d<=2"] = round(sum(near(a, 2, "symmetric_distance") for a in answers)
                                      / max(n, 1), 4)
    return out


def with_symmetric(results, folder, part, moves):
    """Saved results (with their answers) summarized by the symmetric distance, computed from
    the positions where an older file lacks it."""
    games = test_games(folder, part, max(r["games"] for r in results))
    before = {(name, len(b) + 1): (b, p) for name, _, b, _, p in positions(games, moves)}
    out = []
    for r in results:
        for a in r["answers"]:
            if "symmetric_distance" not in a:
                b, p = before[(a["game"], a["move"])]
                a["symmetric_distance"] = symmetric_distance(a["answer"], p, b)
        out.append(dict(summary(r["engine"], r["sims"], r["answers"], r["split"], r["seconds"],
                                key="symmetric_distance"), answers=r["answers"]))
    return out


def table(results):
    """A markdown table: one row per engine, one column per simulation count."""
    counts = sorted({r["sims"] for r in results})
    engines = list(dict.fromkeys(r["engine"] for r in results))
    cell = {(r["engine"], r["sims"]): r for r in results}
    lines = ["| engine | " + " | ".join(f"{c:,}" for c in counts) + " |",
             "|---|" + "---:|" * len(counts)]
    for e in engines:
        row = []
        for c in counts:
            r = cell.get((e, c))
            row.append("" if r is None else
                       f"{r['share']['d<=2']:.3f} [{r['wilson_95_d2'][0]:.3f}, "
                       f"{r['wilson_95_d2'][1]:.3f}]")
        lines.append(f"| `{e}` | " + " | ".join(row) + " |")
    return "\n".join(lines)


def places(results, games, moves):
    """Where the answers go, beside the professionals': the share within 4 points of the last
    move, and within 3 of a stone (moves 2 on), for each saved result with its answers."""
    before = {(name, len(b) + 1): b for name, _, b, _, _ in positions(games, moves)}
    lines = []
    for r in results:
        near_last = near_stone = pro_last = pro_stone = n = 0
        for a in r["answers"]:
            moves_before = before.get((a["game"], a["move"]))
            if not moves_before or a["answer"].lower() in ("pass", "resign"):
                continue
            n += 1
            stones = [q for _, q in moves_before]
            for answer, is_pro in ((a["answer"], False), (a["professional"], True)):
                p = coords.from_gtp(answer, 19)
                last = distance(coords.to_gtp(moves_before[-1][1], 19), p)
                stone = min(distance(coords.to_gtp(q, 19), p) for q in stones)
                if is_pro:
                    pro_last += last <= 4
                    pro_stone += stone <= 3
                else:
                    near_last += last <= 4
                    near_stone += stone <= 3
        if n:
            lines.append(f"{r['engine']} @{r['sims']}: within 4 of the last move {near_last / n:.3f} "
                         f"(professional {pro_last / n:.3f}), within 3 of a stone "
                         f"{near_stone / n:.3f} (professional {pro_stone / n:.3f}), {n} positions")
    return "\n".join(lines)


def pairs(results, baseline, key="distance"):
    """Each result against the baseline, position by position: how often the answer is the
    same, how often only one of the two is within distance 2 (by ``key``) of the
    professional's move, and the exact McNemar test of those two counts."""
    names = [f"{r['engine']}@{r['sims']}" for r in results]
    if baseline is None:
        base = results[0]
    elif baseline in names:
        base = results[names.index(baseline)]
    else:
        raise click.BadParameter(f"{baseline!r} is not in the file; it holds "
                                 + ", ".join(names), param_hint="--baseline")
    place = lambda a: (a["game"], a["move"])  # noqa: E731
    first = {place(a): a for a in base["answers"]}
    lines = [f"against `{base['engine']}` @ {base['sims']:,}:", "",
             "| engine | sims | positions | same answer | near only in the baseline "
             "| near only here | sign test p |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        if r is base:
            continue
        shared = [(first[place(a)], a) for a in r["answers"] if place(a) in first]
        same = sum(b["answer"] == a["answer"] for b, a in shared)
        p, only_base, only_here = mcnemar([near(b, key=key) for b, _ in shared],
                                          [near(a, key=key) for _, a in shared])
        lines.append(f"| `{r['engine']}` | {r['sims']:,} | {len(shared)} | {same} | {only_base} "
                     f"| {only_here} | {p:.3f} |")
    return "\n".join(lines)


def losses(results, games, moves, command, cache=None):
    """The points each saved answer loses by KataGo's raw net, and the professionals' moves on
    the same positions: for each result (and ``professional``), the positions judged, the
    mean loss with its 95% interval (normal), the median and the share losing at most one
    point. KataGo's leads (Black's) are kept in the JSON file ``cache`` when given."""
    where = {(name, len(b) + 1): (komi, b) for name, komi, b, _, _ in positions(games, moves)}
    leads = json.loads(pathlib.Path(cache).read_text()) if cache and pathlib.Path(cache).exists() else {}

    def key(name, number, answer):
        return f"{name}|{number}|{answer or '-'}"

    wanted = {}
    for r in results:
        for a in r["answers"]:
            spot = (a["game"], a["move"])
            if spot not in where:
                continue
            for answer in (None, a["professional"], a["answer"]):
                if answer and answer.lower() in ("pass", "resign"):
                    continue
                k = key(*spot, answer)
                if k not in leads and k not in wanted:
                    komi, before = where[spot]
                    played = GameRecord(size=19, moves=list(before)).gtp_moves()
                    if answer:
                        played.append((a["color"].upper(), answer.upper()))
                    wanted[k] = yardstick.query(k, 19, komi, played)
    if wanted:
        found = yardstick.evaluate(list(wanted.values()), command)
        leads.update({k: info["scoreLead"] for k, info in found.items()})
        if cache:
            pathlib.Path(cache).write_text(json.dumps(leads, indent=0, sort_keys=True))

    def lost(a, answer):
        before, after = leads.get(key(a["game"], a["move"], None)), leads.get(key(a["game"], a["move"], answer))
        if before is None or after is None:
            return None
        sign = 1 if a["color"].lower() == "b" else -1          # the leads are Black's
        return sign * (before - after)

    def described(values):
        v = np.array([x for x in values if x is not None])
        half = 1.96 * v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else float("nan")
        return {"positions": len(v), "mean": round(float(v.mean()), 3),
                "interval95": [round(float(v.mean() - half), 3), round(float(v.mean() + half), 3)],
                "median": round(float(np.median(v)), 3),
                "within_1": round(float(np.mean(v <= 1.0)), 4)}

    out = []
    shown = set()
    for r in results:
        answers = [a for a in r["answers"] if (a["game"], a["move"]) in where]
        out.append({"engine": r["engine"], "sims": r["sims"],
                    **described(lost(a, a["answer"]) for a in answers
                                if a["answer"].lower() not in ("pass", "resign"))})
        spots = frozenset((a["game"], a["move"]) for a in answers)
        if spots not in shown:
            shown.add(spots)
            out.append({"engine": "professional", "sims": None,
                        **described(lost(a, a["professional"]) for a in answers)})
    return out


def losses_table(judged):
    lines = ["| answers | positions | points lost, mean [95%] | median | share losing <= 1 |",
             "|---|---:|---|---:|---:|"]
    for j in judged:
        name = j["engine"] if j["sims"] is None else f"`{j['engine']}` @ {j['sims']:,}"
        lines.append(f"| {name} | {j['positions']} | {j['mean']:.2f} [{j['interval95'][0]:.2f}, "
                     f"{j['interval95'][1]:.2f}] | {j['median']:.2f} | {j['within_1']:.3f} |")
    return "\n".join(lines)


def read_saved(path, answers=False):
    """The results of a ``--save`` file, the last of each engine and count."""
    latest = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            if not answers:
                r.pop("answers", None)
            latest[(r["engine"], r["sims"])] = r
    return list(latest.values())


@click.command()
@click.option("--engine", "engines", multiple=True, default=("mcgo",), show_default=True,
              help="mcgo[:ARGS], pachi[:ARGS] or model (repeatable).")
@click.option("--sims", default="100,1000", show_default=True,
              help="Simulations (playouts) a move, comma-separated.")
@click.option("--games", "limit", type=click.IntRange(1), default=15, show_default=True,
              help="The first this many test games without handicap.")
@click.option("--moves", type=click.IntRange(1), default=MOVES, show_default=True,
              help="Moves 1 to N of each game.")
@click.option("--folder", type=click.Path(file_okay=False), default=str(GOBAN))
@click.option("--split", "part", type=click.Choice(SPLITS), default=TEST, show_default=True)
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Append each result, with its answers, to this JSON-lines file.")
@click.option("--table", "table_of", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Only print the table of a --save file.")
@click.option("--places", "places_of", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Only print where the answers of a --save file go (near the last move, "
                   "near a stone), beside the professionals'.")
@click.option("--pairs", "pairs_of", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Only compare, position by position, each result of a --save file with "
                   "the baseline's.")
@click.option("--baseline", default=None,
              help="With --pairs: the result to compare with, ENGINE@SIMS as the table names "
                   "them (default: the file's first).")
@click.option("--losses", "losses_of", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Only judge the answers of a --save file by KataGo (--katago): the points "
                   "each loses, the professionals' beside them.")
@click.option("--katago", metavar="COMMAND", default=None,
              help="With --losses: a KataGo analysis engine's command line (its config "
                   "reporting as Black).")
@click.option("--judged", type=click.Path(dir_okay=False), default=None,
              help="With --losses: a JSON file that keeps KataGo's leads between runs.")
@click.option("--symmetric", is_flag=True,
              help="With --table or --pairs: count the distance to the professional's move or "
                   "its image under a symmetry of the position.")
def main(engines, sims, limit, moves, folder, part, save, table_of, places_of, pairs_of,
         baseline, losses_of, katago, judged, symmetric):
    if losses_of:
        if not katago:
            raise click.UsageError("--losses needs --katago COMMAND")
        saved = read_saved(losses_of, answers=True)
        games = test_games(folder, part, max(r["games"] for r in saved))
        judged_ = losses(saved, games, moves, katago, judged)
        for j in judged_:
            print(json.dumps(j))
        click.echo(losses_table(judged_))
        return
    if pairs_of or table_of:
        saved = read_saved(pairs_of or table_of, answers=symmetric or bool(pairs_of))
        if symmetric:
            saved = with_symmetric(saved, folder, part, moves)
        key = "symmetric_distance" if symmetric else "distance"
        click.echo(pairs(saved, baseline, key) if pairs_of else table(saved))
        return
    if places_of:
        saved = read_saved(places_of, answers=True)
        click.echo(places(saved, test_games(folder, part, max(r["games"] for r in saved)), moves))
        return
    try:
        counts = [int(s) for s in sims.split(",")]
    except ValueError:
        raise click.BadParameter(f"{sims!r}: give whole numbers separated by commas",
                                 param_hint="--sims") from None
    for spec in engines:
        for c in counts:
            engine_command(spec, c)                   # every configuration checked first
    if not pathlib.Path(folder).is_dir():
        raise click.BadParameter(f"no folder {folder}", param_hint="--folder")
    games = test_games(folder, part, limit)
    results = []
    for spec in engines:
        for c in counts:
            start = time.perf_counter()
            answers = ask_all(spec, c, games, moves)
            result = summary(spec, c, answers, part, time.perf_counter() - start)
            print(json.dumps(result), flush=True)
            results.append(result)
            if save:
                with open(save, "a") as f:
                    f.write(json.dumps(dict(result, answers=answers)) + "\n")
    click.echo(table(results))


if __name__ == "__main__":
    main()
