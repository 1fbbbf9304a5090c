# SPDX-License-Identifier: GPL-3.0-or-later
"""One game as the engine plays it, apart from any protocol.

A :class:`Game` holds the board (its size, komi, rules and their scoring, the handicap), the
player that thinks (:class:`~mcgo.engine.player.Player`: limits, advice, search, pass and
resign; or a player that chooses without search), its clock, the judge of the chains
(:class:`~mcgo.judge.status.Status`) and the configuration they are built from
(:class:`~mcgo.config.EngineConfig`), changed only through :meth:`Game.configure`. The GTP
engine (:mod:`mcgo.gtp.engine`) parses and answers; what it is asked to do to the game it
asks of a ``Game``. A request the game refuses raises :class:`GameError`, whose message the
fronts show as it is.

>>> from mcgo.config import EngineConfig
>>> game = Game(EngineConfig.of(size=9, playouts=64, seed=1), verbose=False)
>>> move = game.genmove(game.board.to_move)
>>> len(game.board.moves), game.board.to_move == WHITE
(1, True)
>>> game.place_handicap([])
Traceback (most recent call last):
...
mcgo.engine.game.GameError: board not empty
"""

import time

from .. import options
from ..board import coords, handicap
from ..board.board import Board, IllegalMove, result_text
from ..board.history import Move
from ..board.kernels import BLACK, PASS, WHITE
from ..config import SEARCH_FIELDS, EngineConfig
from ..judge.status import STATUS_PLAYOUTS, STATUSES, Status
from ..models.ownership.model import SHIPPED, open_ownership
from ..models.ownership.network import NetworkError
from ..search.movefilter import MoveFilter, MoveFilterError
from . import levels
from .levels import LevelPlayer
from .player import Player, log
from .playout_player import PlayoutPlayer

SLOW_WARM_UP = 5.0             # seconds: a warm-up this slow compiled (a cold cache)


class GameError(ValueError):
    """A request the game refuses (a handicap on a board with stones, unknown rules, a bad
    allow/avoid clause...): its message says why."""


class Game:
    """The game state and who thinks about it: see the module's text."""

    def __init__(self, config=None, verbose=True):
        """``config``: the :class:`~mcgo.config.EngineConfig` (default: the defaults);
        ``verbose``: search summaries on stderr."""
        self.config = config = EngineConfig() if config is None else config
        self.verbose = verbose
        # A player that chooses without search (--player cfg, td, playout), or None.
        self.move_player = config.move_player
        self.player = Player(config.search, playouts=config.move_playouts, seconds=config.seconds,
                             resign=config.resign, verbose=verbose,
                             opening_advisor=config.opening_advisor,
                             move_prior=(config.move_scorer, config.cfg_prior)
                             if config.cfg_prior else None)
        self.status = Status(playouts=STATUS_PLAYOUTS, policy="pattern", seed=config.search.seed,
                             threads=config.search.threads, ownership_model=config.ownership_net,
                             corner_net=config.corner_net, search=config.status_search)
        self._shown_net = None       # the shipped network, loaded when mcgo-ownership asks
        self.scoring = options.rules_scoring(config.rules)   # the board's: "area" or "territory"
        self.every_stone_counts = options.counts_every_stone(config.rules)   # Tromp-Taylor, CGOS
        self.handicap_bonus_rule = options.handicap_bonus_rule(config.rules)  # "0", "N", "N-1"
        self.capture_dead = False    # Fuego's go_param_rules capture_dead: every genmove cleans up
        if config.playout_player:
            self.use_playout_player()
        self._set_level(config.level)
        self.new_board(config.size, config.komi)

    def configure(self, **changes):
        """Play with ``changes`` to the configuration from now on: the one way a setting
        changes at run time (``--set`` and ``kata-set-param``'s named settings and limits,
        ``set_random_seed``, ``numSearchThreads``). The configuration checks them first
        (:meth:`EngineConfig.replace`: a bad value raises ValueError and changes nothing);
        then what depends on them follows: the searches' named settings keep their trees, a
        thread count starts new ones, a seed reseeds the search, the chain status and the
        playout player, a limit is the player's next move's."""
        config = self.config.replace(**changes)
        self.config = config
        search = {k: v for k, v in changes.items() if k in SEARCH_FIELDS and k != "seed"}
        if search:
            self.player.reconfigure(**search)
        if "threads" in changes:
            self.status.threads = config.search.threads
        if "seed" in changes:
            seed = config.search.seed
            self.player.set_seed(seed)
            self.status.seed = seed
            if self.plays_playout_policy or isinstance(self.move_player, LevelPlayer):
                self.move_player.seed = seed
        if "level" in changes:
            self._set_level(config.level)
        if "playouts" in changes or "level" in changes:
            self.player.playouts = config.move_playouts
        for limit in ("seconds", "resign"):
            if limit in changes:
                setattr(self.player, limit, getattr(config, limit))

    def _set_level(self, level):
        """Play at ``level`` (:mod:`.levels`): a policy level's :class:`LevelPlayer` chooses
        the moves from the search's policy (a search level's cap on simulations is the
        configuration's :attr:`~mcgo.config.EngineConfig.move_playouts`)."""
        if isinstance(self.move_player, LevelPlayer) or levels.plays_policy(level):
            self.move_player = LevelPlayer(level, self.player.search, self.config.search.seed) \
                if levels.plays_policy(level) else None

    @property
    def policy(self):
        return self.config.search.policy

    @property
    def seed(self):
        return self.config.search.seed

    @property
    def threads(self):
        return self.config.search.threads

    def warm_up(self):
        """Load the search and scoring kernels now (compile them, with a cold Numba cache),
        so that the first ``genmove`` spends its time searching. Kernels do not depend on the
        board size, so a small board does."""
        seconds = self.player.warm_up(self.board.komi)
        if self.verbose and seconds > SLOW_WARM_UP:
            log(f"kernels compiled in {seconds:.0f} s (kept in Numba's cache for next time)")
        return seconds

    @property
    def search(self):
        """The player's main search (``mcgo-tree`` and the analysis commands show it)."""
        return self.player.search

    @property
    def clock(self):
        return self.player.clock

    @property
    def ownership_model(self):
        """Seed 003's network (:class:`mcgo.models.ownership.model.OwnershipModel`) or None: it
        settles the chains the playouts leave unsure, and ``mcgo-ownership net`` shows it."""
        return self.status.ownership_model

    @ownership_model.setter
    def ownership_model(self, model):
        self.status.ownership_model = model

    def ownership_network(self):
        """:attr:`ownership_model`, or without one the shipped network (loaded once)."""
        if self.ownership_model is not None:
            return self.ownership_model
        if self._shown_net is None:
            try:
                self._shown_net = open_ownership(SHIPPED)
            except NetworkError as e:
                raise GameError(str(e)) from None
        return self._shown_net

    @property
    def opening_advisor(self):
        return self.player.opening_advisor

    @opening_advisor.setter
    def opening_advisor(self, advisor):
        self.player.opening_advisor = advisor

    def use_playout_player(self, on=True):
        """Let the playout policy choose ``genmove``'s answer without search
        (:class:`mcgo.engine.playout_player.PlayoutPlayer`), or (``on=False``) the search."""
        self.move_player = PlayoutPlayer(self.policy, self.seed) \
            if on else None

    @property
    def plays_playout_policy(self):
        """True when ``genmove`` plays the playout policy's move (:meth:`use_playout_player`)."""
        return isinstance(self.move_player, PlayoutPlayer)

    # ------------------------------------------------------------ game state
    def new_board(self, size, komi):
        """An empty board: a new game, of ``size`` with ``komi``, under the engine's rules."""
        self.board = Board(size, komi=komi, scoring=self.scoring)
        self._set_handicap(0)
        self.player.new_game()

    def set_position(self, board, handicap=0):
        """Go on from ``board`` (a loaded record's), under the engine's rules: a new game;
        ``handicap`` its handicap stones (White's compensation follows from the rules)."""
        board.scoring = self.scoring
        self.board = board
        self._set_handicap(handicap)
        self.player.new_game()

    def _set_handicap(self, stones):
        """The game's handicap is ``stones``: the board counts White's compensation for
        them by the rules (:func:`mcgo.options.handicap_bonus`)."""
        self.handicap = stones
        self.board.handicap_bonus = options.handicap_bonus(self.handicap_bonus_rule, stones)

    def set_handicap_bonus(self, rule):
        """White's handicap compensation ``"0"``, ``"N"`` or ``"N-1"`` from now on, whatever
        the rules' (KataGo's ``whiteHandicapBonus``)."""
        if rule not in options.HANDICAP_BONUS_RULES:
            raise GameError(f"unknown handicap bonus {rule} (known: "
                            f"{', '.join(options.HANDICAP_BONUS_RULES)})")
        self.handicap_bonus_rule = rule
        self._set_handicap(self.handicap)

    def set_komi(self, komi):
        if komi != self.board.komi:
            self.player.search.clear()     # its win rates were for the other komi
        self.board.komi = komi

    def place_handicap(self, points):
        """Black's handicap stones on ``points`` of the empty board, white to move; answers
        the points in GTP spelling."""
        if self.board.history or self.board.stones(BLACK) or self.board.stones(WHITE):
            raise GameError("board not empty")
        self.board.setup(black=points)
        self.board.to_move = WHITE
        self._set_handicap(len(points))
        return " ".join(coords.to_gtp(p, self.board.size) for p in points)

    def fixed_handicap(self, stones):
        """Black's ``stones`` handicap stones on their fixed points (GTP ``fixed_handicap``),
        white to move; answers the points in GTP spelling."""
        try:
            points = handicap.fixed_points(self.board.size, stones)
        except ValueError:
            raise GameError("invalid number of stones") from None
        return self.place_handicap(points)

    def play(self, color, point):
        """``color`` plays ``point`` (or passes)."""
        try:
            self.board.play(point, color)
        except IllegalMove:
            raise GameError("illegal move") from None

    def undo(self):
        """Take back the last move."""
        try:
            self.board.undo()
        except IndexError:
            raise GameError("cannot undo") from None
        if not self.board.history:          # the handicap stones went with it
            self._set_handicap(0)

    def final_score(self):
        """The result of the position as the judge counts it (``B+3.5``, ``W+1``, ``0``)."""
        return result_text(self.status.score(self.board))

    def chains(self, status):
        """The chains (lists of points) the judge gives ``status`` (``alive``, ``dead``,
        ``seki``: :data:`mcgo.judge.status.STATUSES`)."""
        if status not in STATUSES:
            raise GameError("invalid status")
        return self.status.chains(self.board, status)

    def set_rules(self, name):
        """Play rule set ``name`` from now on (:data:`mcgo.options.RULES_SCORING`); the
        position stays, its score changes with the scoring and White's handicap
        compensation."""
        try:
            self.scoring = options.rules_scoring(name)
        except ValueError:
            raise GameError(f"unknown rules {name}") from None
        self.every_stone_counts = options.counts_every_stone(name)
        self.handicap_bonus_rule = options.handicap_bonus_rule(name)
        self.board.scoring = self.scoring      # the search starts a new tree for it
        self._set_handicap(self.handicap)

    def set_seed(self, seed):
        """Any integer, reduced modulo 2^64 (:func:`mcgo.options.normalize_seed`), for the
        search, the chain status and the playout player."""
        self.configure(seed=seed)

    def board_for(self, color):
        """A copy of the board with ``color`` to move."""
        board = self.board.copy()
        board.to_move = color
        return board

    # ------------------------------------------------------------ search settings
    def setting(self, name):
        """The named search setting ``name`` as a search of this board uses it."""
        return self.player.setting(name, self.board)

    def set_setting(self, name, value):
        """The named search setting ``name`` for the next searches (the trees are kept)."""
        self.configure(settings={name: value})

    def set_threads(self, threads):
        """Search (and judge ownership, ``mcgo-ownership``) with ``threads`` threads."""
        self.configure(threads=threads)

    def set_move_filter(self, clauses):
        """The search's move filter for this command from ``allow``/``avoid`` words
        (:class:`~mcgo.search.movefilter.MoveFilter`), or a GTP error."""
        try:
            self.search.move_filter = MoveFilter.parse(clauses, self.board.size) or None
        except MoveFilterError as e:
            raise GameError(str(e)) from None

    def think(self, board, received_at=None, on_progress=None, interval=None):
        """The player's search of ``board`` within the limits (no move is chosen);
        ``received_at`` (``time.monotonic()``): when the request came, which the time
        limits run from."""
        return self.player.think(board, received_at, on_progress, interval)

    def genmove(self, color, cleanup=False, received_at=None, on_progress=None, interval=None):
        """Choose ``color``'s move and play it: ``(move, its GTP text)``, ``(None,
        "resign")`` playing nothing. ``cleanup``: take the dead stones off before passing
        (KGS's ``kgs-genmove_cleanup``); ``received_at`` as :meth:`think`'s, and the clock
        counts the time from then."""
        move, answer = self.choose_move(color, cleanup, received_at, on_progress, interval)
        if received_at is not None:          # the clock runs on until the next time_left
            self.clock.used(color, time.monotonic() - received_at)
        if move is not None:
            self.board.play(move, color)
        return move, answer

    def choose_move(self, color, cleanup=False, received_at=None, on_progress=None,
                    interval=None):
        """Search and decide ``color``'s move: (move, its GTP text); (None, "resign")."""
        board = self.board_for(color)
        if isinstance(self.move_player, LevelPlayer) and self.move_player.asks_the_engine(board):
            move = self._engine_move(board, cleanup, received_at, on_progress, interval)
            if move is None or move == PASS:            # the game is over: as the engine says
                return _as_answer(move, board)
            return _as_answer(self.move_player.choose(board, self.search.move_filter), board)
        if self.move_player is not None and self.move_player.plays(board):   # no search
            return _as_answer(self.move_player.choose(board, self.search.move_filter), board)
        return _as_answer(self._engine_move(board, cleanup, received_at, on_progress, interval),
                          board)

    def _engine_move(self, board, cleanup, received_at, on_progress, interval):
        """The search's move for ``board``: a point, ``PASS`` or None (resign)."""
        return self.player.choose(board, self.handicap, cleanup or self.capture_dead,
                                  received_at, on_progress, interval,
                                  every_stone_counts=self.every_stone_counts)

    def search_of_position(self, received_at=None):
        """The last search's result when it was of this position, or was the genmove whose
        answer (or any move of that colour) is the last move played (the thesis prints the
        tree of the move just chosen); else a search of the position now."""
        if not self._last_search_fits():
            self.think(self.board.copy(), received_at)
        return self.search.last_result

    def _last_search_fits(self):
        last, result = self.search.last_board, self.search.last_result
        if last is None or result is None:
            return False
        if last.counting() != self.board.counting():
            return False
        now, before = self.board.history, last.history
        if now == before and last.to_move == self.board.to_move:
            return True
        return len(now) == len(before) + 1 and now[:-1] == before \
            and isinstance(now[-1], Move) and now[-1].color == last.to_move


def _as_answer(move, board):
    if move is None:
        return None, "resign"
    return move, coords.to_gtp(move, board.size)


__all__ = ["Game", "GameError"]
