#!/bin/sh
# Smoke test of `make dist` (not part of `make test`: it takes minutes and a package index).
#
# Clones the repository (its committed state) into a temporary folder, runs `make dist` there
# (a fresh .venv, PyInstaller), then starts the executable headless from another directory with
# --screenshot, twice, and checks the picture. Prints the executable's size and start-up times;
# the last line is one JSON object.
#
# Usage: tools/dist_smoke.sh [REPO]   (default: the repository this script is in)
set -eu
REPO=$(cd "${1:-$(dirname "$0")/..}" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mor-dist-smoke.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "== clean clone of $REPO in $WORK"
git clone --quiet "$REPO" "$WORK/clone"
cd "$WORK/clone"
start=$(date +%s)
make dist PYTHON="${PYTHON:-python3}" > "$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; exit 1; }
built=$(( $(date +%s) - start ))
BIN="$WORK/clone/dist/masters-of-renaissance"
test -x "$BIN"
test -s "$WORK/clone/dist/masters-of-renaissance.png"
grep -q '^Exec=' "$WORK/clone/dist/masters-of-renaissance.desktop"
mkdir -p "$WORK/elsewhere" "$WORK/home"
cd "$WORK/elsewhere"
times=""
for run in 1 2; do
    t0=$(date +%s.%N)
    env -u DISPLAY HOME="$WORK/home" XDG_DATA_HOME="$WORK/home/data" XDG_CONFIG_HOME="$WORK/home/config" \
        "$BIN" --screenshot "$WORK/elsewhere/title-$run.png"
    t1=$(date +%s.%N)
    times="$times $(echo "$t1 - $t0" | bc)"
    test -s "$WORK/elsewhere/title-$run.png"
done
# the computer players think in a worker process of the executable (freeze_support), not on a thread
bots=$(env -u DISPLAY HOME="$WORK/home" XDG_DATA_HOME="$WORK/home/data" XDG_CONFIG_HOME="$WORK/home/config" \
    "$BIN" --check-bots 12 | tail -1)
echo "three hard bots, 12 moves: $bots"
echo "$bots" | grep -q '"mode": "processes"'
bot_s=$(echo "$bots" | sed 's/.*"seconds": \([0-9.]*\).*/\1/')
size=$(stat -c %s "$BIN")
first=$(echo $times | cut -d' ' -f1)
second=$(echo $times | cut -d' ' -f2)
echo "executable: $size bytes; build ${built} s; start-up with --screenshot: first ${first} s, second ${second} s"
printf '{"dist_bytes": %s, "dist_mb": %.1f, "build_s": %s, "startup_first_s": %.2f, "startup_second_s": %.2f, "check_bots_s": %s}\n' \
    "$size" "$(echo "$size / 1048576" | bc -l)" "$built" "$first" "$second" "$bot_s"
