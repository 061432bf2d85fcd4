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

import pytest

from fsblg import boot_run, clean_work, host_verdict, option, prepare, pull_records, ready, whole_run


def test_run(env, target, fsb):
    """Boot, run the suite, pull the records, check the verdict."""
    words = [f'fsbench.profile={fsb.profile}'] + option(env, 'fsbench_settings', '').split() + fsb.append
    for f in ('console.log', 'records.jsonl', 'verdict.txt', 'fsbench.conf', 'console-stalled-*.log'):
        for path in glob.glob(os.path.join(fsb.out, f)):
            os.unlink(path)
    via = ready(env, target, fsb, words)
    print(f'fsbench: {target.name}: settings ({via}): {" ".join(words)}')

    b = boot_run(target, fsb, os.path.join(fsb.out, 'console.log'),
                 again=lambda: prepare(env, target, fsb, words))
    console, verdict = b.console, b.verdict
    what = 'the verdict' if verdict is not None else 'the end of the wait'
    print(f'fsbench: {target.name}: power on to {what}: {b.seconds:.1f} s')

    if b.run_end is None:
        pytest.fail(f'{b.why(fsb.timeout)}; the console\'s last lines:\n{console.tail()}')

    # The records: every FSBENCH:{...} line of the console.
    # records.jsonl keeps them as the console gave them, less a kernel
    # message printed right after one.
    rpath = os.path.join(fsb.out, 'records.jsonl')
    records, bad = pull_records(console.lines, rpath)
    problems = ([b.off_error] if b.off_error else []) + whole_run(records, bad)

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
