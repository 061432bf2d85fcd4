#!/bin/sh
# repeat.sh: repetitions (setting repeat) on a loop device: the columns
# interleaved (A B A B), rep in every record of a repetition, unique LAVA
# ids, one fs_ok per column, the report's Repetitions and variant-against-
# base tables, the verdict's word on the medians; `repeat = auto` ending in
# its `repeat` record. One run of 7 repetitions holds an A/A trial (a
# variant identical to its base) that checks the mechanism (each row's
# ratio and flag from its figures; whether a row is flagged is chance, the
# 20 trials of the false-flag rate are tests/host/aa.sh, make check-aa) and
# a variant that is slower (mount -o sync) and flagged so.
# Sourced by run.sh (its helpers, $FSB, $HFSB, $S, its cleanup), or run
# alone: O=out sh tests/host/repeat.sh (root, jq; as run.sh).
# Inputs: $O/runner/fsbench, $O/host/fsbench; the kernel's ext4, mke2fs.
# Outputs: scratch files under $S/repeat (the loop device's file is sparse).
# Touches only the loop device it makes.
r_alone=0
case $0 in *repeat.sh)	# alone: what run.sh would have set up
	set -eu; . "$(dirname "$0")/lib.sh"; host_start host-repeat repeat jq; r_alone=1 ;;
esac
R=$S/repeat
mkdir -p "$R"
rcount() { count "$R/$1" "$2"; }

# ---- misuse, nothing run ----
expect_rc 2 "repeat: 0 repetitions" "$FSB" run --target /dev/null --repeat 0
expect_err "repeat=0: out of range; allowed: an integer from 1 to 1000, or auto"
expect_rc 2 "repeat: a maximum below 6" "$FSB" run --target /dev/null --repeat auto --repeat_max 3
expect_err "repeat_max=3: out of range; allowed: an integer from 6 to 1000"

# ---- 7 repetitions of ext4, a variant identical to it (mkfs -q again)
# and a slower one (every write synchronous). 2 x 200 files: ext4's
# create 12 to 21 ms against sync's 100 to 540. 7 against 7, because
# under Holm over 6 rows 5 against 5 flags only with no overlap at all:
# on a loaded host one base repetition held off to 120 ms and one
# synchronous one at 95 ms left it unflagged (p 0.016, Holm 0.079);
# 7 against 7 flags with up to 4 of its 49 pairs the wrong way round
# (p 0.007, Holm 0.042) ----
cat > "$R/aa.conf" <<'CONF'
variant.ext4:aa = mkfs:-q
variant.ext4:sync = mount:sync
CONF
new_loop LR "$R/repeat.img" 1G
expect_rc 0 "repeat: ext4, ext4:aa and ext4:sync, 7 repetitions" "$FSB" run --target "$LR" --config "$R/aa.conf" \
	--fs ext4,ext4:aa,ext4:sync --repeat 7 --dirs 2 --files 200 --workers 2 --rounds 1 --lava 1 \
	--capacity 0 --mnt "$R/mnt" --progress 0 --yes
cp "$T_DIR/out" "$R/stdout"
grep '^{' "$R/stdout" > "$R/records.jsonl" || true
check "repeat: the columns interleaved, A B C A B C ... (fs_start)" \
	[ "$(jq -n -r '[inputs | select(.type == "fs_start") | "\(.fs)/\(.rep)"] | join(",")' "$R/records.jsonl")" = \
	  "$(for k in 1 2 3 4 5 6 7; do printf 'ext4/%s,ext4:aa/%s,ext4:sync/%s,' $k $k $k; done | sed 's/,$//')" ]
check "repeat: each column's repetition is a fresh mkfs (21 fs_start with a mkfs)" \
	[ "$(rcount records.jsonl '.type == "fs_start" and (.mkfs.argv | type) == "string"')" -eq 21 ]
check "repeat: every record from the first fs_start to the last fs_end has rep, none outside but the control after the last column (its repetition's)" \
	[ "$(jq -n -r '[inputs] | (map(.type) | index("fs_start")) as $a | (map(.type) | rindex("fs_end")) as $b
		| [to_entries[] | select((.key >= $a and .key <= $b or (.value.type == "control" and .value.after != null)) != (.value.rep != null))] | length' "$R/records.jsonl")" -eq 0 ]
check "repeat: 6 phases per column and repetition (126), rep 1 to 7" \
	[ "$(jq -n -r '[inputs | select(.type == "phase") | "\(.fs)/\(.rep)"] | group_by(.) | map(length) | unique | join(",")' "$R/records.jsonl"),$(rcount records.jsonl '.type == "phase"')" = "6,126" ]
check "repeat: phase_start carries rep too" [ "$(rcount records.jsonl '.type == "phase_start" and .rep >= 1 and .rep <= 7')" -eq 126 ]
check "repeat: a column counts once (run_end fs_ok 3, fs_failed 0)" \
	[ "$(rcount records.jsonl '.type == "run_end" and .fs_ok == 3 and .fs_failed == 0')" -eq 1 ]
ids=$(sed -n 's/^FSBENCH-RESULT: test_case_id=\([^ ]*\) .*/\1/p' "$R/stdout")
check "repeat: LAVA ids unique per repetition (126 of them, none twice)" \
	[ "$(echo "$ids" | sort -u | wc -l),$(echo "$ids" | wc -l)" = "126,126" ]
check "repeat: LAVA ids: the first repetition as without repeat, then -repN" \
	sh -c 'echo "$1" | grep -qx "ext4-r1-create" && echo "$1" | grep -qx "ext4.aa-r1-read-rep3"' _ "$ids"
expect_rc 0 "repeat: the records keep to the schema" "$HFSB" log check "$R/records.jsonl"
expect_rc 0 "repeat: report" "$HFSB" report "$R/records.jsonl"
check "repeat: the report has the Repetitions and the variant-against-base tables" \
	sh -c 'echo "$1" | grep -q "^## Repetitions" && echo "$1" | grep -q "^## Variants against their base"' _ "$OUT"
check "repeat: the Rounds table says its rows are the medians" contains "$OUT" "Each row is the median of the phase's repetitions"
expect_rc 0 "repeat: report (csv)" "$HFSB" report "$R/records.jsonl" --format csv
echo "$OUT" | grep '^versus_base,' > "$R/versus.csv" || true
check "repeat: csv: 18 repetitions rows of n 7, 6 versus_base rows per variant with a Holm p" \
	[ "$(echo "$OUT" | grep -c '^repetitions,ext4[^,]*,1,[a-z_]*,7,'),$(grep -c '^versus_base,ext4:aa,ext4,1,[a-z_]*,7,7,[0-9.]*,[0-9.]*,[0-9.]*,' "$R/versus.csv"),$(grep -c '^versus_base,ext4:sync,ext4,1,' "$R/versus.csv")" = "18,6,6" ]
# the A/A trial's mechanism: each row's ratio is the medians' from the
# records, its flag follows its Holm p and the 10 % tolerance
med() { jq -n -r --arg fs "$1" --arg ph "$2" '[inputs | select(.type == "phase" and .fs == $fs and .phase == $ph) | .seconds] | sort | .[3]' "$R/records.jsonl"; }
bad=
for ph in create stat read read_inode delete fstrim; do
	want=$(awk -v a="$(med ext4:aa $ph)" -v b="$(med ext4 $ph)" 'BEGIN { printf "%.4f", a / b }')
	got=$(awk -F, -v ph=$ph '$2 == "ext4:aa" && $5 == ph { print $8 }' "$R/versus.csv")
	[ "$want" = "$got" ] || bad="$bad $ph:$got!=$want"
done
check "repeat: A/A: each ratio is the median of the variant's 7 over the base's (${bad:-all six})" [ -z "$bad" ]
check "repeat: every flag follows its row: p (Holm) < 0.05 and the ratio beyond 1 +- 10 %" \
	[ "$(awk -F, 'NR > 1 { want = ($10 < 0.05 && ($8 > 1.1 || $8 < 0.9)) ? ($8 > 1 ? "slower" : "faster") : ""; if ($11 != want) n++ } END { print n + 0 }' "$R/versus.csv")" -eq 0 ]
info "repeat: A/A trial: $(awk -F, '$2 == "ext4:aa" && $11 != "" { n++ } END { print n + 0 }' "$R/versus.csv") of 6 rows flagged (chance: tests/host/aa.sh counts 20 trials)"
check "repeat: ext4:sync (every write synchronous): create flagged slower" \
	[ "$(awk -F, '$2 == "ext4:sync" && $5 == "create" { print $11 }' "$R/versus.csv")" = slower ]
printf 'fs_ok = ext4,ext4:aa,ext4:sync\nerrors = 0\n' > "$R/criteria.conf"
expect_rc 0 "repeat: verdict" "$HFSB" verdict "$R/records.jsonl" --criteria "$R/criteria.conf"
check "repeat: the verdict says it judges the medians" contains "$OUT" "repetitions: 7; each phase's figure is the median of its repetitions"

# ---- auto: until the intervals are narrow or repeat_max ----
expect_rc 0 "repeat: auto, at most 6" "$FSB" run --target "$LR" --fs ext4 --repeat auto --repeat_max 6 \
	--repeat_width 5 --dirs 2 --files 50 --workers 2 --rounds 1 --capacity 0 --mnt "$R/mnt" --progress 0 --yes
grep '^{' "$T_DIR/out" > "$R/auto.jsonl" || true
check "repeat: auto: one repeat record after the last fs_end, its reps the fs_starts" \
	[ "$(jq -n -r '[inputs] | (map(.type) | rindex("fs_end")) as $e | (map(.type) | index("repeat")) as $r
		| "\($r == $e + 1),\(map(select(.type == "repeat")) | length),\(map(select(.type == "fs_start")) | length),\(map(select(.type == "repeat"))[0].reps)"' "$R/auto.jsonl")" = "true,1,6,6" ]
check "repeat: auto: converged only when every phase did; not converged at the maximum" \
	[ "$(rcount auto.jsonl '.type == "repeat" and .converged == ([.phases[].converged] | all) and (.converged or .reps == .max)
		and ([.phases[] | select(.n == 6 and (.lo | type) == "number" and .lo <= .median and .median <= .hi)] | length) == 5')" -eq 1 ]
expect_rc 0 "repeat: auto: the records keep to the schema" "$HFSB" log check "$R/auto.jsonl"
expect_rc 0 "repeat: auto: report" "$HFSB" report "$R/auto.jsonl" --format csv
check "repeat: auto: the report says converged or not for every phase" \
	[ "$(echo "$OUT" | grep -c '^repetitions,ext4,1,[a-z_]*,6,.*,\(yes\|no\)$')" -eq 5 ]

# ---- a directory (--dir): its rounds repeated the same way, no mkfs ----
mkdir -p "$R/dir"
expect_rc 0 "repeat: --dir, 2 repetitions" "$FSB" run --dir "$R/dir" --repeat 2 --dirs 1 --files 20 \
	--workers 1 --rounds 1 --progress 0
grep '^{' "$T_DIR/out" > "$R/dir.jsonl" || true
check "repeat: --dir: repetitions 1 and 2, each phase twice, one fs_ok" \
	[ "$(jq -n -r '[inputs] | "\([.[] | select(.type == "fs_start") | .rep] | join(" ")),\([.[] | select(.type == "phase" and .phase == "read") | .rep] | join(" ")),\(.[] | select(.type == "run_end") | .fs_ok)"' "$R/dir.jsonl")" = "1 2,1 2,1" ]

[ "$r_alone" = 1 ] && { summary; exit $?; }
:
