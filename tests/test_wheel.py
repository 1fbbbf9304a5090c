"""The built wheel works away from the checkout: installed into a fresh virtual environment in
a temporary folder, it finds its case base and models as package data, compiles its kernels,
plays a 19x19 opening move from the case base over GTP, and starts a terminal game.

The virtual environment sees the site packages of the interpreter running the tests (numba,
numpy, sgfmill, click are not downloaded again): a ``.pth`` file lists them. That works from
the system Python and from inside a virtual environment alike, where ``--system-site-packages``
would give the base interpreter's packages, not the running environment's. The ``.pth`` names
folders only, so the ``.pth`` files inside them (an editable install of ``mcgo``) are not
read; the test checks that ``mcgo`` itself is imported from the wheel's install, not from the
checkout.
"""

import os
import pathlib
import subprocess
import sys
import zipfile

import pytest
from sgfmill import sgf

ROOT = pathlib.Path(__file__).resolve().parent.parent

PACKAGE_DATA = ("mcgo/casebase/data/goban-original-games.mcgocb",
                "mcgo/models/weights/moves.npz",
                "mcgo/models/weights/moves-9x9.npz",
                "mcgo/models/weights/dagrnn.npz",
                "mcgo/models/weights/dagrnn-propensity.npz")
SIZE = 19


def run(command, cwd, **kwargs):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900, **kwargs)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The ``bin`` folder of a fresh virtual environment with the wheel installed."""
    where = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w",
         str(where / "dist")], cwd=where)
    wheel, = (where / "dist").glob("mcgo_engine-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(PACKAGE_DATA) <= names, set(PACKAGE_DATA) - names
    run([sys.executable, "-m", "venv", str(where / "venv")], cwd=where)
    bin_dir = where / "venv" / "bin"
    own_site = run([str(bin_dir / "python"), "-c",
                    "import sysconfig; print(sysconfig.get_path('purelib'))"],
                   cwd=where, env=away_from_the_checkout()).stdout.strip()
    (pathlib.Path(own_site) / "running-interpreter-site-packages.pth").write_text(
        "".join(f"{folder}\n" for folder in site_folders()))
    run([str(bin_dir / "pip"), "install", "-q", "--no-deps", str(wheel)], cwd=where,
        env=away_from_the_checkout())
    return bin_dir


def site_folders():
    """The site-packages folders on the running interpreter's path (its own, a virtual
    environment's, the user's), in their order: where numba and the other dependencies are."""
    return [p for p in sys.path if p and pathlib.Path(p).name in ("site-packages", "dist-packages")
            and pathlib.Path(p).is_dir()]


def away_from_the_checkout():
    """The environment for the installed wheel: no ``PYTHONPATH`` (it may name the checkout),
    no ``MCGO_CASEBASE`` (the wheel must find its own case base)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MCGO_CASEBASE")}


def first_moves_of_professionals(games_dir):
    """Every professional first move of the collection, under the board's 8 symmetries."""
    moves = set()
    for path in games_dir.glob("*.sgf"):
        try:
            game = sgf.Sgf_game.from_bytes(path.read_bytes())
        except ValueError:
            continue
        if game.get_size() != SIZE:
            continue
        for node in game.get_main_sequence():
            color, move = node.get_move()
            if color is not None:
                if move is not None:
                    row, col = move
                    for r, c in ((row, col), (col, row)):
                        for rr in (r, SIZE - 1 - r):
                            for cc in (c, SIZE - 1 - c):
                                moves.add((rr, cc))
                break
    return moves


def gtp_vertex(row, col):
    return "ABCDEFGHJKLMNOPQRST"[col] + str(row + 1)


def test_the_wheel_runs_from_package_data(installed, tmp_path, goban_games_dir):
    env = away_from_the_checkout()
    where = run([str(installed / "python"), "-c",
                 "import mcgo; from mcgo.casebase.advisor import default_casebase_path as p; "
                 "print(mcgo.__file__); print(p())"], cwd=tmp_path, env=env).stdout.split()
    venv = installed.parent
    assert all(pathlib.Path(w).is_relative_to(venv) for w in where), where

    assert "kernels ready" in run([str(installed / "mcgo"), "warmup"], cwd=tmp_path,
                                  env=env).stdout

    session = "boardsize 19\nclear_board\ngenmove b\nmcgo-casebase\nquit\n"
    out = run([str(installed / "mcgo"), "gtp", "--playouts", "300", "--quiet", "--casebase",
               "default"], cwd=tmp_path,
              input=session, env=env).stdout
    answers = [a for a in out.split("\n\n") if a.strip()]
    move = answers[2].removeprefix("= ").strip()
    assert "LABEL" in answers[3], answers[3]        # the case base is loaded and matches
    professional = {gtp_vertex(r, c) for r, c in first_moves_of_professionals(goban_games_dir)}
    assert move in professional, (move, sorted(professional))

    game = run([str(installed / "mcgo"), "play", "--size", "9", "--playouts", "20"],
               cwd=tmp_path, input="E5\nquit\n", env=env).stdout
    assert "mcgo plays" in game, game


def _texts(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, str):
        yield value


def test_the_shipped_weights_metadata_holds_no_path_of_a_machine():
    """Every JSON header of the package's weight files (metadata, header): no string in it
    is an absolute path, nor starts with one ("train games of /home/..." included)."""
    import json
    import re
    import numpy as np
    import mcgo
    files = sorted(pathlib.Path(mcgo.__file__).parent.rglob("*.npz"))
    assert len(files) >= 10
    absolute = re.compile(r"(^|\s)(/[\w.-]+){2,}|[A-Za-z]:\\")
    for path in files:
        with np.load(path) as arrays:
            for key in arrays.files:
                array = arrays[key]
                if array.dtype != np.uint8 or array.ndim != 1:
                    continue
                try:
                    header = json.loads(array.tobytes().decode("utf-8"))
                except (UnicodeDecodeError, ValueError):
                    continue
                for text in _texts(header):
                    assert not absolute.search(text), f"{path.name} {key}: {text[:120]}"
