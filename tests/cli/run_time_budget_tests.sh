#!/usr/bin/env bash
# scripts/test-time-budget.py: passes a report whose tests all fit the budget, fails one with a
# test over it (naming the test), and refuses a report it cannot read.
# Usage: run_time_budget_tests.sh SOURCE_DIR
set -u
budget="$1/scripts/test-time-budget.py"
# $work, fail, run, contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"
report() {  # report FILE NAME SECONDS...: a CTest JUnit report, one test case per pair
  local file=$1; shift
  { echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<testsuite name="t" tests="2" failures="0" time="0">'
    while [ $# -gt 0 ]; do echo "<testcase name=\"$1\" classname=\"$1\" time=\"$2\" status=\"run\"/>"; shift 2; done
    echo '</testsuite>'; } > "$file"
}
report "$work/fit.xml" quick 1.5 "a, slow one" 299.9
run 0 "all within 300 s" -- python3 "$budget" "$work/fit.xml" 300 &&
  contains "slowest listed first" "$out" "slowest: a, slow one 299.9 s, quick 1.5 s"
report "$work/over.xml" quick 1.5 "too slow" 300.5
run 1 "one over 300 s" -- python3 "$budget" "$work/over.xml" 300 &&
  contains "names the test" "$err" "too slow took 300.5 s, over the 300 s budget"
run 0 "a larger budget" -- python3 "$budget" "$work/over.xml" 400
printf 'not xml' > "$work/bad.xml"
run 2 "unreadable report" -- python3 "$budget" "$work/bad.xml"
report "$work/empty.xml"
run 2 "no test case" -- python3 "$budget" "$work/empty.xml"
finish
