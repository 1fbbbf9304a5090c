#!/usr/bin/env bash
# The 9x9 games of issue 17 (seed 002's evaluator) beside the A/B matches' games: mcgo,
# GNU Go and Pachi at several strengths, komi 7, GNU Go referee. Resumable: run it again.
#   tools/make_9x9_games.sh OUT_DIR [JOBS]
# The first five matches and most of the sixth were played before --model auto (mcgo's 9x9 default
# since commit 2899c21); add --model none to mcgo:... to repeat them exactly. The lgrf policy of
# m2000l-m2000 left mcgo at issue 45 (commit cf96a27 has it): that match resumes only there.
# Pachi is $MCGO_PACHI or pachi on PATH (see the README). Then: mcgo learn extract OUT_DIR ... --size 9
set -euo pipefail
out=${1:?usage: tools/make_9x9_games.sh OUT_DIR [JOBS]}
jobs=${2:-2}
match() {  # name games engine opponent
  local dir=$out/$1 n=$2 resume=()
  [ -f "$dir/results.json" ] && resume=(--resume)
  python -m mcgo match --engine "$3" --opponent "$4" -n "$n" --size 9 --komi 7 -j "$jobs" \
      --out "$dir" "${resume[@]}"
}
match m1000-g1 150 "mcgo:--playouts 1000" gnugo:1
match m1000-pachi2000 300 "mcgo:--playouts 1000" "pachi:-t =2000"
match m300-m3000 300 "mcgo:--playouts 300" "mcgo:--playouts 3000"
match m1000-g5 150 "mcgo:--playouts 1000" gnugo:5
match m3000t-g3 150 "mcgo:--playouts 3000 --policy tactical" gnugo:3
match m500-m1500t 200 "mcgo:--playouts 500" "mcgo:--playouts 1500 --policy tactical"
match m2000l-m2000 150 "mcgo:--playouts 2000 --policy lgrf" "mcgo:--playouts 2000 --model default"
match g8-pachi1000 100 gnugo:8 "pachi:-t =1000"
match m1000-g10 70 "mcgo:--playouts 1000" gnugo:10
match m300-m1000n 130 "mcgo:--playouts 300" "mcgo:--playouts 1000 --model none"
