"""``mcgo play``: a game against the engine in the terminal.

The board is drawn with columns A-T (no I) and rows numbered from the bottom, ``X`` black,
``O`` white, ``+`` the empty star points (hoshi), and the last move in brackets: ``(X)``.
Beside it: who plays which colour, the move number and the last move, whose turn it is, the
stones each side has captured, komi and handicap.

Commands at the prompt (case does not matter)::

    D4          play there (a GTP vertex: column letter, row number)
    pass        pass; after two passes in a row the game is scored
    resign      give up: the engine wins
    undo        take back your last move and the engine's answer
    hint        the engine's move for you and its win rate (not played)
    score       the score as it stands, the stones the engine thinks dead removed
    save FILE   write the game so far as SGF
    help        this list
    quit        leave (Ctrl-D too); the game goes to --sgf first

With ``--handicap N`` black's stones stand where GTP ``fixed_handicap N`` puts them and
white moves first; komi is then 0.5 (white's half point: no jigo) unless ``--komi`` is given.

The terminal drives the engine's :class:`~mcgo.engine.game.Game` directly, as the GTP
engine does for its commands: its moves, the hint (the move it would choose, not played),
undo, the fixed handicap, the judge's score and dead stones. The count at the end scores as the engine does
(:func:`count_area`): by default area, stones plus the empty points a colour alone
surrounds, once the dead stones are off the board, and komi for white; with ``--rules
japanese``, territory and prisoners. Game records are written by
:func:`mcgo.sgf.record_from_board` with the result (``RE``) once the game is over.
"""

import os
import time
from dataclasses import dataclass, field
from itertools import zip_longest

import click

from ..board import coords, handicap
from ..board.board import AREA, TERRITORY, result_text
from ..board.history import Move
from ..board.kernels import BLACK, EMPTY, PASS, WHITE
from .. import sgf
from ..engine.game import GameError

HUMAN_NAME = "human"
ENGINE_NAME = "mcgo"
PROMPT = "your move (help for the commands)"
STONE = {BLACK: "X", WHITE: "O", EMPTY: "."}
STAR = "+"
MARK_LEFT, MARK_RIGHT = "(", ")"     # around the last move's stone, as GNU Go's ascii board
COLOR_NAME = {BLACK: "black", WHITE: "white"}
RESULT_LETTER = {BLACK: "B", WHITE: "W"}
PANEL_GAP = "     "                 # between the board and the text beside it
HANDICAP_KOMI = 0.5                 # komi of a handicap game when --komi is not given
QUIT_WORDS = ("quit", "q", "exit")

HELP = """\
  D4          play there (column letter, row number; case does not matter)
  pass        pass; two passes in a row end the game
  resign      give up (the engine wins)
  undo        take back your last move and the engine's answer
  hint        the engine's move for you, with its win rate (not played)
  score       the score as it stands, the stones the engine thinks dead removed
  save FILE   write the game so far as SGF
  help        this list
  quit        leave the game (Ctrl-D too)"""


# --------------------------------------------------------------------------- checks
def check_handicap(size, stones):
    """``stones`` when GTP ``fixed_handicap`` can place them on a ``size`` board, else a
    :class:`click.BadParameter` saying what fits."""
    most = handicap.max_fixed(size)
    if stones is not None and not 2 <= stones <= most:
        fits = f"2 to {most} stones" if most else "no handicap stones"
        raise click.BadParameter(f"{stones} stones do not fit a {size}x{size} board "
                                 f"(it takes {fits})", param_hint="--handicap")
    return stones


def check_writable(path):
    """Raise :class:`click.BadParameter` unless a game record can be written to ``path``
    (tried now, before the game: a file that was not there is removed again)."""
    if path is None:
        return
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise click.BadParameter(f"cannot write {path}: {e.strerror or e}",
                                 param_hint="--sgf") from None
    if not existed:
        os.remove(path)


# --------------------------------------------------------------------------- the board
def star_points(size):
    """The hoshi of a ``size`` board: the corner points on the 3rd line (4th from 13x13),
    the centre of odd boards, and the side midpoints of odd boards from 15x15.

    >>> [coords.to_gtp(p, 9) for p in star_points(9)]
    ['C3', 'G3', 'C7', 'G7', 'E5']
    >>> [coords.to_gtp(p, 13) for p in star_points(13)]
    ['D4', 'K4', 'D10', 'K10', 'G7']
    >>> len(star_points(19)), star_points(5)
    (9, [])
    """
    if size < 7:
        return []
    low = 2 if size < 13 else 3
    high, mid = size - 1 - low, size // 2
    lines = [low, high]
    points = [coords.point(r, c, size) for r in lines for c in lines]
    if size % 2:
        points.append(coords.point(mid, mid, size))
        if size >= 15:
            points += [coords.point(r, c, size)
                       for r, c in ((low, mid), (mid, low), (mid, high), (high, mid))]
    return points


def marked_point(board):
    """The point to mark as the last move: its stone, or None (no move yet, or a pass)."""
    last = board.last_move
    if last is None or last == PASS or board.color_at(last) == EMPTY:
        return None
    return last


def board_rows(board):
    """The board as lines of text: stones, star points and the last move in brackets.

    >>> from mcgo import Board
    >>> b = Board(9)
    >>> b.play("E5"); b.play("C3")
    >>> print("\\n".join(board_rows(b)))
        A B C D E F G H J
     9  . . . . . . . . .  9
     8  . . . . . . . . .  8
     7  . . + . . . + . .  7
     6  . . . . . . . . .  6
     5  . . . . X . . . .  5
     4  . . . . . . . . .  4
     3  . .(O). . . + . .  3
     2  . . . . . . . . .  2
     1  . . . . . . . . .  1
        A B C D E F G H J
    """
    size = board.size
    stars, mark = set(star_points(size)), marked_point(board)
    letters = "    " + " ".join(coords.GTP_COLUMNS[:size])
    lines = [letters]
    for row in range(size - 1, -1, -1):
        text = f"{row + 1:2d} "
        for col in range(size):
            p = coords.point(row, col, size)
            color = board.color_at(p)
            glyph = STAR if color == EMPTY and p in stars else STONE[color]
            text += (MARK_LEFT if p == mark else MARK_RIGHT if p - 1 == mark and col else " ")
            text += glyph
        text += MARK_RIGHT if coords.point(row, size - 1, size) == mark else " "
        lines.append(f"{text} {row + 1}")
    lines.append(letters)
    return lines


def last_move_text(board):
    """``move 12: white F4``, ``move 3: black passed`` or ``no moves yet``."""
    if not board.moves:
        return "no moves yet"
    color, point = board.moves[-1]
    what = "passed" if point == PASS else coords.to_gtp(point, board.size)
    return f"move {len(board.moves)}: {COLOR_NAME[color]} {what}"


def panel(board, human, stones=0):
    """The lines beside the board: players, last move, turn, captures, komi."""
    engine = 3 - human
    lines = [f"{COLOR_NAME[human]} ({STONE[human]}): you",
             f"{COLOR_NAME[engine]} ({STONE[engine]}): {ENGINE_NAME}",
             "",
             last_move_text(board),
             f"{COLOR_NAME[board.to_move]} to play (move {len(board.moves) + 1})",
             "",
             f"captured by black: {board.captures(BLACK)}",
             f"captured by white: {board.captures(WHITE)}",
             f"komi {board.komi:g}" + (f", handicap {stones}" if stones else "")]
    return lines


def picture(board, human, stones=0):
    """The board with the panel beside it (below it where the board is shorter)."""
    rows, lines = board_rows(board), panel(board, human, stones)
    width = max(len(r) for r in rows)
    out = [rows[0]]
    for left, right in zip_longest(rows[1:], lines, fillvalue=""):
        out.append((left.ljust(width) + PANEL_GAP + right).rstrip())
    return "\n".join(out)


# --------------------------------------------------------------------------- the count
@dataclass
class Count:
    """A count once ``dead`` stones are removed: stones and territory of each side (area
    scoring), or territory and prisoners, the dead stones among them (territory scoring)."""

    black_stones: int
    black_territory: int
    white_stones: int
    white_territory: int
    komi: float
    dame: int
    dead_black: list = field(default_factory=list)
    dead_white: list = field(default_factory=list)
    scoring: str = AREA
    black_prisoners: int = 0      # white stones black took, the dead ones included
    white_prisoners: int = 0
    handicap_bonus: float = 0     # White's compensation for the handicap stones (the rules')

    @property
    def black(self):
        if self.scoring == TERRITORY:
            return self.black_territory + self.black_prisoners
        return self.black_stones + self.black_territory

    @property
    def white(self):
        if self.scoring == TERRITORY:
            return self.white_territory + self.white_prisoners + self.komi + self.handicap_bonus
        return self.white_stones + self.white_territory + self.komi + self.handicap_bonus

    @property
    def result(self):
        return result_text(self.black - self.white)


def count_area(board, dead):
    """The :class:`Count` of ``board`` with the stones at ``dead`` removed, by the board's
    scoring (area: a stone or an empty point one colour alone surrounds is a point for that
    colour; territory: such an empty point, or a prisoner, is).

    >>> from mcgo import Board
    >>> b = Board(5, komi=0.5)
    >>> b.setup(black=["B1", "B2", "B3", "B4", "B5", "E4"],
    ...         white=["C1", "C2", "C3", "C4", "C5", "A3"])
    >>> c = count_area(b, [b.point("A3"), b.point("E4")])
    >>> (c.black_stones, c.black_territory, c.white_stones, c.white_territory, c.result)
    (5, 5, 5, 10, 'W+5.5')
    >>> [coords.to_gtp(p, 5) for p in c.dead_black + c.dead_white]
    ['E4', 'A3']
    >>> b.scoring = "territory"     # 5 points and a prisoner against 10 and one
    >>> c = count_area(b, [b.point("A3"), b.point("E4")])
    >>> (c.black, c.white, c.result)
    (6, 11.5, 'W+5.5')
    >>> b.scoring, b.handicap_bonus = "area", 2     # two handicap stones, Chinese rules
    >>> count_lines(count_area(b, [b.point("A3"), b.point("E4")]), 5)[2]
    'white: 5 stones + 10 territory + 0.5 komi + 2 for the handicap = 17.5'
    """
    cleaned = board.copy()
    if dead:
        cleaned.setup(empty=dead)
    owner = cleaned.owner()
    tally = {(BLACK, True): 0, (BLACK, False): 0, (WHITE, True): 0, (WHITE, False): 0}
    dame = 0
    for p in coords.all_points(board.size):
        who = int(owner[p])
        if who == EMPTY:
            dame += 1
        else:
            tally[who, cleaned.color_at(p) == who] += 1
    dead = sorted(dead)
    dead_black = [p for p in dead if board.color_at(p) == BLACK]
    dead_white = [p for p in dead if board.color_at(p) == WHITE]
    return Count(tally[BLACK, True], tally[BLACK, False], tally[WHITE, True],
                 tally[WHITE, False], board.komi, dame, dead_black, dead_white, board.scoring,
                 board.captures(BLACK) + len(dead_white), board.captures(WHITE) + len(dead_black),
                 board.handicap_bonus)


def vertices(points, size):
    return " ".join(coords.to_gtp(p, size) for p in points) or "none"


def plural(number, word):
    """``1 stone``, ``2 stones``."""
    return f"{number:g} {word}{'' if number == 1 else 's'}"


def count_lines(count, size):
    """The breakdown of a :class:`Count`, one line a side."""
    lines = [f"dead stones removed: black {vertices(count.dead_black, size)}; "
             f"white {vertices(count.dead_white, size)}"]
    if count.scoring == TERRITORY:
        lines += [f"black: {count.black_territory} territory + "
                  f"{plural(count.black_prisoners, 'prisoner')} = {count.black:g}",
                  f"white: {count.white_territory} territory + "
                  f"{plural(count.white_prisoners, 'prisoner')} + {count.komi:g} komi"
                  f"{_bonus(count)} = {count.white:g}"]
    else:
        lines += [f"black: {plural(count.black_stones, 'stone')} + {count.black_territory} "
                  f"territory = {count.black:g}",
                  f"white: {plural(count.white_stones, 'stone')} + {count.white_territory} "
                  f"territory + {count.komi:g} komi{_bonus(count)} = {count.white:g}"]
    if count.dame:
        lines.append(f"neutral points: {count.dame}")
    return lines


def _bonus(count):
    """`` + 2 for the handicap``: White's compensation in a breakdown, when there is one."""
    return f" + {count.handicap_bonus:g} for the handicap" if count.handicap_bonus else ""


def result_words(result):
    """``B+3.5`` -> ``black wins by 3.5 points``; ``W+R``; ``0`` (jigo).

    >>> result_words("B+3.5"), result_words("W+R"), result_words("0")
    ('black wins by 3.5 points', 'white wins by resignation', 'jigo (a draw)')
    """
    if result == "0":
        return "jigo (a draw)"
    winner = "black" if result.startswith("B") else "white"
    margin = result[2:]
    if margin == "R":
        return f"{winner} wins by resignation"
    return f"{winner} wins by {plural(float(margin), 'point')}"


# --------------------------------------------------------------------------- the judge
def dead_stones(game):
    """The points of the chains the game's judge calls dead (GTP ``final_status_list dead``)."""
    return [p for chain in game.chains("dead") for p in chain]


def prompt_reader(text):
    """Read one line at the prompt; None at the end of input (Ctrl-D) or on Ctrl-C."""
    try:
        return click.prompt(text, default="", show_default=False, prompt_suffix="> ")
    except click.Abort:
        click.echo()            # the terminal's line ends here
        return None


# --------------------------------------------------------------------------- the game
class TerminalGame:
    """One game between the person at the terminal (``human``) and the engine.

    ``read(prompt)`` gives a typed line (None at the end of input), ``echo(text)`` shows
    text: the terminal's by default, anything in tests. ``sgf_path``: where the record goes
    when the game ends or the player leaves."""

    def __init__(self, game, human, sgf_path=None, read=prompt_reader, echo=click.echo):
        self.game = game
        self.human = human
        self.computer = 3 - human
        self.sgf_path = sgf_path
        self.read = read
        self.echo = echo
        self.result = None          # "B+3.5", "W+R"... once the game is over
        self.shown = None           # the history last drawn

    @property
    def board(self):
        return self.game.board

    # ------------------------------------------------------------ loop
    def run(self):
        """Moves and commands until the game ends or the player leaves."""
        try:
            while self.step():
                pass
        except KeyboardInterrupt:
            self.echo("")
            self.leave()

    def step(self):
        """One move of either side, or one command; False when the game is over."""
        if self.board.consecutive_passes >= 2:
            self.finish()
            return False
        if self.board.to_move == self.computer:
            return self.engine_move()
        if not self.human_turn():
            self.leave()
            return False
        return self.result is None

    def show(self):
        self.echo(picture(self.board, self.human, self.game.handicap))
        self.shown = list(self.board.history)

    def engine_move(self):
        """The engine's move; False when it ended the game (it resigned, or failed)."""
        try:
            _, move = self.game.genmove(self.computer, received_at=time.monotonic())
        except Exception as e:  # noqa: BLE001 - the game is saved, whatever went wrong
            self.echo(f"the engine failed: {e!r}")
            self.leave()
            return False
        if move == "resign":
            self.echo(f"{ENGINE_NAME} resigns.")
            self.finish(resigned=self.computer)
            return False
        search = self.game.search.last_result
        said = "passes" if move == "pass" else f"plays {move}"
        self.echo(f"{ENGINE_NAME} {said}" +
                  (f" (its win rate {search.winrate:.0%})" if search is not None else ""))
        return True

    def human_turn(self):
        """Read and do one command; False when the player leaves."""
        if self.shown != self.board.history:
            self.show()
        typed = self.read(PROMPT)
        if typed is None:
            return False
        words = typed.split()
        if not words:
            return True
        word = words[0].lower()
        if word in QUIT_WORDS and len(words) == 1:
            return False
        if word == "save":
            path = typed.strip()[len(word):].strip()
            if path:
                self.save(path)
            else:
                self.echo("save needs a file name: save FILE")
        elif word in COMMANDS:
            if len(words) > 1:
                self.echo(f"{word} takes nothing after it; type help for the commands")
            else:
                COMMANDS[word](self)
        elif len(words) == 1:
            self.play(words[0])
        else:
            self.echo(f"unknown command {typed.strip()!r}; type help for the commands")
        return True

    # ------------------------------------------------------------ commands
    def play(self, vertex):
        size = self.board.size
        try:
            point = coords.from_gtp(vertex, size)
        except coords.CoordinateError:
            last = coords.GTP_COLUMNS[size - 1]
            self.echo(f"cannot play {vertex.lower()!r}: type a point A1 to {last}{size} "
                      "(no I), pass, or help")
            return
        reason = self.board.legality(point, self.human)
        if reason is not None:
            self.echo(f"{vertex.upper()} is illegal here ({reason})")
            return
        try:
            self.game.play(self.human, point)
        except GameError as e:
            self.echo(f"{vertex.upper()} cannot be played: {e}")

    def pass_move(self):
        self.play("pass")

    def resign(self):
        self.echo("you resign.")
        self.finish(resigned=self.human)

    def undo(self):
        history = self.board.history
        mine = [i for i, entry in enumerate(history)
                if isinstance(entry, Move) and entry.color == self.human]
        if not mine:
            self.echo("nothing to undo: you have not moved yet")
            return
        while len(self.board.history) > mine[-1]:
            self.game.undo()
        self.echo(f"undone: back to move {len(self.board.moves) + 1}")

    def hint(self):
        try:
            _, move = self.game.choose_move(self.human, received_at=time.monotonic())
        except Exception as e:  # noqa: BLE001 - a failed hint leaves the game as it is
            self.echo(f"no hint: {e!r}")
            return
        result = self.game.search.last_result
        if result is None:
            self.echo(f"no hint: {move}")
            return
        rate = result.winrate
        if move not in ("resign", "pass"):
            point = coords.from_gtp(move, self.board.size)
            rate = next((m.winrate for m in result.moves if m.move == point and m.visits),
                        rate)
        advice = "resign" if move == "resign" else move
        self.echo(f"hint: {advice} (your win rate {rate:.0%} by {result.simulations} "
                  "simulations)")

    def score(self):
        count, result = self.count()
        for line in count_lines(count, self.board.size):
            self.echo(line)
        self.echo(f"estimated score if the game ended now: {result} ({result_words(result)})")

    def save(self, path):
        try:
            self.write_record(path)
        except OSError as e:
            self.echo(f"cannot save {path}: {e.strerror or e}")
            return
        self.echo(f"saved {path}")

    def help(self):
        self.echo(HELP)

    # ------------------------------------------------------------ the end
    def count(self):
        """The engine's count of the position: (Count, its final_score result)."""
        count = count_area(self.board, dead_stones(self.game))
        return count, self.game.final_score()

    def finish(self, resigned=None):
        """Game over: the final board, the count and the result; the record to --sgf."""
        self.show()
        count, result = self.count()
        if resigned is not None:
            result = f"{RESULT_LETTER[3 - resigned]}+R"
            self.echo("the count of the final position (for the record; the game ended by "
                      "resignation):")
        else:
            self.echo("both passed: the game is over.")
        for line in count_lines(count, self.board.size):
            self.echo(line)
        self.result = result
        self.echo(f"result: {result} ({result_words(result)})")
        self.save_to_sgf()

    def leave(self):
        self.echo("game left unfinished.")
        self.save_to_sgf()

    def save_to_sgf(self):
        if self.sgf_path is None:
            return
        try:
            self.write_record(self.sgf_path)
        except OSError as e:
            self.echo(f"cannot save {self.sgf_path}: {e.strerror or e}")
            return
        self.echo(f"game record saved to {self.sgf_path}")

    def write_record(self, path):
        players = {self.human: HUMAN_NAME, self.computer: ENGINE_NAME}
        record = sgf.record_from_board(self.board, handicap=self.game.handicap,
                                       black=players[BLACK], white=players[WHITE],
                                       result=self.result or "", date=sgf.today())
        sgf.write_sgf(record, path)


COMMANDS = {"pass": TerminalGame.pass_move, "resign": TerminalGame.resign,
            "undo": TerminalGame.undo, "hint": TerminalGame.hint,
            "score": TerminalGame.score,
            "help": TerminalGame.help, "h": TerminalGame.help, "?": TerminalGame.help}


def play_in_terminal(game, color_name, sgf_path=None, handicap=None, read=prompt_reader,
                     echo=click.echo):
    """Play one :class:`~mcgo.engine.game.Game` with the person at the terminal as
    ``color_name`` (``black`` or ``white``), from the game's board as it stands, after
    placing ``handicap`` fixed handicap stones on it (GTP's ``fixed_handicap``); returns the
    result (``B+3.5``, ``W+R``...) or None when the player left before the end."""
    if handicap:
        try:
            game.fixed_handicap(handicap)
        except GameError as e:
            raise click.BadParameter(str(e), param_hint="--handicap") from None
    human = BLACK if color_name == "black" else WHITE
    board = game.board
    extra = f", handicap {game.handicap}" if game.handicap else ""
    echo(f"mcgo {board.size}x{board.size}, komi {board.komi:g}{extra}; you play "
         f"{color_name} ({STONE[human]}). Type help for the commands.")
    terminal = TerminalGame(game, human, sgf_path=sgf_path, read=read, echo=echo)
    terminal.run()
    return terminal.result
