#!/usr/bin/env bash
# Install mcgo with everything its tests and benchmarks use: the Python package (editable,
# with the test and katrain extras), GNU Go 3.8 (the reference opponent and referee), the 596
# professional games of Debian's goban-original-games (GPL-2+) unpacked under data/,
# Chromium (the review page opened headless) and Sabaki's GTP and SGF libraries from npm
# (the GTP client and the SGF parser Sabaki uses) in a cache folder.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi

if command -v apt-get >/dev/null; then
  if ! [ -x /usr/games/gnugo ] || ! command -v chromium >/dev/null \
      || ! apt-cache policy goban-original-games >/dev/null 2>&1; then
    $SUDO apt-get update -qq
  fi
  [ -x /usr/games/gnugo ] || $SUDO apt-get install -y -qq gnugo
  command -v chromium >/dev/null || $SUDO apt-get install -y -qq chromium
  if ! [ -d data/goban-original-games/usr/share/goban ]; then
    mkdir -p data/goban-original-games
    tmp=$(mktemp -d)
    (cd "$tmp" && apt-get download goban-original-games)
    dpkg -x "$tmp"/goban-original-games_*.deb data/goban-original-games
    rm -rf "$tmp"
  fi
else
  echo "setup: no apt-get; install GNU Go 3.8 and goban-original-games yourself" >&2
fi

if command -v npm >/dev/null; then
  npm install --silent --prefix "${MCGO_JS_CACHE:-$HOME/.cache/mcgo-js}" --no-audit --no-fund \
    @sabaki/gtp@3 @sabaki/sgf@3
else
  echo "setup: no npm; install node 20 and npm for the tests that read mcgo with Sabaki's libraries" >&2
fi

python -m pip install -q -e '.[test,katrain]'
python -m mcgo warmup      # compile the Numba kernels once, into the cache
