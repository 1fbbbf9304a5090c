"""KataGo's JSON analysis protocol (KataGo's docs/Analysis_Engine.md): a query line read
into a :class:`Query` (its positions, limits and what to report), and a search's result
written as KataGo's answer (:func:`answer`). The engine that runs them is
:mod:`mcgo.apps.analysis_engine`.

>>> q = read_query('{"id": "a", "moves": [["B", "E5"], ["W", "C3"]], "rules": "japanese", '
...                '"komi": 6.5, "boardXSize": 9, "boardYSize": 9, "analyzeTurns": [0, 2]}')
>>> q.id, q.size, q.scoring, [t for t, _ in q.positions], q.positions[1][1].to_move == WHITE
('a', 9, 'territory', [0, 2], False)
>>> read_query('{"id": "b", "moves": [], "rules": "chinese", "boardXSize": 9, "boardYSize": 13}')
Traceback (most recent call last):
...
mcgo.apps.analysis_query.QueryError: boardYSize: mcgo analyses square boards only (9x13 asked)
"""

import json
import math
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .. import options
from ..board import coords, handicap
from ..board.board import AREA, TERRITORY, Board
from ..board.kernels import BLACK, PASS, WHITE
from ..gtp.analysis_text import (PV_LENGTH, kata_ownership, ownership_stdev, playout_score,
                            principal_variation_visits, reported_moves)
from ..search.movefilter import MoveFilter, MoveFilterError
from ..search.report import root_winrate

PERSPECTIVES = ("BLACK", "WHITE", "SIDETOMOVE")
PLAYERS = {"B": BLACK, "W": WHITE}
PLAYER_NAMES = {BLACK: "B", WHITE: "W"}
# KataGo's rule names beyond mcgo's own (mcgo.options.RULES_SCORING): variants that score the
# same way (mcgo plays positional superko and no suicide under every name).
MAX_KOMI = 150.0
# Fields KataGo reads that change its network's search, not mcgo's: accepted, unused.
UNUSED_FIELDS = ("rootPolicyTemperature", "rootFpuReductionMax", "includeNoResultValue")
KNOWN_FIELDS = {"id", "moves", "initialStones", "initialPlayer", "rules", "komi",
                "boardXSize", "boardYSize", "analyzeTurns", "maxVisits", "overrideSettings",
                "includeOwnership", "includeOwnershipStdev", "includeMovesOwnership",
                "includeMovesOwnershipStdev", "includePolicy", "includePVVisits", "avoidMoves",
                "allowMoves", "reportDuringSearchEvery", "priority", "priorities",
                "analysisPVLen", "whiteHandicapBonus", *UNUSED_FIELDS}
# overrideSettings keys mcgo uses; wideRootNoise is accepted (mcgo's root has no policy noise).
OVERRIDES = ("maxVisits", "maxTime", "reportAnalysisWinratesAs", "wideRootNoise")


class QueryError(ValueError):
    """A query KataGo's protocol does not allow: answered ``{"id", "error", "field"}``."""

    def __init__(self, message, field=None):
        super().__init__(f"{field}: {message}" if field else message)
        self.message = message
        self.field = field


@dataclass
class Defaults:
    """What a query leaves out: the visits, seconds and win-rate side of the engine (its
    config file, ``-override-config`` or mcgo's options)."""
    max_visits: int = 500
    max_time: Optional[float] = None
    perspective: str = "BLACK"


@dataclass
class Query:
    id: str
    size: int
    komi: float
    scoring: str
    positions: list                     # (turn number, Board after that many moves)
    priorities: list                    # one per position
    max_visits: int
    max_time: Optional[float]
    perspective: str
    ownership: bool = False
    ownership_stdev: bool = False
    policy: bool = False
    pv_visits: bool = False
    pv_length: int = PV_LENGTH
    move_filter: Optional[MoveFilter] = None
    report_every: Optional[float] = None
    moves_ownership: bool = False
    moves_ownership_stdev: bool = False
    warnings: list = field(default_factory=list)   # (field, message)


def read_json(line):
    """The JSON object of a line; a line that is not one raises :class:`QueryError`."""
    try:
        obj = json.loads(line)
    except ValueError as e:
        raise QueryError(f"could not parse the line as JSON: {e}") from None
    if not isinstance(obj, dict):
        raise QueryError("a query must be a JSON object")
    return obj


def read_query(line, defaults=None):
    return query_of(read_json(line), defaults or Defaults())


def query_of(obj, defaults):
    """The :class:`Query` of a parsed analysis query (not an action); raises
    :class:`QueryError` naming the field that is wrong."""
    qid = obj.get("id")
    if not isinstance(qid, str):
        raise QueryError("a query needs a string id", "id")
    warnings = [(k, "unexpected or unused field") for k in obj if k not in KNOWN_FIELDS]
    warnings += [(k, "accepted and not used by mcgo") for k in UNUSED_FIELDS if k in obj]
    size = _size(obj)
    scoring = _scoring(_required(obj, "rules"))
    komi = _komi(obj.get("komi"), scoring)
    moves = _moves(_required(obj, "moves"), size, "moves")
    board = Board(size, komi=komi, scoring=scoring)
    initial = _moves(obj.get("initialStones", []), size, "initialStones")
    _place(board, initial)
    board.handicap_bonus = _handicap_bonus(obj, initial, moves)
    first = obj.get("initialPlayer")
    if first is not None and first not in PLAYERS:
        raise QueryError("must be B or W", "initialPlayer")
    board.to_move = PLAYERS[first] if first else (moves[0][0] if moves else BLACK)
    turns = _turns(obj, len(moves))
    positions = []
    for i in range(len(moves) + 1):
        if i in turns:
            positions.append((i, board.copy()))
        if i == len(moves):
            break
        color, p = moves[i]
        # A repetition beyond a simple ko stands: the game's rules may allow it (KataGo's
        # Japanese rules check simple ko only); occupied points, suicide and ko are errors.
        reason = board.legality(p, color)
        if reason not in (None, "superko"):
            raise QueryError(f"Illegal move {i}: {PLAYER_NAMES[color]} "
                             f"{coords.to_gtp(p, size)} ({reason})", "moves")
        board.play(p, color, repetition=False)
    positions.sort(key=lambda tb: turns.index(tb[0]))
    overrides = obj.get("overrideSettings", {})
    if not isinstance(overrides, dict):
        raise QueryError("must be an object", "overrideSettings")
    warnings += [("overrideSettings", f"{k}: not a setting of mcgo, ignored")
                 for k in overrides if k not in OVERRIDES]
    max_visits = _number(overrides.get("maxVisits", obj.get("maxVisits", defaults.max_visits)),
                         "maxVisits", integer=True, minimum=1)
    max_time = overrides.get("maxTime", defaults.max_time)
    if max_time is not None:
        max_time = _number(max_time, "maxTime", minimum=0)
        max_time = max_time if max_time > 0 else None
    if "wideRootNoise" in overrides:
        _number(overrides["wideRootNoise"], "wideRootNoise", minimum=0)
    perspective = overrides.get("reportAnalysisWinratesAs", defaults.perspective)
    if perspective not in PERSPECTIVES:
        raise QueryError(f"must be one of {', '.join(PERSPECTIVES)}", "reportAnalysisWinratesAs")
    report_every = obj.get("reportDuringSearchEvery")
    if report_every is not None:
        report_every = _number(report_every, "reportDuringSearchEvery", minimum=0)
        report_every = report_every if report_every > 0 else None
    pv_length = _number(obj.get("analysisPVLen", PV_LENGTH), "analysisPVLen", integer=True,
                        minimum=1)
    return Query(qid, size, komi, scoring, positions, _priorities(obj, len(turns)), max_visits,
                 max_time, perspective, ownership=_flag(obj, "includeOwnership"),
                 ownership_stdev=_flag(obj, "includeOwnershipStdev"), pv_length=pv_length,
                 policy=_flag(obj, "includePolicy"), pv_visits=_flag(obj, "includePVVisits"),
                 move_filter=_move_filter(obj, size), report_every=report_every,
                 moves_ownership=_flag(obj, "includeMovesOwnership"),
                 moves_ownership_stdev=_flag(obj, "includeMovesOwnershipStdev"),
                 warnings=warnings)


# ------------------------------------------------------------------ fields
def _required(obj, name):
    if name not in obj:
        raise QueryError("this field is required", name)
    return obj[name]


def _number(value, name, integer=False, minimum=None):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise QueryError("must be a number", name)
    if integer and value != int(value):
        raise QueryError("must be a whole number", name)
    if minimum is not None and value < minimum:
        raise QueryError(f"must be at least {minimum}", name)
    return int(value) if integer else float(value)


def _flag(obj, name):
    value = obj.get(name, False)
    if not isinstance(value, bool):
        raise QueryError("must be true or false", name)
    return value


def _size(obj):
    x = _number(_required(obj, "boardXSize"), "boardXSize", integer=True)
    y = _number(_required(obj, "boardYSize"), "boardYSize", integer=True)
    if x != y:
        raise QueryError(f"mcgo analyses square boards only ({x}x{y} asked)", "boardYSize")
    if not coords.MIN_SIZE <= x <= coords.MAX_SIZE:
        raise QueryError(f"board size {x}: must be {coords.MIN_SIZE} to {coords.MAX_SIZE}",
                         "boardXSize")
    return x


def rules_scoring(rules):
    """``area`` or ``territory`` for KataGo's rules: a name (``japanese``, ``chinese``,
    ``tromp-taylor``, ``new zealand``, ``stone_scoring``...) or a rules object, whose
    ``scoring`` (``AREA`` or ``TERRITORY``) decides.

    >>> rules_scoring("Japanese"), rules_scoring("new zealand"), rules_scoring({"scoring": "AREA"})
    ('territory', 'area', 'area')
    """
    if isinstance(rules, dict):
        scoring = str(rules.get("scoring", "AREA")).upper()
        if scoring not in ("AREA", "TERRITORY"):
            raise QueryError(f"scoring {rules.get('scoring')!r}: must be AREA or TERRITORY",
                             "rules")
        return AREA if scoring == "AREA" else TERRITORY
    if not isinstance(rules, str):
        raise QueryError("must be a rules name or a rules object", "rules")
    name = options.rules_name(rules)
    if name is None:
        raise QueryError(f"unknown rules {rules!r}", "rules")
    return options.rules_scoring(name)


_scoring = rules_scoring


def _handicap_bonus(obj, initial, moves):
    """White's points for the handicap, as KataGo counts them: the rules' ``N``, ``N-1`` or
    ``0`` (a name's, or a rules object's ``whiteHandicapBonus``; the query's own
    ``whiteHandicapBonus`` wins) for N handicap stones, Black's set-up stones and first
    moves before White's (:func:`mcgo.board.handicap.stones_given`)."""
    rules = obj["rules"]
    rule = obj.get("whiteHandicapBonus")
    field = "whiteHandicapBonus"
    if rule is None and isinstance(rules, dict):
        rule, field = rules.get("whiteHandicapBonus", "0"), "rules"
    elif rule is None:
        rule = options.handicap_bonus_rule(options.rules_name(rules))
    if rule not in options.HANDICAP_BONUS_RULES:
        raise QueryError(f"whiteHandicapBonus {rule!r}: must be one of "
                         f"{', '.join(options.HANDICAP_BONUS_RULES)}", field)
    return options.handicap_bonus(rule, handicap.stones_given(
        sum(c == BLACK for c, _ in initial), sum(c == WHITE for c, _ in initial),
        handicap.black_first_moves(moves)))


def _komi(value, scoring):
    if value is None:                  # KataGo's guess: 7.5 under area, 6.5 under territory
        return 7.5 if scoring == AREA else 6.5
    komi = _number(value, "komi")
    if abs(komi) > MAX_KOMI or komi * 2 != int(komi * 2):
        raise QueryError(f"komi {value}: must be an integer or half-integer within "
                         f"[-{MAX_KOMI:g}, {MAX_KOMI:g}]", "komi")
    return komi


def vertex(text, size, name="moves"):
    """The point of a KataGo location: a GTP vertex (``D4``, ``pass``) or ``(x,y)``, x the
    column from the left and y the row from the top."""
    if not isinstance(text, str):
        raise QueryError(f"{text!r}: a location must be a string", name)
    s = text.strip()
    try:
        if s.startswith("(") and s.endswith(")"):
            x, y = (int(v) for v in s[1:-1].split(","))
            return coords.point(size - 1 - y, x, size)
        return coords.from_gtp(s, size)
    except (ValueError, coords.CoordinateError):
        raise QueryError(f"{text!r}: not a location of the {size}x{size} board", name) from None


def _moves(value, size, name):
    if not isinstance(value, list):
        raise QueryError("must be a list of [player, location] pairs", name)
    out = []
    for entry in value:
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] in PLAYERS):
            raise QueryError(f"{entry!r}: must be a pair [\"B\" or \"W\", location]", name)
        out.append((PLAYERS[entry[0]], vertex(entry[1], size, name)))
    return out


def _place(board, stones):
    if any(p == PASS for _, p in stones):
        raise QueryError("pass is not a stone", "initialStones")
    try:
        board.setup(black=[p for c, p in stones if c == BLACK],
                    white=[p for c, p in stones if c == WHITE])
    except ValueError as e:
        raise QueryError(str(e), "initialStones") from None


def _turns(obj, n_moves):
    turns = obj.get("analyzeTurns", [n_moves])
    if not isinstance(turns, list) or not turns:
        raise QueryError("must be a non-empty list of turn numbers", "analyzeTurns")
    for t in turns:
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= n_moves:
            raise QueryError(f"{t!r}: turns are 0 to {n_moves}", "analyzeTurns")
    if len(set(turns)) != len(turns):
        raise QueryError("a turn is named twice", "analyzeTurns")
    return list(turns)


def _priorities(obj, n):
    if "priorities" in obj:
        values = obj["priorities"]
        if not isinstance(values, list) or len(values) != n:
            raise QueryError("must be a list as long as analyzeTurns", "priorities")
        return [_number(v, "priorities", integer=True) for v in values]
    return [_number(obj.get("priority", 0), "priority", integer=True)] * n


def _move_filter(obj, size):
    """The avoidMoves and allowMoves dicts as the search's :class:`MoveFilter`."""
    clauses = []
    for kind, name in (("avoid", "avoidMoves"), ("allow", "allowMoves")):
        entries = obj.get(name, [])
        if not isinstance(entries, list):
            raise QueryError("must be a list of {player, moves, untilDepth} objects", name)
        if kind == "allow" and len(entries) > 1:
            raise QueryError("takes one object at most (as KataGo)", name)
        for e in entries:
            if not isinstance(e, dict) or not {"player", "moves", "untilDepth"} <= set(e):
                raise QueryError("each entry needs player, moves and untilDepth", name)
            if not isinstance(e["moves"], list) or not all(isinstance(m, str) for m in e["moves"]):
                raise QueryError("moves must be a list of locations", name)
            points = [coords.to_gtp(vertex(m, size, name), size) for m in e["moves"]]
            if not points:
                continue            # nothing to avoid (an allow of nothing is refused below)
            depth = e["untilDepth"]
            if isinstance(depth, bool) or not isinstance(depth, int):
                raise QueryError("untilDepth must be a whole number", name)
            try:
                clauses.append(MoveFilter.clause(kind, str(e["player"]), ",".join(points),
                                                 str(depth), size))
            except MoveFilterError as err:
                raise QueryError(str(err), name) from None
        if kind == "allow" and entries and not clauses:
            raise QueryError("allows no move", name)
    return MoveFilter(size, tuple(clauses)) if clauses else None


# ------------------------------------------------------------------ answers
def noresults(qid, turn):
    """The answer of a position terminated before any visit."""
    return {"id": qid, "isDuringSearch": False, "noResults": True, "turnNumber": turn}


def answer(query, turn, board, search, result, during, policy=None, moves_owner=None):
    """KataGo's answer for the position ``board`` (turn ``turn`` of ``query``) from a
    search's ``result``, every value from :attr:`Query.perspective`'s side:

    * ``moveInfos``: the visited root moves, the chosen one first (``order`` 0), each with
      its ``visits``, ``winrate`` (its playouts' mean result), ``lcb`` (Wilson 95%),
      ``utility`` = 2 winrate - 1 (mcgo's utility is the win/loss value alone),
      ``scoreLead`` = ``scoreMean`` = ``scoreSelfplay`` (the mean final area margin, komi
      included, of the playouts through the move: noisy self-play games), ``prior`` (the
      move model's probability, as ``policy``) and ``pv``;
    * ``rootInfo``: the root's visits and win rate over all of them, its score (the mean
      margin of this search's playouts, :func:`mcgo.gtp.analysis_text.playout_score`) and
      ``currentPlayer``;
    * ``ownership`` (the playouts' mean final owner, KataGo's order) and ``policy`` when
      asked for; in each move's info its own ``ownership`` (and ``ownershipStdev``) when
      ``moves_owner`` gives it (``includeMovesOwnership``): black's mean final owner, by
      point as the root's, of the playouts after that move."""
    size = board.size
    to_move = board.to_move
    view = to_move if query.perspective == "SIDETOMOVE" else \
        (BLACK if query.perspective == "BLACK" else WHITE)
    flip = view != to_move                 # the search's win rates are the mover's
    sign = 1.0 if view == BLACK else -1.0  # scores are Black's margins
    komi = board.komi + board.scoring_offset()

    def rate(w):
        return 1.0 - w if flip else w

    priors = {} if policy is None else policy[1]
    infos = []
    for order, m in enumerate(reported_moves(result)):
        pv, pv_visits = principal_variation_visits(search, m.move, query.pv_length)
        winrate = rate(m.winrate)
        score = sign * m.score
        info = {"move": coords.to_gtp(m.move, size), "order": order, "visits": int(m.visits),
                "winrate": winrate, "lcb": rate(m.lcb), "utility": 2 * winrate - 1,
                "utilityLcb": 2 * rate(m.lcb) - 1, "scoreLead": score, "scoreMean": score,
                "scoreSelfplay": score, "prior": priors.get(m.move, 0.0),
                "pv": [coords.to_gtp(p, size) for p in pv]}
        if query.pv_visits:
            info["pvVisits"] = [int(v) for v in pv_visits]
        if moves_owner and m.move in moves_owner:
            owner = sign * moves_owner[m.move]
            if query.moves_ownership:
                info["ownership"] = [float(v) for v in owner]
            if query.moves_ownership_stdev:
                info["ownershipStdev"] = [float(v) for v in ownership_stdev(owner)]
        infos.append(info)
    root_rate = root_winrate(search)
    root_rate = rate(0.5 if root_rate is None else root_rate)
    score = sign * (playout_score(result, komi) or 0.0)
    root = {"visits": int(result.root_visits), "winrate": root_rate,
            "scoreLead": score, "scoreSelfplay": score, "scoreMean": score,
            "utility": 2 * root_rate - 1, "currentPlayer": PLAYER_NAMES[to_move],
            "thisHash": f"{board.hash & 0xFFFFFFFFFFFFFFFF:016X}"}
    out = {"id": query.id, "isDuringSearch": during, "turnNumber": turn,
           "moveInfos": infos, "rootInfo": root}
    if query.ownership or query.ownership_stdev:
        owner = kata_ownership(result, size, view)
        if owner is None:
            owner = np.zeros(size * size)
        if query.ownership:
            out["ownership"] = [float(v) for v in owner]
        if query.ownership_stdev:
            out["ownershipStdev"] = [float(v) for v in ownership_stdev(owner)]
    if query.policy and policy is not None:
        out["policy"] = policy[0]
    return out


def policy_of(model, board):
    """``(policy, priors)``: KataGo's ``policy`` array of ``board`` from the move model
    (``size * size + 1`` values, row by row from the top left, pass last; -1 on illegal
    points; the legal moves' probabilities sum to 1) and the probability by point."""
    size = board.size
    probs = model.probabilities(board, board.to_move)
    legal = set(board.legal_moves()) | {PASS}
    probs = {p: v for p, v in probs.items() if p in legal}
    total = sum(probs.values()) or 1.0
    probs = {p: v / total for p, v in probs.items()}
    grid = np.full(size * size + 1, -1.0)
    for p, v in probs.items():
        if p == PASS:
            grid[-1] = v
        else:
            row, col = coords.row_col(p, size)
            grid[(size - 1 - row) * size + col] = v
    return [float(v) for v in grid], probs
