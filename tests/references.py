"""Where the tests and benchmarks find the reference data that is not the project's own.

Fuego's regression suites, the tsumego problems and the KGS games are other people's work;
the repository does not carry them. They lie in one folder, named by the environment
variable ``MCGO_REFERENCE_DATA`` and by default ``../shared/data`` beside the checkout
(the folder above the repository root, then ``shared/data``). The README's "Reference data"
says where each one comes from.

Standard library only: the tests import it as ``references`` (``pythonpath = ["tests"]`` in
pyproject.toml, and ``tests/conftest.py`` turns an absent reference into a skip, or a
failure under ``MCGO_REQUIRE_REFERENCES=1``), the benchmarks by putting ``tests/`` on their
path.
"""

import os
import pathlib

ENV = "MCGO_REFERENCE_DATA"
REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
DEFAULT = REPOSITORY.parent / "shared" / "data"

# The folders under the reference data, and what each holds (for the messages).
FUEGO_REGRESSION = "fuego-regression"
TSUMEGO_PROBLEMS = "tsumego/problems.jsonl.gz"
KGS_6D = "kgs-6d"
WHAT = {FUEGO_REGRESSION: "Fuego's regression suites",
        TSUMEGO_PROBLEMS: "the tsumego problems",
        KGS_6D: "the KGS 6d+ game archives"}


def reference_data():
    """The folder of reference data: ``$MCGO_REFERENCE_DATA``, else ``../shared/data`` beside
    the checkout. Read at each call, so a changed environment is seen."""
    named = os.environ.get(ENV)
    return pathlib.Path(named).expanduser() if named else DEFAULT


def reference_path(name):
    """The path of ``name`` (a path relative to the reference data, as ``FUEGO_REGRESSION``),
    whether or not it exists."""
    return reference_data() / name


def absent_reason(name):
    """One line saying which reference is absent, where it was looked for, and the setting
    that finds it; None when it is there."""
    path = reference_path(name)
    if path.exists():
        return None
    what = WHAT.get(name, name)
    return (f"{what} not found at {path}: set {ENV} to the folder that holds {name} "
            f"(see the README, Reference data)")
