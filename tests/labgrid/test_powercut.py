# tests/labgrid/test_powercut.py: a power-cut campaign on the environment's
# target (--lg-env FILE: a QEMU one, or a board on a switched socket),
# the cuts made by labgrid's power driver (PowerProtocol: QEMUDriver's
# off() stops the emulator at once; a board's power port cuts the socket).
#
# 1. A copy of the environment's disk image with the campaign's settings:
#    fsbench.profile=powercut, the environment's fsbench_settings option,
#    the --fsbench-append words (e.g. fsbench.fs=ext4 fsbench.powercut=2
#    fsbench.powercut_window=4), and fsbench.powercut_seed when they give
#    none (random, printed: the same seed replays the campaign and its
#    cuts); the criteria (--fsbench-criteria, default: powercut_lost = 0,
#    powercut_torn = 0, powercut_fsck = clean, powercut_cycles = N) on its
#    ESP. Written once (a board with a USB-SD-Mux: to its medium once);
#    every boot after is from the same disk and target.
# 2. Each boot: power on, the console read until
#    `FSBENCH-POWERCUT: armed ...`, then power off at a moment drawn from
#    the seed, 1.5 s to the window less 0.5 s after that line (a cut); or
#    until the run_end record and the FSBENCH-VERDICT line after it (the
#    boot that checked the last cycle ends the campaign), then until init
#    powers the machine off (or a minute), and power off. The console of
#    boot K in console-K.log.
# 3. The records of every boot's console (records.jsonl, a cut boot's last
#    line may be cut short and is left out), the host's verdict on them with
#    the same criteria (verdict.txt).
# 4. Asserted, all reported together: cycles x filesystems cuts, then one
#    boot that ended the campaign; every armed line names the seed; one run
#    (the campaign goes on as the same run_id after each cut) with a
#    `powercut` record per cycle, run_end status ok; FSBENCH-VERDICT: PASS
#    on the console and the host's verdict PASS.
import os
import random
import time

import pytest

from fsblg import (REC_RE, VERDICT_RE, Console, GuestWatch, clean_work, guest_stopped,
                   host_verdict, option, pull_records, ready)

ARMED = 'FSBENCH-POWERCUT: armed'
FS_ALL = 'ext4,xfs,btrfs,f2fs'


def setting(words, key, default):
    """The last value of fsbench.KEY among the words, else default."""
    vals = [w.split('=', 1)[1] for w in words if w.startswith(f'fsbench.{key}=')]
    return vals[-1] if vals else default


def test_powercut(env, target, fsb):
    """Cut the power of every cycle of a campaign, check the verdict."""
    from labgrid.protocol import ConsoleProtocol, PowerProtocol

    words = ['fsbench.profile=powercut'] + option(env, 'fsbench_settings', '').split() + fsb.append
    try:
        cycles = int(setting(words, 'powercut', '3'))
        window = int(setting(words, 'powercut_window', '10'))
        seed = int(setting(words, 'powercut_seed', '0'))
    except ValueError as e:
        pytest.fail(f'the campaign\'s settings: {e}')
    if window < 3:
        pytest.fail(f'fsbench.powercut_window={window}: at least 3 s (the cut lands 1.5 s to the window less 0.5 s)')
    if seed == 0:
        seed = random.SystemRandom().randint(1, 4294967295)
        words.append(f'fsbench.powercut_seed={seed}')
    nfs = len([f for f in setting(words, 'fs', FS_ALL).split(',') if f])
    cuts_wanted = cycles * nfs
    crit = fsb.criteria
    if not crit:
        crit = os.path.join(fsb.out, 'criteria.conf')
        with open(crit, 'w') as f:
            f.write(f'powercut_lost = 0\npowercut_torn = 0\npowercut_fsck = clean\npowercut_cycles = {cycles}\n')
    for f in os.listdir(fsb.out):
        if f.startswith('console') or f in ('records.jsonl', 'verdict.txt', 'fsbench.conf'):
            os.unlink(os.path.join(fsb.out, f))
    via = ready(env, target, fsb, words, criteria=crit)
    power = target.get_driver(PowerProtocol)
    cons = target.get_driver(ConsoleProtocol)
    print(f'fsbench: {target.name}: powercut: seed {seed} (replay: --fsbench-append=fsbench.powercut_seed={seed}), '
          f'{cycles} cycles on {nfs} filesystems, window {window} s; settings ({via}): {" ".join(words)}')

    rng = random.Random(seed)
    lines, armed, problems = [], [], []
    cuts = 0
    ended = None
    for k in range(1, cuts_wanted + 3):
        delay = 1.5 + rng.random() * (window - 2)
        console = Console(cons, os.path.join(fsb.out, f'console-{k}.log'))
        t0 = time.monotonic()
        power.on()
        watch = GuestWatch(cons, fsb.stall)
        cut_at = run_end = verdict = ended = None
        try:
            while time.monotonic() < t0 + fsb.timeout:
                wait = 5 if cut_at is None else max(0.05, min(5, cut_at - time.monotonic()))
                new = console.read(timeout=wait)
                for line in new:
                    if line.startswith(ARMED) and cut_at is None:
                        armed.append(line)
                        cut_at = time.monotonic() + delay
                    m = VERDICT_RE.match(line)
                    if m and run_end is not None:
                        verdict = m.group(1)
                    elif REC_RE.search(line) and '"type":"run_end"' in line:
                        run_end = time.monotonic()
                if cut_at is not None and time.monotonic() >= cut_at:
                    break
                if verdict is not None:
                    # init saves the results to the ESP, then powers off
                    t_end = time.monotonic()
                    while ended is None and time.monotonic() < t_end + 60:
                        if any(l.startswith('fsbench-init: powering off') for l in console.read(timeout=5)):
                            break
                        if guest_stopped(cons):
                            ended = 'stopped'
                    break
                if run_end is not None and time.monotonic() > run_end + 300:
                    break
                if not new and (ended := watch.ended()):
                    break
        finally:
            power.off()
            console.close()
        lines += console.lines
        took = time.monotonic() - t0
        if cut_at is not None:
            cuts += 1
            print(f'fsbench: boot {k}: {armed[-1][len(ARMED):].strip()}; power cut {delay:.1f} s after it '
                  f'({took:.1f} s after power on)')
            continue
        if verdict is not None:
            ended = verdict
            print(f'fsbench: boot {k}: the campaign ended, FSBENCH-VERDICT: {verdict} ({took:.1f} s after power on)')
            break
        why = watch.why(ended) if ended else 'no armed line and no verdict in time'
        pytest.fail(f'boot {k}: {why}; the console\'s last lines:\n{console.tail()}')
    else:
        problems.append(f'the campaign did not end within {cuts_wanted + 2} boots')

    rpath = os.path.join(fsb.out, 'records.jsonl')
    records, bad = pull_records(lines, rpath)
    if len(bad) > cuts:
        problems.append(f'{len(bad)} record lines are not JSON (a cut may leave one a boot), the first: {bad[0][:200]}')
    if cuts != cuts_wanted:
        problems.append(f'{cuts} power cuts, wanted {cuts_wanted} ({cycles} cycles x {nfs} filesystems)')
    unseeded = [a for a in armed if f'seed={seed}' not in a.split()]
    if unseeded:
        problems.append(f'armed lines without seed={seed}: {unseeded[:3]}')
    ids = sorted({r.get('run_id') for r in records})
    if len(ids) != 1:
        problems.append(f'the consoles hold {len(ids)} runs, wanted 1 (the campaign goes on as its run): {ids}')
    pcs = [r for r in records if r.get('type') == 'powercut']
    if len(pcs) != cuts_wanted:
        problems.append(f'{len(pcs)} powercut records, wanted {cuts_wanted}')
    for r in pcs:
        print(f"fsbench: cycle {r.get('cycle')} {r.get('fs')}: acknowledged {r.get('acknowledged')}, "
              f"verified {r.get('verified')}, in flight {r.get('in_flight')}, lost {r.get('lost')}, "
              f"torn {r.get('torn')}, fsck {r.get('fsck')}")
    end = [r for r in records if r.get('type') == 'run_end']
    if not end or end[-1].get('status') != 'ok':
        problems.append(f"run_end: {'none' if not end else 'status ' + str(end[-1].get('status'))}")
    if ended is not None and ended != 'PASS':
        problems.append(f'the guest says FSBENCH-VERDICT: {ended}')
    code, last, fails = host_verdict(fsb, rpath, crit)
    if code != 0 or last != 'verdict: PASS':
        problems.append(f'host: fsbench verdict --criteria {crit}: exit {code}, {last}\n  ' + '\n  '.join(fails[:10]))
    print(f'fsbench: {cuts} cuts, {len(records)} records, guest verdict {ended}, host {last}')
    print(f'fsbench: console-K.log, records.jsonl, verdict.txt in {fsb.out}')
    clean_work(fsb)
    assert not problems, '\n'.join(problems)
