#!/usr/bin/env python3
"""Pseudo-translations of Agent's template (po/*.pot) for tests that look for strings which
escaped gettext: every letter of every message becomes a look-alike that is not ASCII
(accented Latin for `en_XA`, Arabic letters for a right-to-left run), so any plain ASCII word
left on screen was never translated. Placeholders (%s, %2$s, %d, %%), escapes and markup
tags are kept as they are.

    python3 Tests/EndToEnd/pseudo_locale.py LANG STYLE OUTDIR   (STYLE: accents or arabic)
writes OUTDIR/LANG/LC_MESSAGES/io.github.agentdesktop.Agent.mo.
"""
import os
import re
import subprocess
import sys
import tempfile

DOMAIN = "io.github.agentdesktop.Agent"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ACCENTS = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   "áƀçďéƒğĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇĎÉƑĞĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ"))
ARABIC = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                  "ابتثجحخدذرزسشصضطظعغفقكلمنهابتثجحخدذرزسشصضطظعغفقكلمنه"))
# What must survive: escapes, C-format directives, markup tags and entities.
KEEP = re.compile(r'\\.|%(?:\d+\$)?[sd%]|<[^>]*>|&[a-z]+;')


def pseudo(text, letters):
    out, last = [], 0
    for match in KEEP.finditer(text):
        out.append("".join(letters.get(c, c) for c in text[last:match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append("".join(letters.get(c, c) for c in text[last:]))
    return "".join(out)


def catalog(language, style, directory):
    """Compiles the pseudo-translation of po/DOMAIN.pot for `language` into `directory`; returns the .mo path."""
    letters = ACCENTS if style == "accents" else ARABIC
    english = subprocess.run(["msgen", "--no-wrap", os.path.join(ROOT, "po", DOMAIN + ".pot")],
                             capture_output=True, text=True, check=True).stdout
    lines = []
    for line in english.splitlines():
        match = re.match(r'^(msgstr(?:\[\d+\])? )"(.*)"$', line)
        if match and match.group(2):
            line = f'{match.group(1)}"{pseudo(match.group(2), letters)}"'
        elif line.startswith('"Plural-Forms:'):
            line = '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"'
        lines.append(line)
    mo = os.path.join(directory, language, "LC_MESSAGES", DOMAIN + ".mo")
    os.makedirs(os.path.dirname(mo), exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".po", delete=False) as po:
        po.write("\n".join(lines) + "\n")
    subprocess.run(["msgfmt", "--check-format", "-o", mo, po.name], check=True)
    os.unlink(po.name)
    return mo


if __name__ == "__main__":
    print(catalog(sys.argv[1], sys.argv[2], sys.argv[3]))
