"""How long to think for a move under GTP time settings: a plan over the game, as Pachi's
``timeinfo.c`` makes one.

The time systems (GTP 2's ``time_settings MAIN BYO STONES``; KGS's ``kgs-time_settings
none | absolute MAIN | byoyomi MAIN BYO PERIODS | canadian MAIN BYO STONES``):

* **absolute**: MAIN seconds for the game (BYO 0);
* **Canadian**: after MAIN, STONES stones in every BYO seconds;
* **Japanese byo-yomi** (``kgs-time_settings byoyomi``): after MAIN, PERIODS periods of BYO
  seconds; a move made within a period keeps it, and the game is lost when the last one
  runs out;
* **Fischer** (KataGo's ``kata-time_settings fischer MAIN INCREMENT`` and ``fischer-capped
  MAIN INCREMENT MAIN_LIMIT MOVE_LIMIT``): MAIN seconds, INCREMENT more after each move, the
  time left never above MAIN_LIMIT nor a move longer than MOVE_LIMIT (negative: no cap).

``time_left COLOR SECONDS COUNT`` tells the clock: COUNT 0 in main time; in Canadian
byo-yomi the seconds left for COUNT stones; in Japanese byo-yomi (as KGS sends it) the
seconds left of the current period and COUNT periods left. Without ``time_left`` the clock
counts the time of its own moves (:meth:`TimeControl.used`), by the same rules.

:meth:`TimeControl.plan` gives each move a :class:`TimePlan`: the ``desired`` time, which
the search stretches up to ``worst`` while its best move is unsure, and whether time saved
is ``banked`` (then the search stops as soon as its best move cannot change). In main time

* the main time (with the Japanese periods but the last) is spread over the own moves the
  board still holds (half its empty points beyond the quarter a game ends with, and at
  least a twelfth of the board), but never faster than byo-yomi would pay a move;
* in the opening the share rises from that even slice to the middle game's, which spreads
  the time over the moves left when the endgame (:data:`YOSE_START` of the board filled)
  begins; from then on it is even again;
* ``worst`` is :data:`MAX_EXTENSION` times ``desired``, never more than the time left less
  the safety margin.

In byo-yomi the period is shared evenly by its stones (Japanese: one stone), less the
margin; nothing is extended.

>>> import mcgo
>>> clock = TimeControl()
>>> clock.set(600, 0, 0)                         # ten minutes, absolute
>>> opening = clock.plan(mcgo.Board(19), mcgo.BLACK)
>>> round(opening.desired, 2), round(opening.worst, 2), opening.banked
(4.36, 8.77, True)
>>> clock.time_left(mcgo.BLACK, 3.0, 0)          # three seconds left: still no loss
>>> clock.plan(mcgo.Board(19), mcgo.BLACK).worst < 3.0
True
"""

import math
from dataclasses import dataclass

from ..board.kernels import NEMPTY

SAFETY_SECONDS = 0.05        # kept back for GTP and process latency on every move (a local
                             # pipe answers in well under a millisecond; a server's lag is its own)
SAFETY_FRACTION = 0.02       # and this part of the time that may be spent
MIN_MOVES_SHARE = 1 / 12     # main time is spread over at least this part of the board's points
                             # in own moves (Pachi's 30 on 19x19; 7 on 9x9)
FINAL_EMPTY_SHARE = 0.25     # a game ends with about this part of the board empty (Pachi's)
FUSEKI_END = 0.2             # the share of a move rises until this part of the board is filled,
YOSE_START = 0.4             # is the middle game's until this part, then even (Pachi's defaults)
MAX_EXTENSION = 2.0          # an unsure move in main time may take this many times its desired
                             # time (Pachi's max_maintime_ratio)
MIN_THINK = 0.02


@dataclass(frozen=True)
class TimePlan:
    """The time of one move: think ``desired`` seconds, up to ``worst`` while the best
    move is unsure; ``banked``: time not spent is kept for later moves (main time, or a
    Canadian period with stones still to play), so a settled search may stop early."""
    desired: float
    worst: float
    banked: bool


class TimeControl:
    """The clock of one game. ``plan(board, color)`` is the next move's :class:`TimePlan`,
    or None when no time settings were given (then the command-line limit applies)."""

    def __init__(self):
        self.clear()

    def clear(self):
        self.main = None           # None: no time control
        self.byo_time = 0.0
        self.byo_stones = 0        # Canadian: stones a period
        self.byo_periods = 0       # Japanese byo-yomi periods (kgs-time_settings byoyomi)
        self.increment = 0.0       # Fischer: seconds added after each move
        self.main_limit = math.inf  # Fischer capped: the most time that may be left
        self.move_limit = math.inf  # and the most one move may take
        self.left = {}             # colour -> (seconds, count) as time_left tells it

    @property
    def active(self):
        return self.main is not None

    @property
    def japanese(self):
        return self.byo_periods > 0

    def set(self, main, byo_time, byo_stones, periods=0):
        """GTP ``time_settings`` (``periods`` > 0: Japanese byo-yomi, ``byo_stones``
        ignored); byo_time > 0 with neither stones nor periods means no time limit."""
        if main < 0 or byo_time < 0 or byo_stones < 0 or periods < 0:
            raise ValueError("negative time setting")
        if byo_time > 0 and byo_stones == 0 and periods == 0:
            self.clear()           # GTP: "no time limits"
            return
        self.main = float(main)
        self.byo_time = float(byo_time)
        self.byo_periods = int(periods) if byo_time > 0 else 0
        self.byo_stones = 1 if self.byo_periods else int(byo_stones) if byo_time > 0 else 0
        self.increment, self.main_limit, self.move_limit = 0.0, math.inf, math.inf
        self.left = {}

    def set_fischer(self, main, increment, main_limit=-1, move_limit=-1):
        """Fischer time: ``main`` seconds and ``increment`` more after each move; a
        ``main_limit`` or ``move_limit`` below 0 is no cap (KataGo's ``fischer-capped``)."""
        if main < 0 or increment < 0:
            raise ValueError("negative time setting")
        if 0 <= main_limit < main:
            raise ValueError("the main time limit is below the main time")
        self.set(main, 0, 0)
        self.increment = float(increment)
        self.main_limit = float(main_limit) if main_limit >= 0 else math.inf
        self.move_limit = float(move_limit) if move_limit >= 0 else math.inf

    def time_left(self, color, seconds, count):
        """GTP ``time_left``: ``count`` 0 in main time, else the stones (Canadian) or the
        periods (Japanese) left."""
        if seconds < 0 or count < 0:
            raise ValueError("negative time left")
        self.left[color] = (float(seconds), int(count))

    def used(self, color, seconds):
        """``color``'s move took ``seconds``: the clock runs down as a referee's would, until
        the next ``time_left`` says where it stands."""
        if not self.active:
            return
        left, count = self._state(color)
        if self.increment:
            self.left[color] = (min(max(left - seconds, 0.0) + self.increment, self.main_limit), 0)
            return
        if count == 0 and left > 0:                 # main time
            if seconds <= left or not self.has_byoyomi:
                self.left[color] = (max(left - seconds, 0.0), 0)
                return
            seconds -= left
            left, count = self._fresh_period()
        if self.japanese:
            lost = 0 if seconds <= left else 1 + int((seconds - left) // self.byo_time)
            self.left[color] = (self.byo_time, max(count - lost, 0))
        elif count <= 1:
            self.left[color] = self._fresh_period()
        else:
            self.left[color] = (max(left - seconds, 0.0), count - 1)

    @property
    def has_byoyomi(self):
        return self.byo_time > 0

    def plan(self, board, color):
        """The :class:`TimePlan` of ``color``'s move on ``board``, None without a clock."""
        if not self.active:
            return None
        seconds, count = self._state(color)
        if count == 0 and seconds > 0 and not self._main_below_a_period_move(seconds):
            return self._main_time_plan(board, seconds)
        if count == 0:                              # main time's rest, then a fresh period
            if not self.has_byoyomi:
                return TimePlan(MIN_THINK, MIN_THINK, False)    # out of time: answer at once
            period, count = self._fresh_period()
            seconds += period
        stones = 1 if self.japanese else count
        share = _less_margin(seconds / stones, seconds)
        return TimePlan(share, share, self.can_bank(color))

    def budget(self, board, color):
        """The most ``color``'s move may take (the plan's ``worst``), None without a clock."""
        plan = self.plan(board, color)
        return None if plan is None else plan.worst

    def can_bank(self, color):
        """True when time saved now is kept for later moves (main time, or a Canadian period
        with other stones to play): only then is stopping early worth it."""
        if not self.active:
            return False
        seconds, count = self._state(color)
        if count == 0 and seconds > 0 and not self._main_below_a_period_move(seconds):
            return True
        if count == 0:                              # a fresh period is next
            count = self.byo_stones
        return not self.japanese and count > 1

    def expected_moves(self, board):
        """The own moves ``board`` still holds: half its empty points beyond the quarter a
        game ends with, and at least :data:`MIN_MOVES_SHARE` of the board."""
        area = board.size * board.size
        empty = int(board.info[NEMPTY])
        return max(self._min_moves(board), math.ceil((empty - FINAL_EMPTY_SHARE * area) / 2))

    # ------------------------------------------------------------------ the plan
    def _main_time_plan(self, board, main_left):
        spendable = main_left
        if self.japanese:                  # every period but the last may go on one move
            spendable += (self.byo_periods - 1) * self.byo_time
        expected = self.expected_moves(board)
        in_main = expected
        if self.has_byoyomi:               # no faster than byo-yomi: it pays the rest
            in_main = max(1, min(expected, int(spendable // self._byoyomi_move())))
        # Fischer: every own move to come brings its increment (the next one's is not here yet)
        coming = spendable + self.increment * (expected - 1)
        desired = self._phase_share(board, coming, coming / in_main, expected)
        worst = min(desired * MAX_EXTENSION, spendable, self.move_limit)
        desired = min(desired, worst)
        return TimePlan(_less_margin(desired, spendable), _less_margin(worst, spendable), True)

    def _phase_share(self, board, spendable, even, expected):
        """More than the even share before the endgame: the time spread over the moves left
        when it begins, reached gradually over the opening."""
        area = board.size * board.size
        filled = area - int(board.info[NEMPTY])
        if filled >= YOSE_START * area:
            return even
        moves_to_yose = (YOSE_START * area - filled) / 2
        middle = spendable / max(self._min_moves(board), expected - moves_to_yose)
        if middle <= even:
            return even
        rise = min(1.0, filled / (FUSEKI_END * area))
        return even + rise * (middle - even)

    def _main_below_a_period_move(self, main_left):
        """Main time so short that a byo-yomi move would get more: plan as in byo-yomi."""
        return self.has_byoyomi and main_left <= self._byoyomi_move()

    def _byoyomi_move(self):
        return self.byo_time / max(self.byo_stones, 1)

    def _fresh_period(self):
        return self.byo_time, self.byo_periods if self.japanese else self.byo_stones

    def _state(self, color):
        """(seconds, count) as ``time_left`` would say it; before any, the settings'."""
        if color in self.left:
            return self.left[color]
        if self.main > 0 or not self.has_byoyomi:
            return self.main, 0
        return self._fresh_period()

    @staticmethod
    def _min_moves(board):
        return max(1, round(MIN_MOVES_SHARE * board.size * board.size))


def _less_margin(think, spendable):
    """``think`` less the latency margin, within ``spendable`` less its safety part; a
    time too short for the margin is halved instead."""
    think = min(think, spendable * (1 - SAFETY_FRACTION))
    if think > 2 * SAFETY_SECONDS:
        return max(MIN_THINK, think - SAFETY_SECONDS)
    return max(MIN_THINK, think / 2)
