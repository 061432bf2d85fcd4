#!/bin/sh
# tests/qemu/sustain.sh: the sustained write (setting `sustain`) in QEMU,
# and the cliff the report finds in it. First, without a boot: the
# launcher's --throttle-at (misuse; QMP on named pipes and the target's
# device id in QEMU's argv only when asked). Then two boots of the same
# short sustain run on the raw target (fs ext4 for the suite's one mkfs,
# no small-file rounds, 12 s of sequential and 12 s of 4 KiB random
# writes, the cliff's base and hold 3 s each), the target throttled from
# the start to 40 I/O operations a second, both boots at once:
#   cliff    --throttle-at 6:iops=10: 6 s after the first sustained
#            write's console line, QMP's block_set_io_throttle cuts the
#            target to 10 I/O operations a second. The report finds the
#            sequential write's cliff within 2 s of that moment, its level
#            a quarter of the base (within 15 to 40 %), and no cliff in
#            the random write that follows (it runs at the new limit from
#            its start); QMP answered both commands; the HTML report draws
#            the chart.
#   steady   the same without the change: no cliff in either write.
# Why the throttle from the start: under TCG the guest's unthrottled
# speed follows whatever else the host runs (other guests, builds), and a
# busy second would look like a fall; 40 I/O operations a second is far
# below what the emulated NVMe does on an idle or busy host, so the speed
# is the throttle's and only the change moves it. The throttle counts
# operations whatever their size (QEMU's iops-total without iops-size):
# about 18 MiB/s of 1 MiB writes (the guest sends each as two 512 KiB
# NVMe commands, QEMU's largest), 160 KiB/s of 4 KiB ones.
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64;
# another board is a SKIP).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-sustain/.
set -eu

O=${O:?run through make check-qemu-sustain}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-sustain
. tests/qemu/lib.sh

qemu_start 'qemu sustain tests' "sustain on $BOARD: the test's throttle figures are qemu-x86_64's" jq

# --- the launcher, without a boot -------------------------------------
ARGV_PROFILE=sustain	# argv (tests/qemu/lib.sh)
check "options: cmdline.sh with TQMP" argv qmp TQMP=1
check "options: QMP on named pipes, the target's NVMe device named fsbench-target" sh -c \
	"grep -qxF 'pipe,id=qmp,path=$T/argv-qmp/qmp' '$T/argv-qmp/qemu.argv' &&
	grep -qxF 'chardev=qmp,mode=control' '$T/argv-qmp/qemu.argv' &&
	grep -qxF 'nvme,drive=target,serial=fsbench-target,id=fsbench-target' '$T/argv-qmp/qemu.argv' &&
	[ -p '$T/argv-qmp/qmp.in' ] && [ -p '$T/argv-qmp/qmp.out' ]"
check "options: cmdline.sh without TQMP" argv plain
check "options: without TQMP no QMP and no device id" sh -c \
	"! grep -q 'qmp' '$T/argv-plain/qemu.argv' &&
	grep -qxF 'nvme,drive=target,serial=fsbench-target' '$T/argv-plain/qemu.argv'"
check "options: TQMP with TUNPLUG: the device id once" sh -c \
	"env WORK='$T/argv-plain' ACCEL=tcg CPU=max SERIAL=s KERNEL=k INITRD=i ROOTFS=ext4 TCACHE=none \
	TQMP=1 TUNPLUG=1 sh qemu/cmdline.sh '$T/argv-both' &&
	grep -qxF 'nvme,drive=target,serial=fsbench-target,id=fsbench-target,bus=fsbench-rp' '$T/argv-both'"
for bad in '--throttle-at 5' '--throttle-at x:iops=5' '--throttle-at 5:iops=0' \
	'--throttle-at 5:iops=1k' '--throttle-at 5:mbps=3' '--throttle-at 5:bps='; do
	# shellcheck disable=SC2086
	expect_rc 2 "options: $bad is misuse" sh qemu/run.sh --disk "$IMG/disk-ext4.img" $bad
done
# watch.sh's side with a stand-in for QEMU: it prints the runner's line on
# its console, then takes what comes on the QMP pipe and answers it.
w=$T/watch
mkdir -p "$w"
mkfifo "$w/qmp.in" "$w/qmp.out"
: >"$w/serial.log"
cat >"$w/fake-qemu" <<'FAKE'
#!/bin/sh
# fake-qemu SERIAL QMP GOT: the console line, then the two QMP commands into GOT
echo 'FSBENCH-SUSTAIN: start fs=raw workload=seq seconds=3' >>"$1"
exec 3<"$2.in"
IFS= read -r a <&3
IFS= read -r b <&3
printf '%s\n%s\n' "$a" "$b" >"$3"
printf '{"return": {}}\n{"return": {}}\n' >"$2.out"
FAKE
sh qemu/watch.sh --serial "$w/serial.log" --work "$w" --timeout 30 --quiet --qmp "$w/qmp" \
	--throttle-after-line 'FSBENCH-SUSTAIN: start' --throttle-delay 1.5 --throttle-spec bps=1048576 \
	-- sh "$w/fake-qemu" "$w/serial.log" "$w/qmp" "$w/got" >"$w/out" 2>&1 || true
check "watch: QMP's capabilities, then block_set_io_throttle of fsbench-target with bps alone" sh -c \
	"printf '%s\\n' '{\"execute\":\"qmp_capabilities\"}' \
	'{\"execute\":\"block_set_io_throttle\",\"arguments\":{\"id\":\"fsbench-target\",\"bps\":1048576,\"bps_rd\":0,\"bps_wr\":0,\"iops\":0,\"iops_rd\":0,\"iops_wr\":0}}' |
	cmp -s - '$w/got'"
m=$(sed -n "s/^qemu: target throttle set to bps=1048576 at \([0-9.]*\) s after 'FSBENCH-SUSTAIN: start'.*/\1/p" "$w/out")
check "watch: the moment said, 1.5 s after the line (the loop looks every 0.2 s): ${m:-not said}" \
	awk -v m="$m" 'BEGIN { exit !(m != "" && m >= 1.5 && m <= 2.2) }'
check "watch: QMP's answers logged" [ "$(grep -c '"return": {}' "$w/qmp.log" 2>/dev/null)" = 2 ]
: >"$w/serial.log"
sh qemu/watch.sh --serial "$w/serial.log" --work "$w" --timeout 30 --quiet --qmp "$w/qmp" \
	--throttle-after-line 'FSBENCH-SUSTAIN: start' --throttle-delay 1 --throttle-spec iops=5 \
	-- sh -c 'sleep 0.5' >"$w/out2" 2>&1 || true
check "watch: a change that never came is said" \
	grep -q "qemu: target throttle not changed: no console line held 'FSBENCH-SUSTAIN: start'" "$w/out2"

made build.log host image ROOTFS=ext4 || { summary; exit 1; }
AT=6
# boot NAME LAUNCHER-OPTIONS...: in the background; its status in
# $T/NAME.rc, its results in $T/NAME.
boot() {
	_n=$1; shift
	(
		set +e
		sh qemu/run.sh --disk "$IMG/disk-ext4.img" --results "$T/$_n" --quiet --criteria none \
			--profile sustain --timeout 300 --target-size 1G --target-throttle 40 \
			--append "fsbench.fs=ext4 fsbench.sustain=raw fsbench.sustain_seconds=12 fsbench.sustain_base=3 fsbench.sustain_hold=3" \
			"$@" >"$T/$_n.out" 2>&1
		echo $? >"$T/$_n.rc"
	) &
}
# Both boots at once: the writes wait on the throttle, not on the host's
# cores, and the test takes one boot's time.
boot cliff --throttle-at "$AT:iops=10" --keep
boot steady
wait
for n in cliff steady; do
	info "$n: launcher exit $(cat "$T/$n.rc"), $(grep -E 'total run time' "$T/$n/run.txt" 2>/dev/null | sed 's/^ *//')"
done
# cliff NAME WORKLOAD: the report's "cliff at s" of the raw write (empty:
# none), from the CSV (the columns before it hold no comma).
cliff() {
	"$FSB" report --format csv "$T/$1" 2>/dev/null |
		awk -F, -v w="$2" '$1 == "sustain" && $2 == "raw" && $3 == w { print $7 }'
}
cell() {
	"$FSB" report --format csv "$T/$1" 2>/dev/null |
		awk -F, -v w="$2" -v c="$3" '$1 == "sustain" && $2 == "raw" && $3 == w { print $c }'
}

res=$T/cliff
check "cliff: the run ended well (exit 0)" [ "$(cat "$T/cliff.rc")" = 0 ]
check "cliff: the launcher set the throttle through QMP and said when" \
	grep -q "qemu: target throttle set to iops=10 at $AT\.[0-9] s after 'FSBENCH-SUSTAIN: start'" "$T/cliff.out"
work=$(sed -n 's/^ *work folder: *//p' "$res/run.txt")
check "cliff: QMP answered both commands with success (the capabilities and the throttle)" sh -c \
	"[ \"\$(grep -o '\"return\": {}' '$work/qmp.log' | wc -l)\" = 2 ]"
[ -z "$work" ] || [ ! -d "$work" ] || rm -rf "$work"
st=$(recs "$res" sustain | jq -r .status | tr '\n' ' ')
ns=$(recs "$res" sustain_series | wc -l)
check "cliff: two sustain records, both ok ($st), with their series ($ns)" \
	sh -c '[ "$1" = "ok ok " ] && [ "$2" -ge 2 ]' sh "$st" "$ns"
at=$(cliff cliff seq)
info "cliff: throttle changed at $AT s, the report's cliff at ${at:-none} s, level $(cell cliff seq 9)"
check "cliff: the sequential write's cliff within 2 s of the change ($AT s): ${at:-none}" \
	awk -v a="$at" -v t="$AT" 'BEGIN { exit !(a != "" && a - t <= 2 && t - a <= 2) }'
lvl=$(cell cliff seq 9)
check "cliff: the level after it a quarter of the base (15 to 40 %): $lvl" \
	awk -v l="${lvl%\%}" 'BEGIN { exit !(l + 0 >= 15 && l + 0 <= 40) }'
check "cliff: no cliff in the random write at the new limit from its start" [ -z "$(cliff cliff rand)" ]
if have gnuplot; then
	"$FSB" report --format html "$res" >"$T/cliff.html" 2>/dev/null || true
	check "cliff: the HTML report draws throughput and temperature" \
		grep -q '<figure class="chart" id="chart-sustain"' "$T/cliff.html"
else
	skip "cliff: the HTML chart: gnuplot not installed"
fi

res=$T/steady
check "steady: the run ended well (exit 0)" [ "$(cat "$T/steady.rc")" = 0 ]
check "steady: no throttle change said" sh -c "! grep -q 'target throttle set\\|target throttle to' '$T/steady.out'"
st=$(recs "$res" sustain | jq -r .status | tr '\n' ' ')
check "steady: two sustain records, both ok ($st)" [ "$st" = 'ok ok ' ]
check "steady: no cliff in the sequential write" [ -z "$(cliff steady seq)" ]
check "steady: no cliff in the random write" [ -z "$(cliff steady rand)" ]
check "steady: both writes judged (not too short)" sh -c \
	"\"$FSB\" report --format csv '$res' | grep '^sustain,raw,' | grep -c 'none: held' | grep -qx 2"
summary
