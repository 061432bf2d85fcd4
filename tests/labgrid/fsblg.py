# tests/labgrid/fsblg.py: what the labgrid tests share: the environment's
# options, the console as it comes, whether a QEMU guest still runs (or
# has stalled: no processor time for a while), the
# work copy of the disk image with the run's settings, a board's medium
# written through its USB-SD-Mux, one boot to the run's end (booted again
# when it stalled), the records pulled from console lines, whether they
# are one whole run, and the host's verdict on them.
import json
import os
import re
import subprocess
import time

import pytest
from pexpect import TIMEOUT

# a kernel message the console printed right after a record, before its
# newline ("}[   12.555790] Buffer I/O error ..."): printk writes to the
# serial port beside the tty's output; qemu/records.jq leaves it out too
PRINTK = r'\[ *[0-9]+\.[0-9]+\] .*'
REC_RE = re.compile(r'FSBENCH:(\{.*\})(?:' + PRINTK + r')?\s*$')
PRINTK_RE = re.compile(r'\}' + PRINTK + '$')
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


def cpu_ticks(pid):
    """A process's processor time (user + system, clock ticks), or None
    when it is gone."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15


STALL_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'qemu', 'stall.sh')


class GuestWatch:
    """QEMU only: whether a silent guest has ended: stopped (guest_stopped),
    or stalled, as qemu/run.sh's --stall tells it, by the same program
    (qemu/stall.sh, watching from the start): QEMU has used no processor
    time for `seconds` (QEMU 7.2's TCG can leave a halted vCPU with no
    timer armed, and the guest then waits for ever). `seconds` 0: never
    stalled; a QEMU gone is not stalled (guest_stopped says so)."""

    def __init__(self, drv, seconds):
        self.drv = drv
        self.seconds = seconds
        child = getattr(drv, '_child', None) if type(drv).__name__ == 'QEMUDriver' else None
        self.pid = child.pid if child is not None else None
        self.proc = None
        if seconds and self.pid is not None:
            self.proc = subprocess.Popen(['sh', STALL_SH, f'{seconds:g}', str(self.pid)],
                                         stdout=subprocess.DEVNULL)

    def stalled(self):
        return self.proc is not None and self.proc.poll() == 0

    def ended(self):
        """'stopped', 'stalled', or None while the guest runs."""
        if guest_stopped(self.drv):
            return 'stopped'
        return 'stalled' if self.stalled() else None

    def why(self, ended='stalled'):
        if ended == 'stopped':
            return 'the guest stopped'
        return (f'the guest stopped for good: QEMU used no processor time in {self.seconds:.0f} s '
                '(QEMU\'s TCG left the guest waiting; qemu/README.md, a stalled guest)')


def prepare(env, target, fsb, words, criteria=None, src=None):
    """The work copy of the disk image (`src`, default the environment's
    images: disk), with the settings and the criteria (`criteria`, default
    --fsbench-criteria; None: the image's own)."""
    criteria = criteria or fsb.criteria
    os.makedirs(fsb.work, exist_ok=True)
    disk = os.path.join(fsb.work, 'disk.img')
    src = src or env.config.get_image_path('disk')
    if not os.path.isfile(src):
        pytest.fail(f'no disk image {src} (images: disk; make image)')
    subprocess.run(['cp', '--sparse=always', src, disk], check=True)
    esp = [os.path.join(fsb.root, 'qemu', 'esp.sh')]
    if criteria:
        subprocess.run(['sh'] + esp + ['--criteria', disk, criteria], check=True)
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


def ready(env, target, fsb, words, criteria=None):
    """The disk copy prepared (prepare), the settings on QEMUDriver's
    kernel command line when they go there, the copy on a board's medium
    (flash); returns how the settings went (cmdline or esp)."""
    disk, via = prepare(env, target, fsb, words, criteria)
    if via == 'cmdline':
        from labgrid.driver import QEMUDriver
        q = target.get_driver(QEMUDriver, activate=False)
        q.boot_args = ' '.join([q.boot_args or ''] + words).strip()
    flash(target, disk)
    return via


class Boot:
    """What boot_run saw: run_end (when the run_end record came, or
    None), verdict (the FSBENCH-VERDICT word after it, or None), ended
    (GuestWatch.ended()'s word, or None), seconds (power on to the end of
    the wait), off_error (power off's failure, or None), watch, console
    (the last attempt's), attempts."""

    def why(self, timeout):
        """Why there is no run_end."""
        return self.watch.why(self.ended) if self.ended else f'no run_end within {timeout:.0f} s'


def boot_run(target, fsb, log, again=None):
    """One boot to the run's end: power on (PowerProtocol), the console
    (ConsoleProtocol) read into `log` until the run_end record and the
    FSBENCH-VERDICT line init prints after it (--fsbench-timeout for
    run_end, then 300 s at most), then until init powers the machine off
    (a minute at most); power off. A QEMU guest that stopped or stalled
    (GuestWatch) ends the wait; one that stalled is booted again, up to
    --fsbench-stall-retries times, after again() (a fresh disk copy), the
    stalled boot's console kept beside `log` as console-stalled-K.log.
    Returns a Boot."""
    from labgrid.protocol import ConsoleProtocol, PowerProtocol
    power = target.get_driver(PowerProtocol)
    cons = target.get_driver(ConsoleProtocol)
    b = Boot()
    for attempt in range(fsb.stall_retries + 1):
        if attempt:
            os.replace(log, os.path.join(os.path.dirname(log), f'console-stalled-{attempt}.log'))
            if again:
                again()
        b.attempts = attempt + 1
        b.console = console = Console(cons, log)
        t0 = time.monotonic()
        power.on()
        b.watch = watch = GuestWatch(cons, fsb.stall)
        b.run_end = b.verdict = b.ended = None
        try:
            deadline = t0 + fsb.timeout
            while time.monotonic() < deadline and b.verdict is None:
                new = console.read(timeout=5)
                for line in new:
                    m = VERDICT_RE.match(line)
                    if m and b.run_end is not None:
                        b.verdict = m.group(1)
                    elif REC_RE.search(line) and '"type":"run_end"' in line:
                        b.run_end = time.monotonic()
                if b.run_end is not None and b.verdict is None and time.monotonic() > b.run_end + 300:
                    break
                if not new and (ended := watch.ended()):
                    b.ended = ended
                    break
            t_end = time.monotonic()
            # init saves the results to the ESP, then powers off
            while b.verdict is not None and b.ended is None and time.monotonic() < t_end + 60:
                if any(l.startswith('fsbench-init: powering off') for l in console.read(timeout=5)):
                    break
                if guest_stopped(cons):
                    b.ended = 'stopped'
        finally:
            b.off_error = None
            try:
                power.off()
            except Exception as e:  # QEMU gone: the run's failure says more
                b.off_error = f'power off: {type(e).__name__}: {e}'
                if type(power).__name__ == 'QEMUDriver':
                    power.status = 0  # nothing left for labgrid's cleanup to stop
            console.close()
        b.seconds = t_end - t0
        if b.ended != 'stalled':
            break
        print(f'fsbench: {target.name}: boot {attempt + 1}: {watch.why()} '
              f'({b.seconds:.1f} s after power on)')
    return b


def whole_run(records, bad):
    """What keeps pulled records from being one whole run: a list of
    problems (lines that are not JSON, more runs than one, a gap in seq,
    no run_start first, run_end not ok with exit code 0)."""
    problems = []
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
    if not end:
        problems.append('no run_end record')
    elif (end[-1].get('status') != 'ok' or end[-1].get('exit_code') != 0):
        problems.append(f"run_end: status {end[-1].get('status')}, exit_code {end[-1].get('exit_code')}")
    return problems


def record_text(line):
    """The JSON text of a console line's FSBENCH:{json} record, without a
    kernel message printed right after it; None when the line holds no
    record (or one torn by a cut). A text that is JSON as it is stays
    whole."""
    m = REC_RE.search(line)
    if not m:
        return None
    text = m.group(1)
    try:
        json.loads(text)
        return text
    except ValueError:
        return PRINTK_RE.sub('}', text, count=1)


def pull_records(lines, path):
    """The FSBENCH:{json} records of console lines, written to `path`
    (a kernel message right after a record left out); returns (records,
    lines that are not JSON)."""
    records, bad = [], []
    with open(path, 'w') as f:
        for line in lines:
            text = record_text(line)
            if text is None:
                continue
            f.write(text + '\n')
            try:
                records.append(json.loads(text))
            except ValueError:
                bad.append(line)
    return records, bad


def host_verdict(fsb, rpath, crit):
    """`fsbench verdict RPATH --criteria CRIT` on the host, its output in
    verdict.txt; returns (exit status, last line, the FAIL lines)."""
    v = subprocess.run([fsb.host, 'verdict', rpath, '--criteria', crit],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(fsb.out, 'verdict.txt'), 'w') as f:
        f.write(v.stdout)
    last = v.stdout.rstrip('\n').split('\n')[-1]
    fails = [l for l in v.stdout.split('\n') if ': FAIL' in l and not l.startswith('verdict:')]
    return v.returncode, last, fails


def clean_work(fsb):
    """The disk copy and the target file go unless --fsbench-keep."""
    if fsb.keep:
        return
    for f in ('disk.img', 'target.img'):
        if os.path.exists(os.path.join(fsb.work, f)):
            os.unlink(os.path.join(fsb.work, f))
    try:
        os.rmdir(fsb.work)  # when empty
    except OSError:
        pass
