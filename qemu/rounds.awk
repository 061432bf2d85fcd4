# qemu/rounds.awk: per-round figures of one finished run, from its records
# read by key:
#   sh qemu/records.sh records.jsonl "" type t fs phase seconds status \
#     config.rounds config.dirs config.files | awk -F'\t' -f qemu/rounds.awk
# Output: one line per filesystem that ended ok:
#   FS FILES ROUND_SECONDS PHASE=SECONDS...
# FILES is dirs x files of a round, ROUND_SECONDS the filesystem's share of
# the run (from the end of the previous filesystem, or the run's start, to
# its fs_end, mkfs and remounts included) over its rounds, and each
# PHASE=SECONDS a phase's mean over the rounds, in the order they ran.
{
	ty = $1; t = $2; f = $3; p = $4
	if (ty == "run_start") {
		rounds = $7 + 0
		files = $8 * $9
		last = t + 0
	} else if (ty == "phase") {
		if (!((f, p) in psum)) { np[f]++; pname[f, np[f]] = p }
		psum[f, p] += $5
		pcnt[f, p]++
	} else if (ty == "fs_end") {
		if ($6 == "ok" && rounds > 0) {
			out = sprintf("%s %d %.1f", f, files, (t - last) / rounds)
			for (i = 1; i <= np[f]; i++) {
				p = pname[f, i]
				out = out sprintf(" %s=%.2f", p, psum[f, p] / pcnt[f, p])
			}
			print out
		}
		last = t + 0
	}
}
