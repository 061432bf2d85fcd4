# qemu/progress.awk: follow the guest's console: show it, and keep the
# run's position from its records, read by key as they come:
#   ... | sh qemu/records.sh --console --text --unbuffered - "" \
#     type fs round phase config.fs config.rounds | awk -f qemu/progress.awk
# Input: qemu/records.sh's lines: "text<TAB>LINE" (a console line that is
#   not a record, or the text before one) and "record<TAB>TYPE<TAB>FS<TAB>
#   ROUND<TAB>PHASE<TAB>CONFIG.FS<TAB>CONFIG.ROUNDS".
# Variables: show (1: print the console lines that are not records), tty
#   (1: the output is a terminal: clear the progress line before a console
#   line and draw it again after, from the file status), plan
#   (qemu/estimate.sh's figures; empty or missing: every round of every
#   filesystem weighs the same), state (the file rewritten after each
#   record; see below).
# Output: the console lines on stdout; state.log, the state line of each
# phase_start and run_end appended (one plain progress line each); state,
# one line:
#   RECORDS|FS_INDEX|FS_COUNT|FS|ROUND|ROUNDS|PHASE|DONE|CURRENT|TOTAL|EVENT|end
#   DONE is the estimated seconds of the work finished, CURRENT those of the
#   phase that runs (0 between phases), TOTAL those of the whole suite, all
#   from the plan's figures; EVENT the last record's type.
BEGIN {
	nrec = 0
	if (plan != "") {
		while ((getline l < plan) > 0) {
			n = split(l, w, " ")
			if (w[1] == "fs") {
				rs[w[2]] = w[3]; np[w[2]] = 0; psum[w[2]] = 0
				for (i = 4; i <= n; i++) {
					split(w[i], kv, "=")
					np[w[2]]++
					pidx[w[2], kv[1]] = np[w[2]]
					pw[w[2], np[w[2]]] = kv[2]
					psum[w[2]] += kv[2]
				}
				rsum += w[3]; rcnt++
			}
		}
		close(plan)
	}
}
function clear() { if (tty) printf "\r\033[K" }
function redraw(   l) {
	if (!tty || state == "") return
	l = ""
	if ((getline l < status) > 0) printf "%s", l
	close(status)
}
# before(F, PHASE, THROUGH): the seconds of a round of F before PHASE
# (THROUGH: including it), from the plan; 0 for a phase it does not know
# (such a phase keeps the position its round has reached, below).
function before(f, p, through,   i, k, s) {
	if (!((f, p) in pidx) || psum[f] <= 0) return 0
	k = pidx[f, p]
	s = 0
	for (i = 1; i < k + through; i++) s += pw[f, i]
	return rs[f] * s / psum[f]
}
function put(ev,   l) {
	l = sprintf("%d|%d|%d|%s|%d|%d|%s|%.3f|%.3f|%.3f|%s|end", nrec, fsi, nfs, cur_fs, rnd, rounds, ph, done, cur, total, ev)
	print l > state
	close(state)
	if (ev == "phase_start" || ev == "run_end") {
		print l >> (state ".log")
		close(state ".log")
		# how many lines the log holds: watch.sh reads it without a fork
		print ++nlog > (state ".n")
		close(state ".n")
	}
}
{
	if (substr($0, 1, 5) == "text\t") {
		if (show) { clear(); print substr($0, 6); redraw(); fflush() }
		next
	}
	if (substr($0, 1, 7) != "record\t") next
	split(substr($0, 8), R, "\t")
	nrec++
	ty = R[1]
	if (ty == "run_start") {
		nfs = split(R[5], F, ",")
		rounds = R[6] + 0
		total = 0
		for (i = 1; i <= nfs; i++) {
			f = F[i]
			if (!(f in rs)) rs[f] = rcnt ? rsum / rcnt : 1
			base[f] = total
			idx[f] = i
			total += rounds * rs[f]
		}
		fsi = 0; cur_fs = ""; rnd = 0; ph = ""; done = 0; cur = 0
	} else if (ty == "fs_start") {
		cur_fs = R[2]; fsi = idx[cur_fs]; rnd = 1; ph = ""; cur = 0
		done = base[cur_fs]
	} else if (ty == "phase_start" || ty == "phase") {
		cur_fs = R[2]; fsi = idx[cur_fs]
		rnd = R[3] + 0; ph = R[4]
		b = base[cur_fs] + (rnd - 1) * rs[cur_fs]
		if (!((cur_fs, ph) in pidx) && done >= b && done <= b + rs[cur_fs]) {
			cur = 0	# a phase the plan does not weigh (fstrim): where the round is
		} else if (ty == "phase_start") {
			done = b + before(cur_fs, ph, 0)
			cur = before(cur_fs, ph, 1) - before(cur_fs, ph, 0)
		} else {
			done = b + before(cur_fs, ph, 1)
			cur = 0
		}
	} else if (ty == "fs_end") {
		f = R[2]
		done = base[f] + rounds * rs[f]; cur = 0
	} else if (ty == "run_end") {
		done = total; cur = 0; ph = ""
	} else {
		next
	}
	if (state != "") put(ty)
}
