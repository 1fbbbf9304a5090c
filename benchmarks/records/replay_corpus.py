#!/usr/bin/env python
"""How many games of a corpus replay to their last move, and why the others do not.

    python benchmarks/records/replay_corpus.py ../shared/data/kgs-6d data/goban-original-games/usr/share/goban

Every game of the files, folders and .tar.gz archives given is read and replayed whole with
:func:`mcgo.sgf.replay` (as ``build-casebase`` and ``mcgo learn extract`` replay them, without
their move limits); prints JSON (games, replayed, counts by reason, handicap records without
setup stones, records with consecutive moves by one colour) and a short table. Run from
another checkout (``PYTHONPATH=OTHER python benchmarks/records/replay_corpus.py ...``) to compare versions:
``--old`` replays with that version's strict options (``alternate=True``).
"""

import argparse
import collections
import json
import sys

from mcgo.sgf import SgfError, replay
from mcgo.sgf.sources import games_of_items, input_files, iter_inputs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+")
    parser.add_argument("--old", action="store_true",
                        help="replay with alternate=True (versions before records as recorded)")
    args = parser.parse_args(argv)
    options = {"alternate": True} if args.old else {}
    files, _ = input_files(args.sources)
    counts = collections.Counter()
    reasons = collections.Counter()
    examples = {}

    def handle(record):
        counts["handicap without setup stones"] += record.handicap >= 2 and not record.setup.black
        counts["consecutive moves by one colour"] += bool(record.turn_repeats())
        replay(record, superko=False, **options)
        return None

    for name, data, error, _ in iter_inputs(files):
        if name is None:
            continue
        for item in games_of_items([(name, data, error)], handle):
            counts["games"] += 1
            if item[0] == "ok":
                counts["replayed"] += 1
            else:
                reasons[item[2]] += 1
                examples.setdefault(item[2], item[3])
    out = {"counts": dict(counts), "skipped": dict(reasons), "examples": examples}
    json.dump(out, sys.stdout, indent=2)
    print()
    print(f"games {counts['games']}, replayed {counts['replayed']}", file=sys.stderr)
    for reason, n in reasons.most_common():
        print(f"{n:8d}  {reason}", file=sys.stderr)


if __name__ == "__main__":
    main()
