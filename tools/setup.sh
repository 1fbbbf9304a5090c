#!/usr/bin/env bash
# Install mcgo with everything its tests and benchmarks use: the Python package (editable,
# with the test and katrain extras), GNU Go 3.8 (the reference opponent and referee), and the 596
# professional games of Debian's goban-original-games (GPL-2+) unpacked under data/.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi

if command -v apt-get >/dev/null; then
  if ! [ -x /usr/games/gnugo ] || ! apt-cache policy goban-original-games >/dev/null 2>&1; then
    $SUDO apt-get update -qq
  fi
  [ -x /usr/games/gnugo ] || $SUDO apt-get install -y -qq gnugo
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

python -m pip install -q -e '.[test,katrain]'
python -m mcgo warmup      # compile the Numba kernels once, into the cache
