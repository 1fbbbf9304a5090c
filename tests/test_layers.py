"""The layers of ARCHITECTURE.md hold: import-linter's contracts in pyproject.toml
(``[tool.importlinter]``) pass on this checkout, and they do catch an upward import."""

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


def test_an_upward_import_breaks_the_contracts(tmp_path):
    # The board importing the training code breaks both contracts: the layers (board is the
    # lowest package) and "the runtime imports no training module".
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "mcgo", copy / "mcgo", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    coords = copy / "mcgo" / "board" / "coords.py"
    coords.write_text(coords.read_text() + "\nfrom ..train import split  # noqa: E402,F401\n")
    code, output = lint_imports(copy)
    assert code != 0
    assert "mcgo.board.coords -> mcgo.train.split" in output, output
    assert "2 broken" in output, output
