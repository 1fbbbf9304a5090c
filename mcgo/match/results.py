# SPDX-License-Identifier: GPL-3.0-or-later
"""A match's results files and summary.

``results.json`` holds the match's configuration, its summary and every game's record;
``results.csv`` one row per game (its ``sgf`` names the game in ``games.zip``,
:mod:`mcgo.match.archive`). Both are rewritten after every game (through a temporary
file and a rename), so an interrupted match loses nothing and can be resumed.

Its configuration names the engines and the referee by their commands as
:func:`as_recorded` writes them (GNU Go by its name, not by where this machine keeps it); a
resumed match is compared in the same form, so a record saved with the path resumes.
"""

import csv
import json
import math
import os

import click

from ..stats import elo_difference, wilson_interval
from .settings import recorded_command
from .sprt import SprtSettings, match_sprt

RESULTS_JSON = "results.json"
RESULTS_CSV = "results.csv"
CSV_FIELDS = ["game", "black", "white", "winner", "winner_color", "result", "end", "moves",
              "fault_engine", "fault_reason", "referee_score", "black_engine_score",
              "white_engine_score", "tromp_taylor_score", "disagreement", "black_time",
              "black_moves", "white_time", "white_moves", "date", "sgf"]
# What a resumed match must share with the saved one.
SAME_MATCH_KEYS = ("commands", "labels", "alternate", "settings", "scorer", "referee", "sprt")


class MatchError(click.ClickException):
    """A match that cannot start or resume as asked (clear message, nothing overwritten)."""


# --------------------------------------------------------------------------- summary
def finite_or_none(x):
    """JSON has no infinity: an unbounded Elo becomes null."""
    return None if math.isinf(x) else round(x, 1)


def summarize(records, labels):
    """Wins per engine and colour, win rate with Wilson interval, Elo, mean time per move."""
    first, second = labels
    decided = [r for r in records if r.get("result") not in (None, "?")]
    wins = {label: sum(r["winner"] == label for r in decided) for label in labels}
    draws = sum(r["winner"] is None for r in decided)
    n = len(decided)
    points = wins[first] + 0.5 * draws
    rate = points / n if n else None
    low, high = wilson_interval(points, n) if n else (None, None)
    summary = {
        "games": len(records), "decided": n, "unknown": len(records) - n, "draws": draws,
        "wins": wins,
        "wins_by_color": {label: {c: sum(r["winner"] == label and r["winner_color"] == c
                                         for r in decided) for c in ("black", "white")}
                          for label in labels},
        "color_wins": {c: sum(r["winner_color"] == c for r in decided) for c in ("black", "white")},
        "faults": {label: sum(r.get("fault_engine") == label for r in records) for label in labels},
        "disagreements": sum(bool(r.get("disagreement")) for r in records),
        "win_rate": {"engine": first, "rate": rate, "wilson95": [low, high]},
        "mean_time_per_move": mean_move_times(records, labels),
    }
    if n:
        summary["elo"] = {"engine": first, "difference": finite_or_none(elo_difference(rate)),
                          "interval95": [finite_or_none(elo_difference(low)),
                                         finite_or_none(elo_difference(high))]}
    return summary


def mean_move_times(records, labels):
    out = {}
    for label in labels:
        total = sum(r["time"].get(label, 0.0) for r in records)
        moves = sum(r["moves_by"].get(label, 0) for r in records)
        out[label] = total / moves if moves else None
    return out


def format_summary(summary, labels):
    """The summary as the few lines ``mcgo match`` prints at the end."""
    first, second = labels
    lines = [f"games {summary['games']} (decided {summary['decided']}, unknown {summary['unknown']}, "
             f"draws {summary['draws']}, scorer disagreements {summary['disagreements']})"]
    for label in labels:
        by_color = summary["wins_by_color"][label]
        t = summary["mean_time_per_move"][label]
        lines.append(f"  {label}: {summary['wins'][label]} wins ({by_color['black']} as black, "
                     f"{by_color['white']} as white), {summary['faults'][label]} faults, "
                     f"mean time per move {'-' if t is None else f'{t:.3f} s'}")
    lines.append(f"  black won {summary['color_wins']['black']}, white won {summary['color_wins']['white']}")
    rate = summary["win_rate"]
    if rate["rate"] is not None:
        low, high = rate["wilson95"]
        lines.append(f"  {first} win rate {rate['rate']:.3f}, 95% Wilson [{low:.3f}, {high:.3f}]")
        elo = summary["elo"]
        show = lambda x: "inf" if x is None else f"{x:+.0f}"  # noqa: E731
        lines.append(f"  Elo {first} - {second}: {show(elo['difference'])} "
                     f"[{show(elo['interval95'][0])}, {show(elo['interval95'][1])}]")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ files
def write_atomically(path, text):
    """Write via a temporary file and rename, so a kill mid-write never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def csv_row(record):
    scores = record.get("scores", {})
    black, white = record["black"], record["white"]
    return {"game": record["game"], "black": black, "white": white, "winner": record["winner"],
            "winner_color": record["winner_color"], "result": record["result"],
            "end": record["end"], "moves": record["moves"],
            "fault_engine": record["fault_engine"], "fault_reason": record["fault_reason"],
            "referee_score": scores.get("referee"), "black_engine_score": scores.get("black_engine"),
            "white_engine_score": scores.get("white_engine"),
            "tromp_taylor_score": scores.get("tromp_taylor"),
            "disagreement": record.get("disagreement"),
            "black_time": round(record["time"][black], 3), "black_moves": record["moves_by"][black],
            "white_time": round(record["time"][white], 3), "white_moves": record["moves_by"][white],
            "date": record["date"], "sgf": record.get("sgf")}


def write_results(out_dir, config, records):
    """Rewrite results.json and results.csv in ``out_dir``; returns the JSON document."""
    records = sorted(records, key=lambda r: r["game"])
    labels = config["labels"]
    document = {"config": config, "summary": summarize(records, labels), "games": records}
    if config.get("sprt"):
        document["sprt"] = match_sprt(records, labels[0], config["alternate"],
                                      SprtSettings(**config["sprt"])).as_dict()
    write_atomically(out_dir / RESULTS_JSON, json.dumps(document, indent=1) + "\n")
    tmp = out_dir / (RESULTS_CSV + ".tmp")
    with open(tmp, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for record in records:
            writer.writerow(csv_row(record))
    os.replace(tmp, out_dir / RESULTS_CSV)
    return document


def load_results(out_dir):
    path = out_dir / RESULTS_JSON
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise MatchError(f"cannot read {path}: {exc}") from exc


def as_recorded(config):
    """A match's configuration with its engines' and referee's commands as records keep them
    (:func:`mcgo.match.settings.recorded_command`): what results.json holds, and what
    :func:`check_same_match` compares."""
    recorded = dict(config)
    if isinstance(config.get("commands"), dict):
        recorded["commands"] = {label: recorded_command(command)
                                for label, command in config["commands"].items()}
    if config.get("referee"):
        recorded["referee"] = recorded_command(config["referee"])
    return recorded


def check_same_match(old, new):
    """--resume must continue the same match: same engines, colours, size, komi, time (the
    commands compared as records keep them, so a record saved with GNU Go's path resumes)."""
    old, new = as_recorded(old), as_recorded(new)
    changed = [k for k in SAME_MATCH_KEYS if old.get(k) != new.get(k)]
    if changed:
        raise MatchError(f"cannot resume: {', '.join(changed)} differ from the saved match "
                         f"(saved {[old.get(k) for k in changed]}, asked {[new.get(k) for k in changed]})")
