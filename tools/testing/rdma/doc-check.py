#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The documentation check of "make check" (step "docs").

1. Every Documentation/**/*.rst, and every .rst path README.md names,
   parses with docutils without a message of level 2 (WARNING) or above.
   The two Sphinx constructs the pages use are understood here: the role
   :doc:`name` (the page must exist, relative to the citing page, or to
   Documentation/ with a leading /) and the directive toctree (each entry
   must exist).  Every page is in the toctree of Documentation/index.rst.
2. Every KUnit suite (the .name of each struct kunit_suite in the
   tests/*_kunit.c files of the tree) and every scenario
   (tools/testing/rdma/scenarios/*.sh and scenarios/wire/*.sh, by file
   name without .sh) is named in Documentation/testing.rst, as a whole
   word.
3. Documentation/overview.rst, the index of what user space sees, names
   (as ``name``) every module parameter (module_param*() in a .c file),
   every trace event (trace_NAME() called in a .c file) and every
   debugfs directory (debugfs_create_dir("NAME", ...)) of the tree.

Prints each problem and exits 1 when there is any, 0 otherwise.  Needs
python3-docutils (prepare-kernel.sh installs it); when the python3 that
runs it lacks docutils, it runs itself again with /usr/bin/python3,
where Debian's package puts it.

    tools/testing/rdma/doc-check.py [REPO]
"""

import glob
import io
import os
import re
import sys

try:
    import docutils.core
    import docutils.nodes
    import docutils.utils
    from docutils.parsers.rst import Directive, directives, roles
except ImportError:
    SYSTEM_PY = '/usr/bin/python3'
    if (os.path.exists(SYSTEM_PY) and
            os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PY) and
            not os.environ.get('RDMA_DOC_CHECK_REEXEC')):
        os.environ['RDMA_DOC_CHECK_REEXEC'] = '1'
        os.execv(SYSTEM_PY, [SYSTEM_PY] + sys.argv)
    print('doc-check: no docutils for %s: install python3-docutils '
          '(tools/testing/rdma/prepare-kernel.sh --deps does)' % sys.executable)
    sys.exit(1)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else \
    os.path.abspath(os.path.join(HERE, '..', '..', '..'))
DOCS = os.path.join(REPO, 'Documentation')

# The page being parsed, for :doc: and toctree, which resolve against it.
current = {'path': None}
# Every page some toctree names (absolute paths).
in_toctree = set()


def doc_target(name):
    """The .rst file a :doc: or toctree name points to."""
    if name.startswith('/'):
        base = os.path.join(DOCS, name.lstrip('/'))
    else:
        base = os.path.join(os.path.dirname(current['path']), name)
    return os.path.normpath(base + '.rst')


def doc_role(role, rawtext, text, lineno, inliner, options=None, content=None):
    """:doc:`name` or :doc:`title <name>`: a link to a page that exists."""
    m = re.match(r'^(.*?)\s*<([^<>]+)>$', text, re.S)
    title, name = (m.group(1), m.group(2)) if m else (None, text)
    target = doc_target(name.strip())
    if not os.path.isfile(target):
        msg = inliner.reporter.error(
            ':doc:`%s`: no page %s' % (text, os.path.relpath(target, REPO)),
            line=lineno)
        prb = inliner.problematic(rawtext, rawtext, msg)
        return [prb], [msg]
    node = docutils.nodes.reference(rawtext, title or name, refuri=name)
    return [node], []


class TocTree(Directive):
    """Sphinx's toctree: each entry a page that exists."""
    has_content = True
    option_spec = {'maxdepth': int, 'caption': directives.unchanged,
                   'numbered': directives.flag, 'hidden': directives.flag,
                   'glob': directives.flag, 'titlesonly': directives.flag}

    def run(self):
        problems = []
        for line in self.content:
            entry = line.strip()
            if not entry:
                continue
            m = re.match(r'^.*<([^<>]+)>$', entry)
            target = doc_target(m.group(1) if m else entry)
            if os.path.isfile(target):
                in_toctree.add(target)
            else:
                problems.append(self.state_machine.reporter.error(
                    'toctree: no page %s' % os.path.relpath(target, REPO),
                    line=self.lineno))
        return problems


roles.register_local_role('doc', doc_role)
directives.register_directive('toctree', TocTree)


def parse(path):
    """The docutils messages of level >= 2 for one file."""
    current['path'] = path
    warnings = io.StringIO()
    with open(path, encoding='utf-8') as f:
        text = f.read()
    docutils.core.publish_doctree(
        text, source_path=os.path.relpath(path, REPO),
        settings_overrides={'report_level': 2, 'halt_level': 5,
                            'warning_stream': warnings,
                            'file_insertion_enabled': False,
                            'raw_enabled': False})
    # one message: "FILE:LINE: (LEVEL/N) text", then the lines it quotes
    messages = []
    for line in warnings.getvalue().splitlines():
        if re.match(r'^\S.*:\d*: \([A-Z]+/\d\) ', line) or not messages:
            messages.append(line)
        elif line:
            messages[-1] += '\n    ' + line
    # docutils reports some problems twice (title underlines)
    return list(dict.fromkeys(messages))


def suites():
    """(suite name, file) of every KUnit suite in the tree."""
    found = []
    files = sorted(set(glob.glob(os.path.join(REPO, '*', 'tests', '*_kunit.c')) +
                       glob.glob(os.path.join(REPO, '**', 'tests', '*_kunit.c'),
                                 recursive=True)))
    for path in files:
        with open(path, encoding='utf-8') as f:
            src = f.read()
        names = re.findall(r'struct\s+kunit_suite\s+\w+\s*=\s*\{[^}]*?'
                           r'\.name\s*=\s*"([^"]+)"', src, re.S)
        if not names:
            found.append((None, path))
        for n in names:
            found.append((n, path))
    return found


def scenarios():
    base = os.path.join(REPO, 'tools', 'testing', 'rdma', 'scenarios')
    files = sorted(glob.glob(os.path.join(base, '*.sh')) +
                   glob.glob(os.path.join(base, 'wire', '*.sh')))
    return [(os.path.basename(p)[:-3], p) for p in files]


def interfaces():
    """(kind, name, file) of every module parameter, trace event and
    debugfs directory the .c files of the tree define or use."""
    found = set()
    for path in glob.glob(os.path.join(REPO, '**', '*.c'), recursive=True):
        if path.endswith('.mod.c'):
            continue
        with open(path, encoding='utf-8', errors='replace') as f:
            src = f.read()
        rel = os.path.relpath(path, REPO)
        for m in re.finditer(r'\bmodule_param(?:_named|_cb|_array|_string)?'
                             r'\(\s*(\w+)', src):
            found.add(('module parameter', m.group(1), rel))
        for m in re.finditer(r'\btrace_(\w+)\(', src):
            name = m.group(1)
            if name != 'printk' and not name.endswith('_enabled'):
                found.add(('trace event', name, rel))
        for m in re.finditer(r'\bdebugfs_create_dir\(\s*"([^"%]+)"', src):
            found.add(('debugfs directory', m.group(1), rel))
    return sorted(found)


def main():
    problems = []

    pages = sorted(glob.glob(os.path.join(DOCS, '**', '*.rst'), recursive=True))
    readme = os.path.join(REPO, 'README.md')
    if os.path.isfile(readme):
        with open(readme, encoding='utf-8') as f:
            for ref in sorted(set(re.findall(r'[\w./-]+\.rst', f.read()))):
                path = os.path.normpath(os.path.join(REPO, ref))
                if not os.path.isfile(path):
                    # "core/mad.rst" may stand for Documentation/core/mad.rst
                    path = os.path.normpath(os.path.join(DOCS, ref))
                if not os.path.isfile(path):
                    problems.append('README.md names %s, which does not exist' % ref)
                elif path not in pages:
                    pages.append(path)
    index = os.path.join(DOCS, 'index.rst')
    # the index first: its toctree says which pages are reachable
    pages.sort(key=lambda p: p != index)
    for path in pages:
        problems += parse(path)
    for path in pages:
        if path != index and path.startswith(DOCS + os.sep) and \
                path not in in_toctree:
            problems.append('%s: in no toctree of Documentation/index.rst' %
                            os.path.relpath(path, REPO))

    testing = os.path.join(DOCS, 'testing.rst')
    with open(testing, encoding='utf-8') as f:
        text = f.read()
    missing = []
    all_suites = suites()
    for name, path in all_suites:
        if name is None:
            problems.append('%s: no struct kunit_suite with a .name' %
                            os.path.relpath(path, REPO))
        elif not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(name), text):
            missing.append('KUnit suite %s (%s)' % (name, os.path.relpath(path, REPO)))
    all_scenarios = scenarios()
    for name, path in all_scenarios:
        if not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(name), text):
            missing.append('scenario %s (%s)' % (name, os.path.relpath(path, REPO)))
    for m in missing:
        problems.append('Documentation/testing.rst does not name the %s' % m)

    with open(os.path.join(DOCS, 'overview.rst'), encoding='utf-8') as f:
        overview = f.read()
    seen = set()
    all_interfaces = interfaces()
    for kind, name, rel in all_interfaces:
        if (kind, name) in seen:
            continue
        seen.add((kind, name))
        if '``%s``' % name not in overview and \
                not re.search(r'[`/{,]\s*%s[`/},]' % re.escape(name), overview):
            problems.append('Documentation/overview.rst does not name the %s '
                            '%s (%s)' % (kind, name, rel))

    for p in problems:
        print(p)
    print('doc-check: %d pages parsed, %d KUnit suites and %d scenarios '
          'looked for in testing.rst, %d interfaces in overview.rst: '
          '%d problem(s)' %
          (len(pages), len(all_suites), len(all_scenarios), len(seen),
           len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
