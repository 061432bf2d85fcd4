#!/bin/sh
# variants.sh: the tuning matrix's variants on a loop device: each column
# made and mounted with its options, as the device itself and the kernel's
# mountinfo show; a variant of a config file replacing nothing built in; the
# records, the report, the verdict and the LAVA lines of a variant column.
# Sourced by run.sh (its helpers, $FSB, $HFSB, $S, its cleanup), or run
# alone: O=out sh tests/host/variants.sh (root, jq; as run.sh).
# Inputs: $O/runner/fsbench, $O/host/fsbench; the kernel's ext4, xfs, btrfs
# and their tools (dumpe2fs, xfs_db); a column whose filesystem the kernel
# lacks is left out with a SKIP.
# Outputs: scratch files under $S/variants (the loop device's file is sparse).
# Touches only the loop device it makes.
v_alone=0
case $0 in *variants.sh)	# alone: what run.sh would have set up
	set -eu; . "$(dirname "$0")/lib.sh"; host_start host-variants variants jq; v_alone=1 ;;
esac
V=$S/variants
mkdir -p "$V"

# vcount FILTER: how many records of the run's stdout pass it
vcount() { count "$V/records.jsonl" "$1"; }
# vcheck WHAT FILTER: exactly one fs_start passes FILTER
vstart() { _w=$1; shift; check "$_w" [ "$(vcount ".type == \"fs_start\" and ($1)")" -eq 1 ]; }

# ---- misuse, nothing run ----
expect_rc 2 "variants: an unknown variant in fs" "$FSB" run --target /dev/null --fs ext4,ext4:nosuch
expect_err "fs=ext4,ext4:nosuch: unknown variant 'ext4:nosuch'; allowed: ext4:noatime,ext4:nojournal,ext4:discard,ext4:nobarrier (built in), or one set with variant.ext4:nosuch = mkfs:ARGS mount:OPTS"
expect_rc 2 "variants: a variant of an unknown filesystem" "$FSB" run --target /dev/null --fs zfs:fast
expect_err "unknown base filesystem 'zfs' of variant 'zfs:fast'"
printf 'dirs = 2\nvariant.ext4:x = -b 1024\n' > "$V/bad.conf"
expect_rc 2 "variants: a definition without mkfs: or mount:, in a config file" "$FSB" config --show --config "$V/bad.conf"
expect_err "bad.conf:2: variant.ext4:x=-b 1024: '-b' begins none of mkfs:, mount:, sysfs:; allowed: mkfs:ARGS, mount:OPTS, sysfs:KEY=VALUE, each at most once"
expect_rc 0 "variants: config --show lists the built-in variants" "$FSB" config --show
check "variants: config --show has f2fs:s4z4, built in" contains "$OUT" "variant.f2fs:s4z4  = mkfs:-s 4 -z 4           # built in"
expect_rc 0 "variants: run --help names the key and the built-in rows" "$FSB" run --help
check "variants: --help has variant.FS:NAME and xfs:agcount32" sh -c \
	'contains() { case "$1" in *"$2"*) return 0 ;; esac; return 1; }; contains "$1" "  variant.FS:NAME  " && contains "$1" "xfs:agcount32   mkfs:-d agcount=32"' _ "$OUT"

# ---- the columns: ext4 and its variants, a variant of the config file,
# xfs:agcount32 and btrfs:zstd when the kernel has them ----
cols=ext4,ext4:noatime,ext4:nojournal,ext4:b1k,ext4:discard,ext4:nobarrier
for fs in xfs btrfs; do
	if grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null; then
		case $fs in xfs) cols=$cols,xfs:agcount32 ;; btrfs) cols=$cols,btrfs:zstd ;; esac
	else
		skip "variants: $fs on the host: this kernel has no $fs; its variant is left out"
	fi
done
ncols=$(echo "$cols" | tr ',' '\n' | wc -l)
# mkfs_opts and mount_opts of ext4 come first, a variant's after them
cat > "$V/variants.conf" <<EOF
fs = $cols
dirs = 2
files = 50
workers = 2
rounds = 1
mkfs_opts.ext4 = -L fsbv
mount_opts.ext4 = nodiratime
# a variant of the config file, defined after fs names it
variant.ext4:b1k = mkfs:-b 1024 mount:noatime
lava = 1
EOF
b1k_line=$(grep -n '^variant.ext4:b1k' "$V/variants.conf" | cut -d: -f1)
# xfs:agcount32 needs 2.2 GiB: each of 32 groups holds at least the 64 MiB log
new_loop LV "$V/variants.img" 3G
expect_rc 0 "variants: $ncols columns ($cols) on one loop device" "$FSB" run --target "$LV" \
	--config "$V/variants.conf" --mnt "$V/mnt" --progress 0 --yes
cp "$T_DIR/out" "$V/stdout"
grep '^{' "$V/stdout" > "$V/records.jsonl" || true

# each column ran as a column of its own, under its name in every record
check "variants: every column ran to the end (fs_end ok)" \
	[ "$(vcount '.type == "fs_end" and .status == "ok"')" -eq "$ncols" ]
check "variants: 6 phases per column (fstrim the sixth), named by the column" \
	[ "$(jq -n -r '[inputs | select(.type == "phase") | .fs] | group_by(.) | map("\(.[0])=\(length)") | join(",")' "$V/records.jsonl")" = \
	  "$(echo "$cols" | tr ',' '\n' | sort | sed 's/$/=6/' | paste -sd, -)" ]
check "variants: the records' fs are the columns, in their order" \
	[ "$(jq -n -r '[inputs | select(.type == "fs_start") | .fs] | join(",")' "$V/records.jsonl")" = "$cols" ]

# fs_start: the variant as applied, the mkfs command, the mount as the kernel reports it
vstart "variants: ext4 has no variant object; mkfs_opts.ext4 in its mkfs" \
	".fs == \"ext4\" and .variant == null and (.mkfs.argv | endswith(\" -t ext4 -F -q -L fsbv $LV\"))"
vstart "variants: ext4:nojournal: its row, built in; its mkfs arguments after mkfs_opts.ext4" \
	".fs == \"ext4:nojournal\" and (.variant | del(.unsafe)) == {name: \"ext4:nojournal\", base: \"ext4\", mkfs: \"-O ^has_journal\", mount: \"\", source: \"built in\"} and (.variant.unsafe | startswith(\"no journal: \")) and (.mkfs.argv | endswith(\" -t ext4 -F -q -L fsbv -O ^has_journal $LV\"))"
vstart "variants: ext4:b1k: the config file's row and where it is" \
	".fs == \"ext4:b1k\" and .variant.mkfs == \"-b 1024\" and .variant.mount == \"noatime\" and .variant.source == \"config file variants.conf:$b1k_line\" and (.mkfs.argv | endswith(\" -L fsbv -b 1024 $LV\"))"
vstart "variants: ext4:noatime: mount_opts.ext4, then the variant's options" \
	'.fs == "ext4:noatime" and .mount_opts == "nodiratime,noatime" and .variant.mount == "noatime"'
# the kernel's own view (/proc/self/mountinfo), not the settings: relatime,
# compress=zstd:3 are its words
mi() { jq -n -r --arg fs "$1" 'inputs | select(.type == "fs_start" and .fs == $fs) | .mountinfo | "\(.type) \(.source) \(.opts) \(.super_opts)"' "$V/records.jsonl"; }
has_opt() { echo ",$1," | grep -q ",$2,"; }
set -- $(mi ext4)
check "variants: ext4 mounted by the kernel as ext4 from $LV, relatime, nodiratime (mountinfo: $*)" \
	sh -c '[ "$1" = ext4 ] && [ "$2" = "$3" ] && echo ",$4," | grep -q ",relatime," && echo ",$4," | grep -q ",nodiratime," && ! echo ",$4," | grep -q ",noatime,"' _ "$1" "$2" "$LV" "$3"
for c in ext4:noatime ext4:b1k; do
	set -- $(mi "$c")
	check "variants: $c mounted noatime, nodiratime, not relatime (mountinfo: $*)" \
		sh -c 'echo ",$1," | grep -q ",noatime," && echo ",$1," | grep -q ",nodiratime," && ! echo ",$1," | grep -q ",relatime,"' _ "$3"
done
set -- $(mi ext4:nojournal)
check "variants: ext4:nojournal mounted as ext4 is (relatime; mountinfo: $*)" has_opt "$3" relatime
# online discard and no barriers: the kernel's filesystem options say so,
# and ext4 alone says neither; nobarrier's row carries its reason
set -- $(mi ext4:discard)
check "variants: ext4:discard: the kernel's filesystem options hold discard (mountinfo: $*)" has_opt "$4" discard
set -- $(mi ext4:nobarrier)
check "variants: ext4:nobarrier: the kernel's filesystem options hold nobarrier (mountinfo: $*)" has_opt "$4" nobarrier
set -- $(mi ext4)
check "variants: ext4 itself: neither discard nor nobarrier (mountinfo: $*)" \
	sh -c '! echo ",$1," | grep -Eq ",(discard|nobarrier),"' _ "$4"
vstart "variants: ext4:nobarrier's fs_start: marked unsafe, the reason a power cut" \
	'.fs == "ext4:nobarrier" and (.variant.unsafe | test("power cut"))'
vstart "variants: ext4:discard's fs_start: not marked unsafe" '.fs == "ext4:discard" and .variant.unsafe == null'
case ,$cols, in *,btrfs:zstd,*)
	set -- $(mi btrfs:zstd)
	check "variants: btrfs:zstd: the kernel's filesystem options hold compress=zstd (mountinfo: $*)" \
		sh -c 'echo ",$1," | grep -Eq ",compress=zstd(:[0-9]+)?,"' _ "$4"
esac

# ---- the device itself: one column at a time, the filesystem it leaves ----
dev_run() {	# dev_run COLUMN: that column alone (left on the device)
	expect_rc 0 "variants: $1 alone" "$FSB" run --target "$LV" --config "$V/variants.conf" --fs "$1" \
		--lava 0 --mnt "$V/mnt" --progress 0 --yes
}
features() { dumpe2fs -h "$LV" 2>/dev/null | sed -n 's/^Filesystem features: *//p'; }
blocksize() { dumpe2fs -h "$LV" 2>/dev/null | sed -n 's/^Block size: *//p'; }
if have dumpe2fs; then
	dev_run ext4
	f=$(features)
	check "variants: ext4 on the device: has_journal, 4096-byte blocks, label fsbv (features: $f)" \
		sh -c '[ "$2" = 4096 ] && echo " $1 " | grep -q " has_journal " && dumpe2fs -h "$3" 2>/dev/null | grep -q "^Filesystem volume name: *fsbv$"' _ "$f" "$(blocksize)" "$LV"
	dev_run ext4:nojournal
	f=$(features)
	check "variants: ext4:nojournal on the device: no has_journal, label fsbv (features: $f)" \
		sh -c '[ -n "$1" ] && ! echo " $1 " | grep -q " has_journal " && dumpe2fs -h "$2" 2>/dev/null | grep -q "^Filesystem volume name: *fsbv$"' _ "$f" "$LV"
	dev_run ext4:b1k
	check "variants: ext4:b1k on the device: 1024-byte blocks ($(blocksize))" [ "$(blocksize)" = 1024 ]
else
	skip "variants: the ext4 columns on the device: dumpe2fs (e2fsprogs) not found"
fi
case ,$cols, in *,xfs:agcount32,*)
	if have xfs_db; then
		agcount() { xfs_db -r -c sb -c 'p agcount' "$LV" 2>/dev/null | sed -n 's/^agcount = //p'; }
		dev_run xfs
		n=$(agcount)
		dev_run xfs:agcount32
		check "variants: xfs:agcount32 on the device: 32 allocation groups (xfs made $n, xfs:agcount32 $(agcount))" \
			sh -c '[ "$1" = 32 ] && [ -n "$2" ] && [ "$2" != 32 ]' _ "$(agcount)" "$n"
	else
		skip "variants: xfs:agcount32 on the device: xfs_db (xfsprogs) not found"
	fi
esac

# ---- the readers: a column each ----
expect_rc 0 "variants: report" "$HFSB" report "$V/records.jsonl"
echo "$OUT" > "$V/report.md"
# the summary's heading: phase, then the columns in the run's order
check "variants: the summary has a column per variant, in order" sh -c \
	"grep -m1 '^| phase ' '$V/report.md' | tr -d ' ' | grep -qx '|phase|$(echo "$cols" | sed 's/,/|/g')|'"
check "variants: the report names each variant and its options" sh -c \
	"grep -q '^## Variants' '$V/report.md' &&
	 grep -Eq '^\\| ext4:nojournal +\\| ext4 +\\| -O \\^has_journal +\\| - +\\| [a-z,]*relatime[a-z,]* +\\| [^|]+\\| built in +\\| UNSAFE: no journal: [^|]+\\|\$' '$V/report.md' &&
	 grep -Eq '^\\| ext4:nobarrier +\\| ext4 +\\| - +\\| nobarrier +\\| [^|]+\\| [^|]*nobarrier[^|]*\\| built in +\\| UNSAFE: no cache flush [^|]+\\|\$' '$V/report.md' &&
	 grep -Eq '^\\| ext4:b1k +\\| ext4 +\\| -b 1024 +\\| noatime +\\| [a-z,]*noatime[a-z,]* +\\| [^|]+\\| config file variants.conf:$b1k_line +\\| - +\\|\$' '$V/report.md'"
expect_rc 0 "variants: report (csv)" "$HFSB" report "$V/records.jsonl" --format csv
check "variants: csv: a rounds row of ext4:noatime, a variants row of ext4:nojournal" sh -c \
	"echo \"\$1\" | grep -q '^rounds,ext4:noatime,1,create,' && echo \"\$1\" | grep -q '^variants,ext4:nojournal,ext4,-O ^has_journal,,'" _ "$OUT"
expect_rc 0 "variants: verdict --write-criteria" "$HFSB" verdict "$V/records.jsonl" --write-criteria
# kmsg = 0 left out: the host's kernel log holds whatever else runs here
echo "$OUT" | sed '/^kmsg = /d' > "$V/criteria.conf"
check "variants: the criteria name the columns" grep -q "^fs_ok = $cols\$" "$V/criteria.conf"
expect_rc 0 "variants: the verdict of those criteria" "$HFSB" verdict "$V/records.jsonl" --criteria "$V/criteria.conf"
check "variants: a check per variant column" contains "$OUT" "ext4:nojournal create files/s (all rounds)"
check "variants: LAVA result lines with a variant's id (':' made '.')" \
	grep -q '^FSBENCH-RESULT: test_case_id=ext4.nojournal-r1-create result=pass measurement=' "$V/stdout"
check "variants: one LAVA line per phase" [ "$(grep -c '^FSBENCH-RESULT: ' "$V/stdout")" -eq $((ncols * 6)) ]

if [ "$v_alone" = 1 ]; then summary; exit $?; fi
