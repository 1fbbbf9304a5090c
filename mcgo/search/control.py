"""When a search stops: its playouts, its time (a clock's desired and worst time, Pachi's
``uct_search_check_stop``), a stop event, or its best move being settled.

:class:`Control` is asked by the search's first thread after every batch of simulations;
every so often it looks at the root's children (:meth:`Control.check_stop`): it stops the
search when the runner-up can no longer overtake the leader before the deadline
(:meth:`Control.settled`), and past the desired time when the best move is not unsure
(:meth:`Control.unsure`).
"""

import time

BATCH = 16                  # simulations per kernel call between clock checks
EARLY_STOP_AFTER = 0.1      # look at stopping (settled, or sure enough) after this part of
EARLY_STOP_SIMULATIONS = 1000  # the desired time or this many simulations, whichever is first
STOP_CHECK_EVERY = 0.05     # and again after this part of it, within
STOP_CHECK_SECONDS = (0.02, 0.1)  # these seconds (a look merges the root's children: 1.1 ms
                                  # on 19x19)
UNSURE_VISIT_RATIO = 2.5    # unsure while the runner-up has more than 1/this of the top visits
                            # (Pachi's best2_ratio),
UNSURE_VALUE_SHARE = 0.1    # or a move with this part of the top visits has a better win rate
MIN_SEARCH_SHARE = 0.1      # the simulations get at least this part of the time budget, even
                            # when the root's preparation (a cold kernel) took all of it


class Control:
    """When to stop: playouts, the clock, an event, the best move being settled, or (past
    the desired time) being sure enough of it."""

    def __init__(self, simulations, root_stats, threads, by_visits, playouts, seconds, stop,
                 start, early_stop, called=None, desired=None):
        """What it asks the search, through narrow doors: ``simulations()``, the simulations
        run so far; ``root_stats()``, the root's children, most visited first; ``threads``;
        ``by_visits``, whether the search chooses its move by visits. ``start``: when the
        simulations began; ``called``: when the search was asked for (default ``start``),
        from which ``seconds`` and ``desired`` run out."""
        if seconds is not None and desired is not None and not by_visits:
            seconds = min(seconds, desired)     # no "unsure" by win rate: no extension
        if seconds is None or desired is None or desired >= seconds:
            desired = seconds
        self.simulations = simulations
        self.root_stats = root_stats
        self.threads = threads
        self.playouts = playouts
        self.seconds = seconds
        self.desired = desired
        self.stop = stop
        self.start = start
        called = start if called is None else called
        self.called = called
        self.deadline = None if seconds is None \
            else max(called + seconds, start + MIN_SEARCH_SHARE * seconds)
        self.early_stop = early_stop and seconds is not None and by_visits
        self.can_extend = desired is not None and desired < seconds
        self.finished = False
        self.stopped_early = False      # the best move was settled
        self.extended = False           # ran past the desired time, the best move unsure
        self._sure = False              # past the desired time and sure enough: stop
        self._looked = False
        self._next_check = start + (desired or 0) * EARLY_STOP_AFTER
        low, high = STOP_CHECK_SECONDS
        self._check_every = min(max(STOP_CHECK_EVERY * (desired or 0), low), high)

    def done(self):
        if self.stopped_early or self._sure or (self.stop is not None and self.stop.is_set()):
            return True
        if self.playouts is not None and self.simulations() >= self.playouts:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def batch(self):
        if self.playouts is None:
            return BATCH
        left = self.playouts - self.simulations()
        return max(1, min(BATCH, -(-left // self.threads)))

    def check_stop(self):
        """Every so often: stop when the runner-up cannot catch the leader in the time left
        (:meth:`settled`), or when past the desired time the best move is not unsure."""
        if not (self.early_stop or self.can_extend):
            return
        now = time.perf_counter()
        first = not self._looked and self.simulations() >= EARLY_STOP_SIMULATIONS
        if now < self._next_check and not first:
            return
        self._looked = True
        self._next_check = now + self._check_every
        stats = self.root_stats()
        if self.early_stop and self.settled(stats, self.simulations_left(now)):
            self.stopped_early = True
            return
        if self.can_extend and now >= self.called + self.desired:
            if self.unsure(stats) and now < self.extension_end(stats):
                self.extended = True
            else:
                self._sure = True

    def simulations_left(self, now):
        """The simulations the search may still run: at the rate so far until the deadline
        (and the batch in flight), within the playout limit."""
        sims = self.simulations()
        rate = sims / max(now - self.start, 1e-6)
        left = rate * max(self.deadline - now, 0.0) + BATCH * self.threads
        if self.playouts is not None:
            left = min(left, self.playouts - sims)
        return left

    def settled(self, stats, left):
        """True when ``left`` more simulations cannot change the move the search chooses:
        the runner-up cannot reach the leader's visits (with a root bonus, the half of them
        that makes a move a contender, :meth:`~mcgo.search.Search.choose`)."""
        if len(stats) < 2:
            return len(stats) == 1
        top, second = stats[0].visits, stats[1].visits
        if any(m.bonus for m in stats):
            return second + left < top / 2
        return second + left < top

    @staticmethod
    def unsure(stats):
        """The best move is unsure: the runner-up has more than 1/:data:`UNSURE_VISIT_RATIO`
        of the top visits, or a move with :data:`UNSURE_VALUE_SHARE` of them has a better
        win rate than the most visited (Pachi's ``uct_search_keep_looking``)."""
        if len(stats) < 2 or stats[0].visits <= 0:
            return False
        top = stats[0]
        if stats[1].visits * UNSURE_VISIT_RATIO > top.visits:
            return True
        return any(m.visits >= UNSURE_VALUE_SHARE * top.visits and m.winrate > top.winrate
                   for m in stats[1:])

    def extension_end(self, stats):
        """How long an unsure search may run: the deadline, or, winning, less (Pachi: sure
        of the win, the desired time; at an even game, the deadline)."""
        winrate = stats[0].winrate if stats and stats[0].visits else 0.5
        sure = min(max(2 * (winrate - 0.5), 0.0), 1.0)
        return self.called + sure * self.desired + (1 - sure) * self.seconds
