# explain.sh: host tests of the evidence on fragmentation (the freespace
# record) and the rewrite remedy (phases rewrite, read_after_rewrite), on
# ext4, XFS and btrfs on a loop device. Sourced by tests/host/run.sh after
# its smoke suite: uses its $FSB, $HFSB, $S, $L1 (a 2 GiB loop device),
# $fslist and its helpers (count, some, none, check, expect_rc, skip).
# Each filesystem runs on its own (the smoke workload, 2 rounds, files
# created in shuffled order so that ext4's name order leaves the disk), and
# its free space is then read again with the filesystem's own tools on the
# same device: e2freefrag, xfs_db, btrfs filesystem usage.

# ex_num FILE FILTER: the number jq's FILTER gives for the record(s) of
# FILE; "none" when there is none (every comparison with it fails)
ex_num() { jq -n -r "[inputs | $2 | numbers] | .[0] // \"none\"" "$1"; }
# n0 V: V, or 0 when it is not a number (for arithmetic on a missing value)
n0() { case $1 in ''|*[!0-9]*) echo 0 ;; *) echo "$1" ;; esac; }
# within A B TOL: |A - B| <= TOL (whole numbers)
within() { [ "$1" != none ] && [ "$2" != none ] && d=$(( $1 - $2 )) && [ "${d#-}" -le "$3" ]; }
ex_files=$((4 * 500))	# the smoke workload: 4 dirs x 500 files of 4 KiB
ex_data=$((ex_files * 4096))

for fs in ext4 xfs btrfs; do
	case ",$fslist," in *",$fs,"*) ;; *) skip "explain on $fs: this kernel has no $fs"; continue ;; esac
	out=$S/explain-$fs.jsonl
	expect_rc 0 "explain on $fs: smoke, 2 rounds, shuffled, rewrite on" "$FSB" run --target "$L1" --fs "$fs" \
		--profile smoke --rounds 2 --rewrite 1 --create_order shuffled --mnt "$S/mnt" --yes --progress 0
	cp "$S/out" "$out"
	check "explain on $fs: one freespace record per round" \
		[ "$(count "$out" ".type == \"freespace\" and .fs == \"$fs\" and .round == 1")" -eq 1 -a \
		  "$(count "$out" ".type == \"freespace\" and .fs == \"$fs\" and .round == 2")" -eq 1 ]
	# the order of a round: the evidence after the reads, before the remedy
	for r in 1 2; do
		want="create stat read read_inode freespace delete fstrim"
		[ $r = 2 ] && want="create stat read read_inode freespace rewrite read_after_rewrite delete fstrim"
		got=$(jq -n -r --argjson r $r '[inputs | select(.round == $r and (.type == "phase" or .type == "freespace"))
			| if .type == "phase" then .phase else .type end] | join(" ")' "$out")
		check "explain on $fs, round $r: $want (got: $got)" [ "$got" = "$want" ]
	done
	none "explain on $fs: rewrite and read_after_rewrite: $ex_files files, no errors, cold, the read verified, the rewrite synced" \
		"$(jq -n -r --argjson n $ex_files '[inputs | select(.type == "phase" and (.phase == "rewrite" or .phase == "read_after_rewrite"))]
			| if length != 2 then "\(length) rewrite and read_after_rewrite records, not 2"
			  else .[] | select(.files != $n or .errors != 0 or .verify_errors != 0 or .cold != true
				or (.phase == "read_after_rewrite" and .verified != true)
				or (.phase == "rewrite" and ((.sync_seconds // 0) <= 0 or .bytes != $n * 4096 or .order != "name")))
			  | "\(.phase) round \(.round): files \(.files) errors \(.errors) verify_errors \(.verify_errors) cold \(.cold) sync \(.sync_seconds)" end' "$out")"
	check "explain on $fs: the rewrite copies d0000 in name order" [ "$(walks "$out" rewrite | cut -d' ' -f1)" = files:name ]
	# the record's own numbers hold together
	size=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .statfs.size_bytes')
	sfree=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .statfs.free_bytes')
	check "explain on $fs: statfs in the record: size ${size} bytes, free ${sfree} bytes" \
		sh -c '[ "$1" != none ] && [ "$2" != none ] && [ "$2" -lt "$1" ] && [ "$1" -le "$3" ]' _ \
		"$size" "$sfree" "$(blockdev --getsize64 "$L1")"
	case $fs in
	ext4|xfs)
		ext=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .free_extents.count')
		ffree=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .free_extents.free_bytes')
		largest=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .free_extents.largest_bytes')
		mean=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .free_extents.mean_bytes')
		check "explain on $fs: free extents (GETFSMAP): $ext extents, $ffree bytes, the largest $largest, mean $mean" \
			sh -c '[ "$1" != none ] && [ "$1" -ge 1 ] && [ "$3" -le "$2" ] && [ "$2" -lt "$5" ] &&
				[ "$4" -eq $(( $2 / $1 )) ] && [ "$3" -ge "$4" ]' _ "$ext" "$ffree" "$largest" "$mean" "$size"
		# GETFSMAP against statfs: XFS keeps a reserve out of statfs's free
		check "explain on $fs: GETFSMAP's free space is statfs's (within 3% of the size)" \
			within "$ffree" "$sfree" $(( $(n0 "$size") * 3 / 100 ))
		;;
	esac
	# the device after the run, read with the filesystem's own tools: the
	# run ended with delete, so it has the record's free space and the
	# files' blocks back (and a little metadata)
	case $fs in
	ext4)
		score=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .defrag.score')
		check "explain on ext4: e4defrag -c score $score (0-30: no problem, on a fresh loop device)" \
			sh -c '[ "$1" != none ] && [ "$1" -le 30 ]' _ "$score"
		if have e2freefrag; then
			e2freefrag "$L1" >"$S/e2freefrag.txt" 2>&1 || true
			bs=$(sed -n 's/^Blocksize: \([0-9]*\) bytes/\1/p' "$S/e2freefrag.txt")
			fb=$(sed -n 's/^Free blocks: \([0-9]*\) .*/\1/p' "$S/e2freefrag.txt")
			nx=$(sed -n 's/^Num. free extent: \([0-9]*\)/\1/p' "$S/e2freefrag.txt")
			check "explain on ext4: e2freefrag after the run: ${fb:-?} free blocks of ${bs:-?} bytes in ${nx:-?} extents; the record's $ffree bytes + the files' $ex_data, within 16 MiB" \
				within "$(( $(n0 "$fb") * $(n0 "$bs") ))" "$(( $(n0 "$ffree") + ex_data ))" $((16 << 20))
		else
			skip "explain on ext4: e2freefrag not found (e2fsprogs): the record is not compared with it"
		fi
		;;
	xfs)
		check "explain on xfs: no defrag score (not ext4)" [ "$(count "$out" '.type == "freespace" and has("defrag")')" -eq 0 ]
		if have xfs_db; then
			xfs_db -r -c "freesp -s" "$L1" >"$S/xfs_db.txt" 2>&1 || true
			xb=$(sed -n 's/^total free blocks \([0-9]*\)/\1/p' "$S/xfs_db.txt")
			xn=$(sed -n 's/^total free extents \([0-9]*\)/\1/p' "$S/xfs_db.txt")
			check "explain on xfs: xfs_db freesp after the run: ${xb:-?} free blocks in ${xn:-?} extents; the record's $ffree bytes + the files' $ex_data, within 16 MiB" \
				within "$(( $(n0 "$xb") * 4096 ))" "$(( $(n0 "$ffree") + ex_data ))" $((16 << 20))
		else
			skip "explain on xfs: xfs_db not found (xfsprogs): the record is not compared with it"
		fi
		;;
	btrfs)
		bsize=$(ex_num "$out" 'select(.type == "freespace" and .round == 2) | .btrfs.device_size')
		none "explain on btrfs: usage in the record: allocated <= size, used <= allocated, Data chunks listed" \
			"$(jq -n -r 'inputs | select(.type == "freespace") | select((.btrfs.allocated | type) != "number"
				or .btrfs.allocated > .btrfs.device_size or .btrfs.used > .btrfs.allocated
				or ([.btrfs.profiles[] | select(.type == "Data" and .size > 0)] | length) == 0)
				| "round \(.round): \(.btrfs)"' "$out")"
		if have btrfs; then
			mkdir -p "$S/mnt-bt"; mount "$L1" "$S/mnt-bt"; remember_mount "$S/mnt-bt"
			btrfs filesystem usage -b "$S/mnt-bt" >"$S/btrfs-usage.txt" 2>&1 || true
			umount "$S/mnt-bt"
			ds=$(sed -n 's/^[[:space:]]*Device size:[[:space:]]*\([0-9]*\)$/\1/p' "$S/btrfs-usage.txt")
			check "explain on btrfs: btrfs filesystem usage after the run: device size ${ds:-?} = the record's $bsize" \
				[ "${ds:-x}" = "$bsize" ]
		else
			skip "explain on btrfs: btrfs not found (btrfs-progs): the record is not compared with it"
		fi
		;;
	esac
	expect_rc 0 "explain on $fs: report" "$HFSB" report "$out"
	echo "$OUT" >"$S/explain-$fs.md"
	check "explain on $fs: the report has the free space table" contains "$OUT" "## Free space and fragmentation"
	check "explain on $fs: the remedy table: baseline, inode order, rewrite with its cost and read" sh -c \
		"grep -Eq '^\| $fs +\| +2 \| none \(baseline\) +\| +- \| +[0-9.]+ \| +- \| fresh filesystem \(round 1\): [0-9.]+ s' '$S/explain-$fs.md' &&
		 grep -Eq '^\| $fs +\| +2 \| read in inode order \(read_inode\) +\| +- \| +[0-9.]+ \| +[0-9.]+ \|' '$S/explain-$fs.md' &&
		 grep -Eq '^\| $fs +\| +2 \| rewrite the tree \(rewrite\) +\| +[0-9.]+ \| +[0-9.]+ \| +[0-9.]+ \| once' '$S/explain-$fs.md'"
done
if [ -s "$S/explain-ext4.md" ]; then
	check "explain on ext4: the finding rules out fragmentation" \
		grep -Eq '^- ext4: not fragmentation: [0-9]+ free extents? of [0-9.]+ MiB mean, defrag score [0-9]+ \(round 2\)$' "$S/explain-ext4.md"
fi
if [ -s "$S/explain-xfs.md" ]; then
	check "explain on xfs: the finding, without a defrag score" \
		grep -Eq '^- xfs: not fragmentation: [0-9]+ free extents? of [0-9.]+ MiB mean \(round 2\); no defrag score for this filesystem$' "$S/explain-xfs.md"
fi

# the settings: freespace off leaves the record out; rewrite off (the
# default) leaves the remedy out; the explain profile has it on
if [ -s "$S/explain-ext4.jsonl" ]; then
	expect_rc 0 "freespace = 0: no freespace record" "$FSB" run --target "$L1" --fs ext4 --profile smoke --rounds 2 \
		--freespace 0 --mnt "$S/mnt" --yes --progress 0
	check "freespace = 0: no freespace record, no rewrite (off by default)" \
		[ "$(count "$S/out" '.type == "freespace" or (.type == "phase" and (.phase | test("rewrite")))')" -eq 0 ]
	check "freespace = 0: the layout record is still there" [ "$(count "$S/out" '.type == "layout"')" -eq 2 ]
fi
expect_rc 0 "the explain profile: the seed workload with rewrite on" "$HFSB" config --show --profile explain
check "the explain profile: rewrite = 1, freespace = 1, layout = 1, create_order = name, 16 x 20000 files" sh -c \
	"grep -q '^rewrite  *= 1 ' '$S/out' && grep -q '^freespace  *= 1 ' '$S/out' && grep -q '^layout  *= 1 ' '$S/out' &&
	 grep -q '^create_order  *= name ' '$S/out' && grep -q '^dirs  *= 16 ' '$S/out' && grep -q '^files  *= 20000 ' '$S/out'"
