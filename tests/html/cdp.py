#!/usr/bin/env python3
"""cdp.py: load a page in headless Chromium and say what a reader got.

Usage: cdp.py CHROMIUM PAGE.html SHOT.png
       cdp.py --serve CHROMIUM   (one browser for many pages: a request a
       line on stdin, PAGE TAB SHOT TAB JSON; the object below written to
       JSON, and "ok" or "error: WHY" a line on stdout; each page in a tab
       of its own, closed after)
Talks to the browser over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, each message
ends with a NUL byte). Loads PAGE, keeps a screenshot of the whole page in
SHOT, and prints one JSON object: "errors" (console messages of level error,
uncaught exceptions, failed loads), "charts" (each figure.chart: its id,
whether it holds an <svg>, how many of the svg's <path> elements draw
something (a non-empty d), how many marks its plotted series draw beyond
their key sample ("data"), and the svg's width and height as laid out),
"absent" (the data-chart of each p.absent), "nocharts" (the text of
p#no-charts, or null), "first" (the id of the element right after the
page's <h1>: "verdict" or "no-verdict"), "text" (the page's text as a
reader sees it), "tables" (div.table count), "external" (elements
that load or link anything outside the page), "links" (each <a href>: the
href as written, the URL it resolves to, its text).
Exit status: 0 when the page was read; 1 when the browser failed.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

PROBE = r"""
(() => {
  const out = {charts: [], absent: [], nocharts: null, tables: 0, external: []};
  for (const f of document.querySelectorAll('figure.chart')) {
    const svg = f.querySelector('svg');
    let paths = 0, data = 0, w = 0, h = 0;
    if (svg) {
      for (const p of svg.querySelectorAll('path'))
        if ((p.getAttribute('d') || '').trim().length > 0) paths++;
      // gnuplot puts each plotted series in a group gnuplot_plot_N: its
      // marks beyond the one of the key are the data drawn; a line drawn
      // with lines alone is one path, the key's sample its first subpath
      for (const g of svg.querySelectorAll('g[id*="gnuplot_plot_"]')) {
        const n = g.querySelectorAll('path, use, rect, circle, polygon, polyline').length;
        if (n > 1) data += n - 1;
        for (const p of g.querySelectorAll('path')) {
          const moves = ((p.getAttribute('d') || '').match(/M/g) || []).length;
          if (moves > 1) data += moves - 1;
        }
      }
      const r = svg.getBoundingClientRect();
      w = r.width; h = r.height;
    }
    out.charts.push({id: f.getAttribute('data-chart'), svg: !!svg, paths: paths, data: data,
                     width: w, height: h});
  }
  for (const p of document.querySelectorAll('p.absent'))
    out.absent.push(p.getAttribute('data-chart'));
  const nc = document.getElementById('no-charts');
  out.nocharts = nc ? nc.textContent : null;
  const h1 = document.querySelector('h1');
  const after = h1 ? h1.nextElementSibling : null;
  out.first = after ? after.id : null;
  out.text = document.body.innerText;
  out.tables = document.querySelectorAll('div.table').length;
  for (const e of document.querySelectorAll('[src], link[href], script, iframe, object, embed'))
    out.external.push(e.outerHTML.slice(0, 120));
  for (const e of document.querySelectorAll('[href], [*|href]')) {
    const v = e.getAttribute('href') || e.getAttribute('xlink:href') || '';
    if (v && !v.startsWith('#')) out.external.push(e.outerHTML.slice(0, 120));
  }
  // the page's links: the href as written, the URL it resolves to, the text
  out.links = [];
  for (const a of document.querySelectorAll('a[href]'))
    out.links.push({href: a.getAttribute('href'), url: a.href, text: a.textContent});
  return JSON.stringify(out);
})()
"""


class Browser:
    def __init__(self, chromium):
        self.cmd_r, self.cmd_w = os.pipe()
        self.rep_r, self.rep_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="fsbench-chromium.")
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
                "--user-data-dir=" + self.profile, "about:blank"]

        def fds():
            os.dup2(self.cmd_r, 3)
            os.dup2(self.rep_w, 4)
        self.proc = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(self.cmd_r)
        os.close(self.rep_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self.rep_r, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        i = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            m = self.read(deadline)
            if m.get("id") == i:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, timeout=30, session=None):
        def match(m):
            return m.get("method") == name and (session is None or m.get("sessionId") == session)
        deadline = time.time() + timeout
        for k, m in enumerate(self.events):
            if match(m):
                del self.events[k]
                return m
        while True:
            m = self.read(deadline)
            if match(m):
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        subprocess.run(["rm", "-rf", self.profile])


def visit(b, page, shot):
    """Load PAGE in a new tab of the browser B, keep its screenshot in SHOT;
    the reader's view of it (the JSON object of the usage), the tab closed."""
    target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    try:
        for domain in ("Page", "Runtime", "Log"):
            b.call(domain + ".enable", session=s)
        b.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900,
               "deviceScaleFactor": 1, "mobile": False}, session=s)
        b.call("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=s)
        b.wait_event("Page.loadEventFired", timeout=60, session=s)
        probe = b.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                       session=s)
        out = json.loads(probe["result"]["value"])
        m = b.call("Page.getLayoutMetrics", session=s)
        size = m.get("cssContentSize") or m["contentSize"]
        png = b.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"],
                     "scale": 1}}, session=s, timeout=60)
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png["data"]))
        errors = []
        for e in b.events:
            if e.get("sessionId") != s:
                continue
            meth, p = e.get("method"), e.get("params", {})
            if meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                     for a in p.get("args", [])))
            elif meth == "Runtime.exceptionThrown":
                errors.append("exception: " + p["exceptionDetails"].get("text", ""))
            elif meth == "Log.entryAdded" and p["entry"].get("level") == "error":
                errors.append("log: " + p["entry"].get("text", ""))
        out["errors"] = errors
        return out
    finally:
        b.events = [e for e in b.events if e.get("sessionId") != s]
        b.call("Target.closeTarget", {"targetId": target})


def serve(chromium):
    """One browser for many pages: each line of stdin, PAGE TAB SHOT TAB
    JSON, is visited, its view written to JSON; "ok" or "error: WHY" on
    stdout, a line each. At the end of stdin the browser is closed."""
    b = Browser(chromium)
    try:
        for line in sys.stdin:
            page, shot, dest = line.rstrip("\n").split("\t")
            try:
                out = visit(b, page, shot)
                with open(dest, "w") as f:
                    f.write(json.dumps(out) + "\n")
                print("ok", flush=True)
            except Exception as e:  # this page failed: say how, go on
                print("error: %s" % e, flush=True)
    finally:
        b.close()


def main():
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
        return
    chromium, page, shot = sys.argv[1:4]
    b = Browser(chromium)
    try:
        print(json.dumps(visit(b, page, shot)))
    finally:
        b.close()


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # the browser failed: say how
        print("cdp.py: %s" % e, file=sys.stderr)
        sys.exit(1)
