"""The matrix as Markdown and as one static HTML page.

The page needs no server, no network and no external asset: the table and every cell's findings
are rendered here, in the HTML itself; a small inline script opens a cell's findings (a click, or
the URL fragment ``#open=<cell id>``) and filters rows by area and columns by SDK (also from the
fragment: ``#area=SM&sdk=reference``). Without JavaScript the page still shows everything: the
findings panels are plain sections reached by their anchors.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any

from strictconformance.matrix.combine import changes_lines, column_counts

__all__ = ["cell_id", "cell_text", "render_html", "render_markdown"]

_SYMBOL = {"passed": "✅", "failed": "❌", "error": "💥", "xfailed": "⚠️", "skipped": "⏭", "not covered": "➖",
           "not run": "·", "unavailable": "🚫", "refused": "⛔"}


def cell_id(column_key: str, rule_id: str) -> str:
    """The HTML id of a cell's findings panel (also the ``#open=`` fragment value)."""
    return "cell-" + re.sub(r"[^A-Za-z0-9_-]", "_", column_key) + "--" + rule_id


def cell_text(cell: Mapping[str, Any]) -> str:
    """A cell as text: its outcome, then its distinct findings and how many are unconfirmed."""
    outcome = str(cell["outcome"])
    findings = cell["findings"]
    if not findings:
        return outcome
    unconfirmed = sum(1 for finding in findings if not finding.get("confirmed"))
    text = f"{outcome}: {len(findings)} finding{'s' if len(findings) != 1 else ''}"
    if unconfirmed:
        text += f" ({unconfirmed} unconfirmed)"
    return text


def _md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _versions(column: Mapping[str, Any]) -> str:
    return ", ".join(f"{name} {version or 'not installed'}" for name, version in column.get("versions", {}).items())


def render_markdown(document: Mapping[str, Any]) -> str:
    """Rules as rows, SDK paths as columns; then the columns' status, the findings, the changes."""
    columns = document["columns"]
    lines = ["# strictconformance SDK matrix", "",
             f"kit {document['kit_version']}, `{document['profile']}` profile, {len(document['rules'])} rules "
             f"x {len(columns)} SDK paths" + (f", rules selected: {', '.join(document['selection'])}"
                                                  if document["selection"] else ""), ""]
    lines.append("| SDK path | versions | status | time |")
    lines.append("|---|---|---|---|")
    for column in columns:
        status = column["status"] if column["status"] == "ran" else f"**{column['status']}**: {_md(column['reason'])}"
        lines.append(f"| `{column['key']}` | {_md(_versions(column)) or '-'} | {status} | {column['duration_s']:.0f} s |")
    lines.append("")
    lines.append("| rule | title | " + " | ".join(f"`{column['key']}`" for column in columns) + " |")
    lines.append("|---|---|" + "---|" * len(columns))
    for rule_id, rule in document["rules"].items():
        row = [rule_id, _md(rule["title"])]
        for column in columns:
            cell = document["cells"][column["key"]][rule_id]
            row.append(f"{_SYMBOL.get(cell['outcome'], '')} {_md(cell_text(cell))}".strip())
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    findings = [(column["key"], rule_id, finding) for column in columns
                for rule_id, cell in document["cells"][column["key"]].items() for finding in cell["findings"]]
    if findings:
        lines.append("## Findings")
        lines.append("")
        for column_key, rule_id, finding in findings:
            triage = finding.get("triage")
            if finding.get("confirmed"):
                mark = "confirmed"
            elif triage and triage.get("matched_by") != "rule":
                mark = f"{triage['verdict']}"
            elif triage:
                mark = f"**unconfirmed**; its rule has a {triage['verdict']} entry"
            else:
                mark = "**unconfirmed**"
            lines.append(f"* `{column_key}` **{rule_id}** {_md(finding['key'])} ({mark}; reported by "
                         f"{finding['count']} check{'s' if finding['count'] != 1 else ''})")
        lines.append("")
    if document.get("unmatched_triage"):
        lines.append("## Triage entries matching no finding")
        lines.append("")
        lines.append("Their key is not a finding's key in this matrix, or the bug is gone (then the entry can go):")
        lines.append("")
        lines.extend(f"* `{e['sdk_path']}` **{e['rule']}** {_md(e['key'])} ({e['verdict']}, {_md(e['version'])})"
                     for e in document["unmatched_triage"])
        lines.append("")
    if "changes" in document:
        lines.append("## Changes")
        lines.append("")
        lines.extend(line.strip() if index == 0 else "* " + line.strip()
                     for index, line in enumerate(changes_lines(document["changes"])))
        lines.append("")
    return "\n".join(lines)


# -- HTML ------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:0 0 .3em}
table{border-collapse:collapse;margin:.8em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}
td.cell a{text-decoration:none;color:inherit;display:block}
td.o-passed{background:#e6f4e6}td.o-failed{background:#fbe3e3}td.o-error{background:#f7d0a8}
td.o-unavailable{background:#eee;color:#777}td.o-not-covered,td.o-not-run{color:#888}
td.o-xfailed,td.o-skipped{background:#fff6d6}
td.selected{outline:3px solid #3367d6}
.filters{display:flex;gap:2em;flex-wrap:wrap;margin:.5em 0}
.filters fieldset{border:1px solid #ccc}
.panel{border:2px solid #3367d6;padding:.5em 1em;margin:1em 0;background:#fafcff}
.cell-findings{display:none}.cell-findings:target,.cell-findings.open{display:block}
.finding{border-top:1px solid #ddd;padding:.5em 0}
.unconfirmed{color:#b00;font-weight:bold}.confirmed{color:#070;font-weight:bold}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:16em;white-space:pre-wrap}
.changes li.new{color:#b00}.changes li.fixed{color:#070}
.hidden{display:none}
.scroll{overflow-x:auto}#matrix th code{white-space:nowrap}
.new-badge{background:#b00;color:#fff;border-radius:3px;padding:0 .4em;font-size:.8em}
"""

_SCRIPT = r"""
(function(){
  function params(){return new URLSearchParams(location.hash.replace(/^#/,''));}
  function checked(name){return Array.from(document.querySelectorAll('input[name='+name+']:checked')).map(function(i){return i.value;});}
  function applyFilters(){
    var areas=checked('area'), sdks=checked('sdk');
    document.querySelectorAll('tr[data-area]').forEach(function(tr){tr.classList.toggle('hidden',areas.indexOf(tr.dataset.area)<0);});
    document.querySelectorAll('[data-col]').forEach(function(el){el.classList.toggle('hidden',sdks.indexOf(el.dataset.col)<0);});
  }
  function open(id,scroll){
    document.querySelectorAll('.cell-findings.open').forEach(function(s){s.classList.remove('open');});
    document.querySelectorAll('td.selected').forEach(function(td){td.classList.remove('selected');});
    var section=document.getElementById(id);
    if(!section){return;}
    section.classList.add('open');
    var td=document.querySelector('td[data-cell="'+id+'"]'); if(td){td.classList.add('selected');}
    var panel=document.getElementById('panel');
    panel.classList.remove('hidden');
    document.getElementById('panel-title').textContent=section.dataset.title;
    if(scroll){section.scrollIntoView();}
  }
  function fromHash(){
    var p=params();
    ['area','sdk'].forEach(function(name){
      var wanted=p.getAll(name); if(!wanted.length){return;}
      document.querySelectorAll('input[name='+name+']').forEach(function(i){i.checked=wanted.indexOf(i.value)>=0;});
    });
    applyFilters();
    if(p.get('open')){open(p.get('open'));}
  }
  document.addEventListener('change',function(e){if(e.target.name==='area'||e.target.name==='sdk'){applyFilters();}});
  document.addEventListener('click',function(e){
    var a=e.target.closest('a[data-open]'); if(!a){return;}
    e.preventDefault(); history.replaceState(null,'','#open='+a.dataset.open); open(a.dataset.open,true);
  });
  window.addEventListener('hashchange',fromHash);
  fromHash();
})();
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _json_block(value: Any) -> str:
    return _e(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str))


def _finding_html(finding: Mapping[str, Any], *, new: bool = False) -> str:
    triage = finding.get("triage")
    if finding.get("confirmed"):
        mark = '<span class="confirmed">confirmed</span>'
    elif triage and triage.get("matched_by") != "rule":
        mark = f'<span class="unconfirmed">{_e(triage["verdict"])}</span>'
    elif triage:
        mark = f'<span class="unconfirmed">unconfirmed</span> (its rule has a {_e(triage["verdict"])} entry)'
    else:
        mark = '<span class="unconfirmed">unconfirmed</span> (no triage entry)'
    badge = ' <span class="new-badge">new since the previous matrix</span>' if new else ""
    parts = [f'<div class="finding{" new" if new else ""}"><h4>{_e(finding["key"])} &mdash; {mark}{badge}</h4>',
             f'<p class="kind">{_e(finding.get("kind", ""))}, reported by {finding["count"]} '
             f'check{"s" if finding["count"] != 1 else ""}'
             + (f', at <code>{_e(finding["where"])}</code>' if finding.get("where") else "") + "</p>",
             f'<p class="message">{_e(finding.get("message", ""))}</p>']
    if triage:
        parts.append(f'<p class="triage">triage ({_e(triage["version"])}): {_e(triage["summary"])}; evidence: '
                     f'{_e(triage["evidence"])}</p>')
    reproducer = finding.get("reproducer")
    language = finding.get("reproducer_language") or "python"
    if reproducer:
        parts.append(f'<h5>reproducer ({_e(language)})</h5><pre class="reproducer">{_e(reproducer)}</pre>')
    else:
        parts.append('<h5>reproducer</h5><p class="reproducer none">none: the adapter has no reproducer for this call</p>')
    parts.append(f'<h5>counterexample</h5><pre class="counterexample">{_json_block(finding.get("counterexample"))}</pre>')
    if finding.get("replay"):
        parts.append(f'<h5>replay</h5><pre class="replay">{_e(finding["replay"])}</pre>')
    parts.append("</div>")
    return "\n".join(parts)


def render_html(document: Mapping[str, Any]) -> str:
    """One self-contained page: the matrix, filters, and every cell's findings."""
    from strictconformance.spec import AREAS

    columns = document["columns"]
    rules = document["rules"]
    areas = [area for area in AREAS if any(rule_id.startswith(area + "-") for rule_id in rules)]
    out: list[str] = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      "<title>strictconformance SDK matrix</title>", f"<style>{_CSS}</style></head><body>",
                      "<h1>strictconformance SDK matrix</h1>",
                      f'<p id="meta">kit {_e(document["kit_version"])}, <code>{_e(document["profile"])}</code> profile, '
                      f'{len(rules)} rules &times; {len(columns)} SDK paths'
                      + (f', rules selected: {_e(", ".join(document["selection"]))}' if document["selection"] else "")
                      + ". Click a cell to open its findings.</p>"]
    # Filters
    out.append('<div class="filters"><fieldset id="filter-area"><legend>area</legend>')
    for area in areas:
        out.append(f'<label><input type="checkbox" name="area" value="{_e(area)}" checked> {_e(area)} '
                   f'<small>{_e(AREAS[area][0])}</small></label> ')
    out.append('</fieldset><fieldset id="filter-sdk"><legend>SDK path</legend>')
    for column in columns:
        out.append(f'<label><input type="checkbox" name="sdk" value="{_e(column["key"])}" checked> '
                   f'{_e(column["key"])}</label> ')
    out.append("</fieldset></div>")
    # Columns
    out.append('<table id="columns"><thead><tr><th>SDK path</th><th>versions</th><th>status</th>'
               "<th>failed rules</th><th>findings</th><th>unconfirmed</th><th>disputed</th><th>untriaged</th>"
               "<th>time</th></tr></thead><tbody>")
    for column in columns:
        counts = column_counts(document, column["key"])
        status = _e(column["status"]) + (f": {_e(column['reason'])}" if column["reason"] else "")
        out.append(f'<tr data-col="{_e(column["key"])}" class="status-{_e(column["status"])}"><td><b>{_e(column["title"])}</b>'
                   f'<br><code>{_e(column["key"])}</code></td><td>{_e(_versions(column)) or "-"}</td>'
                   f"<td>{status}</td>" + ("".join(f"<td>{counts[name]}</td>" for name in ("failed_rules", "findings", "unconfirmed",
                                                                                     "disputed", "untriaged"))
                                           if column["status"] == "ran" else "<td>-</td>" * 5)
                   + f"<td>{column['duration_s']:.0f} s</td></tr>")
    out.append("</tbody></table>")
    # The matrix
    out.append('<div class="scroll"><table id="matrix"><thead><tr><th>rule</th><th>title</th>')
    for column in columns:
        out.append(f'<th data-col="{_e(column["key"])}" title="{_e(column["title"])}"><code>{_e(column["key"])}</code></th>')
    out.append("</tr></thead><tbody>")
    panels: list[str] = []
    new_keys = {(f["column"], f["rule"], f["key"]) for f in document.get("changes", {}).get("new_findings", [])}
    for rule_id, rule in rules.items():
        area = rule_id.split("-", 1)[0]
        out.append(f'<tr data-area="{_e(area)}" id="row-{_e(rule_id)}"><th>{_e(rule_id)}</th><td>{_e(rule["title"])}</td>')
        for column in columns:
            cell = document["cells"][column["key"]][rule_id]
            ident = cell_id(column["key"], rule_id)
            outcome_class = "o-" + cell["outcome"].replace(" ", "-")
            text = cell_text(cell)  # no emoji: a headless or minimal system may have no font for them
            if column["status"] != "ran":  # the column's reason is in the columns table; no panel per row
                content = f'<span title="{_e(column["reason"])}">{_e(text)}</span>'
            elif cell["findings"] or cell["reasons"]:
                content = f'<a href="#open={_e(ident)}" data-open="{_e(ident)}">{_e(text)}</a>'
                title = f"{rule_id} on {column['key']}: {cell_text(cell)}"
                body = [f'<section class="cell-findings" id="{_e(ident)}" data-title="{_e(title)}">',
                        f"<h3>{_e(rule_id)} {_e(rule['title'])} &mdash; <code>{_e(column['key'])}</code>: "
                        f"{_e(cell['outcome'])}</h3>"]
                if cell["reasons"]:
                    body.append("<p>notes from the run:</p><ul class=\"reasons\">"
                                + "".join(f"<li>{_e(r)}</li>" for r in cell["reasons"] if r) + "</ul>")
                body.extend(_finding_html(finding, new=(column["key"], rule_id, finding["key"]) in new_keys)
                            for finding in cell["findings"])
                body.append("</section>")
                panels.append("\n".join(body))
            else:
                content = _e(text)
            out.append(f'<td class="cell {outcome_class}" data-col="{_e(column["key"])}" data-cell="{_e(ident)}">{content}</td>')
        out.append("</tr>")
    out.append("</tbody></table></div>")
    out.append('<div id="panel" class="panel"><h2 id="panel-title">Findings: click a cell of the matrix</h2>')
    out.extend(panels)
    out.append("</div>")
    if document.get("unmatched_triage"):
        out.append('<section id="unmatched-triage"><h2>Triage entries matching no finding</h2>'
                   "<p>Their key is not a finding's key in this matrix, or the bug is gone.</p><ul>")
        out.extend(f"<li><code>{_e(e['sdk_path'])}</code> <b>{_e(e['rule'])}</b> {_e(e['key'])} "
                   f"({_e(e['verdict'])}, {_e(e['version'])})</li>" for e in document["unmatched_triage"])
        out.append("</ul></section>")
    if "changes" in document:
        changes = document["changes"]
        out.append('<section class="changes" id="changes"><h2>Changes</h2><ul>')
        lines = changes_lines(changes)
        out.append(f"<li>{_e(lines[0])}</li>")
        for line in lines[1:]:
            text = line.strip()
            kind = "new" if text.startswith("NEW") else "fixed" if text.startswith("fixed") else ""
            out.append(f'<li class="{kind}">{_e(text)}</li>')
        out.append("</ul></section>")
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"
