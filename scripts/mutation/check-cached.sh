#!/usr/bin/env bash
# The fast stage of scripts/mutate-checker.sh, second half: the product certificates the
# unmutated producer wrote to DIR. NAME.cert must verify (exit 0, "s VERIFIED"); NAME.plus1.cert
# (its claim raised by one) must be refused (exit 1, "s NOT VERIFIED"). Stops at the first
# failure with "FAIL NAME: ...".
# Usage: check-cached.sh CHECKER DIR
set -u
checker=$1
dir=$2
count=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for cert in "$dir"/*.cert; do
  [ -e "$cert" ] || continue
  name=$(basename "$cert" .cert)
  case $name in
    *.plus1) want_exit=1; want="s NOT VERIFIED" ;;
    *) want_exit=0; want="s VERIFIED" ;;
  esac
  "$checker" "$cert" > "$out" 2>/dev/null
  got=$?
  status=$(grep '^s ' "$out")
  if [ "$got" -ne "$want_exit" ] || [ "$status" != "$want" ]; then
    echo "FAIL cached/$name: exit $got, status '$status'; expected exit $want_exit, '$want'"
    exit 1
  fi
  count=$((count + 1))
done
echo "$count cached certificates as expected"
