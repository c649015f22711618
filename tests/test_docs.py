"""The documentation: shipped text carries no development history.

Rule sources cite the provider's documentation or the specification, never a tracker a user of the
kit does not have; the README, the documentation pages and everything shipped in the package
(code, spec, cases, cassettes, triage files) are grepped for an issue number.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What a user reads: the package's folders (conformance/ is `strictconformance`), the docs, the README.
SHIPPED = ("conformance", "strategies", "cassettes", "docs")
ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)
TEXT_SUFFIXES = {".py", ".md", ".json", ".yaml", ".yml", ".mjs", ".txt", ".toml", ".html", ".js", ".css"}


def issue_mentions(paths: list[Path]) -> list[str]:
    """Every ``path:line: text`` holding "issue" followed by a number."""
    hits = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if ISSUE_NUMBER.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:160]}")
    return hits


def _shipped_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in SHIPPED:
        files += [path for path in sorted((ROOT / folder).rglob("*"))
                  if path.is_file() and path.suffix in TEXT_SUFFIXES
                  and "node_modules" not in path.parts and "__pycache__" not in path.parts]
    return files


def test_no_shipped_text_names_an_issue_number() -> None:
    hits = issue_mentions(_shipped_files())
    assert hits == [], "shipped text names an issue of the kit's tracker (development history):\n" + "\n".join(hits)


def test_the_grep_finds_an_issue_number(tmp_path: Path) -> None:
    planted = ROOT / "docs" / "_planted_by_test_docs.md"  # inside ROOT: paths are shown relative to it
    try:
        planted.write_text("fine\nthe aliasing part (Issue 10, item 6)\nand issue #12 too\nno issues here\n")
        assert [hit.split(": ", 1)[0] for hit in issue_mentions([planted])] == [
            "docs/_planted_by_test_docs.md:2", "docs/_planted_by_test_docs.md:3"]
    finally:
        planted.unlink()
    assert len(_shipped_files()) > 100  # the walk found the package
