"""The layers of ARCHITECTURE.md hold: import-linter's contracts in pyproject.toml
(``[tool.importlinter]``) pass on this checkout, and they do catch an upward import and a
cycle."""

import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def lint_imports(root):
    """``lint-imports`` run on the ``mcgo`` package under ``root``, with its pyproject.toml."""
    done = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--no-cache"],
                          cwd=root, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(root)))
    assert "No module named 'importlinter'" not in done.stderr, \
        "import-linter is missing: pip install -e '.[test]'"
    return done.returncode, done.stdout + done.stderr


def test_the_runtime_and_the_lab_keep_their_layers():
    code, output = lint_imports(ROOT)
    assert code == 0, output
    assert "0 broken" in output, output


LAYERS = "Layers: the lab and the fronts above the engine, the engine above the board"
RUNTIME = "The runtime imports no training, match, front-end or plotting module"
ACYCLIC = "No import cycle between the modules of any package (local imports included)"


def copy_with(tmp_path, module, line):
    """A copy of the package and its pyproject.toml, ``line`` added to ``module``'s end."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "mcgo", copy / "mcgo", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    path = copy.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text() + "\n" + line + "  # noqa: E402,F401\n")
    return copy


def test_an_upward_import_breaks_the_layers(tmp_path):
    # The board (the lowest package) importing the training code breaks the layers and
    # "the runtime imports no training module" (and closes a cycle: train imports the board).
    code, output = lint_imports(copy_with(tmp_path, "mcgo.board.coords", "from ..train import split"))
    assert code != 0
    assert f"{LAYERS} BROKEN" in output and f"{RUNTIME} BROKEN" in output, output
    assert "mcgo.board.coords -> mcgo.train.split" in output, output


def test_a_cycle_inside_a_package_breaks_the_acyclic_contract(tmp_path):
    # The work of `mcgo learn extract` importing its command: a cycle inside mcgo.train alone.
    line = "from .extract import extract_command"
    code, output = lint_imports(copy_with(tmp_path, "mcgo.train.extraction", line))
    assert code != 0
    assert f"{ACYCLIC} BROKEN" in output and f"{LAYERS} KEPT" in output, output
    assert ".extraction -> .extract" in output, output
