"""The clock's plan over the game (:mod:`mcgo.engine.timecontrol`) and the search's use of it,
against the time systems as GTP 2 (``time_settings``, ``time_left``, section 4.2), KGS
(kgsGtp's ``kgs-time_settings none | absolute MAIN | byoyomi MAIN BYO PERIODS | canadian
MAIN BYO STONES``, its help page "Supported time systems") and KataGo (its GTP extensions'
``kata-time_settings fischer MAIN INCREMENT``: the increment added after each move, ``time_left``
with 0 stones) define them.

The reference is :class:`Referee` below: one player's clock by those rules, which tells the
real GTP engine where it stands with ``time_left`` as a server does (whole seconds; the
periods left in Japanese byo-yomi, as kgsGtp sends them) and charges each move. No test
measures speed: the search's own clock is replaced by a fake one where time matters.
"""

import random

import pytest
from hypothesis import given, settings, strategies as st

import mcgo
from mcgo.board import coords
from mcgo.engine.timecontrol import MIN_THINK, SAFETY_SECONDS
from mcgo.gtp.controller import GtpFailure
from mcgo.search import control as control_module, search as search_module
from mcgo.search.search import Search

from helpers import Session, board_from_rows
from test_search import FIGHT, FIGHT_KOMI


class Referee:
    """One player's clock: ``system`` "absolute", "canadian" (``count`` stones a period),
    "byoyomi" (Japanese, ``count`` periods) or "fischer" (``byo`` seconds added after each
    move)."""

    def __init__(self, system, main, byo, count):
        self.system, self.byo, self.count = system, byo, count
        self.main_left = float(main)
        self.in_byoyomi = main == 0 and system not in ("absolute", "fischer")
        self.period_left = float(byo)
        self.count_left = count
        self.lost = False

    def time_left(self, letter):
        if not self.in_byoyomi:
            return f"time_left {letter} {int(self.main_left)} 0"
        return f"time_left {letter} {int(self.period_left)} {self.count_left}"

    def available(self):
        """The most the next move may take without losing on time."""
        main = 0.0 if self.in_byoyomi else self.main_left
        if self.system in ("absolute", "fischer"):
            return main
        period = self.period_left if self.in_byoyomi else self.byo
        if self.system == "canadian":
            return main + period
        periods = self.count_left if self.in_byoyomi else self.count
        return main + period + (periods - 1) * self.byo

    def charge(self, seconds):
        if self.system == "fischer":
            self.main_left -= seconds
            self.lost = self.main_left < 0
            self.main_left += self.byo
            return
        if not self.in_byoyomi:
            if seconds < self.main_left or self.system == "absolute":
                self.main_left -= seconds
                self.lost = self.main_left < 0
                return
            seconds -= self.main_left
            self.main_left, self.in_byoyomi = 0.0, True
            self.period_left, self.count_left = float(self.byo), self.count
        if self.system == "canadian":
            self.period_left -= seconds
            self.lost = self.lost or self.period_left < 0
            self.count_left -= 1
            if self.count_left == 0:
                self.period_left, self.count_left = float(self.byo), self.count
            return
        while seconds > self.period_left:          # each period overrun is lost
            seconds -= self.period_left
            self.count_left -= 1
            if self.count_left == 0:
                self.lost = True
                return
            self.period_left = float(self.byo)
        self.period_left = float(self.byo)         # a move within the period keeps it


def settings_command(system, main, byo, count, kgs):
    if system == "fischer":
        return f"kata-time_settings fischer {main} {byo}"
    if kgs:
        return f"kgs-time_settings {system} {main}" + ("" if system == "absolute"
                                                       else f" {byo} {count}")
    return f"time_settings {main} {0 if system == 'absolute' else byo} " \
           f"{0 if system == 'absolute' else count}"


def play_random_move(session, rng):
    board = session.engine.game.board
    moves = board.legal_moves()
    point = rng.choice(moves) if moves else mcgo.PASS
    letter = "b" if board.to_move == mcgo.BLACK else "w"
    session.send(f"play {letter} {coords.to_gtp(point, board.size)}")


def new_session(size, command):
    session = Session()
    session.send(f"boardsize {size}")
    session.send("clear_board")
    session.send(command)
    return session


# --------------------------------------------------------------------------- the plan
@settings(max_examples=80, deadline=None)
@given(system=st.sampled_from(["absolute", "canadian", "byoyomi", "fischer"]),
       main=st.integers(0, 1800), byo=st.integers(1, 60), count=st.integers(1, 25),
       kgs=st.booleans(), size=st.sampled_from([9, 19]), moves=st.integers(1, 160),
       spend=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=8),
       tell=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_the_plan_never_exceeds_the_time_left(system, main, byo, count, kgs, size, moves,
                                              spend, tell, seed):
    """Under every time system, a whole game in which each move takes what the plan allows
    (``spend`` of its worst time, 1.0 the most) is never lost on time, and every plan keeps
    the safety margin of the time left; with ``tell`` the referee sends ``time_left`` before
    each move, else the engine's own clock counts the moves (as genmove does)."""
    if system in ("absolute", "fischer"):
        main = max(main, 1)
    if system == "byoyomi":
        kgs = True                          # GTP's own command has no Japanese byo-yomi
    session = new_session(size, settings_command(system, main, byo, count, kgs))
    engine = session.engine
    rng = random.Random(seed)
    clocks = {mcgo.BLACK: Referee(system, main, byo, count),
              mcgo.WHITE: Referee(system, main, byo, count)}
    for n in range(moves):
        color = engine.game.board.to_move
        clock = clocks[color]
        if tell:
            session.send(clock.time_left("b" if color == mcgo.BLACK else "w"))
        limits = engine.game.player.limits(engine.game.board, color)
        available = clock.available()
        assert limits.desired <= limits.seconds
        if available >= 2 * SAFETY_SECONDS:
            assert limits.seconds <= available - SAFETY_SECONDS, (n, available, limits)
        spent = spend[n % len(spend)] * limits.seconds
        clock.charge(spent)
        if not tell:
            engine.game.clock.used(color, spent)
        # Only absolute time runs out, and only with less left than a move's minimum.
        assert not clock.lost or (system in ("absolute", "fischer")
                                  and available < 2 * MIN_THINK)
        if clock.lost:
            break
        play_random_move(session, rng)


@pytest.mark.parametrize("command", ["kgs-time_settings absolute 1200",
                                     "kgs-time_settings canadian 1200 30 25",
                                     "kgs-time_settings byoyomi 1200 5 3",
                                     "time_settings 1200 0 0"])
def test_more_time_a_move_in_the_middle_game_than_in_the_opening_and_the_endgame(command):
    """19x19, each move taking its desired time, told by ``time_left``: the opening and
    middle game (moves 1-150) get more seconds a move than the endgame (moves 200-260), and
    the share rises from the first moves to the middle game's (moves 21-100)."""
    system = command.split()[1] if command.startswith("kgs") else "absolute"
    numbers = [int(w) for w in command.split()[-3:] if w.isdigit()]
    main, byo, count = (numbers + [0, 0])[:3] if system != "absolute" else (1200, 0, 0)
    session = new_session(19, command)
    engine = session.engine
    rng = random.Random(5)
    clocks = {c: Referee(system, main, byo, count) for c in (mcgo.BLACK, mcgo.WHITE)}
    spent = []
    for _ in range(260):
        color = engine.game.board.to_move
        session.send(clocks[color].time_left("b" if color == mcgo.BLACK else "w"))
        desired = engine.game.player.limits(engine.game.board, color).desired
        clocks[color].charge(desired)
        assert not clocks[color].lost
        spent.append(desired)
        play_random_move(session, rng)

    def mean(first, last):
        return sum(spent[first - 1:last]) / (last - first + 1)

    assert mean(1, 150) > mean(200, 260)
    assert mean(21, 100) > mean(1, 20)


# --------------------------------------------------------------------------- the commands
def test_kgs_time_settings_in_all_its_forms():
    """kgsGtp's forms set the clock they name: no limit, absolute, Japanese byo-yomi (a
    period is one move's, whatever the periods left) and Canadian (a period for its stones);
    a wrong form is a syntax error and the engine goes on."""
    board = mcgo.Board(19)

    def plan(*commands):
        session = new_session(19, commands[0])
        for command in commands[1:]:
            session.send(command)
        return session.engine.game.player.limits(board, mcgo.BLACK)

    assert plan("kgs-time_settings none").seconds is None
    assert plan("kgs-time_settings absolute 60", "time_left b 10 0").seconds <= 10 - SAFETY_SECONDS
    japanese = plan("kgs-time_settings byoyomi 0 30 5", "time_left b 30 5")
    assert 30 / 5 < japanese.seconds <= 30 - SAFETY_SECONDS
    assert not japanese.early_stop                  # a period not used is lost
    canadian = plan("kgs-time_settings canadian 0 30 5", "time_left b 30 5")
    assert canadian.seconds <= 30 / 5 and canadian.early_stop   # kept for the other stones
    assert plan("kgs-time_settings canadian 0 30 5", "time_left b 12 1").seconds <= 12
    # Japanese main time: the periods but the last may be spent on it, the last is kept.
    main = plan("kgs-time_settings byoyomi 10 30 3", "time_left b 10 0")
    assert 10 < main.seconds <= 10 + 2 * 30 - SAFETY_SECONDS
    session = Session()
    for bad in ("kgs-time_settings byoyomi 300 30", "kgs-time_settings absolute",
                "kgs-time_settings none 5", "kgs-time_settings canadian 300 30 x",
                "kgs-time_settings fischer 300 10", "kgs-time_settings"):
        with pytest.raises(GtpFailure):
            session.send(bad)
    assert session.send("name") == "mcgo"


def test_katago_time_settings_and_the_list_gtp2ogs_reads():
    """``kata-list_time_settings`` names what KataGo's code answers (gtp2ogs looks for
    ``fischer-capped`` in it before it sends a Fischer clock as one); ``kata-time_settings``
    takes KataGo's forms, fractions of seconds included, and a capped Fischer clock keeps a
    move within its cap."""
    session = Session()
    assert session.send("kata-list_time_settings").split() == [
        "none", "absolute", "byoyomi", "canadian", "fischer", "fischer-capped"]
    board = mcgo.Board(19)

    def plan(*commands):
        for command in commands:
            session.send(command)
        return session.engine.game.player.limits(board, mcgo.BLACK)

    fischer = plan("kata-time_settings fischer 60 5", "time_left b 60 0")
    assert 5 < fischer.seconds <= 60 - SAFETY_SECONDS and fischer.early_stop
    assert plan("kata-time_settings fischer-capped 600 10 600 8.5", "time_left b 600 0") \
        .seconds <= 8.5
    assert plan("kata-time_settings fischer-capped 600 10 -1 -1", "time_left b 600 0") \
        .seconds > 8.5
    assert plan("kata-time_settings byoyomi 0 30.5 5", "time_left b 30 5").seconds <= 30
    assert plan("kata-time_settings none").seconds is None
    for bad in ("kata-time_settings fischer 60", "kata-time_settings fischer-capped 60 5 30 1",
                "kata-time_settings bronstein 60 5", "kata-time_settings absolute -5"):
        with pytest.raises(GtpFailure):
            session.send(bad)
    assert session.send("name") == "mcgo"


def test_genmove_thinks_within_the_plan_and_counts_its_own_time(monkeypatch):
    """``genmove`` hands the search the plan (its worst time as the limit, its desired
    time within it); without ``time_left`` the engine's clock counts down by the move's
    time, so the next plan is of what is left."""
    session = new_session(9, "time_settings 60 0 0")
    engine = session.engine
    seen = {}
    run = engine.game.player.search.run

    def recording_run(*args, **kwargs):
        seen.update(kwargs)
        return run(*args, **kwargs)

    monkeypatch.setattr(engine.game.player.search, "run", recording_run)
    plan = engine.game.clock.plan(engine.game.board, mcgo.BLACK)
    session.send("genmove b")
    assert 0 < seen["desired"] <= seen["seconds"] <= plan.worst
    assert seen["early_stop"]                       # main time: time saved is kept
    left, stones = engine.game.clock.left[mcgo.BLACK]
    assert stones == 0 and left < 60
    assert mcgo.WHITE not in engine.game.clock.left      # white's clock did not run


# --------------------------------------------------------------------------- the search
class FakeTime:
    """The search's clock: every reading advances it by ``step`` seconds."""

    def __init__(self, step=0.001):
        self.now = 0.0
        self.step = step

    def perf_counter(self):
        self.now += self.step
        return self.now

    thread_time = process_time = perf_counter


# White to move kills black's C5 and D5 at C4, the one move that wins: test_search's fight.
ATARI = FIGHT


def timed_search(monkeypatch, board, preset="strong", **limits):
    clock = FakeTime()
    monkeypatch.setattr(search_module, "time", clock)
    monkeypatch.setattr(control_module, "time", clock)
    return Search(preset=preset, seed=1, policy="pattern").run(board, **limits)


def test_a_settled_search_stops_early_with_the_move_a_full_search_plays(monkeypatch):
    """The early stop is exact: stopped when the runner-up could no longer catch the leader
    within the playouts left, it plays what the search run to the end plays."""
    board = board_from_rows(ATARI, mcgo.WHITE, FIGHT_KOMI)
    early = timed_search(monkeypatch, board, playouts=6000, seconds=1e6, early_stop=True)
    full = Search(seed=1, policy="pattern").run(board, playouts=6000, early_stop=False)
    assert early.stopped_early and early.simulations < 6000
    assert early.best_move == full.best_move == coords.from_gtp("C4", 9)


def test_a_clear_move_stops_at_the_desired_time(monkeypatch):
    board = board_from_rows(ATARI, mcgo.WHITE, FIGHT_KOMI)
    result = timed_search(monkeypatch, board, seconds=4.0, desired=1.0, early_stop=False)
    assert not result.extended
    assert 0.9 < result.seconds < 1.2


def test_an_unsure_move_is_extended_but_never_past_the_worst_time(monkeypatch):
    """After black's stone in the centre and one of each colour on the first line in
    opposite corners (B1, H9: no symmetry of the board is left, so the root keeps every move;
    on the bare centre stone it keeps one of the four equal moves next to it), white's
    candidates stay close: the search is unsure past its desired time and thinks on, up to
    the worst."""
    board = mcgo.Board(9, komi=7.0)
    for move in ("E5", "B1", "H9"):
        board.play(move)
    result = timed_search(monkeypatch, board, seconds=2.0, desired=0.5, early_stop=False)
    assert result.extended
    assert 0.5 < result.seconds <= 2.0 + 0.05


def test_the_thesis_choice_by_win_rate_thinks_its_desired_time(monkeypatch):
    """The thesis's search chooses by win rate, where visits tell nothing of how sure it
    is: under a clock it thinks the desired time, never extended."""
    board = mcgo.Board(9, komi=7.0)
    board.play("E5")
    result = timed_search(monkeypatch, board, preset="thesis", seconds=2.0, desired=0.5)
    assert not result.extended and result.seconds <= 0.5 + 0.05
