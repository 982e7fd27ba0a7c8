#!/usr/bin/env python3
"""Checks that the repository cites only its own contract pages, and that every citation resolves.

1. No file may cite the old behaviour document, which users do not have: the word `SPEC`
   followed by a section number, or the old document's file name, is a failure.
2. Every citation of a contract page, `Specs/<Name>.md §<n>[.<m>...]` (the name may be in
   backticks, and a list may follow: `Specs/Settings.md §4, §5`, `Specs/Store.md §1 to §4`,
   `Specs/Resolution.md §4 step 2, §5`), must name a page that exists and a section that the page
   has as a numbered Markdown heading (`## 4. ...`, `### 4.2 ...` or `## §4 ...`). A citation
   without `§` only needs the page to exist.

Usage: .ci/check-citations.py [--ignore PREFIX]... [--verbose]

--ignore PREFIX (repeatable) reports the problems of files under PREFIX (a path relative to the
repository, such as `Server/`) as a warning count instead of failing on them; --verbose lists
them too. Exits with status 1 when any other problem is found. Needs only Python 3.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_DIRS = {'.git', 'node_modules'}
SKIP_FILES = {'Package.resolved'}

OLD_NAME = 'SPEC'
# The old document cited by section (its name, optionally the word "section", then a number,
# which may be wrapped onto the next comment line), or by its file name.
OLD_CITATION = re.compile(
    r'\b' + OLD_NAME + r'(?:[ \t]*\n[ \t]*(?://+|#|\*)?)?[ \t]+(?:section[ \t]+)?\d'
    + r'|\b' + OLD_NAME + r'\.md\b')

NUM = r'(\d+(?:\.\d+)*)'
GAP = r'(?:[ \t]*\n[ \t]*(?://+|#|\*|--)?)?[ \t]*'    # a space, or a line break in a comment
PAGE = re.compile(r'Specs/([A-Za-z0-9_-]+)\.md`?')
FIRST = re.compile(GAP + '§' + NUM)
SUBREF = r'(?:[ \t]+steps?[ \t]+\d+(?:(?:,[ \t]*|[ \t]+and[ \t]+|[ \t]+to[ \t]+)\d+)*|[ \t]+table|[ \t]+PS)?'
MORE = re.compile(SUBREF + r'(?:,|[ \t]+and|[ \t]+to|[ \t]+or|[ \t]*–)' + GAP + '§' + NUM)
HEADING = re.compile(r'^#{1,6}[ \t]+§?' + NUM + r'\.?(?:[ \t]|$)')
FENCE = re.compile(r'^[ \t]*(```|~~~)')


def files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith('.build'))
        for name in sorted(filenames):
            if name not in SKIP_FILES:
                yield os.path.join(dirpath, name)


def read_text(path):
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    if b'\0' in data:
        return None
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError:
        return None


_sections = {}


def sections_of(page):
    """The section numbers a page's headings carry, or None when the page does not exist."""
    if page not in _sections:
        text = read_text(os.path.join(ROOT, 'Specs', page + '.md'))
        if text is None:
            _sections[page] = None
        else:
            numbers, fenced = set(), False
            for line in text.splitlines():
                if FENCE.match(line):
                    fenced = not fenced
                    continue
                m = None if fenced else HEADING.match(line)
                if m:
                    numbers.add(m.group(1))
            _sections[page] = numbers
    return _sections[page]


def line_at(text, index):
    return text.count('\n', 0, index) + 1


def problems_in(rel, text):
    found = []
    for m in OLD_CITATION.finditer(text):
        found.append((line_at(text, m.start()), 'cites the old behaviour document: '
                      + repr(text[m.start():m.end() + 12].split('\n')[0])))
    for m in PAGE.finditer(text):
        page = m.group(1)
        numbers = sections_of(page)
        if numbers is None:
            found.append((line_at(text, m.start()), f'Specs/{page}.md does not exist'))
            continue
        cited = []
        first = FIRST.match(text, m.end())
        if first:
            cited.append((first.group(1), first.start(1)))
            pos = first.end()
            while True:
                more = MORE.match(text, pos)
                if not more:
                    break
                cited.append((more.group(1), more.start(1)))
                pos = more.end()
        for number, where in cited:
            if number not in numbers:
                found.append((line_at(text, where), f'Specs/{page}.md has no section §{number}'))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--ignore', action='append', default=[], metavar='PREFIX',
                        help='report problems under PREFIX as a warning count, not a failure')
    parser.add_argument('--verbose', '-v', action='store_true', help='list ignored problems too')
    args = parser.parse_args()
    ignored_prefixes = [p.rstrip('/') + '/' for p in args.ignore]

    failures, ignored, checked = [], [], 0
    for path in files():
        text = read_text(path)
        if text is None:
            continue
        rel = os.path.relpath(path, ROOT)
        checked += 1
        for line, message in problems_in(rel, text):
            entry = f'{rel}:{line}: {message}'
            if any(rel.startswith(p) for p in ignored_prefixes):
                ignored.append(entry)
            else:
                failures.append(entry)

    for entry in failures:
        print(entry)
    if ignored:
        if args.verbose:
            for entry in ignored:
                print('warning: ' + entry)
        print(f'warning: {len(ignored)} problem(s) under {", ".join(ignored_prefixes)} ignored '
              f'(--ignore); run without it to fail on them', file=sys.stderr)
    print(f'{checked} files checked, {len(failures)} problem(s)', file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
