"""``mcgo review``: the reviewed SGF read back by sgfmill and by Sabaki's own parser
(``@sabaki/sgf``, run with node), the page opened in headless Chromium, a killed review
resumed, the command line's errors. Small searches throughout (50 simulations a position,
the professional game's first moves only); speed is benchmarks/review/review_speed.py's.

The games: a 19x19 professional game of the goban collection, and two 9x9 games of a
committed match (benchmarks/matches/11190aa-vs-pachi-9x9), one Black won and one White won
by resignation, so that the win rate at their end says whose side SBKV is from.
"""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time
import zipfile

import pytest
from click.testing import CliRunner
from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT, missing, sabaki_package
from mcgo.board import coords
from mcgo.cli import main

MATCH_GAMES = ROOT / "benchmarks" / "matches" / "11190aa-vs-pachi-9x9" / "games.zip"
BLACK_WON, WHITE_WON = "game-0001.sgf", "game-0002.sgf"     # B+R in 43 moves, W+R in 46
PRO_GAME = "Hon-45-1.sgf"                                  # Hashimoto - Iwamoto, W+5
PRO_MOVES = 10
VISITS = "50"
JS_DIR = ROOT / "tests" / "js"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-default-apps",
                  "--disable-extensions", "--window-size=1000,1800"]
BOARD_RGB = (0xdc, 0xb3, 0x5c)        # review_html.BOARD_COLOR
CURVE_RGB = (0x1f, 0x5f, 0xbf)        # review_html.WINRATE_COLOR


def review(*args):
    """``mcgo review ARGS`` here; the result (exit code, output) and its --json document."""
    result = CliRunner().invoke(main, ["review", *map(str, args)])
    return result


@pytest.fixture(scope="module")
def match_games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("match")
    with zipfile.ZipFile(MATCH_GAMES) as z:
        for name in (BLACK_WON, WHITE_WON):
            (folder / name).write_bytes(z.read(name))
    return folder / BLACK_WON, folder / WHITE_WON


@pytest.fixture(scope="module")
def reviewed_9x9(match_games, tmp_path_factory):
    """Both 9x9 games reviewed in full at 50 simulations a position, with the page."""
    out = tmp_path_factory.mktemp("review9")
    result = review(*match_games, "-o", out / "out", "--visits", VISITS, "--json",
                    "--html", out / "page.html")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    return out, {g["game"]: g for g in document["games"]}


@pytest.fixture(scope="module")
def reviewed_pro(goban_games_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("review19")
    game = goban_games_dir / PRO_GAME
    result = review(game, "-o", out, "--visits", VISITS, "--moves", f"1-{PRO_MOVES}", "--json")
    assert result.exit_code == 0, result.output
    return game, out, json.loads(result.stdout)["games"][0]


def main_line(path):
    game = sgfmill_sgf.Sgf_game.from_bytes(pathlib.Path(path).read_bytes())
    return game, game.get_main_sequence()


def check_evaluations(nodes, document):
    """Every node of a reviewed position holds SBKV (Black's win rate, 0-100) and SBKS as
    the review's numbers say, rounded as Sabaki rounds them; no other node holds them."""
    positions = {p["number"]: p for p in document["positions"]}
    for number, node in enumerate(nodes):
        if number not in positions:
            assert not node.has_property("SBKV"), number
            continue
        value = float(node.get_raw("SBKV").decode())
        assert 0 <= value <= 100
        assert value == pytest.approx(100 * positions[number]["winrate"], abs=0.0051)
        assert float(node.get_raw("SBKS").decode()) == pytest.approx(
            positions[number]["score_lead"], abs=0.0051)


def test_9x9_reviews_read_back_by_sgfmill_with_black_s_win_rate(reviewed_9x9, match_games):
    out, games = reviewed_9x9
    for path, winner in zip(match_games, ("B", "W")):
        name = path.stem
        original = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes()).get_main_sequence()
        game, nodes = main_line(out / "out" / f"{name}.sgf")
        assert [n.get_move() for n in nodes] == [n.get_move() for n in original]
        assert game.get_root().get("RE") == f"{winner}+R"
        document = games[name]
        assert len(document["positions"]) == len(nodes)        # the root and every move
        check_evaluations(nodes, document)
        # Resigned games: the winner leads at the end, in win rate and in score.
        final = float(nodes[-1].get_raw("SBKV").decode())
        lead = float(nodes[-1].get_raw("SBKS").decode())
        assert (final > 50 and lead > 0) if winner == "B" else (final < 50 and lead < 0)
        for move, node in zip(document["moves"], nodes[1:]):
            comment = node.get("C")
            assert "mcgo (50 simulations)" in comment and f"best was {move['best']}" in comment \
                or "the engine's best move" in comment
            assert f"lost {100 * move['winrate_loss']:.1f}% win rate" in comment


def test_losses_are_the_value_before_minus_after_from_the_movers_side(reviewed_9x9):
    _, games = reviewed_9x9
    for document in games.values():
        by_number = {p["number"]: p for p in document["positions"]}
        for move in document["moves"]:
            sign = 1 if move["color"] == "B" else -1
            before, after = by_number[move["number"] - 1], by_number[move["number"]]
            assert move["winrate_loss"] == pytest.approx(sign * (before["winrate"] - after["winrate"]))
            assert move["score_loss"] == pytest.approx(sign * (before["score_lead"] - after["score_lead"]))
            assert move["best"] == before["best"] and move["pv"][0] == before["best"]


def test_big_losses_get_the_better_line_as_a_variation(reviewed_9x9):
    out, games = reviewed_9x9
    varied = 0
    for name, document in games.items():
        _, nodes = main_line(out / "out" / f"{name}.sgf")
        for move in document["moves"]:
            parent = nodes[move["number"] - 1]
            mistake = not move["is_best"] and move["winrate_loss"] >= 0.10
            assert len(parent) == (2 if mistake else 1), move
            if mistake:
                varied += 1
                line = parent[1]
                color, point = line.get_move()
                assert color == move["color"].lower()
                assert coords.from_sgfmill(point, 9) == coords.from_gtp(move["best"], 9)
    assert varied > 0          # at 50 simulations some moves of these games lose 10%


def test_19x19_professional_game_reviewed_on_the_moves_asked_for(reviewed_pro):
    game, out, document = reviewed_pro
    _, nodes = main_line(out / f"{game.stem}.sgf")
    _, original = main_line(game)
    assert [n.get_move() for n in nodes] == [n.get_move() for n in original]
    assert document["reviewed_moves"] == [1, PRO_MOVES]
    assert [p["number"] for p in document["positions"]] == list(range(PRO_MOVES + 1))
    check_evaluations(nodes, document)
    assert all(n.has_property("SBKV") for n in nodes[1:PRO_MOVES + 1])
    assert not any(n.has_property("SBKV") for n in nodes[PRO_MOVES + 1:])


# ---------------------------------------------------------------- Sabaki's parser
@pytest.fixture(scope="module")
def sabaki_sgf():
    """(node, NODE_PATH) with ``@sabaki/sgf`` (:func:`conftest.sabaki_package`)."""
    return sabaki_package("sgf")


def sabaki_read(sabaki_sgf, path):
    node, modules = sabaki_sgf
    done = subprocess.run([node, str(JS_DIR / "read_sgf.js"), str(path)], capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, NODE_PATH=modules))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_sabaki_reads_the_evaluations_on_the_move_nodes(reviewed_9x9, reviewed_pro, sabaki_sgf):
    out, games = reviewed_9x9
    game, pro_out, pro_document = reviewed_pro
    for path, document in [(out / "out" / f"{n}.sgf", d) for n, d in games.items()] + \
            [(pro_out / f"{game.stem}.sgf", pro_document)]:
        read = sabaki_read(sabaki_sgf, path)
        assert read["games"] == 1
        nodes = read["nodes"]
        positions = {p["number"]: p for p in document["positions"]}
        moves = {m["number"]: m for m in document["moves"]}
        for number, node in enumerate(nodes):
            data = node["data"]
            if number:
                assert ("B" in data) != ("W" in data)     # a move node of the main line
            if number not in positions:
                assert "SBKV" not in data
                continue
            # Sabaki's winrate graph reads +SBKV[0], its score graph +SBKS[0].
            value, lead = float(data["SBKV"][0]), float(data["SBKS"][0])
            assert 0 <= value <= 100
            assert value == pytest.approx(100 * positions[number]["winrate"], abs=0.0051)
            assert lead == pytest.approx(positions[number]["score_lead"], abs=0.0051)
            following = moves.get(number + 1)
            if following and not following["is_best"] and following["winrate_loss"] >= 0.10:
                (variation,) = node["variations"]
                color = following["color"]
                assert list(variation) == [color] and variation[color][0]


# ---------------------------------------------------------------- the page in Chromium
def chromium():
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        missing("Chromium (apt-get install chromium), to open the review page")
    return path


def open_page(page, folder):
    """Screenshot ``page`` in headless Chromium; the screenshot and the URLs the page's
    own frame asked for (the browser's background requests left out: they carry no
    file:// isolation key)."""
    shot, log = folder / f"{page.stem}.png", folder / f"{page.stem}.netlog.json"
    subprocess.run([chromium(), *CHROMIUM_FLAGS, f"--screenshot={shot}", f"--log-net-log={log}",
                    page.resolve().as_uri()], capture_output=True, timeout=120, cwd=folder)
    events = json.loads(log.read_text())
    kinds = {v: k for k, v in events["constants"]["logEventTypes"].items()}
    asked = [e["params"]["url"] for e in events["events"]
             if kinds.get(e["type"]) == "URL_REQUEST_START_JOB"
             and "file://" in e["params"].get("network_isolation_key", "")]
    from PIL import Image
    return Image.open(shot).convert("RGB"), asked


def rows_with(image, rgb, tolerance=8):
    """The rows of ``image`` holding pixels of colour ``rgb``, with their counts."""
    width, height = image.size
    pixels = image.load()
    counts = {}
    for y in range(height):
        n = sum(1 for x in range(0, width, 2)
                if all(abs(a - b) <= tolerance for a, b in zip(pixels[x, y], rgb)))
        if n:
            counts[y] = n
    return counts


def test_page_shows_the_curve_and_the_boards_and_asks_nothing_of_the_network(reviewed_9x9, tmp_path):
    out, games = reviewed_9x9
    pages = sorted(out.glob("page-*.html"))
    assert [p.name for p in pages] == [f"page-{n}.html" for n in sorted(games)]
    # The check sees a page's requests: a page with an image and a style sheet elsewhere.
    control = tmp_path / "control.html"
    control.write_text('<!DOCTYPE html><img src="http://127.0.0.1:9/stone.png">'
                       '<link rel="stylesheet" href="https://fonts.invalid/go.css">')
    _, asked = open_page(control, tmp_path)
    assert {"http://127.0.0.1:9/stone.png", "https://fonts.invalid/go.css"} <= set(asked)
    for page in pages:
        image, asked = open_page(page, tmp_path)
        assert asked == []
        curve, boards = rows_with(image, CURVE_RGB), rows_with(image, BOARD_RGB)
        # The curve: a line across the top of the page; the diagrams below it, at least a
        # board's height each for two sides' mistakes.
        assert sum(curve.values()) > 300
        assert len(boards) > 2 * 200 and min(boards) > max(curve)
        assert max(boards.values()) > 100       # a board is over 200 pixels wide
        # Stones on the boards: dark pixels within the boards' rows.
        pixels = image.load()
        dark = sum(1 for y in boards for x in range(0, image.size[0], 2)
                   if max(pixels[x, y]) < 40)
        assert dark > 500


# ---------------------------------------------------------------- resuming, workers
def positions_saved(out, name):
    lines = (out / ".positions" / f"{name}.jsonl").read_text().splitlines()[1:]
    return {p["number"]: p for p in map(json.loads, lines)}


def mcgo_review(args, **kwargs):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.Popen([sys.executable, "-m", "mcgo", "review", *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def test_a_killed_review_resumed_loses_no_finished_game(match_games, tmp_path):
    out = tmp_path / "out"
    run = mcgo_review([*match_games, "-o", out, "--visits", "1000"])
    first, second = (p.stem for p in match_games)
    deadline = time.monotonic() + 300
    second_saved = out / ".positions" / f"{second}.jsonl"
    while not ((out / f"{first}.sgf").exists() and second_saved.exists()
               and len(second_saved.read_text().splitlines()) > 3):   # into the second game
        assert run.poll() is None and time.monotonic() < deadline, run.communicate()
        time.sleep(0.05)
    run.send_signal(signal.SIGKILL)
    run.wait()
    assert not (out / f"{second}.sgf").exists()
    kept_first, kept_second = positions_saved(out, first), positions_saved(out, second)
    assert len(kept_first) == 44 and 0 < len(kept_second) < 47
    finished = (out / f"{first}.sgf").read_bytes()

    result = review(*match_games, "-o", out, "--visits", "1000", "--json")
    assert result.exit_code == 0, result.output
    games = {g["game"]: g for g in json.loads(result.stdout)["games"]}
    # Nothing searched before was searched again: a position's time is its own run's.
    assert {p["number"]: p for p in games[first]["positions"]} == kept_first
    again = {p["number"]: p for p in games[second]["positions"]}
    assert len(again) == 47 and all(again[n] == p for n, p in kept_second.items())
    assert (out / f"{first}.sgf").read_bytes() == finished


def pool_workers(pid):
    """The processes ``pid`` forked (its own command line: not a helper it started)."""
    command = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
    children = pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(c) for c in children
            if pathlib.Path(f"/proc/{c}/cmdline").read_bytes() == command]


def test_a_killed_worker_is_replaced_and_its_positions_searched_again(match_games, tmp_path):
    out = tmp_path / "out"
    run = mcgo_review([*match_games, "-o", out, "--visits", "1000", "--jobs", "2"])
    deadline = time.monotonic() + 300
    workers = []
    while not workers:
        assert run.poll() is None and time.monotonic() < deadline, run.communicate()
        time.sleep(0.2)
        saved = out / ".positions"
        if saved.is_dir() and any(len(p.read_text().splitlines()) > 3 for p in saved.glob("*.jsonl")):
            workers = pool_workers(run.pid)
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = run.communicate(timeout=600)
    assert run.returncode == 0, stderr
    assert "a worker died" in stderr
    for path in match_games:
        _, nodes = main_line(out / f"{path.stem}.sgf")
        assert all(n.has_property("SBKV") for n in nodes)


def test_ray_tasks_find_what_local_processes_find(match_games, ray_runtime, tmp_path):
    from mcgo.apps.review import ReviewSettings
    from mcgo.engine.recipe import Recipe
    from mcgo.apps.review_run import Review
    from mcgo.sgf import read_game

    games = [(p.stem, read_game(p)) for p in match_games]
    found = {}
    for where in ("ray", "here"):
        written = {}
        runner = Review(tmp_path / where, games, ReviewSettings(visits=30, recipe=Recipe(seed=3)),
                        lambda game, document: written.update({game.name: document}),
                        moves=(1, 8), ray="auto" if where == "ray" else None, log=lambda _: None)
        runner.prepare()
        runner.run()
        found[where] = {name: [{k: v for k, v in p.items() if k != "seconds"}
                               for p in d["positions"]] for name, d in written.items()}
    assert found["ray"] == found["here"] and len(found["ray"]) == 2


# ---------------------------------------------------------------- the command line
def test_plot_draws_a_png_or_an_svg(match_games, tmp_path):
    for suffix in ("png", "svg"):
        result = review(match_games[0], "-o", tmp_path / "out", "--visits", "20",
                        "--moves", "1-6", "--plot", tmp_path / f"curve.{suffix}")
        assert result.exit_code == 0, result.output
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "curve.svg").read_bytes()[:1000]


@pytest.mark.parametrize("args, says", [
    (["missing.sgf"], "does not exist"),
    (["{game}", "--visits", "10", "--seconds", "1"], "not both"),
    (["{game}", "--jobs", "2", "--ray", "auto"], "not both"),
    (["{game}", "--moves", "9-3"], "--moves"),
    (["{game}", "--moves", "x"], "--moves"),
    (["{game}", "--plot", "{tmp}/curve.txt"], ".png"),
    (["{game}", "--html", "{tmp}/page.txt"], ".html"),
    (["{game}", "--visits", "0"], "--visits"),
    (["{game}", "--ray", "127.0.0.1:1"], "nothing answers"),
    (["{game}", "--model", "{tmp}/none.npz"], "--model"),
])
def test_command_line_errors_are_one_line_before_any_work(args, says, match_games, tmp_path):
    out = tmp_path / "out"
    args = [a.format(game=match_games[0], tmp=tmp_path) for a in args]
    result = review(*args, "-o", out)
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and says in lines[0], result.output
    assert not out.exists()


def test_broken_games_are_skipped_with_their_reason(match_games, tmp_path):
    truncated = tmp_path / "truncated.sgf"
    truncated.write_bytes(b"(;SZ[9];B[ee];W[dd")
    illegal = tmp_path / "illegal.sgf"
    illegal.write_bytes(b"(;SZ[9]KM[7];B[ee];W[ee])")
    result = review(truncated, illegal, match_games[0], "-o", tmp_path / "out", "--visits", "10",
                    "--moves", "1-3")
    assert result.exit_code == 0, result.output
    assert "skipped" in result.stderr and "truncated" in result.stderr
    assert "move 2 (white E5) is illegal: occupied" in result.stderr
    assert (tmp_path / "out" / f"{match_games[0].stem}.sgf").exists()
    assert not (tmp_path / "out" / "truncated.sgf").exists()
    only_broken = review(truncated, "-o", tmp_path / "none")
    assert only_broken.exit_code == 2 and "no game to review" in only_broken.output


def test_a_game_whose_search_fails_costs_no_other_game(match_games, tmp_path, monkeypatch):
    from mcgo.apps import review_run
    from mcgo.apps.review import ReviewSettings, analyse_position
    from mcgo.sgf import read_game

    broken, sound = match_games
    games = [(p.stem, read_game(p)) for p in match_games]

    def failing_on_one_game(settings, record, number):
        if record.source == str(broken) and number == 4:
            raise RuntimeError("a bug in one position")
        return analyse_position(settings, record, number)

    monkeypatch.setattr(review_run, "analyse_position", failing_on_one_game)
    written, notes = {}, []
    runner = review_run.Review(tmp_path, games, ReviewSettings(visits=20), moves=(1, 8),
                               outputs=lambda game, document: written.update({game.name: document}),
                               log=notes.append)
    runner.prepare()
    done = {g.name: g for g in runner.run()}
    assert list(written) == [sound.stem] and done[sound.stem].finished
    assert "a bug in one position" in done[broken.stem].failed and not done[broken.stem].finished
    assert any(broken.stem in note for note in notes)
    assert sorted(positions_saved(tmp_path, broken.stem)) == [0, 1, 2, 3]


def test_a_longer_review_goes_on_from_a_shorter_one(match_games, tmp_path):
    out = tmp_path / "out"
    name = match_games[0].stem
    short = review(match_games[0], "-o", out, "--visits", "20", "--moves", "1-4", "--json")
    assert short.exit_code == 0, short.output
    first = {p["number"]: p for p in json.loads(short.stdout)["games"][0]["positions"]}
    longer = review(match_games[0], "-o", out, "--visits", "20", "--moves", "1-8", "--json")
    again = {p["number"]: p for p in json.loads(longer.stdout)["games"][0]["positions"]}
    assert sorted(first) == [0, 1, 2, 3, 4] and sorted(again) == list(range(9))
    assert all(again[n] == p for n, p in first.items())       # their own seconds: not re-searched
    other = review(match_games[0], "-o", out, "--visits", "30", "--moves", "1-4", "--json")
    assert other.exit_code == 0 and "other settings" in other.stderr
    assert sorted(positions_saved(out, name)) == [0, 1, 2, 3, 4]


def test_each_position_is_searched_for_the_side_the_game_moved_next(tmp_path):
    # Handicap stones set up with no PL: the record's first move is white's, and so is the
    # first position's search (the board alone would say black).
    game = tmp_path / "handicap.sgf"
    game.write_bytes(b"(;GM[1]SZ[9]KM[0.5]HA[2]AB[cc][gg];W[ee];B[ce];W[ec])")
    result = review(game, "-o", tmp_path / "out", "--visits", "20", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)["games"][0]
    assert [p["to_move"] for p in document["positions"]] == ["W", "B", "W", "B"]
    _, nodes = main_line(tmp_path / "out" / "handicap.sgf")
    assert "White E5" in nodes[1].get("C")


def test_a_move_the_boards_symmetry_makes_the_best_one_counts_as_the_best():
    """In a position that a symmetry of the board keeps, the moves it maps onto each other are
    one move (the search keeps one of them). On the empty board a first move at D4 is the best
    when the review's best is Q16. After D4 the mirror in the diagonal through D4 and Q16
    keeps the position: it maps Q4 onto D16, not onto Q16; after D4 and Q16 it still does, so
    D16 is the best Q4; after D16 no symmetry is left and D17 is not C16. sgfmill's
    coordinates: ``dp`` is D4, ``pd`` Q16, ``dd`` D16, ``dc`` D17."""
    from mcgo.apps.review import move_reviews
    from mcgo.sgf.reading import read_game
    record = read_game(b"(;GM[1]FF[4]SZ[19];B[dp];W[pd];B[dd];W[dc])")
    assert [coords.to_gtp(p, 19) for _, p in record.moves] == ["D4", "Q16", "D16", "D17"]
    position = dict(winrate=0.5, score_lead=0.0, best_winrate=0.5, pv=[])
    positions = {n: dict(position, number=n, best=best)
                 for n, best in enumerate(["Q16", "Q4", "Q4", "C16", "pass"])}
    reviews = [m["is_best"] for m in move_reviews(record, positions)]
    assert reviews == [True, False, True, False]
