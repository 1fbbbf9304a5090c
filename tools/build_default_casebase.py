#!/usr/bin/env python
"""Rebuild the default case base ``mcgo/casebase/data/goban-original-games.mcgocb`` from the Debian
package ``goban-original-games`` (596 professional games, GPL-2+).

    python tools/build_default_casebase.py            # uses data/goban-original-games if there
    python tools/build_default_casebase.py --download # apt-get download + dpkg -x first

The games are read from ``data/goban-original-games/usr/share/goban`` (what tools/setup.sh
unpacks); ``--download`` fetches the package into a temporary folder instead. Prints the
build summary; the file is written atomically.
"""

import argparse
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mcgo.casebase import DEFAULT_MAX_MOVES, DEFAULT_THRESHOLD  # noqa: E402
from mcgo.train.casebase_build import build_casebase  # noqa: E402
from mcgo.casebase.advisor import DEFAULT_CASEBASE_NAME  # noqa: E402

PACKAGE = "goban-original-games"
GAMES_SUBDIR = pathlib.Path("usr/share/goban")
DEFAULT_SOURCE = ROOT / "data" / PACKAGE / GAMES_SUBDIR
DEFAULT_OUTPUT = ROOT / "mcgo" / "casebase" / "data" / DEFAULT_CASEBASE_NAME


def download(into):
    """apt-get download the package into ``into`` and unpack it there; the games folder."""
    subprocess.run(["apt-get", "download", PACKAGE], cwd=into, check=True)
    deb = next(pathlib.Path(into).glob(f"{PACKAGE}_*.deb"))
    subprocess.run(["dpkg", "-x", str(deb), str(pathlib.Path(into) / "root")], check=True)
    return pathlib.Path(into) / "root" / GAMES_SUBDIR


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=pathlib.Path, default=DEFAULT_SOURCE,
                        help="folder of the package's games (default: %(default)s)")
    parser.add_argument("--download", action="store_true", help="fetch the Debian package first")
    parser.add_argument("-o", "--output", type=pathlib.Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--moves", type=int, default=DEFAULT_MAX_MOVES)
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        source = download(tmp) if args.download else args.source
        if not source.is_dir():
            parser.error(f"{source} not found: run tools/setup.sh or pass --download")
        cb, report = build_casebase(source, max_moves=args.moves, threshold=args.threshold,
                                    jobs=args.jobs)
    cb.header["source"] = f"Debian package {PACKAGE} ({GAMES_SUBDIR}), GPL-2+"
    args.output.parent.mkdir(parents=True, exist_ok=True)
    cb.save(args.output)
    print(report.summary())
    print(f"black to move: {cb.black_cases}, white to move: {len(cb) - cb.black_cases}")
    print(f"wrote {args.output} ({args.output.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
