"""A game of ``mcgo play`` in a real terminal (tmux), saved as ``play_transcript.txt``.

Starts ``python -m mcgo play --size 9 --playouts 30 --seed 1`` in a detached tmux session
(its own tmux server, so a running one is not touched), types the moves below with
``tmux send-keys``, then plays the engine's hints (``hint``, then the move it gave) until
the game is over, and writes everything the terminal
showed (``tmux capture-pane`` with the scrollback) to the transcript. Rerun::

    python benchmarks/transcripts/play_transcript.py            # writes benchmarks/transcripts/play_transcript.txt

tests/test_play.py drives the same :class:`Tmux` class.
"""

import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "benchmarks" / "transcripts" / "play_transcript.txt"
COMMAND = [sys.executable, "-m", "mcgo", "play", "--size", "9", "--playouts", "30",
           "--seed", "1"]
WIDTH, HEIGHT = 100, 50
PROMPT = "your move (help for the commands)>"      # mcgo play's prompt
HINT = "hint: "
GAME_OVER = "result:"
TYPED = ["E5", "hint", "C3", "undo", "d3", "z1", "score"]    # then the hints, to the end
MAX_MOVES = 150                     # the hints get this many moves to finish the game
REPLY_SECONDS = 60.0                # the most one answer may take (a cold Numba cache compiles)
TMUX_CONFIG = "set -g history-limit 100000\nset -g remain-on-exit on\n"


class Tmux:
    """One detached tmux session running ``command`` on a tmux server of its own."""

    def __init__(self, command, name="mcgo-play", width=WIDTH, height=HEIGHT, cwd=ROOT):
        self.name = name
        self.socket = f"{name}-{os.getpid()}"
        self.command = command
        self.width, self.height, self.cwd = width, height, cwd
        self.config = None

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True).stdout

    def start(self):
        with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
            f.write(TMUX_CONFIG)
            self.config = f.name
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
        subprocess.run(["tmux", "-L", self.socket, "-f", self.config, "new-session", "-d",
                        "-s", self.name, "-x", str(self.width), "-y", str(self.height),
                        "-c", str(self.cwd), shlex.join(self.command)],
                       check=True, env=env)
        return self

    def type(self, text):
        """Type ``text`` and Enter, as a person at the keyboard."""
        self.tmux("send-keys", "-t", self.name, "-l", text)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def screen(self, history=False):
        """What the terminal shows now (with ``history``: everything it has shown)."""
        extra = ["-S", "-"] if history else []
        return self.tmux("capture-pane", "-p", "-t", self.name, *extra)

    def wait_for(self, text, count=1, timeout=REPLY_SECONDS):
        """The whole scrollback once ``text`` appears in it ``count`` times (or the game
        has ended); raises TimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen(history=True)
            if shown.count(text) >= count or (text != GAME_OVER and GAME_OVER in shown):
                return shown
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {text!r} (x{count}) on the screen after {timeout:g} s:"
                                   f"\n{shown}")
            time.sleep(0.1)

    def close(self):
        try:
            self.tmux("kill-server")
        except subprocess.CalledProcessError:
            pass
        if self.config:
            os.remove(self.config)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()


def last_hint(shown):
    """The move of the last ``hint: D5 (...)`` line on the screen."""
    hints = [line.split()[1] for line in shown.splitlines() if line.startswith(HINT)]
    return hints[-1]


def play_game(session, typed=TYPED, max_moves=MAX_MOVES):
    """Type ``typed`` at the prompts, then play the engine's hints (``hint``, then its
    move) until the game is over; returns the scrollback."""
    prompts = 1
    shown = session.wait_for(PROMPT, prompts)

    def answer(text):
        nonlocal prompts, shown
        session.type(text)
        prompts += 1
        shown = session.wait_for(PROMPT, prompts)

    for text in typed:
        answer(text)
    for _ in range(max_moves):
        if GAME_OVER in shown:
            break
        answer("hint")
        answer(last_hint(shown))
    return session.wait_for(GAME_OVER, timeout=5)


def main():
    if shutil.which("tmux") is None:
        sys.exit("tmux is not installed")
    with Tmux(COMMAND) as session:
        shown = play_game(session)
    lines = shown.rstrip().splitlines()
    header = f"$ {shlex.join(['mcgo'] + COMMAND[3:])}   (tmux {WIDTH}x{HEIGHT})"
    TRANSCRIPT.write_text("\n".join([header] + [line.rstrip() for line in lines]) + "\n",
                          encoding="utf-8")
    print(f"wrote {TRANSCRIPT.relative_to(ROOT)} ({len(lines)} lines)")


if __name__ == "__main__":
    main()
