#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, JOBS at a time (default: the number of cores),
# through scripts/fuzz.sh, then prints one Markdown table row per target from the logs
# (executions, executions per second, coverage, corpus size, peak memory, outcome).
#   scripts/fuzz-all.sh SECONDS [JOBS]
# Exit status: 0 when no target had a finding. See docs/robustness.md.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then echo "usage: scripts/fuzz-all.sh SECONDS [JOBS]" >&2; exit 2; fi
seconds=$1 jobs=${2:-$(nproc)}
mapfile -t targets < <(scripts/fuzz.sh list)
# Build every target once before the parallel runs, so they do not build concurrently.
scripts/fuzz.sh "${targets[0]}" 1 >/dev/null 2>&1 || true
cmake --build build-fuzz --target "${targets[@]}" -j"$(nproc)" >/dev/null

printf '%s\n' "${targets[@]}" |
  xargs -P "$jobs" -I{} sh -c 'scripts/fuzz.sh "$1" "$2" >/dev/null 2>&1; echo "$1 exit $?"' _ {} "$seconds"

status=0
echo "| target | seconds | executions | exec/s | coverage (cov) | corpus | peak RSS MB | outcome |"
echo "|--------|--------:|-----------:|-------:|---------------:|-------:|------------:|---------|"
for target in "${targets[@]}"; do
  log=build-fuzz/logs/$target.log
  stat() { sed -n "s/^stat::$1:[[:space:]]*//p" "$log" | tail -1; }
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$done_line")
  outcome="no finding"
  if [ -z "$done_line" ] || grep -qE '^==[0-9]+==(ERROR|WARNING)|^SUMMARY|deadly signal|Test unit written' "$log"; then
    outcome="FINDING (see $log)"
    status=1
  fi
  echo "| \`$target\` | $seconds | $(stat number_of_executed_units) | $(stat average_exec_per_sec) | $cov | $corp | $(stat peak_rss_mb) | $outcome |"
done
exit "$status"
