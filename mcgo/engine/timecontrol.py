"""How long to think for a move under GTP time settings.

GTP ``time_settings main byo_time byo_stones`` covers absolute time (byo_time 0), Canadian
byo-yomi (byo_stones stones in every byo_time period) and, with ``kgs-time_settings
byoyomi``, Japanese byo-yomi (byo_time per move, ``periods`` of them). ``time_left`` tells
the time left (and the stones left in the period, 0 in main time).

The manager never plans to use more than the time left minus a safety margin, spends the main
time over the moves it expects still to play, thinks longer in the middle game, and in
byo-yomi uses the period evenly over its stones.
"""

import math

from ..board.kernels import NEMPTY

SAFETY_SECONDS = 0.05        # kept back for GTP and process latency on every move (a local
                             # pipe answers in well under a millisecond; a server's lag is its own)
SAFETY_FRACTION = 0.02       # and this part of the period
MIN_MOVES_LEFT = 10          # main time is spread over at least this many more own moves
EMPTY_PER_MOVE = 2.5         # an own move for every 2.5 empty points, roughly
MIDDLE_GAME_FACTOR = 1.5     # think this much longer ...
MIDDLE_GAME = (0.1, 0.5)     # ... while this part of the board has been played
MAIN_TIME_SHARE = 0.5        # never spend more than this part of the main time on one move
MIN_THINK = 0.02


class TimeControl:
    """The clock of one game. ``budget(board)`` is the time to think on the next move, or
    None when no time settings were given (then the command-line limit applies)."""

    def __init__(self):
        self.clear()

    def clear(self):
        self.main = None           # None: no time control
        self.byo_time = 0.0
        self.byo_stones = 0
        self.byo_periods = 0       # Japanese byo-yomi periods (kgs-time_settings byoyomi)
        self.left = {}             # colour -> (seconds, stones) from time_left

    @property
    def active(self):
        return self.main is not None

    def set(self, main, byo_time, byo_stones, periods=0):
        """GTP ``time_settings``; main 0, byo_time > 0, byo_stones 0 means no time limit."""
        if main < 0 or byo_time < 0 or byo_stones < 0 or periods < 0:
            raise ValueError("negative time setting")
        if byo_time > 0 and byo_stones == 0 and periods == 0:
            self.clear()           # GTP: "no time limits"
            return
        self.main = float(main)
        self.byo_time = float(byo_time)
        self.byo_stones = int(byo_stones)
        self.byo_periods = int(periods)
        self.left = {}

    def time_left(self, color, seconds, stones):
        if seconds < 0 or stones < 0:
            raise ValueError("negative time left")
        self.left[color] = (float(seconds), int(stones))

    def budget(self, board, color):
        if not self.active:
            return None
        seconds, stones = self.left.get(color, (self.main, 0))
        japanese = self.byo_periods > 0
        if stones == 0 and seconds > 0 and not (japanese and seconds <= self.byo_time
                                                and self.main == 0):
            # Main time: spread it, plus what byo-yomi will surely give each move.
            moves_left = max(MIN_MOVES_LEFT, self._own_moves_left(board))
            think = seconds / moves_left * self._phase_factor(board)
            think = min(think, seconds * MAIN_TIME_SHARE)
            if self.byo_time > 0:
                per_move = self.byo_time / max(self.byo_stones, 1)
                think = max(think, self._period_share(per_move))
            if think > 2 * SAFETY_SECONDS:
                return max(MIN_THINK, think - SAFETY_SECONDS)
            return max(MIN_THINK, think / 2)
        if stones > 0:
            return max(MIN_THINK, self._period_share(seconds / stones))
        if japanese or self.byo_time > 0:
            period = seconds if seconds > 0 else self.byo_time
            per_move = period if japanese else period / max(self.byo_stones, 1)
            return max(MIN_THINK, self._period_share(per_move))
        return MIN_THINK           # out of time: answer at once

    def can_bank(self, color):
        """True when time saved now is kept for later moves (main or absolute time): only
        then is stopping early worth it; a byo-yomi period is lost if not used."""
        if not self.active:
            return False
        seconds, stones = self.left.get(color, (self.main, 0))
        return stones == 0 and seconds > 0 and not (self.byo_periods and self.main == 0)

    def _period_share(self, per_move):
        return per_move * (1 - SAFETY_FRACTION) - SAFETY_SECONDS

    def _own_moves_left(self, board):
        empty = int(board.info[NEMPTY])
        return int(math.ceil(empty / EMPTY_PER_MOVE))

    def _phase_factor(self, board):
        played = 1 - int(board.info[NEMPTY]) / (board.size * board.size)
        low, high = MIDDLE_GAME
        return MIDDLE_GAME_FACTOR if low <= played <= high else 1.0
