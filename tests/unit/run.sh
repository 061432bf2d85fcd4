#!/bin/sh
# run.sh: run every unit test binary given as an argument; one summary line.
# Tests run in a scratch folder under $O (or /tmp) that they may write to;
# UNIT_SCRATCH names another one (check-asan runs alongside `make unit`).
# UNIT_EXEC runs each binary through a program (qemu-arm-static for the
# cross-built tests of `make unit-cross`).
set -eu
data=$(cd "$(dirname "$0")" && pwd)/data
scratch=${UNIT_SCRATCH:-${O:-/tmp}/tests/unit/scratch}
rm -rf "$scratch"; mkdir -p "$scratch"
pass=0; fail=0; failed=
for t in "$@"; do
	if (cd "$scratch" && FSB_TESTDATA="$data" ${UNIT_EXEC:+"$UNIT_EXEC"} "$t"); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); failed="$failed $(basename "$t")"
	fi
done
echo "unit: $pass programs passed, $fail failed${failed:+:$failed}"
[ "$fail" -eq 0 ]
