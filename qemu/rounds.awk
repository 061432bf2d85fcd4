# qemu/rounds.awk: per-round figures of one finished run, from its records
# (awk -f qemu/json.awk -f qemu/rounds.awk records.jsonl).
# Output: one line per filesystem that ended ok:
#   FS FILES ROUND_SECONDS PHASE=SECONDS...
# FILES is dirs x files of a round, ROUND_SECONDS the filesystem's share of
# the run (from the end of the previous filesystem, or the run's start, to
# its fs_end, mkfs and remounts included) over its rounds, and each
# PHASE=SECONDS a phase's mean over the rounds, in the order they ran.
{
	line = $0
	sub(/\r+$/, "", line)
	if (!json_parse(line)) next
	ty = json_get("type")
	if (ty == "run_start") {
		rounds = json_get("config.rounds") + 0
		files = json_get("config.dirs") * json_get("config.files")
		last = json_get("t") + 0
	} else if (ty == "phase") {
		f = json_get("fs"); p = json_get("phase")
		if (!((f, p) in psum)) { np[f]++; pname[f, np[f]] = p }
		psum[f, p] += json_get("seconds")
		pcnt[f, p]++
	} else if (ty == "fs_end") {
		f = json_get("fs")
		if (json_get("status") == "ok" && rounds > 0) {
			out = sprintf("%s %d %.1f", f, files, (json_get("t") - last) / rounds)
			for (i = 1; i <= np[f]; i++) {
				p = pname[f, i]
				out = out sprintf(" %s=%.2f", p, psum[f, p] / pcnt[f, p])
			}
			print out
		}
		last = json_get("t") + 0
	}
}
