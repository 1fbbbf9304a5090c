"""One engine for every front: ``mcgo gtp``, ``mcgo play``, ``mcgo analysis`` and ``mcgo
review`` take the engine's options from one declaration, read each of them (a file that
does not open is a one-line error naming the option, before any work) or refuse it in one
line where the front cannot use it."""

import click
import pytest
from click.testing import CliRunner

from mcgo.cli import main
from mcgo.frontoptions import ENGINE_OPTIONS, FRONTS

FRONT_ARGS = {"gtp": ["gtp"], "play": ["play"], "analysis": ["analysis"], "review": ["review"]}


@pytest.fixture(scope="module")
def front_args(goban_games_dir, tmp_path_factory):
    game = str(sorted(goban_games_dir.glob("*.sgf"))[0])
    out = str(tmp_path_factory.mktemp("review") / "out")
    return dict(FRONT_ARGS, review=["review", game, "-o", out])


def one_line_error(args):
    result = CliRunner().invoke(main, args)
    lines = result.output.splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), \
        (args, result.output)
    return lines[0]


def option_names(command):
    return {p.name: p for p in command.params if isinstance(p, click.Option)}


def test_every_front_declares_every_engine_option_alike():
    """The same names, types and defaults on every front: one declaration, not four."""
    fronts = {name: option_names(main.commands[name]) for name in FRONTS}
    for _, decls, attrs in ENGINE_OPTIONS:
        flag = decls[0]
        found = [[p for p in params.values() if flag in p.opts] for params in fronts.values()]
        assert all(len(f) == 1 for f in found), flag
        first = found[0][0]
        for (other,) in found[1:]:
            assert (other.type.__class__, other.default, other.multiple) == \
                   (first.type.__class__, first.default, first.multiple), flag


@pytest.mark.parametrize("front", list(FRONTS))
@pytest.mark.parametrize("option", ["--policy-net", "--model", "--ownership-net", "--evaluator"])
def test_each_front_reads_the_search_options_files(front, option, front_args, tmp_path):
    """A file that is no model of its kind is refused by every front, naming the option:
    each front reads the option (before, mcgo analysis and mcgo review had no
    --policy-net and always used the shipped net)."""
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"this is not a weights file")
    line = one_line_error([*front_args[front], option, str(bad)])
    assert option in line and "bad.npz" in line


@pytest.mark.parametrize("front", list(FRONTS))
def test_each_front_checks_the_named_settings(front, front_args):
    line = one_line_error([*front_args[front], "--set", "no_such_setting=1"])
    assert "no_such_setting" in line


@pytest.mark.parametrize("front,args", [
    ("analysis", ["--ponder"]), ("analysis", ["--komi", "6.5"]), ("analysis", ["--simulations", "100"]),
    ("analysis", ["--player", "cfg"]), ("analysis", ["--casebase", "default"]),
    ("review", ["--size", "9"]), ("review", ["--resign", "0"]), ("review", ["--corner-net", "corner"]),
    ("play", ["--ponder"]),
])
def test_an_option_a_front_cannot_use_is_refused_in_one_line(front, args, front_args):
    line = one_line_error([*front_args[front], *args])
    assert f"mcgo {front} does not use {args[0]}" in line


def test_a_refused_option_is_off_the_fronts_help():
    analysis = CliRunner().invoke(main, ["analysis", "-h"]).output
    gtp = CliRunner().invoke(main, ["gtp", "-h"]).output
    assert "--ponder" in gtp and "--ponder" not in analysis
    assert "--policy-net" in gtp and "--policy-net" in analysis


# ------------------------------------------------------------- the same engine everywhere
SIMULATIONS = 200
SEED = 7
# (size, moves): the empty boards (where the terminal game's hint can be asked) and two
# positions of a game; the side to move is the one after the moves.
POSITIONS = [(9, []), (19, []), (9, ["E5", "C7", "G7", "C3"]), (19, ["Q16", "D4", "Q4"])]


def _env():
    import os
    import pathlib
    root = str(pathlib.Path(__file__).resolve().parents[1])
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p))


def _colour(n):
    return "B" if n % 2 == 0 else "W"


def _gtp_move(size, moves, seed):
    import sys
    from mcgo.gtp.controller import GtpEngine
    command = [sys.executable, "-m", "mcgo", "gtp", "--quiet", "--simulations", str(SIMULATIONS),
               "--seed", str(seed), "--resign", "0"]
    with GtpEngine(command, env=_env()) as engine:
        for line in (f"boardsize {size}", "komi 7", "clear_board",
                     *(f"play {_colour(i)} {m}" for i, m in enumerate(moves))):
            engine.send(line)
        return engine.send(f"genmove {_colour(len(moves))}", timeout=300).upper()


def _analysis_move(size, moves, seed):
    from analysis_client import AnalysisClient
    client = AnalysisClient("--seed", str(seed), "-analysis-threads", "1")
    try:
        client.send({"id": "q", "moves": [[_colour(i), m] for i, m in enumerate(moves)],
                     "rules": "chinese", "komi": 7, "boardXSize": size, "boardYSize": size,
                     "maxVisits": SIMULATIONS})
        answer = client.next(timeout=300)
    finally:
        client.process.stdin.close()
        client.process.wait(timeout=60)
    assert "error" not in answer, answer
    best = min(answer["moveInfos"], key=lambda m: m["order"])
    return best["move"].upper(), answer["rootInfo"]["visits"]


def _review_move(size, moves, tmp_path):
    import json
    import subprocess
    import sys
    played = moves or ["E5"]          # a review asks for moves: position 0 is the one before
    letters = "".join(f";{_colour(i)}[{_sgf_point(m, size)}]" for i, m in enumerate(played))
    game = tmp_path / f"game{size}-{len(moves)}.sgf"
    game.write_text(f"(;GM[1]FF[4]SZ[{size}]KM[7]RU[Chinese]{letters})")
    out = tmp_path / f"review{size}-{len(moves)}"
    n = len(moves)
    first = max(n, 1)
    done = subprocess.run([sys.executable, "-m", "mcgo", "review", str(game), "-o", str(out),
                           "--simulations", str(SIMULATIONS), "--seed", str(SEED),
                           "--moves", f"{first}-{first}"],
                          capture_output=True, text=True, env=_env(), timeout=600)
    assert done.returncode == 0, done.stderr
    lines = (out / ".positions" / f"{game.stem}.jsonl").read_text().splitlines()
    found = [json.loads(line) for line in lines[1:]]
    position = next(p for p in found if p["number"] == n)
    return position["best"].upper(), position["simulations"]


def _sgf_point(move, size):
    from mcgo.board import coords
    return coords.to_sgf(coords.from_gtp(move, size), size)


def _play_hint(size, seed):
    import re
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "mcgo", "play", "--size", str(size),
                           "--simulations", str(SIMULATIONS), "--seed", str(seed)],
                          input="hint\nquit\n", capture_output=True, text=True, env=_env(),
                          timeout=600)
    found = re.search(r"hint: ([A-Z]\d+|pass)", done.stdout)
    assert found, done.stdout + done.stderr
    return found.group(1).upper()


@pytest.mark.parametrize("size,moves", POSITIONS, ids=lambda p: str(p))
def test_every_front_plays_the_same_move(size, moves, tmp_path):
    """The same position, seed and simulations give the same move through mcgo gtp's
    genmove, mcgo analysis' best move (with as many visits), mcgo review's best move and,
    on the empty board, mcgo play's hint: one engine, built by one recipe. A review seeds
    each position's search from its --seed (:func:`mcgo.apps.review.position_seed`), so the
    other fronts get that seed."""
    from mcgo.apps.review import position_seed
    seed = position_seed(SEED, len(moves))
    reviewed, simulations = _review_move(size, moves, tmp_path)
    assert simulations == SIMULATIONS
    genmove = _gtp_move(size, moves, seed)
    analysed, visits = _analysis_move(size, moves, seed)
    assert visits == SIMULATIONS
    assert genmove == analysed == reviewed, (genmove, analysed, reviewed)
    if not moves:
        assert _play_hint(size, seed) == genmove


def _glossary():
    """ARCHITECTURE.md's glossary: ``{word: (means, not)}``."""
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[1] / "ARCHITECTURE.md").read_text()
    table = text[text.index("## Glossary"):].split("\n## ")[0]
    rows = re.findall(r"^\| \*\*([^*]+)\*\* \| (.*?) \| (.*?) \|$", table, re.M)
    return {word: (means, not_) for word, means, not_ in rows}


def test_the_options_help_keeps_to_the_glossary():
    """ARCHITECTURE.md's glossary: a search's budget is simulations; visits are a node's
    (or virtual visits, a prior's). Every front's budget is ``--simulations`` (``--playouts``
    its alias; review's ``--visits`` a hidden one); no help calls the budget playouts or
    visits, and a help's visits are virtual visits or a node's, the root's or a query's."""
    import re
    glossary = _glossary()
    assert "--simulations" in glossary["simulation"][0] and "budget" in glossary["simulation"][0]
    assert "budget" in glossary["visits"][1] and "node" in glossary["visits"][0]
    wrong = re.compile(r"(playouts|visits) (per|a) (move|position)|number of playouts", re.I)
    visits = re.compile(r"(\S+) visits\b", re.I)
    helps = [(decls[0], attrs.get("help", "")) for _, decls, attrs in ENGINE_OPTIONS]
    for front in FRONTS:
        for param in main.commands[front].params:
            if not isinstance(param, click.Option):
                continue
            if param.name == "playouts":
                assert param.opts[0] == "--simulations", (front, param.opts)
            if "--visits" in param.opts and front != "analysis":
                assert param.hidden, front
            if not param.hidden:
                helps.append((f"{front} {param.opts[0]}", param.help or ""))
    for option, text in helps:
        assert not wrong.search(text), (option, text)
        for m in visits.finditer(text):
            before = m.group(1).lower()
            assert before.startswith(("virtual", "--")) or before.endswith("_after") \
                or re.search(r"node|root|maxvisits", text, re.I), (option, text)


def test_every_shipped_name_opens_and_the_table_names_every_shipped_td_net():
    """The recipe's one table of shipped names (``SHIPPED``): each name opens its file
    through the one opener, and the TD nets it names are the package's."""
    from mcgo.engine import recipe
    from mcgo.models.td_net import SHIPPED as TD_FILES
    assert set(recipe.SHIPPED["td_net"]) == set(TD_FILES)
    for kind, names in recipe.SHIPPED.items():
        for name in names:
            assert recipe._open(kind, name) is not None, (kind, name)


@pytest.mark.parametrize("choice, option, says", [
    ({"threads": 0}, "--threads", "threads 0: must be 1 to"),
    ({"max_memory": 0}, "--max-memory", "max_memory_mb 0: must be more than 0"),
    ({"playouts": 0}, "--simulations", "playouts 0: must be at least 1"),
    ({"settings": {"rave_equiv": -1}}, "--set", "rave_equiv"),
    ({"rules": "go-moku"}, "--rules", "go-moku")])
def test_a_value_the_configuration_refuses_names_the_option_of_its_field(choice, option, says):
    """What the configuration refuses (``ConfigError``, naming its field) reaches a front as
    the option that gave it (``RecipeError``), whichever field it was: the command line's
    name (``--simulations`` for ``playouts``), not a guess from the message's first word."""
    from mcgo.engine.recipe import Recipe, RecipeError
    with pytest.raises(RecipeError) as caught:
        Recipe(**choice).engine_config(9, {})
    assert caught.value.option == option and says in caught.value.message
