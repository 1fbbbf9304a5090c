"""KataGo's analysis engine as a yardstick for the benchmarks: a strong net's judgement of a
position (its win rate, its score lead), to measure mcgo's answers and judgements against.
It judges; nothing mcgo ships learns from it.

The benchmarks take the engine's command line (``--katago COMMAND``); its config must report
win rates and leads as Black's (``reportAnalysisWinratesAs = BLACK``). Each position is one
JSON query of KataGo's analysis protocol, evaluated with one visit: the raw net.

    >>> q = query("a", 19, 7.5, [("B", "Q16")])
    >>> q["moves"], q["analyzeTurns"], q["rules"]["scoring"]
    ([['B', 'Q16']], [1], 'AREA')
"""

import json
import shlex
import subprocess
import threading

from mcgo.gtp.katago import RULES


def query(ident, size, komi, moves, black=(), white=(), scoring="area", initial_player=None,
          visits=1):
    """One analysis query: the position after ``moves`` (``("B"|"W", vertex)``) from the set-up
    stones ``black`` and ``white`` (vertices), positional superko, suicide illegal, no handicap
    bonus (put White's compensation into ``komi``)."""
    rules = dict(RULES, scoring=scoring.upper())     # mcgo's own reply to kata-get-rules
    q = {"id": str(ident), "moves": [list(m) for m in moves],
         "initialStones": [["B", v] for v in black] + [["W", v] for v in white],
         "rules": rules, "komi": komi, "boardXSize": size, "boardYSize": size,
         "analyzeTurns": [len(moves)], "maxVisits": visits}
    if initial_player is not None:
        q["initialPlayer"] = initial_player
    return q


def board_query(ident, board):
    """The query of a :class:`mcgo.Board`'s game (its set-up stones and moves, White's handicap
    compensation in the komi), or None where stones were set up after the first move."""
    from mcgo.board import coords
    from mcgo.board.kernels import BLACK
    from mcgo.sgf import record_from_board
    record = record_from_board(board)
    if set(record.setups) - {0}:
        return None
    initial = None
    if record.player_to_move is not None:
        initial = "B" if record.player_to_move == BLACK else "W"
    return query(ident, board.size, board.komi + board.handicap_bonus, record.gtp_moves(),
                 [coords.to_gtp(p, board.size) for p in record.setup.black],
                 [coords.to_gtp(p, board.size) for p in record.setup.white],
                 board.scoring, initial)


def evaluate(queries, command):
    """``{id: rootInfo}`` of KataGo's answers to ``queries`` (a query it refuses is missing),
    one KataGo process started by ``command`` for all of them."""
    process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def write():    # in a thread: hundreds of queries overfill the pipe before KataGo answers
        for q in queries:
            process.stdin.write(json.dumps(q) + "\n")
        process.stdin.flush()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    found, answered = {}, set()
    try:
        while len(answered) < len(queries):
            line = process.stdout.readline()
            if not line:
                break
            answer = json.loads(line)
            if "warning" in answer and "error" not in answer:   # a warning, the answer follows
                continue
            answered.add(answer.get("id"))
            if "rootInfo" in answer:
                found[answer["id"]] = answer["rootInfo"]
    finally:
        writer.join(timeout=60)
        process.stdin.close()
        process.wait(timeout=60)
    return found
