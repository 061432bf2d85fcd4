#!/bin/sh
# tests/qemu/soak.sh: boot the smoke image many times and count the boots
# that reach run_end (make soak SOAK_BOOTS=N). A measurement of how often a
# boot fails, not part of make check.
# Each boot: qemu/run.sh on the board's ext4 image, the smoke profile cut to
# ext4 and one round (--append "fsbench.fs=ext4 fsbench.rounds=1"), the
# launcher's own accelerator choice and timeout (SOAK_ARGS adds options,
# e.g. --accel tcg). One line per boot (run_end or not, the launcher's
# status, time to the first record, total time); for a boot without run_end
# also where its serial log is kept, how it ended and the console's last
# lines. The last line: "soak: M of N boots reached run_end".
# Inputs (environment): O (build output, absolute), BOARD, SOAK_BOOTS
# (default 30), SOAK_ARGS (more qemu/run.sh options).
# Output: the lines above; results under $O/soak/boot-NN/ (serial.log,
# run.txt, the launcher's output in boot-NN.out). Exit status 0 when every
# boot reached run_end, 1 otherwise.
set -eu

O=${O:?run through make soak}
BOARD=${BOARD:-qemu-x86_64}
N=${SOAK_BOOTS:-30}
S=$O/soak
disk=$O/image/$BOARD/disk-ext4.img
export BOARD

case $N in '' | *[!0-9]*) echo "soak: SOAK_BOOTS=$N is not a number" >&2; exit 2 ;; esac
[ -f "$disk" ] || { echo "soak: no image $disk (make image)" >&2; exit 2; }
rm -rf "$S"
mkdir -p "$S"
field() { sed -n "s/^  $1: *//p" "$2" 2>/dev/null | head -n 1; }

echo "soak: $N boots of $disk (smoke, ext4, 1 round), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
ok=0 i=0
while [ "$i" -lt "$N" ]; do
	i=$((i + 1))
	b=$(printf 'boot-%02d' "$i")
	set +e
	# shellcheck disable=SC2086
	sh qemu/run.sh --disk "$disk" --results "$S/$b" --quiet --profile smoke \
		--append "fsbench.fs=ext4 fsbench.rounds=1" ${SOAK_ARGS:-} >"$S/$b.out" 2>&1
	rc=$?
	set -e
	t="first record $(field 'qemu start to first record' "$S/$b/run.txt"), total $(field 'total run time' "$S/$b/run.txt"), $(field accelerator "$S/$b/run.txt")"
	if [ -n "$(sh qemu/records.sh "$S/$b/records.jsonl" run_end 2>/dev/null)" ]; then
		ok=$((ok + 1))
		echo "soak: $b: run_end, status $rc ($t)"
	else
		echo "soak: $b: NO run_end, status $rc ($t)"
		echo "  end: $(field end "$S/$b/run.txt")"
		echo "  serial log: $S/$b/serial.log"
		echo "  launcher output: $S/$b.out"
		echo "  the console's last lines:"
		tail -n 15 "$S/$b/serial.log" 2>/dev/null | tr -d '\r' | sed 's/^/    /'
	fi
done
echo "soak: $ok of $N boots reached run_end (load now $(cut -d' ' -f1-3 /proc/loadavg))"
[ "$ok" -eq "$N" ]
