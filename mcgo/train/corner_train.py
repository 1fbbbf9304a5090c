# SPDX-License-Identifier: GPL-3.0-or-later
"""Training seed 004's corner life-and-death net (``mcgo learn corner-patterns`` and
``mcgo learn corner``).

**Patterns** (section 5.4.2): every chain inside a 7x7 corner of the final position of a
*counted* game (the result is a score or jigo, not a resignation or a time loss), with its
8x8 corner standardized (:mod:`mcgo.models.corner`). The thesis's labels came from the record
and an expert's selection; ours come from two independent judges of the final position:
GNU Go 3.8's ``final_status_list dead`` and mcgo's own playout judge
(:class:`mcgo.judge.status.Status`, 2,000 playouts). Where they agree, the pattern is
labelled; where they disagree it is left out, as the thesis's expert left out the patterns he
could not judge from the corner. Seki counts as alive. ``--before K,...`` adds the positions
K moves before the end, labelled by the verdicts at the end, for the chains whose stones all
stay on the board to the count (the engine's question 30 moves before the end).

**Training** (section 5.4.3): backpropagation of the summed square error over the two
logistic outputs, minibatches of :data:`BATCH`; weights and biases uniform in
+-2.4 / F_i (F_i the unit's fan-in, counting only the connections the windows allow);
each unit's own learning rate ``ETA * LAYER_RATE[l] / sqrt(F_i)`` (smaller for higher fan-in
and for later layers, as the thesis asks); the net of the epoch with the smallest validation
error is kept. The diagonal reflection of every pattern (the other way to put its corner at
the top left) is a second training example.

Data split by game (:mod:`mcgo.train.split`), never by pattern.
"""

import json
import pathlib
import time

import click
import numpy as np

from ..clitypes import OutputFile
from ..extras import require
from ..models.corner import CONFIDENT_SSE, LAYERS, CornerNet, corner_groups, pattern_inputs, window_mask

ETA = 0.5
LAYER_RATE = (1.0, 0.8, 0.6, 0.4, 0.3)
BATCH = 16
EPOCHS = 300
STATUS_PLAYOUTS = 2000
PATTERN_FORMAT = "mcgo-corner-patterns"


# ---------------------------------------------------------------------------------------------
# Patterns and their labels

def counted(record):
    """True when the record's result is a count (``B+3.5``, ``0``, ``W+Jigo``), by
    :func:`mcgo.train.results.parse_result`."""
    from .results import COUNT, parse_result
    return parse_result(record.result)[2] == COUNT


def engine_dead_stones(engine, path, size, move_number=None, timeout=None):
    """A GTP engine's dead stones (``final_status_list dead``, internal points) on the SGF file
    ``path``: its final position, or the position before move ``move_number`` (GTP
    ``loadsgf``)."""
    from ..board import coords
    loaded = f"loadsgf {path}" + (f" {move_number}" if move_number else "")
    limit = {} if timeout is None else {"timeout": timeout}
    engine.send(loaded, **limit)
    answer = engine.send("final_status_list dead", **limit)
    return {coords.from_gtp(v, size) for v in answer.split()}


def survivors(record, start):
    """The points whose stone after ``start`` moves stays there, the same colour, through
    the record's end (the stones that will be on the board at the count); one replay."""
    from ..board import EMPTY, coords
    from ..board.kernels import COLOR
    from ..sgf.replaying import positions
    points = np.array(list(coords.all_points(record.size)))
    last_change = np.zeros(len(points), dtype=np.int64)   # move after which a colour last changed
    at_start = previous = None
    for number, board in positions(record):
        colors = board.pts[COLOR, points].copy()
        if previous is not None:
            last_change[colors != previous] = number
        if number == start:
            at_start = colors
        previous = colors
    keep = (at_start != EMPTY) & (last_change <= start)
    return {int(p) for p in points[keep]}


def judged_dead(board, playouts=STATUS_PLAYOUTS, seed=0):
    """mcgo's dead stones of a final position (the playouts start as if no one had passed)."""
    from ..board.kernels import PASSES
    from ..judge.status import Status
    position = board.copy()
    position.info[PASSES] = 0
    return set(Status(playouts=playouts, seed=seed).verdict(position).dead)


def label_position(board, stay, gnugo_dead_points, mcgo_dead_points):
    """``[(inputs, reflected inputs, dead by GNU Go, dead by mcgo)]`` for the corner groups of
    ``board`` whose stones all stay to the end (``stay``), by the judges' verdicts at the end
    (a chain whose stones they split is left out)."""
    rows = []
    for corner, color, chain in corner_groups(board):
        if not stay.issuperset(chain):
            continue
        verdicts = []
        for dead in (gnugo_dead_points, mcgo_dead_points):
            n = sum(p in dead for p in chain)
            verdicts.append(None if 0 < n < len(chain) else n == len(chain))
        if None in verdicts:
            continue
        rows.append((pattern_inputs(board, corner, color, chain),
                     pattern_inputs(board, corner, color, chain, transpose=True), *verdicts))
    return rows


PATTERN_ARRAYS = ("x", "xt", "gnugo_dead", "mcgo_dead", "game", "split", "before")


def _as_arrays(rows):
    x, xt, gd, md, game, split, before = rows
    return {"x": np.array(x, dtype=np.int8).reshape(-1, LAYERS[0]),
            "xt": np.array(xt, dtype=np.int8).reshape(-1, LAYERS[0]),
            "gnugo_dead": np.array(gd, dtype=bool), "mcgo_dead": np.array(md, dtype=bool),
            "game": np.array(game, dtype=np.int32), "split": np.array(split, dtype="U10"),
            "before": np.array(before, dtype=np.int32)}


def collect_patterns(paths, gnugo_command, playouts=STATUS_PLAYOUTS, echo=print, checkpoint=None,
                     previous=None, before=(0,)):
    """Patterns of every counted 19x19 game in ``paths``: of its final position and of the
    positions ``before`` moves earlier (labelled by the verdicts at the end); returns
    ``(arrays, names, skipped)``.

    ``checkpoint(arrays, names, skipped)`` is called after every game (so a long run loses
    nothing); ``previous`` (``(arrays, names, skipped)`` of an earlier run) is kept, and its
    games are not judged again."""
    from ..board import BLACK, WHITE
    from ..gtp.controller import EngineProcess, GtpClientError
    from ..sgf import SgfError, read_game, replay
    from .split import game_key, split_of
    rows = [list(previous[0][k]) for k in PATTERN_ARRAYS] if previous else [[] for _ in PATTERN_ARRAYS]
    names = list(previous[1]) if previous else []
    skipped = list(previous[2]) if previous else []
    seen = set(names) | {s.split(": ", 1)[0] for s in skipped}
    engine = EngineProcess(gnugo_command, timeout=300)
    try:
        for path in paths:
            if str(path) in seen:
                continue
            try:
                record = read_game(path)
                if record.size != 19 or not counted(record):
                    continue
                board = replay(record)
                dead = engine_dead_stones(engine, path, record.size)
            except (SgfError, GtpClientError, OSError, ValueError) as e:
                skipped.append(f"{path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
                continue
            key = game_key(record)
            part = split_of(key)
            mcgo_dead = judged_dead(board, playouts, seed=key % 2**32)
            n = len(record.moves)
            for k in before:
                if k > n:
                    continue
                position = board if k == 0 else replay(record, max_moves=n - k)
                stay = survivors(record, n - k) if k else set(board.stones(BLACK)) | set(board.stones(WHITE))
                for a, b, g, m in label_position(position, stay, dead, mcgo_dead):
                    for column, value in zip(rows, (a, b, g, m, len(names), part, k)):
                        column.append(value)
            names.append(str(path))
            echo(f"{len(names)} games, {len(rows[0])} patterns: {path}")
            if checkpoint:
                checkpoint(_as_arrays(rows), names, skipped)
    finally:
        engine.close()
    return _as_arrays(rows), names, skipped


def save_patterns(path, arrays, names, metadata):
    meta = dict(metadata, format=PATTERN_FORMAT, games=names)
    with open(path, "wb") as f:
        np.savez_compressed(f, metadata=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
                            **arrays)


def load_patterns(path):
    """``(arrays, metadata)`` of a pattern file; ValueError naming the file when it is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(bytes(data["metadata"]).decode())
            if meta.get("format") != PATTERN_FORMAT:
                raise ValueError(f"format {meta.get('format')!r}, not {PATTERN_FORMAT!r}")
            arrays = {k: data[k] for k in data.files if k != "metadata"}
            arrays.setdefault("before", np.zeros(len(arrays["x"]), dtype=np.int32))
            return arrays, meta
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: not a corner pattern file ({e})") from None


# ---------------------------------------------------------------------------------------------
# The net in JAX

def fan_ins():
    """Every unit's fan-in, layer by layer (the first layer's windows count their inputs)."""
    first = window_mask().sum(axis=0)
    return [first] + [np.full(n, float(m)) for m, n in zip(LAYERS[1:-1], LAYERS[2:])]


def initial_params(seed):
    """Weights and biases uniform in +-2.4 / F_i, the first layer's absent connections 0."""
    rng = np.random.default_rng(seed)
    mask = window_mask()
    ws, bs = [], []
    for l, f in enumerate(fan_ins()):
        bound = 2.4 / f
        w = rng.uniform(-1, 1, (LAYERS[l], LAYERS[l + 1])) * bound
        if l == 0:
            w = w * mask
        ws.append(w)
        bs.append(rng.uniform(-1, 1, LAYERS[l + 1]) * bound)
    return ws, bs


def unit_rates():
    """Each unit's learning rate: ETA * LAYER_RATE[l] / sqrt(fan-in)."""
    return [ETA * rate / np.sqrt(f) for rate, f in zip(LAYER_RATE, fan_ins())]


def jax_outputs(params, x):
    """The net's outputs in JAX (the reference for :meth:`CornerNet.outputs`)."""
    import jax.numpy as jnp
    ws, bs = params
    y = x
    for w, b in zip(ws[:-1], bs[:-1]):
        y = jnp.tanh(y @ w + b)
    return 1.0 / (1.0 + jnp.exp(-(y @ ws[-1] + bs[-1])))


def targets(dead):
    """(alive, dead) targets: (1, 0) alive, (0, 1) dead."""
    dead = np.asarray(dead, dtype=np.float64)
    return np.stack([1.0 - dead, dead], axis=1)


def test_figures(net, x, xt, dead):
    """Table 5.5's columns on patterns: total and mean SSE (the outputs averaged over the
    pattern and its reflection, as the engine uses them), wrong decisions (SSE above 0.3) and
    the share correct; also the share whose larger output is right."""
    out = (net.outputs(x) + net.outputs(xt)) / 2.0
    sse = ((out - targets(dead)) ** 2).sum(axis=1)
    wrong = int((sse > CONFIDENT_SSE).sum())
    n = len(dead)
    return {"patterns": n, "total_sse": float(sse.sum()), "average_sse": float(sse.mean()) if n else None,
            "wrong": wrong, "correct": (n - wrong) / n if n else None,
            "decision_correct": float(((out[:, 1] > out[:, 0]) == np.asarray(dead)).mean()) if n else None}


def train(x, dead, x_val, xt_val, dead_val, epochs=EPOCHS, seed=0, echo=None):
    """A :class:`CornerNet` trained on ``x`` (already with the reflections) by minibatch
    backpropagation; the epoch with the smallest validation SSE is kept."""
    require("train", "mcgo learn corner")
    import jax
    import jax.numpy as jnp
    mask = jnp.asarray(window_mask())
    rates = [jnp.asarray(r) for r in unit_rates()]
    ws, bs = initial_params(seed)
    params = ([jnp.asarray(w) for w in ws], [jnp.asarray(b) for b in bs])

    def loss(p, xb, tb):
        return ((jax_outputs(p, xb) - tb) ** 2).sum(axis=1).mean()

    @jax.jit
    def step(p, xb, tb):
        gw, gb = jax.grad(loss)(p, xb, tb)
        new_w = [w - r[None, :] * g for w, r, g in zip(p[0], rates, gw)]
        new_w[0] = new_w[0] * mask
        new_b = [b - r * g for b, r, g in zip(p[1], rates, gb)]
        return new_w, new_b

    rng = np.random.default_rng(seed)
    t = targets(dead)
    xs = np.asarray(x, dtype=np.float64)
    best, best_sse, best_epoch = None, np.inf, 0
    for epoch in range(epochs):
        order = rng.permutation(len(xs))
        for start in range(0, len(order), BATCH):
            idx = order[start:start + BATCH]
            params = step(params, xs[idx], t[idx])
        net = CornerNet([np.asarray(w) for w in params[0]], [np.asarray(b) for b in params[1]])
        sse = test_figures(net, x_val, xt_val, dead_val)["total_sse"]
        if sse < best_sse:
            best, best_sse, best_epoch = net, sse, epoch + 1
        if echo and (epoch + 1) % 25 == 0:
            echo(f"epoch {epoch + 1}: validation SSE {sse:.3f} (best {best_sse:.3f} at {best_epoch})")
    best.metadata.update(epochs=epochs, best_epoch=best_epoch, validation_sse=best_sse)
    return best


def labelled(arrays, parts, labels, before=None):
    """Rows of the ``parts`` splits with their label: ``agree`` keeps the patterns both judges
    agree on (GNU Go's verdict), ``gnugo`` keeps all with GNU Go's verdict; ``before`` (move
    counts) keeps the positions that many moves before the end."""
    keep = np.isin(arrays["split"], parts)
    if before is not None:
        keep &= np.isin(arrays["before"], list(before))
    if labels == "agree":
        keep &= arrays["gnugo_dead"] == arrays["mcgo_dead"]
    return (arrays["x"][keep].astype(np.float64), arrays["xt"][keep].astype(np.float64),
            arrays["gnugo_dead"][keep])


# ---------------------------------------------------------------------------------------------
# Commands

@click.command("corner-patterns")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-o", "--output", type=OutputFile(), required=True, help="Pattern file to write (.npz).")
@click.option("--gnugo", default=None, help="GNU Go's command line (default: GNU Go 3.8 as for matches).")
@click.option("--playouts", type=click.IntRange(100), default=STATUS_PLAYOUTS, show_default=True,
              help="Playouts of mcgo's judge.")
@click.option("--before", "before_text", default="0", show_default=True, metavar="K,K,...",
              help="Also the positions K moves before the end (0: the final position, the "
                   "thesis's), labelled by the verdicts at the end.")
def corner_patterns_command(games, output, gnugo, playouts, before_text):
    """Corner groups of the final positions of counted 19x19 games in GAMES (SGF files or
    folders), labelled alive or dead by GNU Go and by mcgo's playout judge. The file is
    written after every game; run again with the same output to go on where it stopped."""
    from ..match.opponents import gnugo_command
    from ..sgf.reading import SGF_SUFFIXES
    paths = []
    for g in games:
        p = pathlib.Path(g)
        paths += sorted(q for q in p.rglob("*") if q.suffix.lower() in SGF_SUFFIXES) if p.is_dir() else [p]
    if not paths:
        raise click.BadParameter("no SGF files", param_hint="GAMES")
    try:
        before = sorted({int(k) for k in before_text.split(",")})
    except ValueError:
        raise click.BadParameter(f"{before_text!r} is not a list of move counts", param_hint="--before") from None
    if before[0] < 0:
        raise click.BadParameter("move counts must be 0 or more", param_hint="--before")
    previous = None
    if pathlib.Path(output).exists():
        try:
            arrays, meta = load_patterns(output)
        except ValueError as e:
            raise click.BadParameter(f"{e}; it would be overwritten", param_hint="--output") from None
        if (meta.get("playouts"), meta.get("before", [0])) != (playouts, before):
            raise click.BadParameter(f"{output} was made with --playouts {meta.get('playouts')} "
                                     f"--before {','.join(map(str, meta.get('before', [0])))}",
                                     param_hint="--playouts/--before")
        previous = (arrays, meta["games"], meta["skipped"])
        click.echo(f"resuming {output}: {len(meta['games'])} games done", err=True)

    def checkpoint(arrays, names, skipped):
        save_patterns(output, arrays, names, {"playouts": playouts, "skipped": skipped,
                                              "before": before})

    arrays, names, skipped = collect_patterns(paths, gnugo or gnugo_command(), playouts,
                                              echo=lambda s: click.echo(s, err=True),
                                              checkpoint=checkpoint, previous=previous,
                                              before=before)
    for reason in skipped:
        click.echo(f"skipped {reason}", err=True)
    agree = int((arrays["gnugo_dead"] == arrays["mcgo_dead"]).sum())
    checkpoint(arrays, names, skipped)
    click.echo(f"wrote {output}: {len(arrays['x'])} patterns from {len(names)} counted games "
               f"({agree} where the judges agree), {len(skipped)} skipped")


def merge_patterns(loaded):
    """One ``(arrays, games)`` of several pattern files' ``(arrays, metadata)``: a game in
    two files counts once."""
    rows = {k: [] for k in PATTERN_ARRAYS}
    games, index = [], {}
    for arrays, meta in loaded:
        local = []
        for name in meta["games"]:
            if name not in index:
                index[name] = len(games)
                games.append(name)
                local.append(True)
            else:
                local.append(False)
        keep = np.array([local[g] for g in arrays["game"]], dtype=bool)
        renumber = np.array([index[n] for n in meta["games"]], dtype=np.int32)
        for k in PATTERN_ARRAYS:
            column = arrays[k][keep]
            rows[k].append(renumber[column] if k == "game" else column)
    return {k: np.concatenate(v) for k, v in rows.items()}, games


@click.command("corner")
@click.argument("patterns", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=OutputFile(), required=True, help="Net file to write (.npz).")
@click.option("--labels", type=click.Choice(["agree", "gnugo"]), default="agree", show_default=True,
              help="Train on the patterns both judges agree on, or on all with GNU Go's verdict.")
@click.option("--before", "before_text", default=None, metavar="K,K,...",
              help="Train on the positions K moves before the end only (default: all in the files).")
@click.option("--epochs", type=click.IntRange(1), default=EPOCHS, show_default=True,
              help="Passes over the training patterns (the best on validation is kept).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the initial weights and the order of the patterns.")
@click.option("--json", "json_path", type=OutputFile(), default=None,
              help="Also write the figures (Table 5.5's columns) as JSON.")
def corner_command(patterns, output, labels, before_text, epochs, seed, json_path):
    """Train seed 004's 128-150-70-40-30-2 corner net on PATTERNS (files of mcgo learn
    corner-patterns): train split to learn, validation split to choose the epoch, test split
    (patterns both judges agree on; the final positions as the thesis, and each --before of
    the files) to report."""
    from ..models.cfg_scorer import now
    from .provenance import git_commit
    require("train", "mcgo learn corner")
    try:
        arrays, games = merge_patterns([load_patterns(p) for p in patterns])
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="PATTERNS") from None
    before = None
    if before_text is not None:
        try:
            before = sorted({int(k) for k in before_text.split(",")})
        except ValueError:
            raise click.BadParameter(f"{before_text!r} is not a list of move counts",
                                     param_hint="--before") from None
    x, xt, dead = labelled(arrays, ["train"], labels, before)
    xv, xtv, deadv = labelled(arrays, ["validation"], "agree", before)
    xe, xte, deade = labelled(arrays, ["test"], "agree", [0])
    if len(x) == 0 or len(xv) == 0:
        raise click.BadParameter("no training or validation patterns", param_hint="PATTERNS")
    started = time.perf_counter()
    net = train(np.concatenate([x, xt]), np.concatenate([dead, dead]), xv, xtv, deadv,
                epochs=epochs, seed=seed, echo=lambda s: click.echo(s, err=True))
    seconds = time.perf_counter() - started
    figures = {"labels": labels, "train_patterns": int(len(x)), "train_dead": int(dead.sum()),
               "before": before, "validation": test_figures(net, xv, xtv, deadv),
               "test": test_figures(net, xe, xte, deade),
               "test_by_before": {int(k): test_figures(net, *labelled(arrays, ["test"], "agree", [k]))
                                  for k in np.unique(arrays["before"])},
               "seconds": round(seconds, 1)}
    test_games = sorted({pathlib.Path(games[g]).name
                         for g in np.unique(arrays["game"][arrays["split"] == "test"])})
    net.metadata.update(figures, data=[pathlib.Path(p).name for p in patterns],
                        pattern_games=len(games), seed=seed,
                        test_games=test_games,
                        eta=ETA, layer_rate=list(LAYER_RATE), batch=BATCH, commit=git_commit(), date=now())
    net.save(output)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(figures, f, indent=1)
    t = figures["test"]
    tested = (f"total SSE {t['total_sse']:.2f}, wrong {t['wrong']}, correct {t['correct']:.2%}"
              if t["patterns"] else "none in the test split")
    click.echo(f"wrote {output}: {figures['train_patterns']} training patterns ({labels}); test "
               f"patterns: {t['patterns']}, {tested}")
