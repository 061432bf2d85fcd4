# tests/labgrid/test_boot.py: one fsbench run on the environment's target
# (--lg-env FILE: a QEMU one, or a board in a lab), driven by labgrid.
#
# 1. A copy of the environment's disk image (images: disk) in the work
#    folder, with the run's settings: on the kernel command line (QEMUDriver
#    boot_args; option fsbench_settings_via: cmdline) or in the fsbench.conf
#    on the ESP of the copy (esp: qemu/esp.sh), and with --fsbench-criteria
#    the criteria.conf on its ESP; QEMU's sparse target file next to it.
#    The settings: fsbench.profile=PROFILE, the environment's
#    fsbench_settings option, then the --fsbench-append words.
# 2. A board with a USB-SD-Mux: the copy is written to the medium
#    (USBStorageDriver) in host mode, then the mux is switched to the board.
# 3. Power on (PowerProtocol), the console read (ConsoleProtocol) until the
#    run_end record, then the FSBENCH-VERDICT line init prints after it;
#    then until init powers the machine off (or a minute), and power off.
#    A QEMU guest that stops before run_end (a panic, a power-off) fails
#    at once, with the console's last lines; one whose QEMU has used no
#    processor time for --fsbench-stall seconds (TCG's stop, qemu/README.md)
#    fails then, or with --fsbench-stall-retries N is booted again from a
#    fresh copy of the disk (its console kept as console-stalled-K.log).
# 4. In the output folder: the console as it came (console.log), the
#    records pulled from it (records.jsonl: the JSON of the FSBENCH:{json}
#    lines, less a kernel message printed right after one), the host's
#    `fsbench verdict records.jsonl --criteria FILE` (verdict.txt).
# 5. Asserted, all reported together: the records are whole (one run,
#    seq 0, 1, 2, ... with none missing, each line valid JSON, run_start
#    first, run_end's status ok and exit code 0), FSBENCH-VERDICT: PASS on
#    the console, and the host's verdict PASS (exit 0, last line
#    "verdict: PASS").
import glob
import os
import re
import time

import pytest

from fsblg import (REC_RE, VERDICT_RE, Console, GuestWatch, clean_work, guest_stopped,
                   host_verdict, option, prepare, pull_records, ready)


def test_run(env, target, fsb):
    """Boot, run the suite, pull the records, check the verdict."""
    from labgrid.protocol import ConsoleProtocol, PowerProtocol

    words = [f'fsbench.profile={fsb.profile}'] + option(env, 'fsbench_settings', '').split() + fsb.append
    for f in ('console.log', 'records.jsonl', 'verdict.txt', 'fsbench.conf', 'console-stalled-*.log'):
        for path in glob.glob(os.path.join(fsb.out, f)):
            os.unlink(path)
    via = ready(env, target, fsb, words)
    power = target.get_driver(PowerProtocol)
    cons = target.get_driver(ConsoleProtocol)
    console = Console(cons, os.path.join(fsb.out, 'console.log'))
    print(f'fsbench: {target.name}: settings ({via}): {" ".join(words)}')

    for attempt in range(fsb.stall_retries + 1):
        if attempt:
            # the stalled boot's console kept beside; a fresh copy of the disk
            os.replace(os.path.join(fsb.out, 'console.log'),
                       os.path.join(fsb.out, f'console-stalled-{attempt}.log'))
            prepare(env, target, fsb, words)
            console = Console(cons, os.path.join(fsb.out, 'console.log'))
        t0 = time.monotonic()
        power.on()
        watch = GuestWatch(cons, fsb.stall)
        run_end = verdict = ended = None
        try:
            deadline = t0 + fsb.timeout
            while time.monotonic() < deadline and verdict is None:
                new = console.read(timeout=5)
                for line in new:
                    m = VERDICT_RE.match(line)
                    if m and run_end is not None:
                        verdict = m.group(1)
                    elif REC_RE.search(line) and '"type":"run_end"' in line:
                        run_end = time.monotonic()
                if run_end is not None and verdict is None and time.monotonic() > run_end + 300:
                    break
                if not new and (ended := watch.ended()):
                    break
            t_end = time.monotonic()
            # init saves the results to the ESP, then powers off
            while verdict is not None and ended is None and time.monotonic() < t_end + 60:
                if any(l.startswith('fsbench-init: powering off') for l in console.read(timeout=5)):
                    break
                if guest_stopped(cons):
                    ended = 'stopped'
        finally:
            off_error = None
            try:
                power.off()
            except Exception as e:  # QEMU gone: the run's failure says more
                off_error = f'power off: {type(e).__name__}: {e}'
                if type(power).__name__ == 'QEMUDriver':
                    power.status = 0  # nothing left for labgrid's cleanup to stop
            console.close()
        if ended != 'stalled':
            break
        print(f'fsbench: {target.name}: boot {attempt + 1}: {watch.why()} '
              f'({t_end - t0:.1f} s after power on)')
    what = 'the verdict' if verdict is not None else 'the end of the wait'
    print(f'fsbench: {target.name}: power on to {what}: {t_end - t0:.1f} s')

    if run_end is None:
        why = watch.why(ended) if ended else f'no run_end within {fsb.timeout:.0f} s'
        pytest.fail(f'{why}; the console\'s last lines:\n{console.tail()}')

    # The records: every FSBENCH:{...} line of the console.
    # records.jsonl keeps them as the console gave them, less a kernel
    # message printed right after one.
    rpath = os.path.join(fsb.out, 'records.jsonl')
    records, bad = pull_records(console.lines, rpath)

    problems = [off_error] if off_error else []
    if bad:
        problems.append(f'{len(bad)} record lines are not JSON, the first: {bad[0][:200]}')
    ids = sorted({r.get('run_id') for r in records})
    if len(ids) != 1:
        problems.append(f'the console holds {len(ids)} runs, wanted 1: {ids}')
    seqs = [r.get('seq') for r in records]
    if seqs != list(range(len(records))):
        gaps = [i for i, s in enumerate(seqs) if s != i][:5]
        problems.append(f'record seq not 0..{len(records) - 1} in order (first differences at {gaps})')
    if not records or records[0].get('type') != 'run_start':
        problems.append('the first record is not run_start')
    end = [r for r in records if r.get('type') == 'run_end']
    if end and (end[-1].get('status') != 'ok' or end[-1].get('exit_code') != 0):
        problems.append(f"run_end: status {end[-1].get('status')}, exit_code {end[-1].get('exit_code')}")

    if verdict is None:
        problems.append('no FSBENCH-VERDICT line after run_end (no criteria.conf on the ESP?)')
    elif verdict != 'PASS':
        fails = [l for l in console.lines if re.search(r': FAIL( \(.*\))?$', l)
                 and not l.startswith('FSBENCH-VERDICT')]
        problems.append(f'the guest says FSBENCH-VERDICT: {verdict}\n  ' + '\n  '.join(fails[:10]))

    crit = fsb.criteria or os.path.join(fsb.root, 'board', option(env, 'fsbench_board'), 'criteria.conf')
    code, last, fails = host_verdict(fsb, rpath, crit)
    if code != 0 or last != 'verdict: PASS':
        problems.append(f'host: fsbench verdict --criteria {crit}: exit {code}, {last}\n  '
                        + '\n  '.join(fails[:10]))

    print(f'fsbench: {len(records)} records, guest verdict {verdict}, host {last}')
    print(f'fsbench: console.log, records.jsonl, verdict.txt in {fsb.out}')
    clean_work(fsb)
    assert not problems, '\n'.join(problems)
