"""The structure of a position for judging life at the end of a game: chains, empty
regions, unconditional life (Benson's algorithm), seki, nakade and capturing races.

:func:`mcgo.judge.status.judge` uses it to decide seki and the chains the playouts leave
unsettled (the module docstring there gives the rules). Python over the position's sets of
chains and regions: it runs once per ``genmove`` or ``final_status_list`` (10-20 ms on
19x19), not in the search. The chains and their liberties come from the board's own
kernels and :mod:`mcgo.tactics` (the position with the removed chains is set up as a board).
"""

import numpy as np

from ..board import coords
from ..board.kernels import BLACK, COLOR, EMPTY, HEAD, OFFBOARD, WHITE
from ..tactics.liberties import chain_liberties

SEKI_REGION_MAX = 6          # points of a seki region and of every region a seki group touches
NAKADE_MAX = 6               # a space of up to this many points may be killed from inside
TWO_EYE_TERRITORY = 7        # an own territory this big always makes two eyes


class Structure:
    """Chains, empty regions, safe chains and seki of a position with some chains removed
    (the dead ones). Points are internal indices; chains and regions are numbered."""

    def __init__(self, board, removed=(), strong=()):
        self.size = board.size
        self.width = board.size + 2
        position = board.copy()
        if removed:
            position.setup(empty=removed)
        col = position.pts[COLOR]
        self.col = col
        self.points = list(coords.all_points(board.size))
        self.chain_of, self.chain_points, self.chain_color = {}, [], []
        self.chain_libs = []
        self.region_of, self.region_points = {}, []
        liberties = np.empty(board.size * board.size, dtype=np.int32)
        for p in self.points:
            c = int(col[p])
            if c == EMPTY and p not in self.region_of:
                self._fill(p, lambda q: self.col[q] == EMPTY, self.region_of, self.region_points)
            elif c in (BLACK, WHITE) and p not in self.chain_of:
                stones = position.chain(p)
                for q in stones:
                    self.chain_of[q] = len(self.chain_points)
                self.chain_points.append(stones)
                self.chain_color.append(c)
                head = position.pts[HEAD, p]
                n = chain_liberties(position.pts, self.width, head, liberties)
                self.chain_libs.append({int(q) for q in liberties[:n]})
        # Chains next to every region, regions next to every chain.
        self.region_chains = [set() for _ in self.region_points]
        self.chain_regions = [set() for _ in self.chain_points]
        for r, pts in enumerate(self.region_points):
            for p in pts:
                for q in self.neighbours(p):
                    ch = self.chain_of.get(q)
                    if ch is not None:
                        self.region_chains[r].add(ch)
                        self.chain_regions[ch].add(r)
        self.region_colors = [{self.chain_color[ch] for ch in chs} for chs in self.region_chains]
        self._seki_region = {}
        strong = {self.chain_of[p] for p in strong if p in self.chain_of}
        self.safe = set()
        for color in (BLACK, WHITE):
            sources = self.benson(color) | {ch for ch in strong if self.chain_color[ch] == color}
            self.safe |= self._reach(color, sources)
        self.reached_by = {}        # region -> colours of the safe chains that reach it
        for ch in self.safe:
            for r in self.chain_regions[ch]:
                self.reached_by.setdefault(r, set()).add(self.chain_color[ch])
        self.reached = set(self.reached_by)     # regions a safe chain reaches
        self._fillable = {}
        self.seki = self._seki()

    def neighbours(self, p):
        w = self.width
        return (q for q in (p - 1, p + 1, p - w, p + w) if self.col[q] != OFFBOARD)

    def piece(self, start, members):
        """The points of ``members`` connected to ``start`` through ``members``."""
        seen, stack = {start}, [start]
        while stack:
            p = stack.pop()
            for q in self.neighbours(p):
                if q in members and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return seen

    def _fill(self, start, same, index, groups):
        n = len(groups)
        pts, stack = [], [start]
        index[start] = n
        while stack:
            p = stack.pop()
            pts.append(p)
            for q in self.neighbours(p):
                if q not in index and same(q):
                    index[q] = n
                    stack.append(q)
        groups.append(pts)

    # ------------------------------------------------------------- unconditional life
    def two_eye_territory(self, pts):
        """An own territory (empty points only) the owner can split into two eyes: a big one,
        or one with a point whose stone leaves two separate parts (straight or bent three,
        bent four, ...). A square four or a single point cannot."""
        if len(pts) >= TWO_EYE_TERRITORY:
            return True
        if len(pts) < 3:
            return False
        members = set(pts)
        for cut in pts:
            rest = members - {cut}
            if len(self.piece(next(iter(rest)), rest)) < len(rest):
                return True
        return False

    def benson(self, color):
        """Chains of ``color`` unconditionally alive by Benson's algorithm, where an own
        territory that makes two eyes counts as two vital regions of every chain around it
        (GNU Go splits such territories into eyes before it asks who is alive)."""
        # Regions for Benson: connected sets of points without a stone of ``color``.
        index, groups = {}, []
        for p in self.points:
            if self.col[p] != color and p not in index:
                self._fill(p, lambda q: self.col[q] != color, index, groups)
        X = {ch for ch, c in enumerate(self.chain_color) if c == color}
        weight = {}             # (region, chain) -> vital regions it counts for
        borders = []
        for r, pts in enumerate(groups):
            around = {self.chain_of[q] for p in pts for q in self.neighbours(p)
                      if self.col[q] == color}
            borders.append(around)
            empties = [p for p in pts if self.col[p] == EMPTY]
            territory = len(empties) == len(pts) and self.two_eye_territory(pts)
            for ch in around:
                if territory:
                    weight[r, ch] = 2
                elif all(any(self.chain_of.get(q) == ch for q in self.neighbours(p))
                         for p in empties):
                    weight[r, ch] = 1       # healthy: every empty point is a liberty
        R = set(range(len(groups)))
        while True:
            vital = {ch: 0 for ch in X}
            for r in R:
                for ch in borders[r]:
                    if ch in vital:
                        vital[ch] += weight.get((r, ch), 0)
            weak = {ch for ch, n in vital.items() if n < 2}
            if not weak:
                return X
            X -= weak
            R = {r for r in R if borders[r] <= X}

    def _reach(self, color, sources, eyes_only=False):
        """Chains of ``color`` reachable from ``sources`` through empty points (with
        ``eyes_only``, only through regions that ``color`` alone surrounds)."""
        done = set(sources)
        todo = list(sources)
        seen_regions = set()
        while todo:
            ch = todo.pop()
            for r in self.chain_regions[ch]:
                if r in seen_regions:
                    continue
                seen_regions.add(r)
                if eyes_only and self.region_colors[r] != {color}:
                    continue
                for other in self.region_chains[r]:
                    if self.chain_color[other] == color and other not in done:
                        done.add(other)
                        todo.append(other)
        return done

    # ------------------------------------------------------------------------- seki
    def _seki(self):
        """Chains alive in seki (see the module's docstring): groups that are not safe, touch
        no open space, whose chains all keep two liberties, whose contested regions (touching
        both colours, reached by no safe chain) are all seki regions, that the partners
        cannot kill by sacrifice (:meth:`survives_sacrifice`), and whose partners across
        those regions are such groups too (a seki is mutual).

        On the way it notes the enclosed groups that are lost instead (``self.doomed``, with
        their opponents across in ``self.saved``): a chain of them has one liberty left once
        the safe side has filled its own and cannot fight back (:meth:`can_fight_back`), or
        the partners kill them by sacrifice."""
        groups = []
        self.doomed, self.saved = set(), set()
        for color in (BLACK, WHITE):
            pending = {ch for ch, c in enumerate(self.chain_color)
                       if c == color and ch not in self.safe}
            while pending:
                group = self._reach(color, [pending.pop()])
                pending -= group
                if not self.enclosed(group):
                    continue            # next to open space: unfinished, not seki
                if any(self.open_count(self.chain_libs[ch]) < 2 and not self.can_fight_back(ch)
                       for ch in group):
                    self.doomed |= group    # a chain of it can be captured
                    continue
                regions = set().union(*(self.chain_regions[ch] for ch in group))
                contested = [r for r in regions
                             if len(self.region_colors[r]) == 2 and r not in self.reached]
                if contested and all(self.is_seki_region(r) for r in contested):
                    partners = {o for r in contested for o in self.region_chains[r]
                                if self.chain_color[o] != color}
                    if self.survives_sacrifice(group, color, partners):
                        groups.append((group, partners))
                    else:
                        self.doomed |= group
                        self.saved |= self._reach(3 - color, partners)
        while True:
            seki = set().union(*(group for group, _ in groups))
            kept = [(group, partners) for group, partners in groups if partners <= seki]
            if len(kept) == len(groups):
                return seki
            groups = kept

    def can_fight_back(self, ch):
        """True when the chain ``ch``, down to one liberty, is not lost for that alone: it
        captures an adjacent chain that is in atari too (a mutual atari: whoever plays first
        wins it), or its side extends or connects at one of its liberties to two liberties or
        more that no safe chain reaches (a ko or a cutting stone that can still connect)."""
        color = self.chain_color[ch]
        for p in self.chain_points[ch]:
            for q in self.neighbours(p):
                other = self.chain_of.get(q)
                if (other is not None and self.chain_color[other] != color
                        and len(self.chain_libs[other]) == 1):
                    return True
        return any(self.open_count(self.liberties_after(lib, color)) >= 2
                   for lib in self.chain_libs[ch])

    def liberties_after(self, p, color):
        """The liberties of the chain a stone of ``color`` at the empty point ``p`` makes,
        before any capture."""
        libs = set()
        for q in self.neighbours(p):
            if self.col[q] == EMPTY:
                libs.add(q)
            elif self.col[q] == color:
                libs |= self.chain_libs[self.chain_of[q]]
        libs.discard(p)
        return libs

    def enclosed(self, group):
        """True when no empty region next to the chains ``group`` is bigger than
        SEKI_REGION_MAX: the group is in a finished part of the board."""
        return all(len(self.region_points[r]) <= SEKI_REGION_MAX
                   for ch in group for r in self.chain_regions[ch])

    def is_seki_region(self, r):
        """A region whose points are shared liberties neither side can fill: small,
        touching both colours, reached by no safe chain (a safe side fills its points, as
        GNU Go's aftermath does), every chain around it keeps two liberties once the points
        safe chains reach are filled (else it is simply captured), and neither side wins
        the liberty race by filling one of its points (:meth:`wins_race`)."""
        if r not in self._seki_region:
            self._seki_region[r] = (
                len(self.region_colors[r]) == 2 and r not in self.reached
                and len(self.region_points[r]) <= SEKI_REGION_MAX
                and all(self.open_count(self.chain_libs[ch]) >= 2
                        for ch in self.region_chains[r])
                and not any(self.wins_race(p, c) for p in self.region_points[r]
                            for c in (BLACK, WHITE)))
        return self._seki_region[r]

    def wins_race(self, p, color):
        """True when ``color`` at the empty point ``p`` wins the liberty race there
        (:meth:`race_victims`)."""
        return bool(self.race_victims(p, color))

    def race_victims(self, p, color):
        """The opponent chains ``color`` at the empty point ``p`` captures, or ataris while
        keeping two liberties itself (counting only liberties no safe chain reaches): then
        that side can fill the region and the other dies. Empty when it does neither."""
        captured = {self.chain_of[q] for q in self.neighbours(p) if self.col[q] == 3 - color
                    and self.chain_libs[self.chain_of[q]] == {p}}
        if captured:
            return captured
        if self.open_count(self.liberties_after(p, color)) < 2:
            return set()                    # self-atari
        return {self.chain_of[q] for q in self.neighbours(p) if self.col[q] == 3 - color
                and self.open_count(self.chain_libs[self.chain_of[q]] - {p}) <= 1}

    def escapes(self, ch, p):
        """True when the chain ``ch``, put in atari by the other side's stone at the empty
        point ``p``, extends or connects at a remaining liberty to two liberties or more
        that no safe chain reaches (before any capture: a capture that answers the atari
        may be a ko or a snapback, which the structure does not read)."""
        color = self.chain_color[ch]
        return any(self.open_count(self.liberties_after(lib, color) - {p}) >= 2
                   for lib in self.chain_libs[ch] - {p})

    def races(self):
        """(winners, losers): groups that win, or lose, a liberty race by filling a point
        of a small contested region (:meth:`race_victims`, less the chains that escape the
        atari: :meth:`escapes`), the losers enclosed (with open space around, the atari is no
        capture yet). For the chains the playouts leave unsettled. (The seki test keeps the
        plain atari: dead stones in a living group's eye space can often connect out of one
        atari, and it would take their region for a seki.)"""
        winners, losers = set(), set()
        for r, pts in enumerate(self.region_points):
            if (len(self.region_colors[r]) < 2 or r in self.reached
                    or len(pts) > SEKI_REGION_MAX):
                continue
            for p in pts:
                for color in (BLACK, WHITE):
                    victims = self._reach(3 - color, {
                        ch for ch in self.race_victims(p, color) if not self.escapes(ch, p)})
                    if victims and self.enclosed(victims):
                        losers |= victims
                        movers = [self.chain_of[q] for q in self.neighbours(p)
                                  if self.col[q] == color]
                        winners |= self._reach(color, movers)
        return winners, losers

    def survives_sacrifice(self, group, color, partners):
        """True unless the partners can kill ``group`` by filling the shared liberties and
        letting it capture them: then the group gets the partners' space (their stones and
        the empty regions around them, less the point of its capturing stone), and a space
        of one eye with a vital point is killed from inside (:meth:`nakade`): a single stone
        inside a bent three is no seki. It survives when it has an eye of its own, when it
        gets two separate spaces, or when the space joins it to a safe chain."""
        if any(self.region_colors[r] == {color} for ch in group for r in self.chain_regions[ch]):
            return True
        spaces = []
        for o in partners:
            if not any(o in space for space in spaces):
                spaces.append(self._reach(3 - color, [o]))
        if len(spaces) >= 2:
            return True
        stones = [p for o in spaces[0] for p in self.chain_points[o]]
        regions = {r for o in spaces[0] for r in self.chain_regions[o] if r not in self.reached}
        empties = [p for r in regions for p in self.region_points[r]]
        if any(self.chain_of.get(q) in self.safe and self.chain_color[self.chain_of[q]] == color
               for p in stones + empties for q in self.neighbours(p)):
            return True                 # connects out
        return not any(self.nakade(set(stones + empties) - {last}) for last in empties)

    def nakade(self, space):
        """True when a space of empty points, enclosed by one side, cannot make two eyes if
        the other side plays first: up to three points in one piece, or one of the killable
        shapes (square and pyramid four, bulky and crossed five, rabbity six)."""
        parts = []
        for p in space:
            if not any(p in part for part in parts):
                parts.append(self.piece(p, space))
        n = len(space)
        if len(parts) != 1 or n > NAKADE_MAX:
            return False                # two eyes already, or room for them
        degree = {p: sum(q in space for q in self.neighbours(p)) for p in space}
        edges = sum(degree.values()) // 2
        top = max(degree.values())
        if n <= 3:
            return True
        if n == 4:
            return edges == 4 or top == 3           # square, pyramid
        if n == 5:
            return top == 4 or (edges == 5 and self._has_square(space))  # crossed, bulky
        if n == 6:
            return top == 4 and edges == 6          # rabbity six
        return False

    def _has_square(self, space):
        w = self.width
        return any({p + 1, p + w, p + w + 1} <= space for p in space)

    def open_count(self, libs):
        """Liberties no safe chain reaches, or that no safe side reaching them can fill
        without putting its stone in atari."""
        return sum(not self.fillable(q) for q in libs)

    def fillable(self, q):
        """True when a side with a safe chain next to ``q``'s region can fill ``q`` and keep
        two liberties (GNU Go's aftermath fills the liberties it safely can), counting the
        liberties of the own chains it can first connect to through its own eyes."""
        if q not in self._fillable:     # asked again and again by open_count
            self._fillable[q] = any(len(self.filled_liberties(q, c)) >= 2
                                    for c in self.reached_by.get(self.region_of[q], ()))
        return self._fillable[q]

    def filled_liberties(self, q, color):
        """The liberties of a stone of ``color`` at ``q`` with the chains it joins
        (:meth:`liberties_after`) and those they reach through regions only ``color``
        surrounds (its eyes, which it may fill to connect)."""
        joined = [self.chain_of[n] for n in self.neighbours(q) if self.col[n] == color]
        libs = self.liberties_after(q, color)
        for ch in self._reach(color, joined, eyes_only=True):
            libs |= self.chain_libs[ch]
        libs.discard(q)
        return libs
