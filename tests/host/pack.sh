#!/bin/sh
# pack.sh: host tests of packing (pack = 1): SQLite and the pack file on
# ext4, xfs and btrfs loop devices (those the kernel has).
# Inputs: $O holding runner/fsbench and host/fsbench; root; jq; the sqlite3
# command (Debian package sqlite3) for the look at the database from outside.
# Outputs: scratch files under $O/tests/host-pack; one line per check and a
# summary. Called by tests/host/run.sh; touches only its own loop device.
#
# While the run goes on, the test stops the runner (SIGSTOP) right after
# the sqlite_write and pack_write phase records, looks at the store with
# the host's tools (sqlite3, stat, dd) on the filesystem as it is (mounted,
# or mounted read-only by the test when the runner was stopped between
# its unmount and mount), and lets it go on (SIGCONT).
set -eu
. "$(dirname "$0")/lib.sh"
# The look from outside stops the runner between a store's write and
# delete phases; on a tmpfs both pass before the poll below sees the
# first: this script's disk stays on the host's disk.
: "${HOST_SCRATCH:=disk}"
pid=
# the runner of a run that this script left (it stops the runner to look)
end_runner() { [ -z "$pid" ] || kill -KILL -$pid 2>/dev/null || true; }
host_start host-pack "packing host tests" jq
rec() { jq -n -r "[inputs | select($2)] | last | $3" "$1"; }
between() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }	# between N LOW HIGH
# same_blob FS: the hex of d0001/f0000003 from the database and from the pack file
same_blob() { [ "$(wc -c <"$S/$1.sqlite.blob")" -eq $((2 * SIZE + 1)) ] && cmp -s "$S/$1.sqlite.blob" "$S/$1.pack.blob"; }

DIRS=4 FILES=300 SIZE=4096
N=$((DIRS * FILES)); DATA=$((N * SIZE))
fslist=
for fs in ext4 xfs btrfs; do
	if grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null; then
		fslist=${fslist:+$fslist,}$fs
	else
		skip "packing on $fs: this kernel has no $fs (modprobe $fs failed)"
	fi
done
[ -n "$fslist" ] || { summary; exit $?; }
new_loop L "$S/disk.img" 2G
mnt=$S/mnt; peek=$S/peek
mkdir -p "$mnt" "$peek"

# peek OUT FS STORE: the runner (all its processes) is stopped after
# STORE's write phase on FS: look at the store file from outside, unless
# the runner had already started STORE's delete phase (its records run
# ahead of this reader)
peek() {
	if grep -q "\"type\":\"phase_start\",.*\"fs\":\"$2\",.*\"phase\":\"$3_delete\"" "$S/$1"; then
		info "$2 $3: no look from outside: the runner was in its $3_delete phase when it stopped"
		return 0
	fi
	dir=$mnt
	if ! mountpoint -q "$mnt"; then
		mount -o ro "$L" "$peek"; remember_mount "$peek"; dir=$peek
	fi
	case $3 in
	sqlite)
		db=$dir/fsbench.sqlite
		stat -c '%s %b %B' "$db" | awk '{ print $1, $2 * $3 }' >"$S/$2.sqlite.stat"
		if have sqlite3; then
			sqlite3 -readonly "$db" "SELECT count(*), sum(length(data)), count(DISTINCT path),
				min(path), max(path) FROM files; PRAGMA integrity_check;" >"$S/$2.sqlite.cli" 2>&1 || true
			sqlite3 -readonly "$db" "SELECT hex(data) FROM files WHERE path = 'd0001/f0000003'" \
				>"$S/$2.sqlite.blob" 2>&1 || true
		fi ;;
	pack)
		p=$dir/fsbench.pack
		stat -c '%s %b %B' "$p" | awk '{ print $1, $2 * $3 }' >"$S/$2.pack.stat"
		head -c 8 "$p" | od -An -c | tr -d ' \n' >"$S/$2.pack.magic"
		# d0001/f0000003: entry 1 * FILES + 3; data at the first 4 KiB after the index
		e=$((FILES + 3)); data_off=$(( (64 + N * 32 + 4095) / 4096 * 4096 ))
		dd if="$p" bs=1 skip=$((data_off + e * SIZE)) count=$SIZE status=none | od -An -v -tx1 |
			tr -d ' \n' | tr a-f A-F >"$S/$2.pack.blob"
		echo >>"$S/$2.pack.blob" ;;
	esac
	if [ "$dir" = "$peek" ]; then
		umount "$peek"
		! have udevadm || udevadm settle --timeout=10 || true
	fi
}

# stopped PID: wait until PID is stopped (a signal stops a process when it
# leaves the system call it is in, e.g. a mount)
stopped() {
	i=0
	while [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != T ] && [ $i -lt 500 ]; do
		sleep 0.01; i=$((i + 1))
	done
}

# run OUT ARGS...: the runner (in a session of its own, so that SIGSTOP
# stops its workers too), its records in $S/OUT, read as they come; its
# exit status in $S/OUT.rc
run() {
	out=$1; shift
	: >"$S/$out"
	setsid "$FSB" run --target "$L" --fs "$fslist" --dirs $DIRS --files $FILES --file_size $SIZE \
		--workers $DIRS --rounds 1 --pack 1 --mnt "$mnt" --progress 0 --yes "$@" \
		>"$S/$out" 2>"$S/$out.err" &
	pid=$!
	seen=
	while :; do
		alive=0; kill -0 $pid 2>/dev/null && alive=1
		for w in $(jq -r -R 'fromjson? | select(.type == "phase" and (.phase == "sqlite_write" or .phase == "pack_write"))
				| "\(.fs):\(.phase)"' "$S/$out"); do
			case " $seen " in *" $w "*) continue ;; esac
			seen="$seen $w"
			[ $alive = 1 ] && [ "$out" = ok.out ] || continue
			# The runner may end between the look at it and the stop
			# (the last store's phase is the run's last): no look then.
			kill -STOP -$pid 2>/dev/null || continue
			stopped $pid
			fs=${w%%:*}; ph=${w#*:}
			peek "$out" "$fs" "${ph%_write}"
			kill -CONT -$pid 2>/dev/null || true
		done
		[ $alive = 1 ] || break
		sleep 0.02
	done
	set +e; wait $pid; echo $? >"$S/$out.rc"; set -e
	pid=
}

run ok.out
check "pack = 1 on $fslist: the run passes (exit $(cat "$S/ok.out.rc"))" [ "$(cat "$S/ok.out.rc")" -eq 0 ]
for fs in $(echo "$fslist" | tr ',' ' '); do
	f="select(.fs == \"$fs\")"
	check "$fs: the six packing phases after delete and fstrim, in order" [ "$(jq -n -r "[inputs | select(.type == \"phase\") | $f | .phase] | join(\" \")" "$S/ok.out")" = \
		"create stat read read_inode delete fstrim sqlite_write sqlite_read sqlite_delete pack_write pack_read pack_delete" ]
	check "$fs: each packing phase: $N files, no error, the reads verified, every byte" [ "$(count "$S/ok.out" \
		".type == \"phase\" and .fs == \"$fs\" and (.phase | test(\"^(sqlite|pack)_\")) and .files == $N
		 and .errors == 0 and .verify_errors == 0 and .cold == true
		 and (if (.phase | endswith(\"_read\")) then .verified == true and .bytes == $DATA else true end)
		 and (if (.phase | endswith(\"_read\") | not) then .sync_seconds > 0 else true end)
		 and .seconds > 0")" -eq 6 ]
	check "$fs: space records: files, sqlite, pack" [ "$(jq -n -r "[inputs | select(.type == \"space\") | $f | .store] | join(\" \")" "$S/ok.out")" = "files sqlite pack" ]
	# the files: what the create phase added to the used space, at least the data
	used=$(rec "$S/ok.out" ".type == \"space\" and .fs == \"$fs\" and .store == \"files\"" .disk_bytes)
	check "$fs: files take $used bytes on disk, between 1x and 4x the $DATA bytes" \
		between "$used" "$DATA" $((4 * DATA))
	# the pack: its size is the layout's; its blocks what stat said
	psize=$(rec "$S/ok.out" ".type == \"space\" and .fs == \"$fs\" and .store == \"pack\"" .file_size)
	pdisk=$(rec "$S/ok.out" ".type == \"space\" and .fs == \"$fs\" and .store == \"pack\"" .disk_bytes)
	check "$fs: the pack file is header + index + data: $((4096 * ((64 + N * 32 + 4095) / 4096) + DATA)) bytes" \
		[ "$psize" -eq $((4096 * ((64 + N * 32 + 4095) / 4096) + DATA)) ]
	if [ -f "$S/$fs.pack.stat" ]; then
	check "$fs: the pack file as stat sees it: $(cat "$S/$fs.pack.stat" 2>/dev/null) (size, blocks x 512) = the record's $psize $pdisk" \
		[ "$(cat "$S/$fs.pack.stat")" = "$psize $pdisk" ]
	check "$fs: the pack file starts with its magic" [ "$(cat "$S/$fs.pack.magic")" = 'FSBPACK\0' ]
	fi
	sdisk=$(rec "$S/ok.out" ".type == \"space\" and .fs == \"$fs\" and .store == \"sqlite\"" .disk_bytes)
	ssize=$(rec "$S/ok.out" ".type == \"space\" and .fs == \"$fs\" and .store == \"sqlite\"" .file_size)
	check "$fs: the database takes $sdisk bytes, between 1x and 3x the data" \
		between "$sdisk" "$DATA" $((3 * DATA))
	if [ -f "$S/$fs.sqlite.stat" ]; then
		check "$fs: the database as stat sees it: $(cat "$S/$fs.sqlite.stat") = the record's $ssize $sdisk" \
			[ "$(cat "$S/$fs.sqlite.stat")" = "$ssize $sdisk" ]
		if have sqlite3; then
			check "$fs: sqlite3 (the host's) reads the database: $N rows, $DATA bytes, d0000/f0000000..d0003/f0000299, ok" \
				[ "$(cat "$S/$fs.sqlite.cli")" = "$(printf '%s|%s|%s|d0000/f0000000|d0003/f%07d\nok' $N $DATA $N $((FILES - 1)))" ]
			if [ -f "$S/$fs.pack.blob" ]; then
				check "$fs: d0001/f0000003 has the same $SIZE bytes in the database and in the pack file" same_blob "$fs"
			fi
		else
			skip "$fs: the database from outside: no sqlite3 command (Debian package sqlite3)"
		fi
	fi
done

looked=$(ls "$S"/*.sqlite.stat "$S"/*.pack.stat 2>/dev/null | wc -l)
info "looks at a store from outside: $looked of $((2 * $(echo "$fslist" | tr ',' '\n' | wc -l)))"
last=${fslist##*,}
mount -o ro "$L" "$peek"; remember_mount "$peek"
check "$last after the run: no store file is left" [ -z "$(ls "$peek" | grep fsbench)" ]
umount "$peek"

# the report: the three stores side by side per filesystem
expect_rc 0 "report of the run (csv)" "$HFSB" report "$S/ok.out" --format csv
echo "$OUT" >"$S/report.csv"
for fs in $(echo "$fslist" | tr ',' ' '); do
	check "report: $fs has a packing row per store with seconds, files/s and bytes on disk" \
		[ "$(grep -c "^packing,$fs,1,\(files\|sqlite\|pack\),[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9][0-9]*,[0-9.]*\$" "$S/report.csv")" -eq 3 ]
done
expect_rc 0 "report of the run (markdown)" "$HFSB" report "$S/ok.out"
check "report: the packing table for a reader" contains "$OUT" "## Packing: one file per file, SQLite, one pack file"

# a flipped byte in each store: the read phases find it, the run fails
run fault.out --fault d0001/f0000003:100
check "a fault in the stores fails the run (exit $(cat "$S/fault.out.rc"))" [ "$(cat "$S/fault.out.rc")" -eq 1 ]
for fs in $(echo "$fslist" | tr ',' ' '); do
	for ph in sqlite_read pack_read; do
		check "$fs $ph: one verify_error at d0001/f0000003 offset 100, one byte" [ "$(count "$S/fault.out" \
			".type == \"verify_error\" and .fs == \"$fs\" and .phase == \"$ph\" and .file == \"d0001/f0000003\"
			 and .offset == 100 and .count == 1")" -eq 1 ]
		check "$fs $ph: its phase record counts it" [ "$(count "$S/fault.out" \
			".type == \"phase\" and .fs == \"$fs\" and .phase == \"$ph\" and .verify_errors == 1 and .errors == 0")" -eq 1 ]
	done
done
summary
