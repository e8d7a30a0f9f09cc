#!/usr/bin/env bash
# Integer options given out of range are refused with exit 2 and the accepted range, never
# clamped: CLI11 alone reads "--seed -1" and "--seed 99999999999999999999" as 2^64-1 and
# "--failures -1" as "list all". The sweep takes every option whose --help type is UINT, in
# every subcommand and nested subcommand, so an option added later is covered too.
# Usage: run_option_range_tests.sh KERNELRANK
set -u
kr=$1
. "$(dirname "$0")/test_lib.sh"
max=18446744073709551615

subcommands() { "$kr" "$@" --help | awk '/^Subcommands:/ {s = 1; next} s && NF {print $1}'; }
unsigned_options() { "$kr" "$@" --help | grep -oE -- '--[a-z0-9-]+ UINT' | awk '{print $1}'; }

swept=0
sweep() {
  local option value
  for option in $(unsigned_options "$@"); do
    for value in -1 18446744073709551616 99999999999999999999999 -18446744073709551615; do
      swept=$((swept + 1))
      run 2 "$* $option $value" -- timeout 60 "$kr" "$@" "$option" "$value" || continue
      contains "$* $option $value" "$err" "$option: must be in 0..$max, not $value"
    done
  done
}
for sub in $(subcommands); do
  [ "$sub" = train ] && continue  # forwarded to kernelrank-train, which shares run_cli
  sweep "$sub"
  for nested in $(subcommands "$sub"); do sweep "$sub" "$nested"; done
done
# The sweep must have found the options the findings name (a broken --help parse finds none).
count=$((count + 1))
[ "$swept" -ge 80 ] || fail "only $swept out-of-range values tried: the UINT sweep found too few options"
for known in "eval --failures" "bound --seed" "bound --words" "instances --limit" "bench bound --words"; do
  count=$((count + 1))
  # shellcheck disable=SC2086
  unsigned_options ${known% *} | grep -qx -- "${known##* }" || fail "sweep misses $known"
done

# --r is signed with -1 meaning "not given": a given -1 was read as absent (exit 0).
run 2 "bound --r -1" -- "$kr" bound --m 8 --r -1
contains "bound --r -1" "$err" "--r: must be in 0..9223372036854775807, not -1"
run 2 "bound --r past 2^63-1" -- "$kr" bound --m 8 --r 99999999999999999999
contains "bound --r past 2^63-1" "$err" "--r: must be in 0..9223372036854775807"

# The ends of the range are still accepted: 2^64-1 as a seed, 0 failures listed.
run 0 "bound --seed 2^64-1" -- "$kr" bound --m 8 --seed "$max"
run 0 "instances --limit 2^64-1" -- "$kr" instances --m 2 --n 3 --limit "$max"
run 0 "bound --r 0 (no model has 0 features: ruled out)" -- "$kr" bound --m 8 --r 0
finish
