"""Every relative link in README.md, CHANGELOG.md and docs/*.md points to a file that exists.

The README is a front door that sends readers into docs/; a link that breaks when a page moves or
is renamed sends them nowhere. Links to the web (http, https, mailto) and anchors within a page
are not checked; a link's own anchor (``page.md#section``) is dropped before the file is looked up.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# [text](target) and ![alt](target); the target ends at whitespace or the closing parenthesis
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def documents() -> list[Path]:
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [page for page in pages if page.exists()]


def relative_links(page: Path) -> list[str]:
    """The links of ``page`` that point into the repository (code blocks left out)."""
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    targets = [target.split("#", 1)[0] for target in _LINK.findall(text)]
    return [t for t in targets if t and not re.match(r"^[a-z][a-z0-9+.-]*:", t)]


def broken_links() -> list[str]:
    """'page: target' for every relative link whose file does not exist."""
    broken = []
    for page in documents():
        for target in relative_links(page):
            path = (page.parent / target).resolve()
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    return broken


def test_the_pages_are_found_and_have_links() -> None:
    pages = {page.relative_to(ROOT).as_posix() for page in documents()}
    assert {"README.md", "docs/architecture.md"} <= pages
    assert "docs/architecture.md" in relative_links(ROOT / "README.md")


def test_every_relative_link_resolves() -> None:
    broken = broken_links()
    assert broken == [], "links to files that do not exist (write the page or fix the link):\n" + \
        "\n".join(broken)
