# sustain.sh: host tests of the sustained write (run/stores/sustain.c,
# setting `sustain`), sourced by run.sh (its helpers, $FSB, $S, its loop
# devices and cleanup): Debian's fio on a 1 GiB loop device, `sustain =
# both` on ext4 and the raw target, 5 s writes. The cliff itself is
# tests/qemu/sustain.sh's (a throttle that changes) and test_cliff's.

if [ -z "${fio_bin:-}" ]; then
	skip "sustain: fio not found (Debian package fio; image/deps.sh test)"
else
	new_loop LS "$S/sustain.img" 1G
	expect_rc 0 "sustain: both, on ext4 and the raw target, 5 s a write" "$FSB" run \
		--target "$LS" --fs ext4 --smallfile 0 --sustain both --sustain_seconds 5 \
		--sustain_base 1 --sustain_hold 1 --mnt "$S/mnt" --progress 0 --yes --capacity 0
	cp "$S/out" "$S/sustain.jsonl"
	check "sustain: stdout holds records only (no console mark without a prefix)" \
		sh -c "! grep -v '^{' '$S/sustain.jsonl'"
	check "sustain: four writes, each ok: ext4 and raw, seq then rand" \
		[ "$(jq -r 'select(.type == "sustain") | "\(.fs) \(.workload) \(.status)"' "$S/sustain.jsonl" | tr '\n' ,)" = \
		"ext4 seq ok,ext4 rand ok,raw seq ok,raw rand ok," ]
	check "sustain: fio's options, the span, the samples, the settings of the cliff" [ "$(count "$S/sustain.jsonl" \
		".type == \"sustain\" and .runtime == 5 and .samples >= 3 and .samples <= 5
		and .first_s > 0.5 and .first_s < 4 and (.mib_per_s > 0) and (.fio_version | startswith(\"fio-\"))
		and (if .workload == \"seq\" then .rw == \"write\" and .bs == \"1M\" and .iodepth == 8
		     else .rw == \"randwrite\" and .bs == \"4k\" and .iodepth == 32 end)
		and (if .fs == \"raw\" then .filename == \"$LS\" and .size == 1073741824
		     else .filename == \"$S/mnt/fsbench-sustain\" and .size < 1073741824 and .size % 1048576 == 0 end)
		and .share_pct == 50 and .base_s == 1 and .hold_s == 1 and .rise_c == 5")" -eq 4 ]
	check "sustain: a loop device has no temperature, and says why" [ "$(count "$S/sustain.jsonl" \
		'.type == "sustain" and (.temp_source | startswith("not available: a loop device"))')" -eq 4 ]
	check "sustain: each write's series follows it: its samples from 0, nonzero, temperatures null" \
		[ "$(jq -s '[ . as $a | range(0; length - 1) | select($a[.].type == "sustain")
		| $a[. + 1] as $x | select($x.type == "sustain_series" and $x.from == 0
			and $x.fs == $a[.].fs and $x.workload == $a[.].workload
			and ($x.mib_per_s | length) == $a[.].samples and ($x.mib_per_s | all(. > 0))
			and ($x.celsius | length) == $a[.].samples and ($x.celsius | all(. == null))) ] | length' \
			"$S/sustain.jsonl")" -eq 4 ]
	check "sustain: the file is gone, the mount point unmounted" sh -c "! grep -q ' $S/mnt ' /proc/self/mountinfo"
	check "sustain: the records pass the schema" "$HFSB" log check "$S/sustain.jsonl"
	"$HFSB" report "$S/sustain.jsonl" >"$S/sustain.md" 2>&1 || true
	check "sustain: the report has the sustained writes' table, each write judged" \
		[ "$(grep -c '^| \(ext4\|raw\) *| \(seq\|rand\) .*\(none: held\|fell below\)' "$S/sustain.md")" -eq 4 ]
fi
