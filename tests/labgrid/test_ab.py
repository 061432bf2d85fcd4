# tests/labgrid/test_ab.py: an A/B experiment on the environment's target
# (--lg-env FILE: a QEMU one, or a board in a lab), driven by labgrid:
# side A and side B booted in blocks of one A and one B on this one
# target (the board is the block), each block's order drawn from a seed,
# then `fsbench compare` of the two sides' runs (../../board/README.md, "An
# A/B on a farm").
#
# The sides: side A the run's settings (fsbench.profile=PROFILE, the
# environment's fsbench_settings option, the --fsbench-append words);
# side B those and what these add (at least one):
#   --fsbench-b-append WORDS  more fsbench.KEY=VALUE settings
#   --fsbench-b-drive OPTS    QEMUDriver: options added to the target's
#                             -drive (id=target) in extra_args, e.g.
#                             throttling.iops-total=100 (a slower disk)
#   --fsbench-b-disk FILE     side B's disk image in place of the
#                             environment's (a board that boots from its
#                             disk: the whole image; QEMU's kernel and
#                             initramfs stay the environment's)
# 1. The order: `qemu/aborder.sh SEED BLOCKS FIRST` (--fsbench-seed,
#    default one drawn by `aborder.sh --seed`, printed first so that the
#    same seed replays the order; --fsbench-blocks, default 2;
#    --fsbench-first-block, default 1: a farm's boards each run blocks of
#    their own of one seed), kept as order.txt.
# 2. Each boot, in that order, on a fresh copy of its side's disk image
#    (the settings on the kernel command line or in the ESP's
#    fsbench.conf, as test_boot.py) and a fresh target (QEMU's sparse
#    file made anew; a board's medium written again); a QEMUDriver's
#    command line (boot_args, extra_args) set for the side and the driver
#    activated again, its argv kept (qemu.argv); then as test_boot.py's
#    boot: power on, the console until run_end and the FSBENCH-VERDICT line
#    after it, power off (a stalled QEMU guest booted again with
#    --fsbench-stall-retries). Boot K's console and records in
#    ab/K-BLOCK-SIDE/ (console.log, records.jsonl); a line per boot in
#    boots.txt: K BLOCK SIDE RUN_ID START (run_start's time_unix) SECONDS.
# 3. `fsbench compare A1 ... -- B1 ... --fail-on-regression` on the
#    records.jsonl of each side, in boot order: its table in compare.md,
#    its stderr in compare.err, its exit status in compare.status.
# 4. Asserted, all reported together: a boot per line of the order, in its
#    order (the runs' start times rising), each one whole run (test_boot's
#    rule: one run id, seq without a gap, run_start first, run_end ok and
#    exit code 0) of its own id; each boot of its side (side B's settings
#    in run_start's config of B's boots and not A's; side B's drive options
#    in the QEMU argv of B's boots and not A's); compare ran and gave a
#    status of the experiment: 0 (no row slower, every row decided), 1
#    (rows slower: the table names them) or 5 (rows that could not be
#    decided: its stderr names them), never 2 (misuse) or 4 (system
#    failure), and its table holds every filesystem the runs ran.
# The guest's verdict is shown (boots.txt), not asserted: a side may be
# slower on purpose.
import os
import shlex
import shutil
import subprocess
from collections import namedtuple

import pytest

from fsblg import boot_run, clean_work, flash, option, prepare, pull_records, whole_run

# a boot: its number, block, side, run id, run_start's time_unix, seconds
# from power on, the guest's verdict, its folder, its records
Ran = namedtuple('Ran', 'n block side run_id start seconds verdict folder records')
# fsbench compare's statuses that are the experiment's answer
COMPARE = {0: 'no row slower, every row decided', 1: 'rows slower', 5: 'rows that could not be decided'}


def aborder(fsb, *args):
    """qemu/aborder.sh's output for `args` (the one place the order is drawn)."""
    r = subprocess.run(['sh', os.path.join(fsb.root, 'qemu', 'aborder.sh')] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        pytest.fail(f'qemu/aborder.sh {" ".join(map(str, args))}: exit {r.returncode}: {r.stderr.strip()}')
    return r.stdout


def with_drive(extra_args, opts):
    """`extra_args` with `opts` added to the target's -drive (id=target)."""
    args = shlex.split(extra_args)
    hits = [i for i in range(1, len(args)) if args[i - 1] == '-drive' and 'id=target' in args[i].split(',')]
    if len(hits) != 1:
        pytest.fail(f'--fsbench-b-drive: {len(hits)} target -drive (id=target) in the environment\'s extra_args, wanted 1')
    args[hits[0]] += ',' + opts
    return ' '.join(shlex.quote(a) for a in args)


def config_of(records):
    start = [r for r in records if r.get('type') == 'run_start']
    return start[0].get('config', {}) if start else {}


def test_ab(env, target, fsb):
    """Boot side A and side B in the seed's order, compare them."""
    if not (fsb.b_append or fsb.b_drive or fsb.b_disk):
        pytest.fail('side B is side A: give --fsbench-b-append, --fsbench-b-drive or --fsbench-b-disk')
    if fsb.blocks < 1 or fsb.first_block < 1:
        pytest.fail(f'--fsbench-blocks {fsb.blocks}, --fsbench-first-block {fsb.first_block}: at least 1')
    q = None
    try:
        from labgrid.driver import QEMUDriver
        q = target.get_driver(QEMUDriver, activate=False)
    except Exception:
        if fsb.b_drive:
            pytest.fail('--fsbench-b-drive: the environment has no QEMUDriver')
    base_boot = q.boot_args or '' if q else ''
    base_extra = q.extra_args if q else ''

    seed = fsb.seed or int(aborder(fsb, '--seed'))
    order = [(int(k), s) for k, s in
             (l.split() for l in aborder(fsb, seed, fsb.blocks, fsb.first_block).splitlines())]
    print(f'fsbench: A/B seed {seed}, {fsb.blocks} blocks: {" ".join(f"{k}{s}" for k, s in order)} '
          f'(again: --fsbench-seed={seed})')
    ab = os.path.join(fsb.out, 'ab')
    shutil.rmtree(ab, ignore_errors=True)
    for f in ('order.txt', 'boots.txt', 'compare.md', 'compare.err', 'compare.status'):
        if os.path.exists(os.path.join(fsb.out, f)):
            os.unlink(os.path.join(fsb.out, f))
    with open(os.path.join(fsb.out, 'order.txt'), 'w') as f:
        f.write(f'# qemu/aborder.sh {seed} {fsb.blocks} {fsb.first_block}\n'
                + ''.join(f'{k} {s}\n' for k, s in order))

    words_a = [f'fsbench.profile={fsb.profile}'] + option(env, 'fsbench_settings', '').split() + fsb.append
    words_b = words_a + fsb.b_append
    problems, boots = [], []
    for n, (k, side) in enumerate(order, 1):
        d = os.path.join(ab, f'{n}-{k}-{side}')
        os.makedirs(d)
        words = words_b if side == 'B' else words_a
        src = fsb.b_disk if side == 'B' else None

        def fresh():
            flash(target, prepare(env, target, fsb, words, src=src)[0])
        disk, via = prepare(env, target, fsb, words, src=src)
        if q is not None:
            # labgrid 0.4.1's QEMUDriver builds its argv on activation
            target.deactivate(q)  # bound (not active): nothing to do
            q.boot_args = ' '.join([base_boot] + (words if via == 'cmdline' else [])).strip()
            q.extra_args = with_drive(base_extra, fsb.b_drive) if side == 'B' and fsb.b_drive else base_extra
            target.activate(q)
            with open(os.path.join(d, 'qemu.argv'), 'w') as f:
                f.write(''.join(a + '\n' for a in q._cmd))
        flash(target, disk)
        if via == 'esp' and os.path.exists(os.path.join(fsb.out, 'fsbench.conf')):
            shutil.copy(os.path.join(fsb.out, 'fsbench.conf'), d)

        b = boot_run(target, fsb, os.path.join(d, 'console.log'), again=fresh)
        print(f'fsbench: boot {n} (block {k}, side {side}): power on to '
              f'{"the verdict" if b.verdict is not None else "the end of the wait"}: {b.seconds:.1f} s')
        if b.run_end is None:
            problems.append(f'boot {n} (block {k}, side {side}): {b.why(fsb.timeout)}; '
                            f'the console\'s last lines:\n{b.console.tail()}')
            boots.append(Ran(n, k, side, '-', 0, b.seconds, b.verdict, d, []))
            continue
        records, bad = pull_records(b.console.lines, os.path.join(d, 'records.jsonl'))
        problems += [f'boot {n} (block {k}, side {side}): {p}'
                     for p in ([b.off_error] if b.off_error else []) + whole_run(records, bad)]
        start = next((r for r in records if r.get('type') == 'run_start'), {})
        boots.append(Ran(n, k, side, start.get('run_id', '-'), start.get('time_unix', 0), b.seconds,
                         b.verdict, d, records))
    clean_work(fsb)
    with open(os.path.join(fsb.out, 'boots.txt'), 'w') as f:
        f.write('# boot block side run_id start seconds verdict\n')
        for r in boots:
            f.write(f'{r.n} {r.block} {r.side} {r.run_id} {r.start} {r.seconds:.1f} {r.verdict or "-"}\n')
    if problems:
        pytest.fail('\n'.join(problems))

    # the order followed: a boot per line of the order, their runs started
    # one after another, each run its own
    ran = [(r.block, r.side) for r in boots]
    if ran != order:
        problems.append(f'the boots {ran} are not the order {order}')
    starts = [r.start for r in boots]
    if starts != sorted(starts) or len(set(starts)) != len(starts):
        problems.append(f'the runs did not start one after another in the order (run_start time_unix {starts})')
    ids = [r.run_id for r in boots]
    if len(set(ids)) != len(ids):
        problems.append(f'two boots gave the same run: {ids}')
    # each boot of its side
    for n, _, side, _, _, _, _, d, records in boots:
        cfg = config_of(records)
        for w in fsb.b_append:
            key, val = w[len('fsbench.'):].split('=', 1)
            if key in cfg and (str(cfg[key]) == val) != (side == 'B'):
                problems.append(f'boot {n} (side {side}): run_start config {key} = {cfg[key]}, '
                                f'side B\'s is {val}')
        if q is not None and fsb.b_drive:
            argv = open(os.path.join(d, 'qemu.argv')).read()
            if (fsb.b_drive in argv) != (side == 'B'):
                problems.append(f'boot {n} (side {side}): its QEMU {"lacks" if side == "B" else "has"} '
                                f'side B\'s drive options {fsb.b_drive}')

    # the experiment's answer
    sides = {s: [os.path.join(r.folder, 'records.jsonl') for r in boots if r.side == s] for s in 'AB'}
    argv = [fsb.host, 'compare'] + sides['A'] + ['--'] + sides['B'] + ['--fail-on-regression']
    c = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for name, text in (('compare.md', c.stdout), ('compare.err', c.stderr), ('compare.status', f'{c.returncode}\n')):
        with open(os.path.join(fsb.out, name), 'w') as f:
            f.write(text)
    print(f'fsbench: {" ".join(argv[1:])}: exit {c.returncode} '
          f'({COMPARE.get(c.returncode, "not an answer of the experiment")})')
    print(c.stdout + c.stderr)
    if c.returncode not in COMPARE:
        problems.append(f'fsbench compare: exit {c.returncode}, not an answer of the experiment '
                        f'(0, 1 or 5):\n{c.stderr.strip()}')
    elif c.returncode == 5 and not c.stderr.strip():
        problems.append('fsbench compare: exit 5 with nothing on stderr naming the rows not decided')
    fs = sorted({f for r in boots for f in str(config_of(r.records).get('fs', '')).split(',') if f})
    missing = [f for f in fs if f not in c.stdout]
    if not fs or missing:
        problems.append(f'fsbench compare\'s table lacks the filesystems {missing or "(none ran)"}')
    assert not problems, '\n'.join(problems)
