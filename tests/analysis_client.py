"""A client of ``mcgo analysis`` for the tests: the engine in a subprocess, queries written
as JSON lines, answers read back as they come (a reader thread), stderr kept."""

import json
import os
import queue
import subprocess
import sys
import threading
import time


class AnalysisClient:
    def __init__(self, *args):
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        self.process = subprocess.Popen([sys.executable, "-m", "mcgo", "analysis", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env)
        self.answers = queue.Queue()
        self.stderr = []
        self.readers = [threading.Thread(target=self._read, args=(stream, sink), daemon=True)
                        for stream, sink in ((self.process.stdout, self._answer),
                                             (self.process.stderr, self.stderr.append))]
        for t in self.readers:
            t.start()

    @staticmethod
    def _read(stream, sink):
        for line in stream:
            sink(line.rstrip("\n"))

    def _answer(self, line):
        self.answers.put(json.loads(line))      # every stdout line must be JSON

    def send(self, query):
        self.process.stdin.write((query if isinstance(query, str) else json.dumps(query)) + "\n")
        self.process.stdin.flush()

    def next(self, timeout=120):
        return self.answers.get(timeout=timeout)

    def collect(self, done, timeout=180):
        """Answers until ``done(answers)`` holds (or the time is up: AssertionError)."""
        answers, end = [], time.monotonic() + timeout
        while not done(answers):
            left = end - time.monotonic()
            assert left > 0, f"timed out after {len(answers)} answers: {answers[-3:]}"
            try:
                answers.append(self.answers.get(timeout=left))
            except queue.Empty:
                pass
        return answers

    def finals(self, ids, timeout=180):
        """Answers until every id of ``ids`` has its final (not during search) answer or
        error; returns all answers read."""
        ids = set(ids)

        def done(answers):
            return ids <= {a.get("id") for a in answers
                           if a.get("isDuringSearch") is False or "error" in a}
        return self.collect(done, timeout)

    def close(self, timeout=60):
        """Close stdin, wait for the engine to exit; its exit status."""
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for t in self.readers:        # every line the engine wrote is read
            t.join(timeout)
        return self.process.returncode
