"""sitegen.outputs.xmltext gives what xml.sax.saxutils gives (the module it stands in for)."""

from __future__ import annotations

import random
from xml.sax import saxutils

from sitegen.outputs import xmltext


def test_escape_and_quoteattr_are_saxutils() -> None:
    rnd = random.Random(5)
    pieces = ["a", " ", "&", "<", ">", '"', "'", "\n", "\r", "\t", "&amp;", "é", "中", "]]>", "\x85"]
    texts = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12))) for _ in range(5000)]
    for text in [*texts, "", "plain", 'say "hi"', "it's", "both \" and '"]:
        assert xmltext.escape(text) == saxutils.escape(text), text
        assert xmltext.quoteattr(text) == saxutils.quoteattr(text), text
