#!/usr/bin/python3
# lava.py: what the LAVA tests need from Python (PyYAML, which
# lava-dispatcher brings).
#
#   lava.py monitors FILE...   the monitors block between the lines
#       "# BEGIN fsbench monitors" and "# END fsbench monitors" of each FILE
#       (a job template, board/README.md): the same text in every file
#       (indentation aside); printed once, as YAML, on stdout
#   lava.py match MONITORS.yaml < LINES   each input line run through the
#       block's pattern as LAVA does (re.search, named groups); prints one
#       line per match, ID<TAB>RESULT<TAB>MEASUREMENT<TAB>UNITS, and
#       start/end for the markers; a line that starts with FSBENCH-RESULT:
#       and does not match is an error
#   lava.py render ARGV WORK TEMPLATE IMAGES WORDS JOB DEVICE   a
#       standalone LAVA job and device description from qemu/cmdline.sh's
#       argv (ARGV, made with WORK, KERNEL={kernel}, INITRD={initrd},
#       SERIAL=-): the job is TEMPLATE with its images fetched from IMAGES
#       (file://, the url's file name), WORDS added to the kernel command
#       line and short timeouts; the template's images must be the argv's
#       (kernel and its command line, initrd, firmware and its variables,
#       boot disk), image_arg for image_arg, so the job boots the machine
#       the launcher boots; the rest of the argv is the device's QEMU
#       options
#   lava.py console LOG   what LAVA saw on the console (the log's "target"
#       and "feedback" lines, their '"' unescaped), one line each
#   lava.py results LOG   the test cases LAVA recorded in lava-run's log
#       (its "results" lines): SUITE<TAB>CASE<TAB>RESULT<TAB>MEASUREMENT<TAB>
#       UNITS<TAB>TEST_CASE_ID, one a line
#   lava.py expect MONITORS.yaml < LINES   the cases a LAVA server records
#       for the lines (the block's pattern, as match):
#       fsbench<TAB>CASE<TAB>RESULT<TAB>MEASUREMENT<TAB>UNITS<TAB>TEST_CASE_ID,
#       CASE the id as LAVA names it (lower case, each run of characters
#       other than letters, digits and _ one _), the measurement as the server's database
#       keeps it (10 decimals), written without trailing zeros
#   lava.py server-results JSON   the cases of `lavacli results JOB --json`
#       in expect's form (every suite)
#   lava.py abjob JOB DEVICE NAME TARGET OUT   one boot of an A/B
#       (tests/lava/ab.sh): JOB asking for DEVICE (its tag: the block's
#       board), named NAME, and when TARGET is not empty the target -drive
#       of its context's extra_options (id=target) on the file TARGET;
#       written to OUT
# Exit status: 0, 1 on a mismatch (said on stderr), 2 on misuse.
import json
import re
import sys
from decimal import ROUND_HALF_EVEN, Decimal

import yaml

BEGIN, END = "# BEGIN fsbench monitors", "# END fsbench monitors"


def die(msg, code=1):
    sys.stderr.write("lava.py: %s\n" % msg)
    sys.exit(code)


def block(path):
    lines, inside, ind = [], False, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.rstrip("\n")
            if s.strip() == BEGIN:
                inside, ind = True, len(s) - len(s.lstrip())
                continue
            if s.strip() == END:
                if not inside:
                    break
                return "\n".join(lines) + "\n"
            if inside:
                if s.strip() and not s.startswith(" " * ind):
                    die("%s: monitors block: a line left of its BEGIN line: %s" % (path, s))
                lines.append(s[ind:])
    die("%s: no monitors block (lines '%s' ... '%s')" % (path, BEGIN, END))


def monitors(paths):
    first = None
    for p in paths:
        b = block(p)
        if first is None:
            first, where = b, p
        elif b != first:
            die("%s: the monitors block differs from %s's:\n%s---\n%s" % (p, where, b, first))
    mon = yaml.safe_load(first)["monitors"]
    if len(mon) != 1:
        die("%s: expected one monitor, found %d" % (where, len(mon)))
    for k in ("name", "start", "end", "pattern"):
        if k not in mon[0]:
            die("%s: the monitor has no %s" % (where, k))
    sys.stdout.write(first)


def matched(path, lines):
    """(kind, groups) per line: ("start"|"end", None), ("case", the
    pattern's groups) or ("bad", the line) for a FSBENCH-RESULT line the
    pattern does not take."""
    with open(path, encoding="utf-8") as f:
        m = yaml.safe_load(f)["monitors"][0]
    start, end, pat = re.compile(m["start"]), re.compile(m["end"]), re.compile(m["pattern"])
    for line in lines:
        if start.search(line):
            yield "start", None
        elif end.search(line):
            yield "end", None
        else:
            r = pat.search(line)
            if r:
                yield "case", r.groupdict()
            elif line.startswith("FSBENCH-RESULT:"):
                yield "bad", line


def match(path):
    bad = 0
    for kind, g in matched(path, sys.stdin):
        if kind in ("start", "end"):
            print(kind)
        elif kind == "case":
            print("\t".join(str(g.get(k) if g.get(k) is not None else "")
                            for k in ("test_case_id", "result", "measurement", "units")))
        else:
            sys.stderr.write("lava.py: no match: %s" % g)
            bad = 1
    sys.exit(bad)


def decimal10(v):
    # a measurement as the server's DecimalField(decimal_places=10) keeps
    # it, without trailing zeros; "" for none
    if v is None or str(v) in ("", "None"):
        return ""
    d = Decimal(str(v)).quantize(Decimal("1e-10"), rounding=ROUND_HALF_EVEN)
    t = format(d, "f")
    return t.rstrip("0").rstrip(".") if "." in t else t


def expect(path):
    bad = 0
    for kind, g in matched(path, sys.stdin):
        if kind == "case":
            tid = g["test_case_id"].strip()
            print("\t".join(("fsbench", re.sub(r"\W+", "_", tid.lower()), g["result"],
                             decimal10(g.get("measurement")),
                             g.get("units") or "", tid)))
        elif kind == "bad":
            sys.stderr.write("lava.py: no match: %s" % g)
            bad = 1
    sys.exit(bad)


def server_results(path):
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    for c in cases:
        extra = (c.get("metadata") or {}).get("extra") or {}
        if isinstance(extra, list):
            extra = {k: v for d in extra if isinstance(d, dict) for k, v in d.items()}
        tid = extra.get("test_case_id", "") if isinstance(extra, dict) else ""
        unit = c.get("unit")
        print("\t".join((c["suite"], c["name"], c["result"], decimal10(c.get("measurement")),
                         "" if unit in (None, "None") else str(unit), str(tid))))


def render(argv_path, work, template, images, words, job_out, dev_out):
    with open(argv_path, encoding="utf-8") as f:
        argv = [a.rstrip("\n") for a in f]
    cmd, rest = argv[0], argv[1:]
    opts, img = [], {}
    i = 0
    while i < len(rest):
        a = rest[i]
        v = rest[i + 1] if i + 1 < len(rest) else ""
        if a in ("-kernel", "-initrd", "-append"):
            img[a] = v
        elif a == "-drive" and ",id=boot" in v:
            img["disk"] = v.replace("file=%s/disk.img," % work, "file={disk},")
        elif a == "-device" and "drive=boot" in v:
            img["disk-device"] = v
        elif a == "-drive" and "if=pflash" in v and "unit=0" in v:
            img["firmware"] = re.sub(r"file=[^,]*$", "file={firmware}", v)
        elif a == "-drive" and "if=pflash" in v and "unit=1" in v:
            img["efivars"] = v.replace("file=%s/efivars.fd" % work, "file={efivars}")
        else:
            opts.append(a)
            i += 1
            continue
        i += 2
    want = {}
    if "-kernel" in img:
        want["kernel"] = '-kernel %s -append "%s"' % (img["-kernel"], img.get("-append"))
    if "-initrd" in img:
        want["initrd"] = "-initrd %s" % img["-initrd"]
    for name in ("firmware", "efivars"):
        if name in img:
            want[name] = "-drive %s" % img[name]
    want["disk"] = "-drive %s -device %s" % (img.get("disk"), img.get("disk-device"))
    with open(template, encoding="utf-8") as f:
        job = yaml.safe_load(f)
    deploy = job["actions"][0]["deploy"]
    if sorted(deploy["images"]) != sorted(want):
        die("%s: images %s, the launcher boots %s (qemu/cmdline.sh)"
            % (template, " ".join(sorted(deploy["images"])), " ".join(sorted(want))))
    for name, arg in want.items():
        have = deploy["images"][name].get("image_arg")
        if have != arg:
            die("%s: images.%s.image_arg is not the launcher's (qemu/cmdline.sh):\n  template: %s\n  launcher: %s"
                % (template, name, have, arg))
    for name, im in deploy["images"].items():
        m = re.match(r"^file:///srv/fsbench/[^/]+/(.+)$", im["url"])
        if not m:
            die("%s: images.%s.url is not file:///srv/fsbench/BOARD/FILE: %s" % (template, name, im["url"]))
        im["url"] = "file://%s/%s" % (images, m.group(1))
    if words:
        if "kernel" not in deploy["images"]:
            die("%s: no kernel command line for %s (a UEFI boot: set them in the ESP's fsbench.conf)"
                % (template, words))
        k = deploy["images"]["kernel"]
        k["image_arg"] = k["image_arg"][:-1] + " " + words + '"'
    # short timeouts: a smoke run
    job["timeouts"] = {"job": {"minutes": 20}, "action": {"minutes": 15},
                       "connection": {"minutes": 5},
                       "connections": {"lava-test-monitor": {"minutes": 8}}}
    for a in job["actions"]:
        for v in a.values():
            v["timeout"] = {"minutes": 10}
    with open(job_out, "w", encoding="utf-8") as f:
        yaml.safe_dump(job, f, sort_keys=False, width=10000)
    dev = {
        "constants": {
            "posix": {"lava_test_sh_cmd": "/bin/sh", "lava_test_results_dir": "/lava-%s",
                      "lava_test_shell_file": "~/.bashrc"},
            "shutdown-message": "The system is going down for reboot NOW",
            "kernel-start-message": "Linux version [0-9]",
            "default-shell-prompt": "lava-test: # ",
            "spawn_maxread": "4092",
            "boot_retry": 1,
            "failure_retry": 1,
        },
        "available_architectures": ["amd64", "x86_64", "arm64", "aarch64"],
        "actions": {
            "deploy": {"connections": {"serial": None}, "methods": {"image": {"parameters": {}}}},
            "boot": {"connections": {"serial": None},
                     "methods": {"qemu": {"parameters": {"command": cmd, "options": opts}}}},
        },
        "timeouts": {"actions": {}, "connections": {}},
    }
    with open(dev_out, "w", encoding="utf-8") as f:
        yaml.safe_dump(dev, f, sort_keys=False, width=10000)


def abjob(job_in, device, name, target, job_out):
    with open(job_in, encoding="utf-8") as f:
        job = yaml.safe_load(f)
    tags = [t for t in (job.get("tags") or []) if t != device]
    job["tags"] = tags + [device]
    job["job_name"] = name
    if target:
        opts = (job.get("context") or {}).get("extra_options") or []
        hits = [i for i, o in enumerate(opts) if str(o).startswith("-drive ")
                and "id=target" in str(o).split(None, 1)[1].split(",")]
        if len(hits) != 1:
            die("%s: %d target drives (-drive ...,id=target) in context.extra_options, wanted 1"
                % (job_in, len(hits)))
        o = opts[hits[0]]
        if not re.search(r"(^-drive |,)file=[^,]*", o):
            die("%s: the target drive names no file: %s" % (job_in, o))
        opts[hits[0]] = re.sub(r"(^-drive |,)file=[^,]*", lambda m: m.group(1) + "file=" + target, o, count=1)
    with open(job_out, "w", encoding="utf-8") as f:
        yaml.safe_dump(job, f, sort_keys=False, width=10000)


def logged(log, *lvls):
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not any('"lvl": "%s"' % lvl in line for lvl in lvls):
                continue
            try:
                yield yaml.safe_load(line.strip().lstrip("- ")).get("msg")
            except yaml.YAMLError:
                continue


def console(log):
    # LAVA logs each console line with its '"' written '\\"' (and no '\r'),
    # once it has its newline: as "target" while an action reads the
    # console, as "feedback" after the test (finalize's read-feedback). A
    # monitor's end string can match before its newline has been read; the
    # line is then logged in finalize, as "feedback".
    for m in logged(log, "target", "feedback"):
        if isinstance(m, str):
            print(m.replace('\\"', '"'))


def results(log):
    for m in logged(log, "results"):
        if isinstance(m, dict):
            extra = m.get("extra") or {}
            print("\t".join("" if v is None else str(v) for v in (
                m.get("definition"), m.get("case"), m.get("result"), m.get("measurement"),
                m.get("units"), extra.get("test_case_id") if isinstance(extra, dict) else "")))


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) >= 2 and a[0] == "monitors":
        monitors(a[1:])
    elif len(a) == 2 and a[0] == "match":
        match(a[1])
    elif len(a) == 8 and a[0] == "render":
        render(*a[1:])
    elif len(a) == 2 and a[0] == "console":
        console(a[1])
    elif len(a) == 2 and a[0] == "results":
        results(a[1])
    elif len(a) == 2 and a[0] == "expect":
        expect(a[1])
    elif len(a) == 2 and a[0] == "server-results":
        server_results(a[1])
    elif len(a) == 6 and a[0] == "abjob":
        abjob(*a[1:])
    else:
        die("usage: lava.py monitors FILE... | match MONITORS.yaml | "
            "render ARGV WORK TEMPLATE IMAGES WORDS JOB DEVICE | console LOG | results LOG | "
            "expect MONITORS.yaml | server-results JSON | abjob JOB DEVICE NAME TARGET OUT", 2)
