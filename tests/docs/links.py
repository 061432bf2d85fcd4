#!/usr/bin/env python3
# links.py: every link of the Markdown files given that points into the
# tree: the file (or folder) must exist and, with a #fragment, the target
# file must have a heading of that anchor, as GitHub makes anchors (lower
# case, punctuation but - and _ dropped, spaces as -, a repeated heading
# -1, -2, ...). Links to other sites (a scheme: https:, mailto:) are not
# followed. Code (fenced blocks, `inline`) is not read for links.
# Usage: links.py FILE.md...
# Output: one line per broken link, FILE:LINE: TARGET: why; exit 1 when
# there is one, 0 otherwise.
import os
import re
import sys

LINK = re.compile(r'\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+.*)?$')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')


def slug(text):
    text = re.sub(r'`([^`]*)`', r'\1', text)
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)  # a link's text
    text = re.sub(r'<[^>]+>', '', text)
    text = text.strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


def lines_outside_code(path, inline=False):
    """(number, line) of path's lines outside fenced code, inline code
    removed unless inline."""
    fence = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'^\s{0,3}(`{3,}|~{3,})', line)
            if m:
                if fence is None:
                    fence = m.group(1)[0] * 3
                elif line.lstrip().startswith(fence):
                    fence = None
                continue
            if fence is None:
                yield n, line if inline else re.sub(r'`[^`]*`', '', line)


anchors_of = {}


def anchors(path):
    if path not in anchors_of:
        seen = {}
        found = set()
        for _, line in lines_outside_code(path, inline=True):
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            found.add(s if k == 0 else '%s-%d' % (s, k))
        # explicit anchors: <a name="x"> or <a id="x">
        with open(path, encoding='utf-8') as f:
            found.update(re.findall(r'<a\s+(?:name|id)="([^"]+)"', f.read()))
        anchors_of[path] = found
    return anchors_of[path]


def main(files):
    bad = 0
    for md in files:
        for n, line in lines_outside_code(md):
            targets = [m.group(1) for m in LINK.finditer(line)]
            m = REF.match(line)
            if m:
                targets.append(m.group(1))
            for t in targets:
                if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', t):
                    continue  # another site, mailto:
                path, _, frag = t.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
                why = None
                if not os.path.exists(dest):
                    why = 'no such file'
                elif frag and dest.endswith('.md') and frag not in anchors(dest):
                    why = 'no heading with the anchor #%s in %s' % (frag, dest)
                if why:
                    print('%s:%d: %s: %s' % (md, n, t, why))
                    bad = 1
    return bad


if __name__ == '__main__':
    if len(sys.argv) < 2:
        print('usage: links.py FILE.md...', file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
