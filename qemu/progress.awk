# qemu/progress.awk: follow the guest's console: show it, and keep the
# run's position from its records (awk -f qemu/json.awk -f qemu/progress.awk).
# Input: the serial console as it comes (lines with \r or not).
# Variables: prefix (records follow it on a line: FSBENCH:), show (1: print
#   the console lines that are not records), tty (1: the output is a
#   terminal: clear the progress line before a console line and draw it
#   again after, from the file status), plan (qemu/estimate.sh's figures;
#   empty or missing: every round of every filesystem weighs the same),
#   state (the file rewritten after each record; see below).
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
# (THROUGH: including it), from the plan; 0 for a phase it does not know.
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
	}
}
{
	line = $0
	gsub(/\r/, "", line)
	i = index(line, prefix "{")
	if (!i) {
		if (show) { clear(); print line; redraw(); fflush() }
		next
	}
	if (i > 1 && show) { clear(); print substr(line, 1, i - 1); redraw(); fflush() }
	rec = substr(line, i + length(prefix))
	if (!json_parse(rec)) next
	nrec++
	ty = json_get("type")
	if (ty == "run_start") {
		nfs = split(json_get("config.fs"), F, ",")
		rounds = json_get("config.rounds") + 0
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
		cur_fs = json_get("fs"); fsi = idx[cur_fs]; rnd = 1; ph = ""; cur = 0
		done = base[cur_fs]
	} else if (ty == "phase_start" || ty == "phase") {
		cur_fs = json_get("fs"); fsi = idx[cur_fs]
		rnd = json_get("round") + 0; ph = json_get("phase")
		b = base[cur_fs] + (rnd - 1) * rs[cur_fs]
		if (ty == "phase_start") {
			done = b + before(cur_fs, ph, 0)
			cur = before(cur_fs, ph, 1) - before(cur_fs, ph, 0)
		} else {
			done = b + before(cur_fs, ph, 1)
			cur = 0
		}
	} else if (ty == "fs_end") {
		f = json_get("fs")
		done = base[f] + rounds * rs[f]; cur = 0
	} else if (ty == "run_end") {
		done = total; cur = 0; ph = ""
	} else {
		next
	}
	if (state != "") put(ty)
}
