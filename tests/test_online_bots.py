"""mcgo as a bot on OGS and KGS: the command sequences their bridges send, played end to end
against ``mcgo gtp`` as a process.

OGS's gtp2ogs (version 9, online-go/gtp2ogs, ``src/Bot.ts`` and ``src/Game.ts``): each command
ends in CR LF, colours are spelled out, vertices are lower case. It starts with
``list_commands`` and sends an optional command only when the engine listed it; before each
of the bot's moves it sends ``kata-list_time_settings`` (when listed), the board
(``boardsize W`` or ``boardsize W H``, ``clear_board``, ``komi``), a free handicap as
``set_free_handicap`` with the stones, the moves as ``play``, the clock (Japanese byo-yomi as
``kgs-time_settings byoyomi MAIN PERIOD PERIODS`` with ``time_left COLOR SECONDS PERIODS``,
0 in main time; Fischer, when ``kata-list_time_settings`` names ``fischer-capped``, as
``kata-time_settings fischer-capped MAIN INCREMENT MAX -1`` with ``time_left COLOR SECONDS
0``), then ``genmove COLOR``, whose answer it lower-cases and reads as ``resign``, ``pass`` or a
column letter and a row number. It splits the engine's answers at blank lines and forwards
each stderr line matching ``(DISCUSSION|MALKOVICH|MAIN):(.*)`` to the game's chat
(``MALKOVICH`` to the observers).

KGS's kgsGtp (its logs, as Pachi's ``tools/kgslog2gtp`` and engine authors quote them): single
letter colours, ``kgs-rules``, ``kgs-time_settings``, ``time_left``, ``genmove``, and at the
end ``kgs-genmove_cleanup`` while the players disagree on dead stones, ``final_status_list``
and ``kgs-game_over``.
"""

import random
import re
import subprocess
import sys

import pytest

import mcgo
from mcgo.board import coords

CHAT = re.compile(r"(DISCUSSION|MALKOVICH|MAIN):(.*)")       # gtp2ogs's Bot.ts
GTP2OGS_OPTIONAL = ("kata-list_time_settings", "kgs-time_settings", "kata-time_settings",
                    "time_settings", "time_left", "set_free_handicap", "place_free_handicap",
                    "final_score")
KGS_COMMANDS = ("kgs-rules", "kgs-time_settings", "kgs-genmove_cleanup", "kgs-game_over",
                "final_status_list", "time_left", "time_settings")


class Bridge:
    """A server's bridge driving ``mcgo gtp``: CR LF line ends, answers read up to the blank
    line that ends them (a blank line inside an answer would split it, as gtp2ogs splits)."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([sys.executable, "-m", "mcgo", "gtp", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)

    def send(self, command):
        """``(status, text)`` of ``command``'s answer: ``=`` or ``?``."""
        self.proc.stdin.write(command + "\r\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, f"mcgo closed its output after {command!r}"
            if line == "\n" and lines:
                break
            lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        assert text[0] in "=?", text
        return text[0], text[1:].strip()

    def ok(self, command):
        status, text = self.send(command)
        assert status == "=", f"{command}: ? {text}"
        return text

    def close(self):
        self.ok("quit")
        _, err = self.proc.communicate(timeout=60)
        return err


def own_eye(board, p, color):
    """Every neighbour of the empty point ``p`` is ``color``'s stone or off the board."""
    row, col = coords.row_col(p, board.size)
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < board.size and 0 <= c < board.size and \
                board.color_at(coords.point(r, c, board.size)) != color:
            return False
    return True


def gtp2ogs_move(answer, size):
    """gtp2ogs's reading of a genmove answer (``Bot.ts``): resign, pass or a point."""
    move = answer.lower().split()[0] if answer.strip() else "resign"
    if move in ("resign", "pass"):
        return move
    return coords.from_gtp(move, size)


def play_out(bridge, size, me, clock, before_move, max_moves=400, seed=1):
    """A game to its end: the bot genmoves as ``me`` after ``clock``'s commands, the other
    side plays random legal moves (no eye filling, so the game ends) and passes when it
    has none; returns the bot's moves."""
    rng = random.Random(seed)
    board = mcgo.Board(size)
    for stone in before_move:
        board.setup(black=[stone])
    board.to_move = mcgo.WHITE if before_move else mcgo.BLACK
    name = {mcgo.BLACK: "black", mcgo.WHITE: "white"}
    mine = []
    while board.consecutive_passes < 2 and len(board.moves) < max_moves:
        color = board.to_move
        if name[color] == me:
            for command in clock(len(mine)):
                bridge.ok(command)
            move = gtp2ogs_move(bridge.ok(f"genmove {me}"), size)
            if move == "resign":
                return mine + ["resign"]
            point = mcgo.PASS if move == "pass" else move
            mine.append(point)
            board.play(point, color)
            continue
        legal = [p for p in board.legal_moves(color) if not own_eye(board, p, color)]
        point = rng.choice(legal) if legal else mcgo.PASS
        board.play(point, color)
        vertex = coords.to_gtp(point, size).lower()
        bridge.ok(f"play {name[color]} {vertex}")
    return mine


def test_gtp2ogs_lists_what_it_needs_and_a_non_square_board_is_refused():
    bot = Bridge("--playouts", "50", "--quiet")
    listed = bot.ok("list_commands").split("\n")
    assert set(GTP2OGS_OPTIONAL) <= set(listed)
    assert "fischer-capped" in bot.ok("kata-list_time_settings")
    status, text = bot.send("boardsize 19 13")
    assert status == "?" and "unacceptable size" in text and "square" in text
    assert bot.ok("boardsize 19 19") == ""           # square, written gtp2ogs's way
    bot.close()


def test_gtp2ogs_handicap_game_with_byoyomi_and_chat_to_the_end():
    """9x9, mcgo White giving two free handicap stones, Japanese byo-yomi (5 s main time,
    three periods of 1 s), the chat on: the whole game as gtp2ogs drives it, one chat line
    per move that gtp2ogs forwards to the observers, each with the win rate and a line."""
    bot = Bridge("--playouts", "200", "--quiet", "--ogs-chat")
    bot.ok("list_commands")
    bot.ok("kata-list_time_settings")
    bot.ok("boardsize 9")
    bot.ok("clear_board")
    bot.ok("komi 0.5")
    stones = ["c3", "g7"]
    bot.ok(f"set_free_handicap {' '.join(stones)}")

    def clock(n):
        left = max(5 - n, 0)
        return ["kata-list_time_settings", "kgs-time_settings byoyomi 5 1 3",
                f"time_left black {left} {0 if left else 3}",
                f"time_left white {left} {0 if left else 3}"]

    points = [coords.from_gtp(v, 9) for v in stones]
    mine = play_out(bot, 9, "white", clock, points)
    assert bot.ok("final_score")[0] in "BW0"
    err = bot.close()
    chats = [m for m in map(CHAT.search, err.splitlines()) if m]
    assert len(chats) == len(mine) - mine.count("resign") and chats
    for chat in chats:
        assert chat.group(1) == "MALKOVICH"
        assert re.fullmatch(r"Win rate \d+\.\d%(, score lead [+-]\d+\.\d)?, \d+ simulations; "
                            r"PV( ([A-HJ-T]\d+|pass))+", chat.group(2)), chat.group(2)


def test_gtp2ogs_fischer_clock_and_place_free_handicap_as_black():
    """mcgo Black, asked to place three free stones (gtp2ogs's ``place_free_handicap``: it
    resigns unless exactly three vertices come back), under a capped Fischer clock."""
    bot = Bridge("--playouts", "100", "--quiet")
    bot.ok("list_commands")
    bot.ok("boardsize 9")
    bot.ok("clear_board")
    bot.ok("komi 0.5")
    placed = bot.ok("place_free_handicap 3").lower().split()
    assert len(placed) == 3 and len(set(placed)) == 3

    def clock(n):
        return ["kata-list_time_settings", "kata-time_settings fischer-capped 30 2 60 -1",
                "time_left black 30 0", "time_left white 30 0"]

    points = [coords.from_gtp(v, 9) for v in placed]
    # The stones are down and White (the other side) moves first.
    bot_moves = play_out(bot, 9, "black", clock, points, max_moves=60)
    assert bot_moves and all(m == "resign" or isinstance(m, int) for m in bot_moves)
    bot.close()


def test_kgsgtp_sequence_to_the_end_of_a_game():
    """kgsGtp's commands: the rules, a byo-yomi clock, genmove and play with single
    letters, and at the end the cleanup moves, the dead stones and game over."""
    bot = Bridge("--playouts", "100", "--quiet")
    listed = set(bot.ok("list_commands").split("\n"))
    assert set(KGS_COMMANDS) <= listed
    bot.ok("kgs-rules chinese")
    bot.ok("boardsize 9")
    bot.ok("clear_board")
    bot.ok("komi 6.5")
    bot.ok("kgs-time_settings byoyomi 10 1 5")
    rng = random.Random(3)
    board = mcgo.Board(9)
    while board.consecutive_passes < 2 and len(board.moves) < 300:
        if board.to_move == mcgo.BLACK:
            bot.ok("time_left b 10 0")
            answer = bot.ok("genmove b")
            if answer == "resign":
                break
            board.play(coords.from_gtp(answer, 9), mcgo.BLACK)
        else:
            legal = [p for p in board.legal_moves() if not own_eye(board, p, mcgo.WHITE)]
            point = rng.choice(legal) if legal else mcgo.PASS
            board.play(point, mcgo.WHITE)
            bot.ok(f"play w {coords.to_gtp(point, 9)}")
    cleanup = bot.ok("kgs-genmove_cleanup b")
    assert cleanup == "pass" or coords.from_gtp(cleanup, 9) is not None
    dead = bot.ok("final_status_list dead").split()
    assert all(coords.from_gtp(v, 9) is not None for v in dead)
    bot.ok("kgs-game_over")
    bot.close()
