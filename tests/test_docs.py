"""The documentation: shipped text carries no development history.

Rule sources cite the provider's documentation or the specification, never a tracker a user of the
kit does not have; the README, the documentation pages and everything shipped in the package
(code, spec, cases, cassettes, triage files) are grepped for an issue number.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from strictconformance.spec import DOCS_URL, all_rules, rule_url

ROOT = Path(__file__).resolve().parent.parent
#: What a user reads: the package's folders (conformance/ is `strictconformance`), the docs, the README.
SHIPPED = ("conformance", "strategies", "cassettes", "docs")
ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)
TEXT_SUFFIXES = {".py", ".md", ".json", ".yaml", ".yml", ".mjs", ".txt", ".toml", ".html", ".js", ".css"}


def issue_mentions(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Every ``path:line: text`` (path relative to ``root``) holding "issue" followed by a number."""
    hits = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if ISSUE_NUMBER.search(line):
                hits.append(f"{path.relative_to(root)}:{number}: {line.strip()[:160]}")
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
    planted = tmp_path / "docs" / "page.md"  # not in docs/: a site build running beside would pick it up
    planted.parent.mkdir()
    planted.write_text("fine\nthe aliasing part (Issue 10, item 6)\nand issue #12 too\nno issues here\n")
    assert [hit.split(": ", 1)[0] for hit in issue_mentions([planted], tmp_path)] == ["docs/page.md:2", "docs/page.md:3"]
    assert len(_shipped_files()) > 100  # the walk found the package


def test_the_readme_is_short_and_links_into_the_site() -> None:
    """What the kit is, the two set-up commands, one screen of output, links: the manual is the site."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 300
    assert "pip install . && cd \"$(mktemp -d)\" && pytest -p strictconformance" in readme  # the suite, from an empty directory
    assert 'pip install -e ".[test]" && python -m pytest -n auto tests' in readme  # the kit's tests (.ci/run)
    linked = set(re.findall(re.escape(DOCS_URL) + r"([\w-]+)/", readme))
    pages = {path.stem for path in (ROOT / "docs").glob("*.md")} | {"rules"}
    assert linked <= pages, f"README links to pages the site does not have: {sorted(linked - pages)}"
    assert {"getting-started", "tutorial", "adapters", "harnesses", "rules", "matrix"} <= linked


# -- The documentation site: built with warnings as errors, rule pages generated -------------------

BUILD_TIMEOUT_S = 600


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `mkdocs build --strict` builds it (any warning fails the build)."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, check=False,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    return out


def test_the_site_builds_strict_with_a_page_per_rule(site: Path) -> None:
    for rule_id, rule in all_rules().items():
        page = (site / "rules" / rule_id / "index.html").read_text(encoding="utf-8")
        assert rule.title.split("`")[0].replace("&", "&amp;")[:20] in page, rule_id
        for heading in ("What it checks", "Why", "Source", "Example", "SDKs that fail it"):
            assert f">{heading}<" in page, (rule_id, heading)
    index = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{rule_id}/"' in index for rule_id in all_rules())
    # the generated findings page and the matrix page's block, from the triage files and the summary
    matrix = (site / "matrix" / "index.html").read_text(encoding="utf-8")
    assert "openai-python/client" in matrix and 'href="../findings/"' in matrix
    assert "— evidence:" in (site / "findings" / "index.html").read_text(encoding="utf-8")
    # the tutorial, the harness guide and the search index are there
    for page in ("tutorial", "harnesses", "getting-started", "about"):
        assert (site / page / "index.html").is_file(), page
    search = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert any(doc["location"].startswith("rules/SM-27/") for doc in search["docs"])


def test_an_sm_rule_page_shows_a_violating_schema_and_the_reference_answer(site: Path) -> None:
    page = (site / "rules" / "SM-27" / "index.html").read_text(encoding="utf-8")
    assert "known-bad-sm-27" in page and "oneOf" in page and "anyOf" in page  # the reference rewrites oneOf
    assert "openai-python/client" in page  # an SDK of the matrix that fails it, from the triage files


def test_site_url_is_the_kits_docs_url() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!!python", "#"))
    assert config["site_url"] == DOCS_URL
    assert rule_url("SM-27") == f"{DOCS_URL}rules/SM-27/"
    with pytest.raises(ValueError, match="not a rule ID"):
        rule_url("SM27")


def test_every_rule_has_its_why_and_example() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import docs_hooks
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    examples = docs_hooks.load_examples()
    from strictconformance.cases import library

    known_bad = {case.breaks["rule"] for case in library() if case.kind == "known-bad" and case.breaks}
    for rule_id in all_rules():
        assert rule_id in examples or (rule_id.startswith("SM-") and rule_id in known_bad), (
            f"{rule_id} has no example: add it to docs/rule_examples.yaml (why, violates, conforms)")


def test_reports_link_to_the_rule_pages(tmp_path: Path) -> None:
    """SARIF's helpUri, JUnit's sc_rule_url and the terminal point at the rule's page."""
    from strictconformance.dialects import SHIPPED
    from strictconformance.lint import lint_paths, render_lint_sarif
    from strictconformance.render import render_junit

    schema = tmp_path / "tool.json"
    schema.write_text('{"type": "object", "properties": {"pet": {"oneOf": [{"type": "string"}]}}}')
    log = json.loads(render_lint_sarif(lint_paths([schema], [SHIPPED["openai"]])))
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["SM-27"]["helpUri"] == rule_url("SM-27")
    report = json.loads((ROOT / "tests" / "data" / "report-v1-sm03.json").read_text(encoding="utf-8"))
    junit = render_junit(report)
    assert f'<property name="sc_rule_url" value="{rule_url("SM-03")}" />' in junit

    from strictconformance.report import ConformanceReport

    header = list(ConformanceReport(adapter={"adapter": "acme:Adapter"}, profile="ci").render_lines())[:4]
    assert header[2] == f"rules    {DOCS_URL}rules/<ID>/  (what each rule checks, and why)", header



# -- The site in headless Chromium: pages render, navigation and search work -----------------------


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1 (the search loads its index with fetch, which a file:
    page may not)."""
    import functools
    import threading

    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _keep(shot: Path) -> None:
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000, shot
    keep = os.environ.get("SC_DOCS_SCREENSHOTS")
    if keep:  # a folder to keep them in, for a person to look at
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)


def test_home_page_navigation_and_search_in_chromium(served: str, tmp_path: Path) -> None:
    from cdp import Browser

    with Browser(tmp_path / "profile") as browser:
        browser.open(served)
        assert browser.evaluate("document.querySelector('h1').textContent.replace('¶', '').trim()") == "strictconformance"
        nav = browser.evaluate("[...document.querySelectorAll('nav.md-nav--primary a.md-nav__link')].map(a => a.textContent.trim())")
        for entry in ("Getting started", "Tutorial", "Process harnesses (any language)", "Rules", "The SDK matrix"):
            assert any(entry in text for text in nav), (entry, nav)
        _keep(browser.screenshot(tmp_path / "docs-home.png"))
        # navigation: the sidebar's link to the harness guide opens it
        browser.evaluate("[...document.querySelectorAll('nav.md-nav--primary a.md-nav__link')]"
                         ".find(a => a.textContent.includes('Process harnesses')).click()")
        browser.wait_for("location.pathname.endsWith('/harnesses/') && document.readyState === 'complete'",
                         "the harness guide did not open from the sidebar")
        assert "Process harnesses" in browser.evaluate("document.querySelector('h1').textContent.replace('¶', '').trim()")
        assert browser.evaluate("!!document.querySelector('#a-complete-minimal-harness')")
        # search: type a rule ID into the search field, a result leads to its page
        browser.open(served)
        browser.evaluate("document.querySelector('label.md-search__icon, .md-search__input').click();"
                         "document.querySelector('.md-search__input').focus()")
        browser.type("SM-27")
        first = browser.wait_for(
            "(() => { const a = document.querySelector('.md-search-result__item a'); return a && a.href; })()",
            "typing SM-27 into the search field gave no result")
        assert "/rules/SM-27/" in first, first
        meta = browser.evaluate("document.querySelector('.md-search-result__meta').textContent")
        assert "matching" in meta, meta
        _keep(browser.screenshot(tmp_path / "docs-search.png"))
        browser.evaluate("document.querySelector('.md-search-result__item a').click()")
        browser.wait_for("location.pathname.endsWith('/rules/SM-27/') && document.readyState === 'complete'",
                         "the search result did not open the rule's page")


def test_a_rule_page_and_the_matrix_page_in_chromium(served: str, tmp_path: Path) -> None:
    from cdp import Browser

    with Browser(tmp_path / "profile") as browser:
        browser.open(f"{served}rules/SM-27/")
        assert browser.evaluate("document.querySelector('h1').textContent.replace('¶', '').trim()").startswith("SM-27: No oneOf")
        headings = browser.evaluate("[...document.querySelectorAll('article h2')].map(h => h.textContent.replace('¶', '').trim())")
        for heading in ("What it checks", "Why", "Source", "Dialects that apply it", "Example", "Capability", "SDKs that fail it"):
            assert heading in headings, (heading, headings)
        text = browser.evaluate("document.querySelector('article').innerText")
        assert "known-bad-sm-27" in text and "anyOf" in text and "openai-python/client" in text
        _keep(browser.screenshot(tmp_path / "docs-rule-SM-27.png"))
        # the matrix page: its table of SDK columns and the link to every finding's evidence
        browser.open(f"{served}matrix/")
        rows = browser.evaluate("[...document.querySelectorAll('article table tr')].map(r => r.innerText)")
        assert any(row.startswith("openai-python/client\t") for row in rows), rows[:5]
        assert any(row.startswith("vercel-ai/node\t") for row in rows), rows[:5]
        _keep(browser.screenshot(tmp_path / "docs-matrix.png"))
        browser.evaluate("[...document.querySelectorAll('article a')].find(a => a.textContent === 'findings page').click()")
        browser.wait_for("location.pathname.endsWith('/findings/') && document.readyState === 'complete'",
                         "the findings page did not open from the matrix page")
        assert "evidence" in browser.evaluate("document.querySelector('article').innerText")
