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
#    at once, with the console's last lines.
# 4. In the output folder: the console as it came (console.log), the
#    records pulled from it (records.jsonl: the JSON of the FSBENCH:{json}
#    lines as it came), the host's `fsbench verdict records.jsonl
#    --criteria FILE` (verdict.txt).
# 5. Asserted, all reported together: the records are whole (one run,
#    seq 0, 1, 2, ... with none missing, each line valid JSON, run_start
#    first, run_end's status ok and exit code 0), FSBENCH-VERDICT: PASS on
#    the console, and the host's verdict PASS (exit 0, last line
#    "verdict: PASS").
import json
import os
import re
import subprocess
import time

import pytest
from pexpect import TIMEOUT

REC_RE = re.compile(r'FSBENCH:(\{.*\})\s*$')
VERDICT_RE = re.compile(r'^FSBENCH-VERDICT: (.*?)\s*$')


def option(env, name, default=None):
    return env.config.get_target_option('main', name, default)


class Console:
    """The console as it comes: raw bytes to console.log, complete lines
    kept for matching."""

    def __init__(self, drv, path):
        self.drv = drv
        self.log = open(path, 'wb')
        self.partial = b''
        self.lines = []

    def read(self, timeout):
        """New complete lines, [] after `timeout` seconds without data."""
        try:
            data = self.drv.read(size=4096, timeout=timeout)
        except TIMEOUT:  # every console driver's
            return []
        if not data:
            # a closed socket (QEMU gone) reads empty at once
            time.sleep(min(timeout, 1.0))
            return []
        self.log.write(data)
        self.log.flush()
        buf = self.partial + data
        *done, self.partial = buf.split(b'\n')
        new = [l.decode('utf-8', 'replace').rstrip('\r') for l in done]
        self.lines += new
        return new

    def tail(self, n=15):
        return '\n'.join(self.lines[-n:])

    def close(self):
        self.log.close()


def guest_stopped(drv):
    """QEMU only: True when the guest no longer runs (powered off, or
    stopped after a panic: -no-reboot -no-shutdown), or QEMU is gone."""
    if type(drv).__name__ != 'QEMUDriver':
        return False
    # labgrid 0.4.1's QEMUDriver keeps the QEMU process in _child
    if drv._child is not None and drv._child.poll() is not None:
        return True
    try:
        return not drv.monitor_command('query-status')['running']
    except Exception:
        return True


def prepare(env, target, fsb, words):
    """The work copy of the disk image, with the settings and criteria."""
    os.makedirs(fsb.work, exist_ok=True)
    disk = os.path.join(fsb.work, 'disk.img')
    src = env.config.get_image_path('disk')
    if not os.path.isfile(src):
        pytest.fail(f'no disk image {src} (images: disk; make image)')
    subprocess.run(['cp', '--sparse=always', src, disk], check=True)
    esp = [os.path.join(fsb.root, 'qemu', 'esp.sh')]
    if fsb.criteria:
        subprocess.run(['sh'] + esp + ['--criteria', disk, fsb.criteria], check=True)
    via = option(env, 'fsbench_settings_via', 'cmdline')
    if via == 'esp':
        profile = [w for w in words if w.startswith('fsbench.profile=')][-1].split('=', 1)[1]
        rest = [w for w in words if not w.startswith('fsbench.profile=')]
        subprocess.run(['sh'] + esp + [disk, os.path.join(fsb.out, 'fsbench.conf'),
                                       '--profile', profile] + rest, check=True)
    elif via != 'cmdline':
        pytest.fail(f"option fsbench_settings_via: '{via}': cmdline or esp")
    size = option(env, 'fsbench_target_size', '')
    if size:
        tgt = os.path.join(fsb.work, 'target.img')
        if os.path.exists(tgt):
            os.unlink(tgt)
        subprocess.run(['truncate', '-s', size, tgt], check=True)
    return disk, via


def flash(target, disk):
    """A board with a USB-SD-Mux: the copy onto the medium, then to the board."""
    from labgrid.driver import USBSDMuxDriver, USBStorageDriver
    if not any(isinstance(d, USBSDMuxDriver) for d in target.drivers):
        return False
    mux = target.get_driver(USBSDMuxDriver)
    mux.set_mode('host')
    target.get_driver(USBStorageDriver).write_image(disk)
    mux.set_mode('dut')
    return True


def test_run(env, target, fsb):
    """Boot, run the suite, pull the records, check the verdict."""
    from labgrid.protocol import ConsoleProtocol, PowerProtocol

    words = [f'fsbench.profile={fsb.profile}'] + option(env, 'fsbench_settings', '').split() + fsb.append
    for f in ('console.log', 'records.jsonl', 'verdict.txt', 'fsbench.conf'):
        if os.path.exists(os.path.join(fsb.out, f)):
            os.unlink(os.path.join(fsb.out, f))
    disk, via = prepare(env, target, fsb, words)
    if via == 'cmdline':
        from labgrid.driver import QEMUDriver
        q = target.get_driver(QEMUDriver, activate=False)
        q.boot_args = ' '.join([q.boot_args or ''] + words).strip()
    flash(target, disk)
    power = target.get_driver(PowerProtocol)
    cons = target.get_driver(ConsoleProtocol)
    console = Console(cons, os.path.join(fsb.out, 'console.log'))
    print(f'fsbench: {target.name}: settings ({via}): {" ".join(words)}')

    t0 = time.monotonic()
    power.on()
    run_end = verdict = None
    stopped = False
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
            if not new and guest_stopped(cons):
                stopped = True
                break
        t_end = time.monotonic()
        # init saves the results to the ESP, then powers off
        while verdict is not None and not stopped and time.monotonic() < t_end + 60:
            if any(l.startswith('fsbench-init: powering off') for l in console.read(timeout=5)):
                break
            stopped = guest_stopped(cons)
    finally:
        off_error = None
        try:
            power.off()
        except Exception as e:  # QEMU gone: the run's failure says more
            off_error = f'power off: {type(e).__name__}: {e}'
            if type(power).__name__ == 'QEMUDriver':
                power.status = 0  # nothing left for labgrid's cleanup to stop
        console.close()
    what = 'the verdict' if verdict is not None else 'the end of the wait'
    print(f'fsbench: {target.name}: power on to {what}: {t_end - t0:.1f} s')

    if run_end is None:
        why = 'the guest stopped' if stopped else f'no run_end within {fsb.timeout:.0f} s'
        pytest.fail(f'{why}; the console\'s last lines:\n{console.tail()}')

    # The records: every FSBENCH:{...} line of the console.
    # records.jsonl keeps them as the console gave them.
    records, bad = [], []
    rpath = os.path.join(fsb.out, 'records.jsonl')
    with open(rpath, 'w') as f:
        for line in console.lines:
            m = REC_RE.search(line)
            if not m:
                continue
            f.write(m.group(1) + '\n')
            try:
                records.append(json.loads(m.group(1)))
            except ValueError:
                bad.append(line)

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
    v = subprocess.run([fsb.host, 'verdict', rpath, '--criteria', crit],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(fsb.out, 'verdict.txt'), 'w') as f:
        f.write(v.stdout)
    last = v.stdout.rstrip('\n').split('\n')[-1]
    if v.returncode != 0 or last != 'verdict: PASS':
        fails = [l for l in v.stdout.split('\n') if ': FAIL' in l and not l.startswith('verdict:')]
        problems.append(f'host: fsbench verdict --criteria {crit}: exit {v.returncode}, {last}\n  '
                        + '\n  '.join(fails[:10]))

    print(f'fsbench: {len(records)} records, guest verdict {verdict}, host {last}')
    print(f'fsbench: console.log, records.jsonl, verdict.txt in {fsb.out}')
    if not fsb.keep:
        for f in ('disk.img', 'target.img'):
            if os.path.exists(os.path.join(fsb.work, f)):
                os.unlink(os.path.join(fsb.work, f))
        try:
            os.rmdir(fsb.work)  # when empty
        except OSError:
            pass
    assert not problems, '\n'.join(problems)
