# tests/labgrid/test_env.py: the shipped labgrid environments, without a
# boot (no --lg-env needed):
# - every board/*/labgrid/*.yaml loads with labgrid's Environment and its
#   target `main` is built: each resource and driver exists in this labgrid
#   and takes every key given (labgrid only warns of an unknown one: here
#   it fails), every driver is bound; it has a PowerProtocol
#   and a ConsoleProtocol driver and the options the boot test reads
#   (fsbench_board names a board folder with a criteria.conf;
#   fsbench_settings_via is cmdline or esp), and a lab one (esp) can write
#   the image (USBStorageDriver);
# - the QEMU ones boot the machine qemu/cmdline.sh describes: the
#   QEMUDriver's command line has the same machine, CPU, memory, CPUs,
#   kernel, initramfs, kernel command line, drives and devices as
#   cmdline.sh's for the board (TCG; qemu.yaml direct kernel boot,
#   qemu-uefi.yaml the firmware, -bios for the launcher's flash drives),
#   and the target size is the board's.
import glob
import os
import shlex
import subprocess
import warnings

import pytest

from conftest import ROOT

ENVS = sorted(glob.glob(os.path.join(ROOT, 'board', '*', 'labgrid', '*.yaml')))


def load(path, tmp_path, monkeypatch):
    from labgrid import Environment
    monkeypatch.setenv('LG_IMAGE', str(tmp_path / 'image'))
    monkeypatch.setenv('LG_WORK', str(tmp_path / 'work'))
    # labgrid drops a key a resource or driver does not take, with only a
    # warning: here that is a failure
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter('always')
        env = Environment(config_file=path)
        target = env.get_target('main')
    msgs = [str(w.message) for w in warned if issubclass(w.category, UserWarning)]
    assert not msgs, f'{os.path.relpath(path, ROOT)}: ' + '; '.join(msgs)
    return env, target


def test_there_are_environments():
    boards = {os.path.relpath(p, ROOT).split(os.sep)[1] for p in ENVS}
    assert {'qemu-x86_64', 'pc-x86_64'} <= boards, ENVS


@pytest.mark.parametrize('path', ENVS, ids=[os.path.relpath(p, ROOT) for p in ENVS])
def test_environment_loads(path, tmp_path, monkeypatch):
    from labgrid.binding import BindingState
    from labgrid.protocol import ConsoleProtocol, PowerProtocol
    env, target = load(path, tmp_path, monkeypatch)
    assert target is not None, f'{path}: no target main'
    unbound = [type(d).__name__ for d in target.drivers if d.state != BindingState.bound]
    assert not unbound, f'drivers not bound: {unbound}'
    assert any(isinstance(d, PowerProtocol) for d in target.drivers), 'no PowerProtocol driver'
    assert any(isinstance(d, ConsoleProtocol) for d in target.drivers), 'no ConsoleProtocol driver'
    board = env.config.get_target_option('main', 'fsbench_board')
    assert os.path.isfile(os.path.join(ROOT, 'board', board, 'criteria.conf')), \
        f'fsbench_board {board}: no board/{board}/criteria.conf'
    via = env.config.get_target_option('main', 'fsbench_settings_via')
    assert via in ('cmdline', 'esp'), f'fsbench_settings_via: {via}'
    assert env.config.get_image_path('disk').endswith('.img')
    qemu = [d for d in target.drivers if type(d).__name__ == 'QEMUDriver']
    if via == 'cmdline':
        assert qemu and qemu[0].kernel, 'settings on the command line need a QEMUDriver with a kernel'
    else:
        assert (qemu and not qemu[0].kernel) or any(
            type(d).__name__ == 'USBStorageDriver' for d in target.drivers), \
            'settings on the ESP: a QEMUDriver booting the disk, or a USBStorageDriver to write it'


def pairs(argv, keep):
    """(option, value) of the options in keep, sorted."""
    out = []
    for i, a in enumerate(argv):
        if a in keep:
            v = argv[i + 1]
            if a == '-m' and v.endswith('M'):
                v = v[:-1]
            out.append((a, v))
    return sorted(out)


@pytest.mark.parametrize('name,uefi', [('qemu', '0'), ('qemu-uefi', '1')])
def test_qemu_matches_launcher(name, uefi, tmp_path, monkeypatch):
    from labgrid.driver import QEMUDriver
    path = os.path.join(ROOT, 'board', 'qemu-x86_64', 'labgrid', name + '.yaml')
    env, target = load(path, tmp_path, monkeypatch)
    q = target.get_driver(QEMUDriver)  # activation builds the command line
    lg = list(q._cmd)
    target.deactivate(q)

    benv = subprocess.run(['sh', os.path.join(ROOT, 'image', 'boardenv.sh'),
                           os.path.join(ROOT, 'board', 'qemu-x86_64', 'board.mk')],
                          check=True, stdout=subprocess.PIPE, text=True).stdout
    board = {}
    for line in benv.splitlines():
        k, v = line[len('export '):].split('=', 1)
        board[k] = shlex.split(v)[0] if v != "''" else ''
    work = str(tmp_path / 'work')
    img = str(tmp_path / 'image')
    os.makedirs(work)
    e = dict(os.environ, **board, WORK=work, ACCEL='tcg', CPU=board['BOARD_QEMU_CPU_TCG'],
             SERIAL=str(tmp_path / 'serial.log'), UEFI=uefi, KERNEL=img + '/vmlinux',
             INITRD=img + '/initramfs.cpio.gz', ROOTFS='ext4', PROFILE='', APPEND='',
             TCACHE='none', EXTRA='')
    out = str(tmp_path / 'qemu.argv')
    subprocess.run(['sh', os.path.join(ROOT, 'qemu', 'cmdline.sh'), out], env=e, check=True)
    with open(out) as f:
        sh = f.read().split('\n')[:-1]

    assert os.path.basename(lg[0]) == os.path.basename(sh[0])
    keep = {'-machine', '-cpu', '-smp', '-m', '-kernel', '-initrd', '-append', '-drive', '-device'}
    # UEFI: the launcher's flash drives (OVMF code and a copy of its
    # variables) are labgrid's -bios OVMF.fd (code and variables in one)
    sh = [a for a in sh if not a.startswith('if=pflash,')]
    sh = [a for i, a in enumerate(sh) if not (a == '-drive' and i + 1 < len(sh) and sh[i + 1] == '-drive')]
    assert pairs(lg, keep) == pairs(sh, keep)
    if uefi == '1':
        assert '-bios' in lg and '-kernel' not in lg
    for flag in ('-nodefaults', '-no-reboot'):
        assert flag in lg, f'{flag} not in the QEMUDriver command line'
    assert env.config.get_target_option('main', 'fsbench_target_size') == board['BOARD_TARGET_SIZE']
