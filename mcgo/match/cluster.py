# SPDX-License-Identifier: GPL-3.0-or-later
"""A match's games as Ray tasks (``mcgo match --ray auto|ADDRESS``; ``pip install mcgo-engine[cluster]``).

Each pending game is one task (:func:`mcgo.match.runner.play_on_worker_seats`: one CPU;
the engines run on the worker's machine, started by its first game and kept for its next). Finished games stream back to the driver as
they end, and the driver keeps them exactly as the local path does (:meth:`Match.save`:
SGF, results.json, results.csv), so ``--resume`` works alike. A task that fails (its
worker died, its node left) is tried :data:`RETRIES` more time(s); after that the game is
left pending for ``--resume``, and the other games go on.

``auto`` connects to a running cluster (``ray start --head``) or, when there is none,
starts a local runtime on this machine (one game per CPU at a time). A runtime that the
caller already started (``ray.init(num_cpus=2)``) is used as it is. The workers import
mcgo, so the nodes of a cluster need it installed (``pip install mcgo-engine[cluster]``), and the
engines' commands must work on every node. A cluster that ``ray start`` began with token
authentication (Ray's default in recent releases) takes a ``HOST:PORT`` connection only with
``RAY_AUTH_MODE=token`` in the environment (``auto`` finds the token on the head node).

    mcgo match --engine mcgo --opponent gnugo:1 --games 100 --ray auto --out runs/m
"""

import socket
import time

import click

from ..extras import install_hint

RETRIES = 1                # a game whose task fails is tried once more
QUIET_RAY = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
INSTALL_HINT = install_hint("cluster")
REACH_TIMEOUT = 5.0        # seconds to open a TCP connection to a cluster's HOST:PORT


class RayMissing(RuntimeError):
    """``--ray`` was asked for but Ray is not installed."""


class ClusterUnreachable(click.ClickException):
    """No Ray cluster answers at the address given: one line, exit status 2, no game played."""
    exit_code = 2


def require_ray():
    """The ``ray`` module, or :class:`RayMissing` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise RayMissing(f"--ray needs Ray: {INSTALL_HINT}") from exc
    return ray


def check_reachable(address):
    """Raise :class:`ClusterUnreachable` unless ``address`` (``auto``, ``HOST:PORT`` or
    ``ray://HOST:PORT``) takes a TCP connection: Ray itself would wait minutes for it.

    >>> check_reachable("auto")
    >>> check_reachable("127.0.0.1:1")
    Traceback (most recent call last):
    ...
    mcgo.match.cluster.ClusterUnreachable: --ray 127.0.0.1:1: nothing answers there (Connection refused)
    """
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not (host and port.isdigit()):
        raise ClusterUnreachable(f"--ray takes auto or HOST:PORT (or ray://HOST:PORT), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT).close()
    except OSError as exc:
        raise ClusterUnreachable(f"--ray {address}: nothing answers there "
                                 f"({exc.strerror or type(exc).__name__})") from exc


def connect(address):
    """Connect to Ray at ``address`` (``auto``: a running cluster, else a new local runtime).

    Returns (ray module, whether we started the connection and must shut it down)."""
    ray = require_ray()
    if ray.is_initialized():
        return ray, False
    if address == "auto":
        try:
            ray.init(address="auto", **QUIET_RAY)
        except ConnectionError:  # no cluster running: start one here
            ray.init(**QUIET_RAY)
    else:
        try:
            ray.init(address=address, **QUIET_RAY)
        except ConnectionError as exc:
            raise ClusterUnreachable(f"--ray {address}: {first_line(exc)} (a cluster with token "
                                     "authentication needs RAY_AUTH_MODE=token)") from exc
    return ray, True


def run_on_ray(match, pending, address, play, stop=None):
    """Play ``pending`` games of ``match`` as Ray tasks, saving each as it finishes;
    ``play(setup, game_id)`` plays one game (the runner's, passed in: the runner calls
    this module, not the other way round). No more games are in flight than the cluster
    has CPUs, and once ``stop()`` is true (a decided SPRT) no new one starts; those under
    way finish and are kept."""
    ray, started = connect(address)
    task = ray.remote(num_cpus=1, max_retries=0)(play)
    setup = ray.put(match.setup)
    attempts, running, started_at = {}, {}, {}
    waiting = list(pending)
    window = max(1, int(ray.cluster_resources().get("CPU", 1)))
    # A task that neither returns nor fails (a worker lost without Ray noticing) would hold
    # the match for ever: past a healthy game's longest time it counts as failed.
    limit = match.settings.game_timeout()

    def submit(game_id):
        attempts[game_id] = attempts.get(game_id, 0) + 1
        ref = task.remote(setup, game_id)
        running[ref], started_at[ref] = game_id, time.monotonic()

    def top_up():
        while waiting and len(running) < window and not (stop and stop()):
            submit(waiting.pop(0))

    def failed(game_id, why):
        if attempts[game_id] <= RETRIES:
            match.log(f"game {game_id}: its task failed ({why}); trying again")
            submit(game_id)
        else:
            match.not_played(game_id, f"its task failed {attempts[game_id]} times: {why}")

    try:
        top_up()
        while running:
            oldest = min(started_at[ref] for ref in running)
            wait = max(0.0, oldest + limit - time.monotonic())
            ready, _ = ray.wait(list(running), num_returns=1, timeout=wait)
            if not ready:
                for ref in [r for r in running if time.monotonic() - started_at[r] >= limit]:
                    ray.cancel(ref, force=True)
                    game_id = running.pop(ref)
                    failed(game_id, f"no result within {limit:g} s, the longest a game may take")
                continue
            (ref,) = ready
            game_id = running.pop(ref)
            try:
                record, sgf_bytes = ray.get(ref)
            except ray.exceptions.RayError as exc:
                failed(game_id, exc if attempts[game_id] > RETRIES else first_line(exc))
                continue
            match.save(record, sgf_bytes)
            top_up()
    finally:
        for ref in running:  # interrupted: stop the games still running
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
