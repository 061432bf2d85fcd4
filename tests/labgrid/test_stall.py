# tests/labgrid/test_stall.py: fsblg.GuestWatch, without a boot: a QEMU
# driver whose process uses no processor time is stalled once `seconds`
# have gone by without a tick; one that computes is not; neither is a
# driver that is not QEMU's, nor any with seconds 0; a process gone is
# left to guest_stopped.
import subprocess
import sys
import time

import pytest

from fsblg import GuestWatch, cpu_ticks


class QEMUDriver:  # the name is what GuestWatch asks of a driver
    def __init__(self, argv):
        self._child = subprocess.Popen(argv)


class SerialDriver(QEMUDriver):
    pass


@pytest.fixture
def drivers():
    made = []

    def make(cls, argv):
        d = cls(argv)
        made.append(d)
        return d
    yield make
    for d in made:
        d._child.kill()
        d._child.wait()


def watch_for(w, seconds):
    """w.stalled() asked every 0.1 s for `seconds`: its answers."""
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        seen.append(w.stalled())
        time.sleep(0.1)
    return seen


def test_idle_process_stalls(drivers):
    d = drivers(QEMUDriver, ['sleep', '60'])
    w = GuestWatch(d, 1.0)
    seen = watch_for(w, 1.6)
    assert not seen[0] and seen[-1], seen
    assert 'no processor time in 1 s' in w.why()


def test_busy_process_does_not(drivers):
    d = drivers(QEMUDriver, [sys.executable, '-c', 'while True: pass'])
    time.sleep(0.2)
    assert cpu_ticks(d._child.pid) is not None
    assert not any(watch_for(GuestWatch(d, 1.0), 1.6))


def test_never_when_not_qemu_or_off(drivers):
    idle = ['sleep', '60']
    assert not any(watch_for(GuestWatch(drivers(SerialDriver, idle), 0.5), 1.0))
    assert not any(watch_for(GuestWatch(drivers(QEMUDriver, idle), 0), 1.0))


def test_gone_is_not_stalled(drivers):
    d = drivers(QEMUDriver, ['true'])
    d._child.wait()
    w = GuestWatch(d, 0.2)
    assert not any(watch_for(w, 0.5))
    assert cpu_ticks(d._child.pid) is None
