"""Every link between the README, the docs pages and bench/README.md resolves: to a file
(or folder) of the repository and, with an ``#anchor``, to a heading of that page, as
GitHub names its anchors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.M)


def prose(page: Path) -> str:
    """The page without its fenced code blocks (a ``# comment`` there is no heading)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def links_of(page: Path) -> list[str]:
    """The targets of the page's links, code spans left out (`[system](#...)` is text)."""
    return LINK.findall(CODE.sub("", prose(page)))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(prose(page)):
        slug = anchor(heading)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links() -> list[tuple[str, str]]:
    return [(str(page.relative_to(ROOT)), target) for page in PAGES
            for target in links_of(page)
            if not re.match(r"[a-z]+:", target)]


def test_the_pages_have_links_to_check():
    assert len(links()) > 100


@pytest.mark.parametrize(("page", "target"), links())
def test_a_link_resolves_to_a_file_and_a_heading(page, target):
    path, _, fragment = target.partition("#")
    file = (ROOT / page).parent / path if path else ROOT / page
    assert file.exists(), f"{page}: {target}: no file {path}"
    if fragment:
        assert file.suffix == ".md", f"{page}: {target}: an anchor into a file that is not a page"
        assert fragment in anchors(file), f"{page}: {target}: no heading #{fragment} in {path or page}"


def test_the_anchor_rule_is_githubs():
    assert anchor("Holding streamed text for a judge: `SegmentHold`") == (
        "holding-streamed-text-for-a-judge-segmenthold")
    assert anchor("Workers: more than one core") == "workers-more-than-one-core"
    assert anchor("`tripwire serve`: a guardrail gateway") == "tripwire-serve-a-guardrail-gateway"
