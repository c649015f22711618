"""MkDocs hooks: the rule pages, generated from the specification's data at build time.

``mkdocs.yml`` names this file under ``hooks:``. On every build it adds ``rules/index.md`` and one
page per rule, ``rules/<ID>.md`` (served at ``<site>/rules/<ID>/``, the URL
:func:`strictconformance.spec.rule_url` gives and the reports link to). A page says what the rule
checks and why, its source, the adapter capabilities it needs, a violating example and what a
conforming implementation does, and which SDKs of the matrix fail it (from the triage files).

Where each part comes from: the rule itself (``strictconformance.spec``), its bullet in the shipped
SPEC.md, the strict rule catalogue and the dialects applying it (SM rules), the case library's
known-bad schema and the reference strictify's answer to it (SM rules), ``docs/rule_examples.yaml``
(the other rules' reasons and examples, checked by tests/test_docs.py to cover every rule), and the triage
files in ``conformance/sdks/triage/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "rule_examples.yaml"
AREA_NAMES = {
    "RES": "Strict resolution", "BUD": "Per-request budgets", "SM": "Strict schemas (the rule catalogue)",
    "RT": "Strictify and the round trip", "DR": "Response drift", "TL": "Tool definition and invocation",
}


def _spec_bullet(rule_id: str) -> str | None:
    """The rule's bullet in the shipped SPEC.md, joined into one paragraph."""
    from strictconformance.spec import spec_text

    found = re.search(rf"^- {re.escape(rule_id)}\b(.*?)(?=^- |^#|^\S|\Z)", spec_text(), re.M | re.S)
    return " ".join(found.group(1).split()) if found else None


def _linked(text: str) -> str:
    """Bare URLs in ``text`` as Markdown links."""
    return re.sub(r"(?<![(<])(https?://[^\s;,)]+[^\s;,).])", r"<\1>", text)


def _json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False) + "\n```"


def _sm_parts(rule_id: str) -> tuple[str, str, str]:
    """(why, dialects, example) of an SM rule from the catalogue, the dialects and the case library."""
    from strictconformance.cases import library
    from strictconformance.dialects import CATALOGUE, SHIPPED
    from strictconformance.dialects.model import SchemaError
    from strictconformance.reference.strictify import strictify

    definition = CATALOGUE[rule_id]
    rows = ["| Dialect | Source | Note |", "|---|---|---|"]
    for name, dialect in SHIPPED.items():
        for rule in dialect.rules:
            if rule.id == rule_id:
                rows.append(f"| `{name}` | {_linked(rule.source)} | {rule.note or ''} |")
    dialects = "\n".join(rows) if len(rows) > 2 else "No shipped dialect applies it (a custom dialect may)."
    cases = [case for case in library() if case.kind == "known-bad" and case.breaks and case.breaks.get("rule") == rule_id]
    if not cases:
        return definition.reason, dialects, ""
    case = cases[0]
    dialect, pointer = case.breaks["dialect"], case.breaks.get("pointer", "")
    example = (f"This schema breaks {rule_id} in the `{dialect}` dialect at the JSON pointer "
               f"`{pointer or '(the root)'}` (the case library's `{case.id}`):\n\n{_json_block(case.schema)}")
    try:
        result = strictify(case.schema, dialect)
    except SchemaError as error:
        return definition.reason, dialects, example + (
            "\n\nA conforming strictify refuses it with an error naming the place (no strict schema can keep "
            f"its meaning); the kit's reference implementation raises `SchemaError`: {error}")
    example += (f"\n\nA conforming strictify rewrites it; the kit's reference implementation answers, in `{dialect}`:\n\n"
                f"{_json_block(result.schema)}")
    if result.losses:
        example += "\n\nand reports what it had to loosen (pointers into the original schema):\n\n" + "\n".join(
            f"- `{loss.kind}` at `{loss.pointer or '(the root)'}`" + (f": {loss.detail}" if getattr(loss, "detail", "") else "")
            for loss in result.losses)
    return definition.reason, dialects, example


def _failing_sdks(rule_id: str, entries: list[Any]) -> str:
    """The SDK paths whose triaged findings break the rule, with each finding's summary."""
    mine = [entry for entry in entries if entry.rule == rule_id and entry.verdict in ("confirmed", "disputed")]
    if not mine:
        return ("No SDK of the matrix has a triaged finding of this rule. The [matrix](../matrix.md) lists every "
                "SDK path it runs.")
    lines = [f"Triaged findings of the [SDK matrix](../matrix.md) ({len(mine)}), each checked by hand with a "
             "standalone reproducer:", ""]
    by_path: dict[str, list[Any]] = {}
    for entry in mine:
        by_path.setdefault(entry.sdk_path, []).append(entry)
    for path in sorted(by_path):
        group = by_path[path]
        versions = ", ".join(sorted({entry.version for entry in group}))
        lines.append(f"- **`{path}`** ({versions}; [its findings with their evidence](../findings.md)):")
        for entry in group:
            verdict = "" if entry.verdict == "confirmed" else f" *({entry.verdict})*"
            summary = " ".join(entry.summary.split()).replace("<", "&lt;")
            lines.append(f"    - {summary}{verdict}")
    return "\n".join(lines)


def rule_page(rule_id: str, examples: dict[str, Any], entries: list[Any]) -> str:
    from strictconformance.spec import all_rules, rule_url

    rule = all_rules()[rule_id]
    capabilities = ", ".join(f"`{name}`" for name in rule.capabilities)
    parts = [f"# {rule.id}: {rule.title}", "",
             f"*{rule.section}* · adapter capability: {capabilities} · "
             f"[stable link]({rule_url(rule.id)}) · run it alone: `pytest -p strictconformance --sc-rule {rule.id}`", "",
             "## What it checks", "", _linked(rule.statement), ""]
    dialects = example = ""
    if rule.area == "SM":
        why, dialects, example = _sm_parts(rule.id)
    else:
        why = examples[rule.id]["why"] if rule.id in examples else (_spec_bullet(rule.id) or rule.statement)
    parts += ["## Why", "", _linked(why), ""]
    parts += ["## Source", "", _linked(rule.source), ""]
    if dialects:
        parts += ["## Dialects that apply it", "", dialects, ""]
    given = examples.get(rule.id)
    if given:
        example = (example + "\n\n" if example else "") + (
            f"**Violates it:** {given['violates'].strip()}\n\n**Conforms:** {given['conforms'].strip()}")
    parts += ["## Example", "", example or "See the statement above.", ""]
    parts += ["## Capability", "",
              f"The checks of {rule.id} call the adapter's {capabilities} (a harness answers the same methods). "
              "An adapter that implements none of them gets the rule reported as *not covered*, never as passed; "
              "see [the adapter contract](../adapters.md) and [process harnesses](../harnesses.md).", ""]
    parts += ["## SDKs that fail it", "", _failing_sdks(rule.id, entries), ""]
    return "\n".join(parts)


def rules_index() -> str:
    from strictconformance.spec import all_rules

    lines = ["# Rules", "",
             "Every rule of the specification, by area. Each page says what the rule checks and why, its source, "
             "an example, the adapter capability it needs and which SDKs of the matrix fail it. The pages are "
             "generated from the kit's specification data when the site is built.", ""]
    area = None
    for rule in all_rules().values():
        if rule.area != area:
            area = rule.area
            lines += ["", f"## {AREA_NAMES.get(area, area)} ({area})", "", "| Rule | Title | Capability |", "|---|---|---|"]
        lines.append(f"| [{rule.id}]({rule.id}.md) | {rule.title.replace('|', '/')} | "
                     f"{', '.join(f'`{c}`' for c in rule.capabilities)} |")
    return "\n".join(lines) + "\n"


def load_examples() -> dict[str, Any]:
    data = yaml.safe_load(EXAMPLES.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{EXAMPLES}: expected a mapping of rule IDs to {{violates, conforms}}")
    for rule_id, example in data.items():
        if not isinstance(example, dict) or set(example) != {"why", "violates", "conforms"}:
            raise ValueError(f"{EXAMPLES}: {rule_id} needs exactly the keys why, violates and conforms")
    return data


def generated_pages() -> dict[str, str]:
    """Every generated page, by its path under docs/."""
    from strictconformance.sdks.triage import load_triage
    from strictconformance.spec import all_rules

    examples, entries = load_examples(), load_triage()
    unknown = sorted(set(examples) - set(all_rules()))
    if unknown:
        raise ValueError(f"{EXAMPLES}: unknown rule IDs {unknown}")
    pages = {"rules/index.md": rules_index(), FINDINGS_PAGE: findings_page(entries)}
    for rule_id in all_rules():
        pages[f"rules/{rule_id}.md"] = rule_page(rule_id, examples, entries)
    return pages


FINDINGS_PAGE = "findings.md"
MATRIX_PAGE = "matrix.md"


def _summary() -> dict[str, Any] | None:
    from strictconformance.sdks.triage import MATRIX_SUMMARY, load_matrix_file

    return load_matrix_file(ROOT / MATRIX_SUMMARY)


def findings_page(entries: list[Any]) -> str:
    from strictconformance.sdks.triage import findings_document

    return findings_document(entries, _summary())


def matrix_page(markdown: str) -> str:
    """The SDK matrix page with its findings block filled in from the triage files and the summary."""
    from strictconformance.sdks.triage import load_triage, readme_block, replace_readme_block

    return replace_readme_block(markdown, readme_block(load_triage(), _summary()))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if page.file.src_uri == MATRIX_PAGE:
        return matrix_page(markdown)
    return markdown


def on_files(files: Files, config: Any) -> Files:
    for path, content in generated_pages().items():
        files.append(File.generated(config, path, content=content))
    return files
