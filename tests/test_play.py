"""``mcgo play``: the terminal game, checked from what a player sees.

The drawn board is read back by its column letters (each stone under its letter), the game
records through sgfmill (parsed and replayed on sgfmill's own board), the handicap stones
and the final count against GNU Go 3.8 (``fixed_handicap``, ``final_score`` and
``final_status_list dead`` of the saved record), and one game in a real terminal under tmux.
"""

import importlib.util
import pathlib
import re
import shutil

import pytest
from click.testing import CliRunner
from sgfmill import boards, sgf, sgf_moves

import mcgo
from helpers import stones_of_rows
from mcgo.board import coords
from mcgo.cli import main
from mcgo.gtp.controller import GtpEngine
from mcgo.config import EngineConfig
from mcgo.engine.game import Game
from mcgo.apps.terminal import play_in_terminal

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIZE = 9
PLAYOUTS = "50"
FAST = ["play", "--size", str(SIZE), "--playouts", PLAYOUTS, "--seed", "1", "--casebase", "none"]
COLUMNS = "ABCDEFGHJKLMNOPQRST"
STARS_9 = {"C3", "G3", "C7", "G7", "E5"}
ENGINE_MOVE = re.compile(r"mcgo plays ([A-T]\d+)")
PROMPT = "your move (help for the commands)>"

# A white stone in atari at D4 (black captures at D3), for the capture count.
ATARI_ROWS = [".........",
              ".........",
              ".........",
              ".........",
              "...X.....",
              "..XOX....",
              ".........",
              ".........",
              "........."]

# A finished 9x9 game: black's wall on E, white's on F, a dead white stone at C7 in black's
# area. Black has 45 points, white 36 and komi 7: B+2 whoever counts it.
FINISHED_ROWS = ["....XO...",
                 "....XO...",
                 "..O.XO...",
                 "....XO...",
                 "....XO...",
                 "....XO...",
                 "....XO...",
                 "....XO...",
                 "....XO..."]


# --------------------------------------------------------------------------- helpers
def read_board(output):
    """The last board drawn in ``output``: ({vertex: glyph}, the bracketed vertex or None,
    the text beside and below the board)."""
    lines = output.splitlines()
    headers = [i for i, line in enumerate(lines) if line.split()[:3] == ["A", "B", "C"]]
    top, bottom = headers[-2], headers[-1]
    header = lines[top]
    x_of = {letter: header.index(f" {letter}") + 1 for letter in header.split()}
    grid, marked, beside = {}, None, []
    for line in lines[top + 1:bottom]:
        row = int(line.split()[0])
        for letter, x in x_of.items():
            vertex = f"{letter}{row}"
            grid[vertex] = line[x]
            if line[x - 1] == "(" and line[x + 1] == ")":
                assert marked is None, line
                marked = vertex
        beside.append(line[max(x_of.values()) + 2:])
    return grid, marked, "\n".join(beside + lines[bottom + 1:bottom + 3])


def stones(board):
    """{vertex: "X"/"O"} of a :class:`mcgo.Board`."""
    glyph = {mcgo.BLACK: "X", mcgo.WHITE: "O"}
    return {coords.to_gtp(p, board.size): glyph[c]
            for c in glyph for p in board.stones(c)}


def new_engine(rows=None, to_move=mcgo.BLACK, komi=7.0, playouts=int(PLAYOUTS)):
    engine = Game(EngineConfig.of(size=SIZE, komi=komi, playouts=playouts, seed=1),
                  verbose=False)
    if rows:
        placed = list(stones_of_rows(rows))
        engine.board.setup(black=[p for c, p in placed if c == mcgo.BLACK],
                           white=[p for c, p in placed if c == mcgo.WHITE])
        engine.board.to_move = to_move
    return engine


def play_lines(engine, color, typed, sgf_path=None):
    """Play in-process: the typed lines (callables are asked for a line), then the end of
    input; returns everything shown."""
    shown = []
    queue = list(typed)

    def read(prompt):
        shown.append(prompt + ">")
        while queue:
            item = queue.pop(0)
            line = item() if callable(item) else item
            if line is not None:
                return line
        return None

    play_in_terminal(engine, color, sgf_path=sgf_path, read=read, echo=shown.append)
    return "\n".join(shown)


def run_cli(args, typed):
    result = CliRunner().invoke(main, args, input="".join(line + "\n" for line in typed))
    assert "Traceback" not in result.output, result.output
    return result


def sgf_position(path):
    """sgfmill's board after the record's setup and main line, and the parsed game."""
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    board, plays = sgf_moves.get_setup_and_moves(game)
    for color, move in plays:
        if move is not None:
            board.play(move[0], move[1], color)
    return board, game


def sgfmill_stones(board):
    return {f"{COLUMNS[col]}{row + 1}": "X" if color == "b" else "O"
            for color, (row, col) in board.list_occupied_points()}


def vertex_rc(vertex):
    return int(vertex[1:]) - 1, COLUMNS.index(vertex[0])


# --------------------------------------------------------------------------- the board
def test_board_shows_last_move_star_points_move_number_and_captures():
    engine = new_engine(ATARI_ROWS)
    shown = play_lines(engine, "black", ["d3"])
    grid, marked, beside = read_board(shown)
    answer = ENGINE_MOVE.findall(shown)[-1]
    assert marked == answer and grid[answer] == "O"
    on_board = stones(engine.board)
    assert grid["D4"] in ".+" and "D4" not in on_board          # the captured stone is gone
    for vertex, glyph in grid.items():
        expected = on_board.get(vertex, "+" if vertex in STARS_9 else ".")
        assert glyph == expected, (vertex, shown)
    assert "captured by black: 1" in beside and "captured by white: 0" in beside
    assert f"move 2: white {answer}" in beside and "black to play (move 3)" in beside


def test_undo_takes_back_the_players_move_and_the_answer():
    result = run_cli(FAST, ["e5", "c3", "undo", "quit"])
    assert result.exit_code == 0, result.output
    boards_drawn = result.output.split(PROMPT)
    after_e5, after_c3, after_undo = (read_board(text) for text in boards_drawn[1:4])
    assert after_c3[0] != after_e5[0]
    assert after_undo[0] == after_e5[0] and after_undo[1] == after_e5[1]
    assert "black to play (move 3)" in after_undo[2]
    assert "undo" in boards_drawn[3] and "nothing to undo" not in result.output


def test_undo_before_any_move_of_yours_says_so():
    result = run_cli(FAST + ["--color", "white"], ["undo", "quit"])
    assert "nothing to undo" in result.output
    grid, marked, _ = read_board(result.output)
    assert marked is not None and grid[marked] == "X"     # the engine's first move stays


def test_hint_gives_a_legal_vertex_and_plays_nothing():
    engine = new_engine()
    shown = play_lines(engine, "black", ["e5", "hint"])
    hint = re.search(r"hint: ([A-T]\d+) \(your win rate (\d+)%", shown)
    assert hint, shown
    assert len(engine.board.moves) == 2                     # e5 and the answer only
    reference = boards.Board(SIZE)
    for vertex, glyph in stones(engine.board).items():
        reference.play(*vertex_rc(vertex), "b" if glyph == "X" else "w")
    row, col = vertex_rc(hint.group(1))
    assert reference.get(row, col) is None
    reference.play(row, col, "b")
    assert reference.get(row, col) == "b"                   # not a suicide
    assert 0 <= int(hint.group(2)) <= 100


def test_resign_ends_the_game_with_the_result_in_the_record(tmp_path):
    path = tmp_path / "game.sgf"
    result = run_cli(FAST + ["--sgf", str(path)], ["e5", "resign", "e6"])
    assert result.exit_code == 0, result.output
    assert "result: W+R (white wins by resignation)" in result.output
    assert result.output.count(PROMPT) == 2                 # nothing read after resigning
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    root = game.get_root()
    assert root.get("RE") == "W+R" and root.get("PB") == "human" and root.get("PW") == "mcgo"


def test_end_of_input_leaves_the_game_and_saves_it(tmp_path):
    path = tmp_path / "left.sgf"
    result = run_cli(FAST + ["--sgf", str(path)], ["e5"])            # then Ctrl-D
    assert result.exit_code == 0, result.output
    assert "game left unfinished." in result.output
    board, game = sgf_position(path)
    grid, _, _ = read_board(result.output)
    assert sgfmill_stones(board) == {v: g for v, g in grid.items() if g in "XO"}
    assert len(game.get_main_sequence()) == 3 and not game.get_root().has_property("RE")


def test_record_replays_on_sgfmill_to_the_engines_board(tmp_path):
    engine = new_engine(ATARI_ROWS)
    path = tmp_path / "game.sgf"

    wanted = iter(["d3", "c5", "f5", "d6", "g6", "e3", "c3", "g3", "b4"])   # d3 captures

    def next_free():
        """The next wanted point the engine has not taken."""
        return next((v for v in wanted if engine.board.color_at(v.upper()) == mcgo.EMPTY),
                    None)

    shown = play_lines(engine, "black", [next_free] * 6 + ["quit"], sgf_path=path)
    assert f"game record saved to {path}" in shown
    board, game = sgf_position(path)
    assert sgfmill_stones(board) == stones(engine.board)
    assert len(game.get_main_sequence()) - 1 == len(engine.board.moves) == 12
    assert not game.get_root().has_property("RE")           # left unfinished: no result


# --------------------------------------------------------------------------- GNU Go
@pytest.fixture
def gnugo(gnugo_command):
    with GtpEngine(gnugo_command) as engine:
        yield engine


def test_fixed_handicap_as_gnugo_places_it(tmp_path, gnugo):
    path = tmp_path / "handicap.sgf"
    result = run_cli(FAST + ["--handicap", "4", "--sgf", str(path)], ["quit"])
    assert result.exit_code == 0, result.output
    gnugo.send(f"boardsize {SIZE}")
    gnugo.send("clear_board")
    expected = set(gnugo.send("fixed_handicap 4").split())
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    root = game.get_root()
    black, white, _ = root.get_setup_stones()
    assert {f"{COLUMNS[c]}{r + 1}" for r, c in black} == expected and not white
    assert root.get("HA") == 4 and root.get("KM") == 0.5     # no --komi: half a point
    assert game.get_main_sequence()[1].get_move()[0] == "w"  # white moves first
    grid, _, beside = read_board(result.output)
    assert {v for v, glyph in grid.items() if glyph == "X"} == expected
    assert "komi 0.5, handicap 4" in beside


def test_two_passes_end_the_game_with_gnugos_count(tmp_path, gnugo):
    path = tmp_path / "finished.sgf"
    engine = new_engine(FINISHED_ROWS, to_move=mcgo.WHITE)
    shown = play_lines(engine, "white", ["pass"] * 10, sgf_path=path)
    assert "both passed: the game is over." in shown
    result = re.search(r"^result: (\S+)", shown, re.M).group(1)
    black = re.search(r"^black: (\d+) stones? \+ (\d+) territory = (\S+)$", shown, re.M)
    white = re.search(r"^white: (\d+) stones? \+ (\d+) territory \+ (\S+) komi = (\S+)$",
                      shown, re.M)
    assert int(black[1]) + int(black[2]) == float(black[3])
    assert int(white[1]) + int(white[2]) + float(white[3]) == float(white[4])
    margin = float(black[3]) - float(white[4])
    assert result == (f"B+{margin:g}" if margin > 0 else f"W+{-margin:g}")
    assert engine.board.consecutive_passes == 2

    gnugo.send(f"loadsgf {path}")
    reference = gnugo.send("final_score")
    assert result == re.sub(r"\.0$", "", reference)
    dead = sorted(gnugo.send("final_status_list dead").split())
    listed = re.search(r"^dead stones removed: black (.*); white (.*)$", shown, re.M)
    ours = sorted(v for side in listed.groups() for v in side.split() if v != "none")
    # C7 from the start; a stone the engine tried inside white's area before it passed
    # (harmless under area scoring) dies too, and GNU Go must list the same.
    assert ours == dead and "C7" in dead
    assert sgf.Sgf_game.from_bytes(path.read_bytes()).get_root().get("RE") == result


# --------------------------------------------------------------------------- input
BAD_LINES = ["zz", "E55", "I5", "K1", "A0", "e5", "-1", "save", "pass please", "undo now",
             "hint 3", "e5 e6", "quit now", "\u00e9t\u00e9", "play d4", "\x01"]


def test_bad_input_gets_one_line_and_the_prompt_again():
    typed = ["e5"] + BAD_LINES + ["", "   ", "quit"]
    result = run_cli(FAST, typed)
    assert result.exit_code == 0, result.output
    after_first_answer = result.output.split(PROMPT)[2:]
    for line, text in zip(BAD_LINES, after_first_answer):
        said = text.strip().splitlines()
        assert len(said) == 2 and said[0].strip() == line.strip(), (line, text)  # echo, answer
    assert result.output.count(PROMPT) == len(typed)        # every line was asked for
    assert "E5 is illegal here (occupied)" in result.output


@pytest.mark.parametrize("args, words", [
    (["--size", "8", "--handicap", "5"], "--handicap"),
    (["--size", "5", "--handicap", "2"], "--handicap"),
    (["--handicap", "10"], "--handicap"),
    (["--sgf", "/nonexistent-folder/game.sgf"], "--sgf"),
    (["--casebase", "/nonexistent-folder/cb.mcgocb"], "--casebase"),
])
def test_command_line_errors_are_one_line_and_exit_2_before_the_game(args, words):
    result = run_cli(["play", "--playouts", "10"] + args, ["quit"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error") and words in lines[0]


def test_sgf_folder_is_refused(tmp_path):
    result = run_cli(["play", "--sgf", str(tmp_path)], ["quit"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


def test_case_base_answers_a_19x19_opening_in_the_corner():
    """As mcgo gtp: with the shipped case base, after black Q16 the engine's answer on 19x19
    gets the case base's bonus."""
    from mcgo.casebase import OpeningAdvisor, open_casebase
    cb = open_casebase("default")
    if cb is None:
        pytest.skip("no shipped case base")
    result = run_cli(["play", "--size", "19", "--playouts", "100", "--seed", "1",
                      "--casebase", "default"], ["Q16", "quit"])
    answer = ENGINE_MOVE.findall(result.output)[0]
    board = mcgo.Board(19)
    board.play("Q16")
    bonus, _ = OpeningAdvisor(cb).advise(board)
    assert bonus[coords.from_gtp(answer, 19)] > 0, answer
    row, col = vertex_rc(answer)
    assert min(row, 18 - row) <= 4 and min(col, 18 - col) <= 4   # a corner move, not C10


# --------------------------------------------------------------------------- tmux
def load_transcript_script():
    """benchmarks/transcripts/play_transcript.py, whose :class:`Tmux` drives the terminal."""
    spec = importlib.util.spec_from_file_location(
        "play_transcript", ROOT / "benchmarks" / "transcripts" / "play_transcript.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_game_in_a_real_terminal():
    script = load_transcript_script()
    command = script.COMMAND          # python -m mcgo play --size 9 --playouts 30 --seed 1
    assert command[-6:] == ["--size", "9", "--playouts", "30", "--seed", "1"]
    with script.Tmux(command, name="mcgo-play-test") as session:
        session.wait_for(script.PROMPT, 1)
        session.type("e5")
        session.wait_for(script.PROMPT, 2)
        screen = session.screen()
        grid, marked, beside = read_board(screen)
        answer = ENGINE_MOVE.findall(screen)[-1]
        assert marked == answer and grid[answer] == "O" and grid["E5"] == "X"
        assert "captured by black: 0" in beside and "captured by white: 0" in beside
        assert f"move 2: white {answer}" in beside
        session.type("resign")
        shown = session.wait_for(script.GAME_OVER)
    assert "result: W+R" in shown
