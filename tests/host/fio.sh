# fio.sh: host tests of the fio workloads and the fill test (run/stores/fio.c,
# run/stores/fill.c), sourced by run.sh (its helpers, $FSB, $HFSB, $S, its loop
# devices and cleanup). Needs Debian's fio; python3 reads fio's own JSON.
# fio is swapped for a wrapper only inside a mount namespace of the test's
# own (unshare -m): a bind mount over fio's path that no other process sees.

fio_bin=$(command -v fio 2>/dev/null || true)
if [ -z "$fio_bin" ]; then
	skip "fio workloads and fill: fio not found (Debian package fio; image/deps.sh test)"
elif ! have unshare; then
	skip "fio workloads and fill: unshare (util-linux) not found to put a wrapper in place of fio"
else
	# with_fio FILE CMD...: CMD with FILE mounted over fio, in a namespace of its own
	with_fio() {
		_w=$1; shift
		unshare -m --propagation private sh -c 'mount --bind "$1" "$2" || exit 97; shift 2; exec "$@"' \
			_ "$_w" "$(readlink -f "$fio_bin")" "$@"
	}
	# the real fio, and a wrapper that keeps a copy of each JSON output it writes
	cp "$(readlink -f "$fio_bin")" "$S/fio-real"
	mkdir -p "$S/fio-json"
	cat >"$S/fio-keep" <<EOF
#!/bin/sh
"$S/fio-real" "\$@"; rc=\$?
for a; do case \$a in --output=*) cp "\${a#--output=}" "$S/fio-json/\$(date +%s%N).json" ;; esac; done
exit \$rc
EOF
	printf '#!/bin/sh\necho "fio: this fio always fails" >&2\nexit 1\n' >"$S/fio-fail"
	chmod 755 "$S/fio-keep" "$S/fio-fail"

	new_loop LF "$S/fio.img" 2G
	fsl=ext4
	grep -qw xfs /proc/filesystems || modprobe xfs 2>/dev/null && fsl=ext4,xfs || \
		skip "fio on xfs: this kernel has no xfs"
	expect_rc 0 "fio: randwrite,web on $fsl and the raw target" with_fio "$S/fio-keep" "$FSB" run \
		--target "$LF" --fs "$fsl" --smallfile 0 --fio randwrite,web --fio_runtime 1 --fio_size 32M \
		--fio_raw 1 --mnt "$S/mnt" --progress 0 --yes
	cp "$S/out" "$S/fio.jsonl"
	nfio=$(( ($(echo "$fsl" | tr ',' '\n' | wc -l) + 1) * 2 ))
	check "fio: $nfio records, each ok with nonzero IOPS in its direction" [ "$(count "$S/fio.jsonl" '.type == "fio"
		and .status == "ok" and .errors == 0 and (.fio_version | startswith("fio-"))
		and (if .workload == "web" then .rw == "read" and .bs == "1M" and .iodepth == 8 and .numjobs == 8 and .read.iops > 0 and .write.iops == 0
		     else .rw == "randwrite" and .bs == "4k" and .iodepth == 32 and .numjobs == 1 and .write.iops > 0 and .read.iops == 0 end)
		and .runtime == 1 and .size == 33554432')" -eq "$nfio" ]
	check "fio: the percentiles of the direction that ran" [ "$(count "$S/fio.jsonl" '.type == "fio"
		and (if .workload == "web" then .read else .write end).clat_ns as $l
		| $l.p50 > 0 and $l.p50 <= $l.p90 and $l.p90 <= $l.p99 and $l.p99 <= $l.p999')" -eq "$nfio" ]
	check "fio: on a filesystem, a file on the mount" [ "$(count "$S/fio.jsonl" ".type == \"fio\" and .fs != \"raw\" and .filename == \"$S/mnt/fsbench-fio.\" + .workload")" -eq $((nfio - 2)) ]
	check "fio: raw, on the target and nothing else" [ "$(count "$S/fio.jsonl" ".type == \"fio\" and .fs == \"raw\" and .filename == \"$LF\"")" -eq 2 ]
	check "fio: no small-file phases (smallfile 0), no extra mkfs (the fresh one is used)" \
		[ "$(count "$S/fio.jsonl" '.type == "phase" or .type == "mkfs"')" -eq 0 -a "$(count "$S/fio.jsonl" '.type == "fs_start"')" -gt 0 ]
	check "fio: the files are gone, the mount point unmounted" sh -c "! grep -q ' $S/mnt ' /proc/self/mountinfo"
	check "fio: fio ran once per record ($(ls "$S/fio-json" | wc -l) outputs kept)" [ "$(ls "$S/fio-json" | wc -l)" -eq "$nfio" ]
	# each record against fio's own JSON, read by python3, in the order they ran
	if ! have python3; then
		skip "fio: records against fio's JSON: python3 not found"
	else
		check "fio: every record agrees with fio's own JSON (IOPS, bandwidth, bytes, p50..p99.9, version, options)" \
			python3 - "$S/fio.jsonl" "$S/fio-json" "$LF" <<'EOF'
import json, os, sys
recs = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "fio"]
outs = sorted(os.listdir(sys.argv[2]), key=lambda n: int(n.split(".")[0]))
bad = []
if not recs:
    bad.append("no fio records")
if len(recs) != len(outs):
    bad.append("%d records, %d outputs" % (len(recs), len(outs)))
def close(a, b):
    return abs(a - b) <= 1e-6 * abs(b) + 1e-9
for rec, name in zip(recs, outs):
    fio = json.load(open(os.path.join(sys.argv[2], name)))
    job = fio["jobs"][0]
    opt = job["job options"]
    who = "%s %s" % (rec["fs"], rec["workload"])
    if len(fio["jobs"]) != 1:
        bad.append(who + ": %d jobs (group_reporting)" % len(fio["jobs"]))
    if rec["fio_version"] != fio["fio version"]:
        bad.append(who + ": version")
    for k, v in (("rw", rec["rw"]), ("bs", rec["bs"]), ("iodepth", str(rec["iodepth"])),
                 ("numjobs", str(rec["numjobs"])), ("ioengine", "libaio"), ("direct", "1"),
                 ("runtime", "1"), ("size", "33554432"), ("name", rec["workload"])):
        if opt.get(k) != v:
            bad.append("%s: option %s=%r, wanted %r" % (who, k, opt.get(k), v))
    ran = "write" if rec["workload"] == "randwrite" else "read"
    if job[ran]["runtime"] < 900:  # time_based: the whole second
        bad.append(who + ": ran %d ms, not time_based for 1 s" % job[ran]["runtime"])
    if opt.get("filename") != rec["filename"]:
        bad.append(who + ": filename %r" % opt.get("filename"))
    for d in ("read", "write"):
        r, f = rec[d], job[d]
        if not close(r["iops"], f["iops"]):
            bad.append("%s %s: iops %r != %r" % (who, d, r["iops"], f["iops"]))
        for k, fk in (("bw_bytes", "bw_bytes"), ("io_bytes", "io_bytes"), ("ios", "total_ios")):
            if r[k] != f[fk]:
                bad.append("%s %s: %s %r != %r" % (who, d, k, r[k], f[fk]))
        pct = f["clat_ns"].get("percentile", {})
        for k, fk in (("p50", "50.000000"), ("p90", "90.000000"), ("p99", "99.000000"), ("p999", "99.900000")):
            if r["clat_ns"].get(k) != pct.get(fk):
                bad.append("%s %s: %s %r != %r" % (who, d, k, r["clat_ns"].get(k), pct.get(fk)))
        if f["total_ios"] and (r["iops"] <= 0 or r["bw_bytes"] <= 0):
            bad.append("%s %s: no IOPS" % (who, d))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
	fi
	expect_rc 0 "fio: report" "$HFSB" report "$S/fio.jsonl"
	echo "$OUT" >"$S/fio.md"
	check "fio: the report's table, randwrite then web, a row per filesystem and raw" sh -c "
		grep -q '^## fio workloads (IOPS, MiB/s read + write, p99 completion latency)' '$S/fio.md' &&
		[ \$(grep -c '^| randwrite | [a-z0-9]* *| *0 | *[1-9][0-9]* | *[0-9.]* | *- | *[0-9.]* | ok *|\$' '$S/fio.md') -eq $((nfio / 2)) ] &&
		[ \$(grep -c '^| web  *| [a-z0-9]* *| *[1-9][0-9]* | *0 | *[0-9.]* | *[0-9.]* | *- | ok *|\$' '$S/fio.md') -eq $((nfio / 2)) ] &&
		grep -q '^| randwrite | raw ' '$S/fio.md'"
	expect_rc 0 "fio: report (csv)" "$HFSB" report "$S/fio.jsonl" --format csv
	echo "$OUT" >"$S/fio.csv"
	check "fio: the csv's IOPS are the records'" sh -c "
		grep -q '^fio,randwrite,' '$S/fio.csv' && [ \"\$(jq -r 'select(.type == \"fio\") | [.workload, .fs, (.write.iops * 10 | round)] | @tsv' '$S/fio.jsonl' | sort)\" = \
		  \"\$(awk -F, '\$1 == \"fio\" && \$2 != \"workload\" { printf \"%s\t%s\t%.0f\n\", \$2, \$3, \$5 * 10 }' '$S/fio.csv' | sort)\" ]"

	# the small-file rounds first, then fio on a filesystem made fresh again
	expect_rc 0 "fio after the rounds: smoke, 1 round, then randwrite, on ext4" with_fio "$S/fio-keep" "$FSB" run \
		--target "$LF" --fs ext4 --profile smoke --rounds 1 --fio randwrite --fio_runtime 1 --fio_size 16M \
		--mnt "$S/mnt" --progress 0 --yes
	check "fio after the rounds: the phases, then a fresh mkfs for fio, then its record" sh -c "
		jq -r 'select(.type == \"phase\" or .type == \"mkfs\" or .type == \"fio\") | .type + \" \" + (.phase // .for // .workload) + \" \" + (.status // \"\")' '$S/out' |
		tr '\n' ';' | grep -qx 'phase create ;phase stat ;phase read ;phase read_inode ;phase delete ;phase fstrim ;mkfs fio ;fio randwrite ok;'"
	check "fio after the rounds: the mkfs record has the tool's argv" some "$S/out" \
		'.type == "mkfs" and .fs == "ext4" and (.mkfs.argv | test("mke2fs .*-t ext4"))'

	# fio missing, fio failing: an error record naming it, the run fails
	expect_rc 1 "fio not found: the run fails" with_fio /dev/null "$FSB" run --target "$LF" --fs ext4 \
		--smallfile 0 --fio randwrite --fio_runtime 1 --fio_size 16M --mnt "$S/mnt" --progress 0 --yes
	check "fio not found: an error record says so, fs_end says why" some "$S/out" \
		'.type == "error" and .op == "fio" and .fs == "ext4" and (.msg | startswith("fio not found in /usr/local/sbin:"))' \
		'.type == "fs_end" and .status == "failed" and (.reason | startswith("fio not found"))'
	expect_rc 1 "fio exits 1: the run fails" with_fio "$S/fio-fail" "$FSB" run --target "$LF" --fs ext4 \
		--smallfile 0 --fio randwrite,web --fio_runtime 1 --fio_size 16M --mnt "$S/mnt" --progress 0 --yes
	check "fio exits 1: an error record and a failed fio record per workload, with fio's message" [ "$(count "$S/out" \
		'(.type == "error" and .op == "fio" and .msg == "fio exited with status 1: fio: this fio always fails")
		 or (.type == "fio" and .status == "failed" and .msg == "fio exited with status 1: fio: this fio always fails")')" -eq 4 ]
	check "fio exits 1: fs_end names the workload" some "$S/out" \
		'.type == "fs_end" and .status == "failed" and .reason == "fio randwrite: fio exited with status 1: fio: this fio always fails"'
	cp "$S/out" "$S/fio-fail.jsonl"
	expect_rc 0 "fio exits 1: report" "$HFSB" report "$S/fio-fail.jsonl"
	check "fio exits 1: the table row says failed" contains "$OUT" "| failed: fio exited with status 1: fio: this fio always fails |"

	# fill on a small ext4: 95 %, 30 % deleted, 95 % again; before and after
	new_loop LG "$S/fill.img" 1G
	expect_rc 0 "fill on ext4 (1 GiB)" "$FSB" run --target "$LG" --fs ext4 --profile fill --fio_runtime 1 \
		--fio_size 8M --mnt "$S/mnt" --progress 0 --yes
	cp "$S/out" "$S/fill.jsonl"
	check "fill: the record: ok, about 95 % after the fill and again after the rewrite" some "$S/fill.jsonl" \
		'.type == "fill" and .fs == "ext4" and .status == "ok" and .fill_pct == 95 and .delete_pct == 30
		 and .fill.level >= 0.945 and .fill.level <= 0.97 and .rewrite.level >= 0.945 and .rewrite.level <= 0.97
		 and .level == .rewrite.level and .fill.enospc == false'
	check "fill: 30 % of the files deleted at random, the level down with them" some "$S/fill.jsonl" \
		'.type == "fill" and .fill.files > 1000 and .delete.files == (.fill.files * 30 / 100 | floor)
		 and .delete.level < .fill.level - 0.2 and .rewrite.files > 0 and .delete.bytes > 0'
	check "fill: the random write before and after, with IOPS, percentiles and their ratio" some "$S/fill.jsonl" \
		'.type == "fill" and .before.iops > 0 and .after.iops > 0 and .before.clat_ns.p99 > 0 and .after.clat_ns.p99 > 0
		 and (.iops_ratio - .after.iops / .before.iops | fabs) < 1e-6 and .probe_size == 8388608'
	check "fill: the sizes come from the seed (the same files on every run)" some "$S/fill.jsonl" \
		'.type == "fill" and .seed == 1718185068'
	expect_rc 0 "fill: report" "$HFSB" report "$S/fill.jsonl"
	check "fill: the report's table, before, after and the ratio" sh -c "echo \"\$1\" | grep -q '^| ext4 | *9[4-6]\\.[0-9] | *[0-9]* | *[1-9][0-9]* | *[1-9][0-9]* | *[0-9]\\.[0-9][0-9] | *[0-9.]* | *[0-9.]* | ok *|\$'" _ "$OUT"
fi
