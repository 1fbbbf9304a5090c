"""Shared fixtures: the external references the tests compare against.

Where a reference is missing the tests that need it are skipped on a developer's machine but
fail under CI (``MCGO_REQUIRE_REFERENCES=1``, set by ``.ci/run``), so CI can never pass by
skipping. Reference data that is not the project's (Fuego's suites, the tsumego problems) is
found through ``$MCGO_REFERENCE_DATA`` (module ``references``).
"""

import os
import pathlib
import shutil
import subprocess

import pytest

import references

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOBAN_GAMES = ROOT / "data" / "goban-original-games" / "usr" / "share" / "goban"
GNUGO = os.environ.get("MCGO_GNUGO") or shutil.which("gnugo") or "/usr/games/gnugo"


def pytest_collection_modifyitems(items):
    """Every test that talks to GNU Go (through the ``gnugo_command`` fixture, directly or by
    another fixture) carries the ``gnugo`` mark, so ``-m "not gnugo"`` leaves them all out."""
    for item in items:
        if "gnugo_command" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.gnugo)


def missing(what):
    """Skip here, or fail under CI where every reference must be present."""
    if os.environ.get("MCGO_REQUIRE_REFERENCES"):
        pytest.fail(f"reference missing under CI: {what}")
    pytest.skip(f"reference missing: {what}")


JS_CACHE = pathlib.Path(os.environ.get("MCGO_JS_CACHE", pathlib.Path.home() / ".cache" / "mcgo-js"))


def sabaki_package(name):
    """(node, NODE_PATH) with Sabaki's npm package ``@sabaki/NAME`` 3, installed by
    tools/setup.sh into :data:`JS_CACHE` (else there on first use); :func:`missing` without
    node and npm or when npm cannot fetch it."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        missing(f"node and npm, for @sabaki/{name}")
    modules = JS_CACHE / "node_modules"
    if not (modules / "@sabaki" / name / "package.json").is_file():
        JS_CACHE.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run([npm, "install", "--prefix", str(JS_CACHE), "--no-audit",
                                   "--no-fund", f"@sabaki/{name}@3"], capture_output=True,
                                  text=True, timeout=180)
        except subprocess.TimeoutExpired:
            missing(f"@sabaki/{name} (npm install timed out: no network?)")
        if done.returncode != 0:
            missing(f"@sabaki/{name} (npm install failed: {done.stderr[-300:]})")
    return node, str(modules)


@pytest.fixture(scope="session")
def gnugo_command():
    """Command line of GNU Go 3.8 in GTP mode with area scoring and positional superko."""
    if not os.path.exists(GNUGO):
        missing("GNU Go (apt-get install gnugo)")
    return [GNUGO, "--mode", "gtp", "--chinese-rules", "--positional-superko"]


@pytest.fixture(scope="session")
def goban_games_dir():
    if not GOBAN_GAMES.is_dir():
        missing(f"goban-original-games at {GOBAN_GAMES} (run tools/setup.sh)")
    return GOBAN_GAMES


def reference(name):
    """The path of reference data ``name`` (see ``references``), or a skip (a failure under
    CI) whose reason names ``$MCGO_REFERENCE_DATA``."""
    reason = references.absent_reason(name)
    if reason:
        missing(reason)
    return references.reference_path(name)


@pytest.fixture(scope="session")
def fuego_regression_dir():
    """Fuego's regression suites: the ``.tst`` files and the SGF positions under ``sgf/``."""
    return reference(references.FUEGO_REGRESSION)


@pytest.fixture(scope="session")
def kgs_games_dir():
    """The KGS 6d+ game archives (``*.tar.gz`` of SGF files)."""
    return reference(references.KGS_6D)


@pytest.fixture(scope="session")
def tsumego_problems_file():
    """The tsumego problems (``problems.jsonl.gz``, one JSON problem a line)."""
    return reference(references.TSUMEGO_PROBLEMS)


RAY_CPUS = 2  # the local Ray runtime of the tests: two games at a time


@pytest.fixture(scope="session")
def ray_runtime():
    """A local Ray runtime with 2 CPUs for the session (``mcgo match --ray`` tests). Its
    workers import this checkout's mcgo (PYTHONPATH), as the tests themselves do."""
    try:
        import ray
    except ImportError:
        missing("Ray (pip install 'mcgo-engine[cluster]')")
    python_path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    ray.init(num_cpus=RAY_CPUS, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR", runtime_env={"env_vars": {"PYTHONPATH": python_path}})
    yield ray
    ray.shutdown()


KIVY_HEADLESS = ("KIVY_NO_WINDOW", "KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG")


@pytest.fixture(scope="session")
def katrain_package(tmp_path_factory):
    """KaTrain's core modules (``ai, constants, engine, game, base_katrain``) and pysgf's
    ``Move``, imported headless: Kivy opens no window, reads no arguments and keeps its
    files in a temporary home, and its logger leaves Python's root logger to the other
    tests (``pip install -e '.[katrain]'``)."""
    for name in KIVY_HEADLESS:
        os.environ.setdefault(name, "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")    # leave the root logger alone
    os.environ.setdefault("KIVY_HOME", str(tmp_path_factory.mktemp("kivy")))
    try:
        from katrain.core import ai, base_katrain, constants, engine, game
        from pysgf import Move
    except ImportError as e:
        missing(f"KaTrain (pip install -e '.[katrain]'): {e}")
    return ai, constants, engine, game, base_katrain, Move
