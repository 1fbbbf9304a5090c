# SPDX-License-Identifier: GPL-3.0-or-later
"""Regression runner: GNU Go / Fuego ``.tst`` files against any GTP engine.

    mcgo regress fuego-regression/uct_ko.tst --engine "gnugo --mode gtp"

(``fuego-regression`` is the ``regression/`` folder of Fuego's repository; see the README.)

A ``.tst`` file is a GTP session. Lines are sent to the engine in order; a command whose
first word is a number is a test when the next line is an expectation::

    loadsgf sgf/games/2007/CGOS/199550.sgf 29
    10 reg_genmove b
    #? [D4|C5]*

The text in brackets is a regular expression the whole answer must match (``|`` gives
alternatives); a leading ``!`` means the answer must *not* match; a ``*`` after the bracket
marks a test the engine is expected to fail. Each test is PASS, FAIL (unexpected),
unexpected PASS, expected FAIL, or ERROR (the engine answered ``?``, hung or died: an
unknown command is an error, never a crash of the runner). ``loadsgf`` paths are resolved
relative to the ``.tst`` file. A fresh engine runs each file; after a hang or a crash it is
restarted and the file goes on.
"""

import concurrent.futures
import dataclasses
import pathlib
import re

import click

from ..gtp.controller import EngineProcess, GtpClientError, GtpFailure
from .settings import GNUGO, recorded_command

DEFAULT_ENGINE = f"{GNUGO} --mode gtp --chinese-rules --positional-superko"
DEFAULT_TIMEOUT = 60.0
SGF_DEFAULT_SIZE = 19  # SGF FF[4]: a game without SZ is 19x19

PASS = "PASS"
FAIL = "FAIL"
UNEXPECTED_PASS = "unexpected PASS"
EXPECTED_FAIL = "expected FAIL"
ERROR = "ERROR"
OUTCOMES = (PASS, FAIL, UNEXPECTED_PASS, EXPECTED_FAIL, ERROR)

EXPECTATION = re.compile(r"^#\?\s*\[(?P<pattern>.*?)\](?P<star>\*)?")
NUMBERED = re.compile(r"^(?P<id>\d+)\s+(?P<command>\S.*)$")
SGF_SIZE = re.compile(rb"SZ\s*\[\s*(\d+)")


class RegressError(click.ClickException):
    """A test file that cannot be read or understood."""


# ------------------------------------------------------------------------- parsing
@dataclasses.dataclass
class Expectation:
    pattern: str          # regular expression, without the leading "!"
    negated: bool         # "!X": the answer must not match X
    expected_fail: bool   # "*": the engine is known to fail this test

    def matches(self, answer):
        """Whether the answer satisfies the expectation (the regex must match all of it)."""
        hit = re.fullmatch(self.pattern, normalise(answer), re.IGNORECASE | re.DOTALL) is not None
        return hit != self.negated

    def __str__(self):
        return f"[{'!' if self.negated else ''}{self.pattern}]{'*' if self.expected_fail else ''}"


@dataclasses.dataclass
class Step:
    """One line to send; a test when it has a number and an expectation."""
    line_number: int
    command: str
    test_id: int = None
    expectation: Expectation = None
    board_size: int = None  # of the position the step runs on, when the file sets one up

    @property
    def is_test(self):
        return self.expectation is not None


def normalise(answer):
    """Whitespace-insensitive answer: multi-line replies become one line."""
    return " ".join(answer.split())


def parse_expectation(line):
    match = EXPECTATION.match(line.strip())
    if not match:
        raise ValueError(f"not an expectation: {line.strip()!r}")
    pattern = match.group("pattern").strip()
    negated = pattern.startswith("!")
    if negated:
        pattern = pattern[1:].strip()
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"bad regular expression {pattern!r}: {exc}") from exc
    return Expectation(pattern, negated, match.group("star") is not None)


def strip_comment(line):
    """GTP: everything from '#' on is a comment."""
    return line.split("#", 1)[0].strip()


def parse_tst(text, base_dir, warnings=None):
    """Steps of a .tst file; loadsgf paths become absolute, relative to ``base_dir``.

    Real files hold an expectation after an unnumbered command now and then; like
    GoGui it is no test then, and a warning is appended to ``warnings``.
    """
    steps = []
    size = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#?"):
            warning = attach_expectation(steps, line, number)
            if warning and warnings is not None:
                warnings.append(warning)
            continue
        command = strip_comment(line)
        if not command:
            continue
        test_id = None
        numbered = NUMBERED.match(command)
        if numbered:
            test_id, command = int(numbered.group("id")), numbered.group("command")
        command = resolve_loadsgf(command, base_dir)
        size = size_after(command, size)
        steps.append(Step(number, command, test_id, board_size=size))
    return steps


def attach_expectation(steps, line, number):
    """Make the numbered command before ``line`` a test; returns a warning if there is none."""
    previous = steps[-1] if steps else None
    if previous is None or previous.test_id is None or previous.expectation is not None:
        return f"line {number}: expectation {line!r} ignored: no numbered command before it"
    try:
        previous.expectation = parse_expectation(line)
    except ValueError as exc:
        raise ValueError(f"line {number}: {exc}") from exc
    return None


def resolve_loadsgf(command, base_dir):
    words = command.split()
    if words[0] != "loadsgf" or len(words) < 2:
        return command
    path = pathlib.Path(words[1])
    if not path.is_absolute():
        path = pathlib.Path(base_dir) / path
    return " ".join(["loadsgf", str(path.resolve())] + words[2:])


def read_tst(path, warnings=None):
    path = pathlib.Path(path)
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise RegressError(f"cannot read {path}: {exc}") from exc
    try:
        return parse_tst(text, path.parent, warnings)
    except ValueError as exc:
        raise RegressError(f"{path}: {exc}") from exc


def expand_paths(paths):
    """.tst files from files, directories (every *.tst in them) and .list files (one a line)."""
    out = []
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            out.extend(sorted(path.glob("*.tst")))
        elif path.suffix == ".list":
            out.extend(expand_list(path))
        else:
            out.append(path)
    return out


def expand_list(path):
    entries = [strip_comment(line) for line in path.read_text().splitlines()]
    return expand_paths(path.parent / entry.lstrip("@") for entry in entries if entry)


# ------------------------------------------------------------------- board sizes
def loaded_sgf_files(steps):
    """The SGF files a .tst file loads, as resolved paths."""
    return [pathlib.Path(s.command.split()[1]) for s in steps
            if s.command.split()[0] == "loadsgf" and len(s.command.split()) > 1]


def size_after(command, size):
    """Board size once ``command`` has run (loadsgf and boardsize change it)."""
    words = command.split()
    if words[0] == "loadsgf" and len(words) > 1:
        return sgf_board_size(pathlib.Path(words[1]))
    if words[0] == "boardsize" and len(words) > 1 and words[1].isdigit():
        return int(words[1])
    return size


def sgf_board_size(path):
    """SZ of an SGF file (19 if absent), or None if it cannot be read."""
    try:
        match = SGF_SIZE.search(path.read_bytes())
    except OSError:
        return None
    return int(match.group(1)) if match else SGF_DEFAULT_SIZE


def test_sizes(steps):
    """Board sizes the tests of a file run on (None: the file set up no position)."""
    return {s.board_size for s in steps if s.is_test}


# ------------------------------------------------------------------------ running
@dataclasses.dataclass
class CaseResult:
    file: str
    test_id: int
    command: str
    expected: str
    answer: str
    outcome: str


def judge(expectation, answer):
    """The outcome of a test whose command was answered (errors are decided before)."""
    passed = expectation.matches(answer)
    if passed:
        return UNEXPECTED_PASS if expectation.expected_fail else PASS
    return EXPECTED_FAIL if expectation.expected_fail else FAIL


def ask(engine, command):
    """(answer, None) on success, (None, error text) when the engine could not answer.

    A hang or a crash restarts the engine (see :class:`~mcgo.gtp.controller.EngineProcess`),
    so the file goes on with the next command."""
    try:
        return engine.send(command), None
    except OSError as exc:
        return None, f"cannot start engine: {exc}"
    except GtpFailure as exc:
        return None, f"? {exc.message}"
    except GtpClientError as exc:
        return None, f"{type(exc).__name__}: {exc}"


def run_file(path, engine_command, timeout=DEFAULT_TIMEOUT, echo=print, only_size=None):
    """Run one .tst file on a fresh engine; returns (test results, setup errors).

    Setup errors are failed commands that are not tests, and parsing warnings. With
    ``only_size`` the tests on other board sizes are skipped (setup commands still run).
    """
    setup_errors = []
    steps = read_tst(path, setup_errors)
    if only_size is not None:
        steps = [s for s in steps if not s.is_test or s.board_size == only_size]
    engine = EngineProcess(engine_command, timeout)
    results = []
    try:
        for step in steps:
            answer, error = ask(engine, step.command)
            if not step.is_test:
                if error:
                    setup_errors.append(f"line {step.line_number}: {step.command}: {error}")
                continue
            outcome = ERROR if error else judge(step.expectation, answer)
            result = CaseResult(str(path), step.test_id, step.command, str(step.expectation),
                                error if error else normalise(answer), outcome)
            results.append(result)
            echo(format_result(result))
    finally:
        engine.kill()
    return results, setup_errors


def format_result(result):
    name = pathlib.Path(result.file).name
    return (f"{name}:{result.test_id} {result.outcome}: {result.command} -> "
            f"'{result.answer}' (expected {result.expected})")


def count_outcomes(results):
    return {outcome: sum(r.outcome == outcome for r in results) for outcome in OUTCOMES}


def format_counts(name, counts, setup_errors=0):
    total = sum(counts.values())
    passed = counts[PASS] + counts[UNEXPECTED_PASS]
    parts = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES)
    extra = f"; {setup_errors} setup commands failed" if setup_errors else ""
    return f"{name}: {passed}/{total} passed ({parts}){extra}"


def run_files(paths, engine_command, timeout=DEFAULT_TIMEOUT, echo=print, only_size=None,
              jobs=1):
    """Run many files; returns a report dict with per-file counts and every test result.

    With ``jobs`` > 1 that many files run at once, each on its own engine as always; the
    report is the same as one at a time (files in the order given), and each test's line is
    echoed as it is answered, so lines of different files may interleave."""
    report = {"engine": recorded_command(engine_command), "size": only_size, "files": {},
              "tests": [], "unreadable": {}}

    def run(path):
        try:
            return run_file(path, engine_command, timeout, echo, only_size)
        except RegressError as exc:  # one bad file must not cost the others' results
            return exc

    if jobs > 1:
        # Threads suffice: the engines are processes, and a thread only waits on one.
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(run, paths))
    else:
        outcomes = map(run, paths)
    for path, outcome in zip(paths, outcomes):
        if isinstance(outcome, RegressError):
            report["unreadable"][str(path)] = outcome.message
            echo(f"{pathlib.Path(path).name}: skipped: {outcome.message}")
            continue
        results, setup_errors = outcome
        counts = count_outcomes(results)
        report["files"][str(path)] = {"counts": counts, "setup_errors": setup_errors}
        report["tests"].extend(dataclasses.asdict(r) for r in results)
        for error in setup_errors:
            echo(f"{pathlib.Path(path).name}: setup error: {error}")
        echo(format_counts(pathlib.Path(path).name, counts, len(setup_errors)))
    report["total"] = count_outcomes([CaseResult(**t) for t in report["tests"]])
    return report


# ---------------------------------------------------------------------------- CLI
def files_with_size(files, size):
    """The files that have tests on a ``size`` x ``size`` position."""
    return [f for f in files if size in test_sizes(read_tst(f))]


def unexpected_count(report):
    """Tests that did not go as the files expect, plus unreadable files (the exit status)."""
    total = report["total"]
    return total[FAIL] + total[UNEXPECTED_PASS] + total[ERROR] + len(report["unreadable"])


def quiet_echo(line):
    """Skip the expected outcomes, as regress.sh does by default."""
    if f" {PASS}:" in line and UNEXPECTED_PASS not in line or f" {EXPECTED_FAIL}:" in line:
        return
    click.echo(line)
