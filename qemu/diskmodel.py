# diskmodel.py: an nbdkit plugin (Python) that puts a disk's behaviour in
# front of a raw file: a volatile write cache, a cache that lies about its
# flushes, a device that wraps around below its claimed size.
#
# Usage: nbdkit [--foreground --unix SOCK] python qemu/diskmodel.py \
#            file=FILE model=MODEL [trigger=PATH]
#   file=FILE     the medium: a raw file (the launcher's sparse target);
#                 the disk's size is FILE's size
#   model=MODEL   one of
#     cache[:SIZE]   an honest disk with a volatile write cache of SIZE
#                    bytes (default 64M; K, M, G suffixes): a write lands in
#                    the plugin's memory; a flush (NBD_CMD_FLUSH) or a FUA
#                    write puts it on the medium; when the cache is full,
#                    its oldest blocks are written back (in no promised
#                    order, as a disk's cache may); what is in the cache
#                    when the plugin dies, or when its client goes away
#                    without a flush (QEMU killed), is gone
#     lying[:SECONDS]  the same cache, until the lie starts: from then on a
#                    flush or a FUA write is acknowledged and puts nothing
#                    on the medium (the cache still writes back its oldest
#                    blocks when full). The lie starts when the trigger file
#                    exists (trigger=PATH, looked at on each flush and FUA
#                    write), or SECONDS after the plugin started; it does
#                    not stop
#     wrap:SIZE      fake-capacity flash: the disk claims FILE's size but
#                    has only SIZE bytes; offset X reads and writes X % SIZE
#                    of FILE (no cache: writes go to the medium at once)
#   trigger=PATH  the lying model's trigger file
# The medium is FILE as the host's kernel holds it: what the plugin wrote
# there survives a kill of the plugin or of QEMU (the power cut these
# models stand for); a crash of the host itself is not modelled, so a flush
# does not fsync FILE. Write zeroes and trim drop the blocks they cover from
# the cache and punch a hole in FILE (a disk may persist what it likes
# early; it may not lose what it acknowledged a flush for).
# Messages go to nbdkit's stderr, prefixed "diskmodel:"; the moment the lie
# starts is one of them, and when the client goes away what reached the
# model: its writes, how many of them carried FUA, its flushes (the
# guest's journal commits arrive as one or the other, as its bus and
# QEMU's device pass them on).
import ctypes
import errno
import os
import time
from collections import OrderedDict

import nbdkit

API_VERSION = 2
BLOCK = 4096

conf = {"file": None, "model": None, "trigger": None}
st = {}


def say(msg):
    os.write(2, ("diskmodel: %s\n" % msg).encode())


def parse_size(what, text):
    mult = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    t = text.strip().upper()
    if t.endswith("IB"):
        t = t[:-2]
    elif t.endswith("B"):
        t = t[:-1]
    suf = t[-1:] if t[-1:] in mult else ""
    num = t[:-1] if suf else t
    if not num.isdigit() or int(num) == 0:
        raise ValueError("%s '%s': a size > 0 (bytes, or with K, M, G, T)" % (what, text))
    return int(num) * mult[suf]


def config(key, value):
    if key not in conf:
        raise ValueError("unknown parameter '%s' (file=, model=, trigger=)" % key)
    conf[key] = value


def config_complete():
    if not conf["file"] or not conf["model"]:
        raise ValueError("file=FILE and model=MODEL are needed")
    name, _, arg = conf["model"].partition(":")
    st["name"] = name
    st["cache_max"] = 64 << 20
    st["lie_at"] = None
    st["wrap"] = None
    if name == "cache":
        if arg:
            st["cache_max"] = parse_size("model cache:SIZE", arg)
    elif name == "lying":
        if arg:
            if not arg.isdigit():
                raise ValueError("model lying:SECONDS: '%s' is not a number of seconds" % arg)
            st["lie_at"] = time.monotonic() + int(arg)
        elif not conf["trigger"]:
            raise ValueError("model lying needs trigger=PATH or lying:SECONDS")
    elif name == "wrap":
        if not arg:
            raise ValueError("model wrap:SIZE needs the real size")
        st["wrap"] = parse_size("model wrap:SIZE", arg)
        if st["wrap"] % BLOCK:
            raise ValueError("model wrap:SIZE: %d is not a multiple of %d" % (st["wrap"], BLOCK))
    else:
        raise ValueError("unknown model '%s' (cache[:SIZE], lying[:SECONDS], wrap:SIZE)" % conf["model"])
    st["cache_max"] = max(1, st["cache_max"] // BLOCK)


def thread_model():
    return nbdkit.THREAD_MODEL_SERIALIZE_ALL_REQUESTS


def get_ready():
    st["fd"] = os.open(conf["file"], os.O_RDWR)
    st["size"] = os.fstat(st["fd"]).st_size
    if st["wrap"] is not None and st["wrap"] >= st["size"]:
        raise ValueError("model wrap:%d: not below the file's size %d" % (st["wrap"], st["size"]))
    st["cache"] = OrderedDict()  # block number -> bytearray(BLOCK), dirty
    st["lying"] = False
    st["n"] = {"write": 0, "fua": 0, "flush": 0, "lied": 0, "wrapped": 0}
    libc = ctypes.CDLL(None, use_errno=True)
    st["fallocate"] = getattr(libc, "fallocate64", libc.fallocate)  # 64-bit offsets
    st["fallocate"].argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
    say("model %s over %s (%d bytes)" % (conf["model"], conf["file"], st["size"]))


# --- the medium: FILE, through the wrap-around when there is one ----------

def spans(offset, count):
    """(file offset, buffer offset, length) pieces of a disk range."""
    w = st["wrap"]
    if w is None:
        yield offset, 0, count
        return
    done = 0
    while done < count:
        at = (offset + done) % w
        n = min(count - done, w - at)
        yield at, done, n
        done += n


def medium_read(buf, offset):
    mv = memoryview(buf)
    for at, b, n in spans(offset, len(mv)):
        got = 0
        while got < n:
            k = os.preadv(st["fd"], [mv[b + got:b + n]], at + got)
            if k <= 0:  # past the end of FILE: zeroes
                mv[b + got:b + n] = bytes(n - got)
                break
            got += k


def medium_write(buf, offset):
    mv = memoryview(buf)
    for at, b, n in spans(offset, len(mv)):
        put = 0
        while put < n:
            put += os.pwrite(st["fd"], mv[b + put:b + n], at + put)


def medium_zero(offset, count):
    for at, _, n in spans(offset, count):
        if st["fallocate"](st["fd"], 3, at, n) != 0:  # PUNCH_HOLE | KEEP_SIZE
            e = ctypes.get_errno()
            if e not in (errno.EOPNOTSUPP, errno.ENOSYS):
                raise OSError(e, os.strerror(e))
            z = bytes(min(n, 1 << 20))
            done = 0
            while done < n:
                k = min(len(z), n - done)
                medium_write(z[:k], at + done)
                done += k


# --- the cache --------------------------------------------------------------

def write_back(blocks):
    """Put the cache's blocks (numbers, sorted) on the medium, merged."""
    c = st["cache"]
    i = 0
    while i < len(blocks):
        j = i + 1
        while j < len(blocks) and blocks[j] == blocks[j - 1] + 1:
            j += 1
        medium_write(b"".join(c[k] for k in blocks[i:j]), blocks[i] * BLOCK)
        for k in blocks[i:j]:
            del c[k]
        i = j


def lie_now():
    if st["lying"]:
        return True
    if (st["lie_at"] is not None and time.monotonic() >= st["lie_at"]) or \
            (conf["trigger"] and os.path.exists(conf["trigger"])):
        st["lying"] = True
        say("lying from now on: flushes are acknowledged and not persisted "
            "(%d dirty blocks in the cache)" % len(st["cache"]))
    return st["lying"]


def open(readonly):
    return {}


def close(h):
    # The client went away without a flush (QEMU killed): the power is gone,
    # and with it what only the cache held.
    n = st["n"]
    if st["wrap"] is not None:
        say("client gone: %d writes at or above %d bytes wrapped around" % (n["wrapped"], st["wrap"]))
    else:
        say("client gone: %d writes, %d of them FUA; %d flushes, %d of them lies; "
            "%d unflushed blocks dropped"
            % (n["write"], n["fua"], n["flush"], n["lied"], len(st["cache"])))
    st["cache"].clear()


def get_size(h):
    return st["size"]


def can_write(h):
    return True


def can_flush(h):
    return True


def can_fua(h):
    return nbdkit.FUA_NATIVE


def can_trim(h):
    return True


def can_zero(h):
    return True


def can_multi_conn(h):
    return False


def pread(h, buf, offset, flags):
    c = st["cache"]
    if not c:
        medium_read(buf, offset)
        return
    mv = memoryview(buf)
    n = len(mv)
    pos = 0
    while pos < n:
        blk, inb = divmod(offset + pos, BLOCK)
        k = min(n - pos, BLOCK - inb)
        data = c.get(blk)
        if data is not None:
            mv[pos:pos + k] = data[inb:inb + k]
            pos += k
            continue
        # A run of blocks the cache does not hold: one read of the medium.
        end = pos + k
        while end < n and (offset + end) // BLOCK not in c:
            end = min(n, end + BLOCK - (offset + end) % BLOCK)
        medium_read(mv[pos:end], offset + pos)
        pos = end


def pwrite(h, buf, offset, flags):
    st["n"]["write"] += 1
    if flags & nbdkit.FLAG_FUA:
        st["n"]["fua"] += 1
    if st["wrap"] is not None:
        if offset + len(buf) > st["wrap"]:
            st["n"]["wrapped"] += 1
        medium_write(buf, offset)
        return
    c = st["cache"]
    mv = memoryview(buf)
    n = len(mv)
    pos = 0
    touched = []
    while pos < n:
        blk, inb = divmod(offset + pos, BLOCK)
        k = min(n - pos, BLOCK - inb)
        if k == BLOCK:
            data = bytearray(mv[pos:pos + k])
        else:
            data = c.get(blk)
            if data is None:
                data = bytearray(BLOCK)
                medium_read(data, blk * BLOCK)
            data[inb:inb + k] = mv[pos:pos + k]
        c[blk] = data
        c.move_to_end(blk)
        touched.append(blk)
        pos += k
    if flags & nbdkit.FLAG_FUA and not lie_now():
        write_back([b for b in touched if b in c])
    if len(c) > st["cache_max"]:
        old = []
        for blk in c:
            if len(c) - len(old) <= st["cache_max"]:
                break
            old.append(blk)
        write_back(sorted(old))


def flush(h, flags):
    if st["wrap"] is not None:
        return
    st["n"]["flush"] += 1
    if lie_now():
        st["n"]["lied"] += 1
        return
    write_back(sorted(st["cache"]))


def zero(h, count, offset, flags):
    c = st["cache"]
    # Partial blocks at the edges through the cache, whole ones punched.
    head = (-offset) % BLOCK
    if head or count < BLOCK:
        k = min(count, head) if head else count
        pwrite(h, bytes(k), offset, flags & nbdkit.FLAG_FUA)
        offset += k
        count -= k
        if count == 0:
            return
    tail = count % BLOCK
    whole = count - tail
    if whole:
        lo, hi = offset // BLOCK, (offset + whole) // BLOCK
        for blk in (list(c) if hi - lo > len(c) else range(lo, hi)):
            if lo <= blk < hi:
                c.pop(blk, None)
        medium_zero(offset, whole)
    if tail:
        pwrite(h, bytes(tail), offset + whole, flags & nbdkit.FLAG_FUA)


def trim(h, count, offset, flags):
    zero(h, count, offset, flags)
