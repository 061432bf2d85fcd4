# tests/qemu/lib.sh: what the QEMU test scripts share (sourced, POSIX sh).
# Before sourcing: SUITE (the summary line's name, e.g. "qemu UEFI tests")
# and optionally only (the case names to run, for `wanted`).
# Gives: pass fail skip info ok wanted summary (the result lines and
# counts), recs and console (a results folder's records), esp (the ESP of a
# launcher work copy, for mtools).

npass=0 nfail=0 nskip=0
PREFIX='FSBENCH:'

pass() { npass=$((npass + 1)); echo "PASS: $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL: $*"; }
skip() { nskip=$((nskip + 1)); echo "SKIP: $*"; }
info() { echo "INFO: $*"; }
ok() {	# description condition-command...
	d=$1; shift
	if "$@" >/dev/null 2>&1; then pass "$d"; else fail "$d"; fi
}
wanted() { case " ${only:-} " in *" $1 "*) return 0 ;; esac; return 1; }
summary() { echo "$SUITE: $npass passed, $nfail failed, $nskip skipped"; [ $nfail -eq 0 ]; }

# recs RESULTS TYPE: the records of one type (their text has "type":"TYPE").
recs() { grep "\"type\":\"$2\"" "$1/records.jsonl" || true; }
# console RESULTS: the records as the serial log shows them, prefix removed.
console() { tr -d '\r' <"$1/serial.log" | sed -n "s/^.*$PREFIX{/{/p"; }
# esp WORK: the ESP partition of the launcher's disk copy, as mtools names it.
esp() {
	off=$(sfdisk --dump "$1/disk.img" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
	echo "$1/disk.img@@$((off * 512))"
}
# esp_results NAME WORK RESULTS: the run's results/RUN_ID.jsonl and .md on
# the ESP of the launcher's work copy, copied to $T/NAME.esp.jsonl and
# $T/NAME.esp.md; checks that both are there and that the .jsonl equals
# RESULTS/records.jsonl (the log partition's). Sets id; 1 without a run id
# or work copy.
esp_results() {
	id=$(recs "$3" run_start | sed -n 's/.*"run_id":"\([0-9a-f]*\)".*/\1/p' | tail -n 1)
	if [ -z "$id" ] || [ ! -f "$2/disk.img" ]; then
		fail "$1: no run id or no work folder kept ($2)"
		return 1
	fi
	e=$(esp "$2")
	mdir -i "$e" ::results >"$T/$1.esp" 2>&1 || true
	ok "$1: the ESP holds results/$id.jsonl and results/$id.md" sh -c \
		"grep -q '$id.jsonl' '$T/$1.esp' && grep -q '$id.md' '$T/$1.esp'"
	mtype -i "$e" "::results/$id.jsonl" >"$T/$1.esp.jsonl" 2>/dev/null || true
	mtype -i "$e" "::results/$id.md" >"$T/$1.esp.md" 2>/dev/null || true
	ok "$1: the ESP's records equal the log partition's" cmp "$T/$1.esp.jsonl" "$3/records.jsonl"
}
