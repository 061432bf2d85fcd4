#!/bin/sh
# estimate.sh: how long a run will take on this machine, before it boots.
# Usage: qemu/estimate.sh PLAN
# Inputs (environment): BOARD, ACCEL (kvm or tcg), PROFILE (empty: the
#   config file's), CONF (the fsbench.conf the guest will read, optional),
#   SETTINGS (the fsbench.KEY=VALUE words of the kernel command line; other
#   words are ignored), RESULTS (the results folder holding earlier runs,
#   one folder each), FSBENCH_HOST (the host build of fsbench: it resolves
#   the settings the guest will use, as the guest's runner does).
# Per-round figures, in this order: the newest earlier run in RESULTS of the
#   same board, profile and accelerator that ended with exit code 0 (its
#   run.txt and records.jsonl); else qemu/figures.txt for the board,
#   accelerator and profile; else its TCG figures (KVM: an upper bound);
#   else those of qemu-x86_64. A run with other dirs x files is scaled; a
#   variant (FS:NAME) without figures of its own takes its filesystem's.
# Outputs: on stdout, what the run will take and how to get a short run
#   (lines without a prefix); PLAN, the figures for the progress line:
#     boot SECONDS
#     fs NAME ROUND_SECONDS PHASE=SECONDS...   (scaled to this run)
#     total SECONDS                            (QEMU start to power-off)
#   An empty PLAN (and a line saying why) when there is no estimate.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
plan=${1:?usage: estimate.sh PLAN}
: >"$plan"
ACCEL=${ACCEL:-tcg}
RESULTS=${RESULTS:-results}

# get PROFILE KEY: one setting as the guest's runner will resolve it.
get() {
	p=$1 k=$2
	set -- config --get "$k"
	[ -z "${CONF:-}" ] || [ ! -f "$CONF" ] || set -- "$@" --config "$CONF"
	[ -z "$p" ] || set -- "$@" --profile "$p"
	for w in ${SETTINGS:-}; do
		case $w in fsbench.profile=*) ;; fsbench.*=*) set -- "$@" "--${w#fsbench.}" ;; esac
	done
	"$FSBENCH_HOST" "$@" 2>/dev/null
}

# rows PROFILE: the per-round figures and where they come from, into
# $tmp.rows (FS FILES ROUND_SECONDS PHASE=SECONDS... and boot SECONDS);
# the source in $from, "at most" in $bound when they are an upper bound.
rows() {
	want=$1
	bound= from=
	: >"$tmp.rows"
	if [ -d "$RESULTS" ]; then
		for run in $(ls -1d "$RESULTS"/*/ 2>/dev/null | sort -r); do
			txt=${run}run.txt
			[ -f "$txt" ] && [ -s "${run}records.jsonl" ] || continue
			# run.txt is the launcher's own text (key: value lines).
			val() { sed -n "s/^ *$1: *//p" "$txt" | head -n 1; }
			[ "$(val board)" = "$BOARD" ] && [ "$(val profile)" = "$want" ] &&
				[ "$(val accelerator | cut -d' ' -f1)" = "$(echo "$ACCEL" | tr a-z A-Z)" ] &&
				[ "$(val 'runner exit code')" = 0 ] || continue
			sh "$here/records.sh" "${run}records.jsonl" "" type t fs phase seconds status \
				config.rounds config.dirs config.files | awk -F'\t' -f "$here/rounds.awk" >"$tmp.rows"
			b=$(val 'qemu start to first record' | cut -d' ' -f1)
			[ -z "$b" ] || [ "$b" = none ] || echo "boot $b" >>"$tmp.rows"
			# the end: from the last fs_end (seconds from the first record)
			# to power-off
			e=$(sh "$here/records.sh" "${run}records.jsonl" fs_end t 2>/dev/null | tail -n 1)
			[ -z "$b" ] || [ "$b" = none ] || [ -z "$e" ] ||
				awk -v a="$(val 'total run time' | cut -d' ' -f1)" -v b="$b" -v e="$e" \
					'BEGIN { x = a - b - e; if (a != "" && x >= 0) printf "end %.1f\n", x }' >>"$tmp.rows"
			from="the earlier run $(basename "$run") in $RESULTS"
			[ ! -s "$tmp.rows" ] || return 0
		done
	fi
	for key in "$BOARD $ACCEL $want" "$BOARD tcg $want" "qemu-x86_64 $ACCEL $want" \
		"qemu-x86_64 tcg $want" "$BOARD tcg seed" "qemu-x86_64 tcg seed"; do
		awk -v k="$key" '$0 !~ /^#/ && $1 " " $2 " " $3 == k { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' \
			"$here/figures.txt" >"$tmp.rows"
		[ -s "$tmp.rows" ] || continue
		set -- $key
		from="qemu/figures.txt ($1, $(echo "$2" | tr a-z A-Z), $3)"
		[ "$2" = "$ACCEL" ] || bound="at most "
		return 0
	done
	return 1
}

# est PROFILE [PLAN]: a run with that profile, as one line:
# SECONDS|at most |FIGURES' SOURCE|WHAT RUNS.
est() {
	fs=$(get "$1" fs) && rounds=$(get "$1" rounds) && dirs=$(get "$1" dirs) &&
		files=$(get "$1" files) && prof=$(get "$1" profile) || return 1
	rows "$prof" || return 1
	awk -v fslist="$fs" -v rounds="$rounds" -v files=$((dirs * files)) -v plan="${2:-/dev/null}" \
		-v from="$from" -v bound="$bound" '
		$1 == "boot" { boot = $2; next }
		$1 == "end" { endt = $2; next }
		$1 == "run" { next }	# a whole run: the help quotes it, the estimate sums rounds
		{ row[$1] = $0; per[$1] = $3 / $2; sum += $3 / $2; n++ }
		END {
			if (!n) exit 1
			if (boot == "") boot = 5
			print "boot " boot > plan
			nf = split(fslist, F, ",")
			total = boot
			for (i = 1; i <= nf; i++) {
				f = F[i]
				b = f; sub(/:.*/, "", b)	# a variant FS:NAME: the figures of its base
				if (f in row || b in row) {
					m = split(row[f in row ? f : b], R, " ")
					scale = files / R[2]
				} else {	# no figure: the mean rate of the others
					m = 3; R[3] = sum / n; scale = files
				}
				out = sprintf("fs %s %.2f", f, R[3] * scale)
				for (j = 4; j <= m; j++) {
					split(R[j], kv, "=")
					out = out sprintf(" %s=%.3f", kv[1], kv[2] * scale)
				}
				print out > plan
				total += rounds * R[3] * scale
			}
			total += endt
			printf "total %.1f\n", total > plan
			printf "%.0f|%s|%s|%d filesystem%s (%s) x %d round%s of %d files\n", total, bound, from, nf, nf == 1 ? "" : "s", fslist, rounds, rounds == 1 ? "" : "s", files
		}' "$tmp.rows"
}

# hm SECONDS: a duration as people say it.
hm() {
	awk -v s="$1" 'BEGIN {
		if (s < 90) printf "%d s", s + 0.5
		else if (s < 5400) printf "%d min", s / 60 + 0.5
		else { m = int(s / 60 + 0.5); printf "%d h %02d min", m / 60, m % 60 }
	}'
}

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.rows"' EXIT
if [ ! -x "${FSBENCH_HOST:-}" ]; then
	echo "no estimate: no host fsbench (${FSBENCH_HOST:-}, make host) to read the settings"
	exit 0
fi
if ! e=$(est "${PROFILE:-}" "$plan"); then
	: >"$plan"
	echo "no estimate: the settings do not resolve or no figures fit (qemu/figures.txt)"
	exit 0
fi
prof=$(get "${PROFILE:-}" profile)
IFS='|' read -r secs bound from what <<END
$e
END
echo "this run should take ${bound}about $(hm "$secs") here, QEMU start to power-off ($prof: $what, $(echo "$ACCEL" | tr a-z A-Z))"
echo "  per-round figures from $from"
if [ "$prof" != smoke ] && s=$(SETTINGS= est smoke); then
	IFS='|' read -r secs bound from what <<END
$s
END
	echo "a short run: PROFILE=smoke (make run PROFILE=smoke, qemu/run.sh --profile smoke): ${bound}about $(hm "$secs")"
fi
