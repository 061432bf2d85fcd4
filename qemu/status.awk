# qemu/status.awk: the one overall progress line of a run (awk -f
# qemu/status.awk, everything in variables; no input is read).
# Variables: st (qemu/progress.awk's state line; empty: no record yet), now,
#   t0 (QEMU started), first (the first record came; empty: not yet), tst
#   (this state came), boot and total (qemu/estimate.sh's plan: seconds to
#   the first record and QEMU start to power-off; empty: no estimate).
# Output: the line, e.g. "fs 2 of 4 (xfs), round 1 of 2, read, 37%,
#   elapsed 0:01:02, about 1 min left".
function clock(s) { s = int(s); return sprintf("%d:%02d:%02d", s / 3600, s % 3600 / 60, s % 60) }
function about(s) {
	if (s < 1) return "about 0 s"
	if (s < 90) return sprintf("about %d s", s + 0.5)
	if (s < 5400) return sprintf("about %d min", s / 60 + 0.5)
	s = int(s / 60 + 0.5)
	return sprintf("about %d h %02d min", s / 60, s % 60)
}
BEGIN {
	el = now - t0
	if (st == "") {
		out = "booting, elapsed " clock(el)
		if (total != "") out = out ", " about(total - el) " left"
		print out
		exit
	}
	split(st, S, "|")
	nrec = S[1]; fsi = S[2]; nfs = S[3]; fs = S[4]; rnd = S[5]; rounds = S[6]
	ph = S[7]; done = S[8]; cur = S[9]; runtot = S[10]; ev = S[11]
	if (ev == "run_end") {
		printf "run ended, 100%%, elapsed %s\n", clock(el)
		exit
	}
	# The pace of this machine against the figures, once enough is done.
	pace = 1; measured = 0
	if (first != "" && runtot > 0 && done >= 0.02 * runtot && tst > first) {
		pace = (tst - first) / done; measured = 1
	}
	prog = done
	if (cur > 0) {
		d = (now - tst) / pace
		prog += d < 0.99 * cur ? d : 0.99 * cur
	}
	pct = runtot > 0 ? int(100 * prog / runtot) : 0
	if (pct > 99) pct = 99
	out = ""
	if (fsi > 0) out = sprintf("fs %d of %d (%s), round %d of %d", fsi, nfs, fs, rnd, rounds)
	else out = sprintf("%d filesystems", nfs)
	if (ph != "") out = out ", " ph
	out = out sprintf(", %d%%, elapsed %s", pct, clock(el))
	if (total != "" || measured) out = out ", " about((runtot - prog) * pace) " left"
	print out
}
