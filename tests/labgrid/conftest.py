# tests/labgrid/conftest.py: the options of the labgrid tests and what
# they share. Run through labgrid's pytest plugin:
#   pytest-3 --lg-env board/qemu-x86_64/labgrid/qemu.yaml tests/labgrid/
# (make check-labgrid; tests/labgrid/run.sh). board/README.md#labgrid says
# what each environment key means.
#
# Options (pytest-3 --help lists them under "fsbench"):
#   --fsbench-out DIR       the test output folder (default $O/tests/labgrid,
#                           O defaulting to out): console.log, records.jsonl,
#                           verdict.txt, work/ (the disk copy and target file)
#   --fsbench-profile NAME  the run's profile (default smoke)
#   --fsbench-append WORD   one more fsbench.KEY=VALUE setting (repeatable)
#   --fsbench-criteria FILE the verdict's criteria: put on the ESP of the
#                           disk copy (the guest's verdict) and used by the
#                           host's (default board/NAME/criteria.conf, NAME
#                           the environment's fsbench_board option; the
#                           image's ESP already holds it)
#   --fsbench-timeout S     seconds to wait for run_end (default 900)
#   --fsbench-stall S       QEMU: a guest whose QEMU used no processor time
#                           for S seconds has stopped for good (TCG's stop,
#                           qemu/README.md): the test ends then, not at the
#                           timeout (default 120; 0: never)
#   --fsbench-stall-retries N  test_boot.py: such a guest booted again from
#                           a fresh copy of the disk, up to N times (default
#                           0); its console kept as console-stalled-K.log
#   --fsbench-host FILE     the host build of fsbench (default $O/host/fsbench)
#   --fsbench-keep          keep work/ (the disk copy and the target file)
#   test_ab.py (an A/B: side A the settings above, side B them and what
#   these options add; at least one of the three):
#   --fsbench-seed S        the seed of the boots' order (qemu/aborder.sh;
#                           default: one drawn, printed)
#   --fsbench-blocks N      blocks of one A and one B (default 2)
#   --fsbench-first-block K the number of the first block (default 1): a
#                           farm's boards each run blocks of their own of
#                           one seed (aborder.sh's FIRST)
#   --fsbench-b-append WORD one more fsbench.KEY=VALUE setting of side B
#                           (repeatable)
#   --fsbench-b-drive OPTS  QEMU: options added to side B's target -drive
#                           (throttling.iops-total=100: a slower disk)
#   --fsbench-b-disk FILE   side B's disk image in place of the
#                           environment's (images: disk)
# Environment: LG_WORK defaults to the output folder's work/ (the QEMU
# environment's disks live there); O as above.
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_addoption(parser):
    g = parser.getgroup('fsbench')
    o = os.environ.get('O', 'out')
    g.addoption('--fsbench-out', default=os.path.join(o, 'tests', 'labgrid'),
                help='test output folder (default $O/tests/labgrid)')
    g.addoption('--fsbench-profile', default='smoke', help='the run\'s profile (default smoke)')
    g.addoption('--fsbench-append', action='append', default=[], metavar='WORD',
                help='one more fsbench.KEY=VALUE setting of the run (repeatable)')
    g.addoption('--fsbench-criteria', default=None, metavar='FILE',
                help='criteria of the verdict, on the ESP and for the host (default board/NAME/criteria.conf)')
    g.addoption('--fsbench-timeout', type=float, default=900.0, metavar='S',
                help='seconds to wait for run_end (default 900)')
    g.addoption('--fsbench-stall', type=float, default=120.0, metavar='S',
                help='QEMU: a guest whose QEMU used no processor time for S seconds has stopped for good '
                     '(default 120; 0: never)')
    g.addoption('--fsbench-stall-retries', type=int, default=0, metavar='N',
                help='QEMU: boot a stopped guest again from a fresh disk copy, up to N times (default 0; '
                     'not in the power-cut campaign, whose disk the boots share)')
    g.addoption('--fsbench-host', default=os.path.join(o, 'host', 'fsbench'), metavar='FILE',
                help='the host build of fsbench (default $O/host/fsbench)')
    g.addoption('--fsbench-keep', action='store_true', help='keep the disk copy and target file (work/)')
    g.addoption('--fsbench-seed', type=int, default=None, metavar='S',
                help='test_ab.py: the seed of the boots\' order (qemu/aborder.sh; default: drawn, printed)')
    g.addoption('--fsbench-blocks', type=int, default=2, metavar='N',
                help='test_ab.py: blocks of one A and one B boot (default 2)')
    g.addoption('--fsbench-first-block', type=int, default=1, metavar='K',
                help='test_ab.py: the number of the first block (default 1; aborder.sh\'s FIRST)')
    g.addoption('--fsbench-b-append', action='append', default=[], metavar='WORD',
                help='test_ab.py: one more fsbench.KEY=VALUE setting of side B (repeatable)')
    g.addoption('--fsbench-b-drive', default='', metavar='OPTS',
                help='test_ab.py, QEMU: options added to side B\'s target -drive (throttling.iops-total=100)')
    g.addoption('--fsbench-b-disk', default=None, metavar='FILE',
                help='test_ab.py: side B\'s disk image in place of the environment\'s')


def pytest_configure(config):
    # Before labgrid's plugin reads the environment (its pytest_configure
    # runs last): the QEMU environment's disks are under $LG_WORK.
    out = os.path.abspath(config.getoption('fsbench_out'))
    os.environ.setdefault('LG_WORK', os.path.join(out, 'work'))


class Settings:
    """The options, resolved: out, work, profile, append, criteria (None:
    the image's own), timeout, stall, stall_retries, host, keep, seed,
    blocks, first_block, b_append, b_drive, b_disk, root (the source tree)."""

    def __init__(self, config):
        self.root = ROOT
        self.out = os.path.abspath(config.getoption('fsbench_out'))
        self.work = os.environ['LG_WORK']
        self.profile = config.getoption('fsbench_profile')
        self.append = [w for a in config.getoption('fsbench_append') for w in a.split()]
        c = config.getoption('fsbench_criteria')
        self.criteria = os.path.abspath(c) if c else None
        self.timeout = config.getoption('fsbench_timeout')
        self.stall = config.getoption('fsbench_stall')
        self.stall_retries = config.getoption('fsbench_stall_retries')
        self.host = os.path.abspath(config.getoption('fsbench_host'))
        self.keep = config.getoption('fsbench_keep')
        self.seed = config.getoption('fsbench_seed')
        self.blocks = config.getoption('fsbench_blocks')
        self.first_block = config.getoption('fsbench_first_block')
        self.b_append = [w for a in config.getoption('fsbench_b_append') for w in a.split()]
        self.b_drive = config.getoption('fsbench_b_drive')
        d = config.getoption('fsbench_b_disk')
        self.b_disk = os.path.abspath(d) if d else None


@pytest.fixture(scope='session')
def fsb(request):
    s = Settings(request.config)
    for opt, words in (('--fsbench-append', s.append), ('--fsbench-b-append', s.b_append)):
        for w in words:
            if not w.startswith('fsbench.') or '=' not in w:
                pytest.fail(f"{opt} '{w}': not a fsbench.KEY=VALUE setting")
    if s.b_disk and not os.path.isfile(s.b_disk):
        pytest.fail(f'--fsbench-b-disk {s.b_disk}: no such file')
    if s.criteria and not os.path.isfile(s.criteria):
        pytest.fail(f'--fsbench-criteria {s.criteria}: no such file')
    if not os.access(s.host, os.X_OK):
        pytest.fail(f'--fsbench-host {s.host}: no host build of fsbench (make host)')
    os.makedirs(s.out, exist_ok=True)
    return s
