"""Outside review of issue 32: the doc-command test can only run the commands it finds, so every shell
command a doc shows as a block is in a fenced ```sh block, never in an indented block it would pass over."""

from __future__ import annotations

import re

from .test_doc_commands import DOCS, ROOT

FENCED = re.compile(r"^\s*```.*?^\s*```", re.S | re.M)
INDENTED_COMMAND = re.compile(r"^(?: {4}|\t)\s*(?:\$ )?(?:dealerbox|tools/|bench/|\.venv/|pip|python3?|sudo)\b")


def test_no_doc_shows_a_command_in_an_indented_block_the_doc_test_cannot_see():
    hidden = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        outside = FENCED.sub(lambda m: "\n" * m.group(0).count("\n"), text)   # keep the line numbers
        hidden += [f"{doc.relative_to(ROOT)} line {n}: {line.strip()}" for n, line in enumerate(outside.splitlines(), 1)
                   if INDENTED_COMMAND.match(line)]
    assert not hidden, "put these in a ```sh block (marked `# not run here: REASON` if need be):\n" + "\n".join(hidden)
