"""The matrix as Markdown and as one static HTML page.

The page needs no server, no network and no external asset: the table and every cell's findings
are rendered here, in the HTML itself. The matrix scrolls in a box of its own, its header row and
rule column sticky, so 50 columns stay readable. A small inline script opens a cell's findings and
scrolls to them (a click, or the URL fragment ``#open=<cell id>``, which a shared link carries),
and filters columns by SDK and language and rows by area and by the verdicts of their findings
(also from the fragment: ``#area=SM&sdk=reference&lang=node&verdict=unconfirmed``; the fragment
follows the filters). Without JavaScript the page still shows everything: the findings panels are
plain sections reached by their anchors.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any

from strictconformance.matrix.combine import (
    FINDING_VERDICTS,
    cell_verdicts,
    changes_lines,
    column_counts,
)

__all__ = ["VERDICT_LEGEND", "cell_id", "cell_text", "render_html", "render_markdown"]

_SYMBOL = {"passed": "✅", "failed": "❌", "error": "💥", "xfailed": "⚠️", "skipped": "⏭", "not covered": "➖",
           "not run": "·", "unavailable": "🚫", "refused": "⛔"}


def cell_id(column_key: str, rule_id: str) -> str:
    """The HTML id of a cell's findings panel (also the ``#open=`` fragment value)."""
    return "cell-" + re.sub(r"[^A-Za-z0-9_-]", "_", column_key) + "--" + rule_id


#: How the page and the Markdown name each verdict (combine.FINDING_VERDICTS) and what it means.
VERDICT_LEGEND = {
    "confirmed": ("confirmed", "a triage entry confirms it: the SDK breaks the rule, with the evidence"),
    "disputed": ("disputed", "a triage entry disputes it: the SDK's maintainers or the provider's documentation say otherwise"),
    "kit-bug-fixed": ("kit false alarm", "a triage entry says it was a false alarm of the kit, fixed since"),
    "unconfirmed": ("unconfirmed", "no triage entry of its own yet: nobody has checked it by hand"),
}


def cell_text(cell: Mapping[str, Any]) -> str:
    """A cell as text: its outcome, then its distinct findings and how many of them are not
    confirmed, by verdict (disputed, kit false alarm, unconfirmed)."""
    outcome = str(cell["outcome"])
    findings = cell["findings"]
    if not findings:
        return outcome
    verdicts = cell_verdicts(cell)
    text = f"{outcome}: {len(findings)} finding{'s' if len(findings) != 1 else ''}"
    others = [f"{verdicts.count(v)} {VERDICT_LEGEND[v][0]}" for v in FINDING_VERDICTS[1:] if v in verdicts]
    if others:
        text += f" ({', '.join(others)})"
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
    findings = [(column["key"], rule_id, finding, verdict) for column in columns
                for rule_id, cell in document["cells"][column["key"]].items()
                for finding, verdict in zip(cell["findings"], cell_verdicts(cell), strict=True)]
    if findings:
        lines.append("## Findings")
        lines.append("")
        for column_key, rule_id, finding, verdict in findings:
            triage = finding.get("triage")
            if verdict != "unconfirmed":
                mark = VERDICT_LEGEND[verdict][0]
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

#: The matrix's header height and rule column width: the sticky parts, and how far a cell scrolled
#: into view must stay clear of them.
_HEADER_EM, _RULE_EM = 15, 17

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:0 0 .3em}
table{border-collapse:collapse;margin:.8em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}
.filters{display:flex;gap:1em;flex-wrap:wrap;margin:.5em 0}
.filters fieldset{border:1px solid #ccc;max-width:60em}
.filters label{white-space:nowrap;margin-right:.6em}
#legend{display:flex;gap:1.2em;flex-wrap:wrap;margin:.5em 0;font-size:.9em}
#legend dl{margin:0}#legend dt{font-weight:bold;display:inline}#legend dd{display:inline;margin:0 .4em 0 .2em}
#matrix-box{overflow:auto;max-height:calc(100vh - 3em);border:1px solid #bbb;position:relative}
#matrix{border-collapse:separate;border-spacing:0;margin:0}
#matrix th,#matrix td{border:0;border-right:1px solid #ddd;border-bottom:1px solid #ddd}
#matrix thead th{position:sticky;top:0;z-index:2;background:#eef1f6;vertical-align:bottom;height:HEADERem}
#matrix thead th.col span{font-size:.9em;writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;display:inline-block;max-height:HEADERem;overflow:hidden;text-overflow:ellipsis}
#matrix th.rule{position:sticky;left:0;z-index:1;background:#f6f6f6;width:RULEem;min-width:RULEem;max-width:RULEem;font-weight:normal}
#matrix thead th.rule{z-index:3;background:#eef1f6}
#matrix th.rule b{display:block}#matrix th.rule small{color:#555;display:block}
#matrix td.cell{min-width:5.5em;white-space:nowrap;scroll-margin-top:calc(HEADERem + 1em);scroll-margin-left:calc(RULEem + 2em)}
td.cell a{text-decoration:none;color:inherit;display:block}
td.o-passed{background:#e6f4e6}td.o-failed{background:#fbe3e3}td.o-error{background:#f7d0a8}
td.o-unavailable{background:#eee;color:#777}td.o-not-covered,td.o-not-run{color:#888}
td.o-xfailed,td.o-skipped{background:#fff6d6}
td.dim{opacity:.25}
td.selected{outline:3px solid #3367d6;outline-offset:-3px}
.v{display:inline-block;border-radius:3px;padding:0 .35em;margin-left:.2em;font-size:.85em;font-weight:bold}
.v-confirmed{background:#1b7a1b;color:#fff}.v-disputed{background:#6b4fa0;color:#fff}
.v-kit-bug-fixed{background:#777;color:#fff}.v-unconfirmed{background:#c00;color:#fff}
.panel{border:2px solid #3367d6;padding:.5em 1em;margin:1em 0;background:#fafcff;scroll-margin-top:.5em}
.cell-findings{display:none;scroll-margin-top:.5em}.cell-findings:target,.cell-findings.open{display:block}
.finding{border-top:1px solid #ddd;padding:.5em 0}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:16em;white-space:pre-wrap}
.changes li.new{color:#b00}.changes li.fixed{color:#070}
.hidden{display:none}
details#columns-box summary{cursor:pointer;font-weight:bold;margin:.5em 0}
.new-badge{background:#b00;color:#fff;border-radius:3px;padding:0 .4em;font-size:.8em}
""".replace("HEADER", str(_HEADER_EM)).replace("RULE", str(_RULE_EM))

#: The filters: (fragment and input name, legend). Each filter's values are checkboxes, all checked
#: by default; the fragment names a filter only when some of its values are unchecked.
_FILTERS = (("area", "area"), ("sdk", "SDK"), ("lang", "language"), ("verdict", "findings"))

_SCRIPT = r"""
(function(){
  var NAMES=['area','sdk','lang','verdict'];
  function params(){return new URLSearchParams(location.hash.replace(/^#/,''));}
  function boxes(name){return Array.from(document.querySelectorAll('input[name='+name+']'));}
  function checked(name){return boxes(name).filter(function(i){return i.checked;}).map(function(i){return i.value;});}
  function applyFilters(){
    var areas=checked('area'), sdks=checked('sdk'), langs=checked('lang'), verdicts=checked('verdict'), shown={};
    document.querySelectorAll('#matrix thead th[data-col]').forEach(function(th){
      shown[th.dataset.col]=sdks.indexOf(th.dataset.sdk)>=0&&langs.indexOf(th.dataset.lang)>=0;
    });
    document.querySelectorAll('[data-col]').forEach(function(el){el.classList.toggle('hidden',!shown[el.dataset.col]);});
    document.querySelectorAll('#matrix tbody tr[data-area]').forEach(function(tr){
      var any=false;
      tr.querySelectorAll('td[data-verdicts]').forEach(function(td){
        var match=td.dataset.verdicts.split(' ').some(function(v){return verdicts.indexOf(v)>=0;});
        td.classList.toggle('dim',!match);
        if(match&&shown[td.dataset.col]){any=true;}
      });
      tr.classList.toggle('hidden',areas.indexOf(tr.dataset.area)<0||!any);
    });
  }
  function writeHash(){
    var p=new URLSearchParams();
    NAMES.forEach(function(name){
      var all=boxes(name), on=checked(name);
      if(on.length<all.length){if(!on.length){p.append(name,'');}on.forEach(function(v){p.append(name,v);});}
    });
    var opened=document.querySelector('.cell-findings.open'); if(opened){p.set('open',opened.id);}
    history.replaceState(null,'','#'+p.toString());
  }
  function open(id,scroll){
    document.querySelectorAll('.cell-findings.open').forEach(function(s){s.classList.remove('open');});
    document.querySelectorAll('td.selected').forEach(function(td){td.classList.remove('selected');});
    var section=document.getElementById(id);
    if(!section){return;}
    section.classList.add('open');
    var td=document.querySelector('td[data-cell="'+id+'"]');
    if(td){td.classList.add('selected'); if(scroll){td.scrollIntoView({block:'nearest',inline:'nearest'});}}
    var panel=document.getElementById('panel');
    panel.classList.remove('hidden');
    document.getElementById('panel-title').textContent=section.dataset.title;
    if(scroll){panel.scrollIntoView({block:'start'});}
  }
  function fromHash(){
    var p=params();
    NAMES.forEach(function(name){
      if(!p.has(name)){boxes(name).forEach(function(i){i.checked=true;});return;}
      var wanted=p.getAll(name);
      boxes(name).forEach(function(i){i.checked=wanted.indexOf(i.value)>=0;});
    });
    applyFilters();
    if(p.get('open')){open(p.get('open'),true);}
  }
  document.addEventListener('change',function(e){if(NAMES.indexOf(e.target.name)>=0){applyFilters();writeHash();}});
  document.addEventListener('click',function(e){
    var a=e.target.closest('a[data-open]'); if(!a){return;}
    e.preventDefault(); open(a.dataset.open,true); writeHash();
  });
  window.addEventListener('hashchange',fromHash);
  fromHash();
})();
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _json_block(value: Any) -> str:
    return _e(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str))


def _sdk_of(column: Mapping[str, Any]) -> str:
    """The SDK a column checks: its key up to the first ``/`` (``openai-python/client``)."""
    return str(column["key"]).split("/", 1)[0]


def _language_of(column: Mapping[str, Any]) -> str:
    return str(column.get("language") or "python")


def _verdict_badge(verdict: str, text: Any = None) -> str:
    label, meaning = VERDICT_LEGEND[verdict]
    return f'<span class="v v-{_e(verdict)}" title="{_e(label)}: {_e(meaning)}">{_e(label if text is None else text)}</span>'


def _finding_html(finding: Mapping[str, Any], verdict: str, *, new: bool = False) -> str:
    triage = finding.get("triage")
    mark = _verdict_badge(verdict)
    if verdict == "unconfirmed":
        mark += f" (its rule has a {_e(triage['verdict'])} entry)" if triage else " (no triage entry)"
    badge = ' <span class="new-badge">new since the previous matrix</span>' if new else ""
    parts = [f'<div class="finding{" new" if new else ""}" data-verdict="{_e(verdict)}"><h4>{_e(finding["key"])} &mdash; {mark}{badge}</h4>',
             f'<p class="kind">{_e(finding.get("kind", ""))}, reported by {finding["count"]} '
             f'check{"s" if finding["count"] != 1 else ""}'
             + (f', at <code>{_e(finding["where"])}</code>' if finding.get("where") else "") + "</p>",
             f'<p class="message">{_e(finding.get("message", ""))}</p>']
    if triage:
        parts.append(f'<p class="triage">triage ({_e(triage["version"])}): {_e(triage["summary"])}; evidence: '
                     f'{_e(triage["evidence"])}</p>')
    if finding.get("upstream_issue"):
        parts.append(f'<p class="upstream"><a href="{_e(finding["upstream_issue"])}">the ready-to-file upstream issue</a> '
                     f'of this defect (Markdown: title, versions, reproducer, what the documentation says)</p>')
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


def _checkboxes(name: str, legend: str, values: list[tuple[str, str]]) -> str:
    boxes = "".join(f'<label><input type="checkbox" name="{_e(name)}" value="{_e(value)}" checked> {label}</label>'
                    for value, label in values)
    return f'<fieldset id="filter-{_e(name)}"><legend>{_e(legend)}</legend>{boxes}</fieldset>'


def _cell_content(cell: Mapping[str, Any], verdicts: list[str]) -> str:
    """A cell's text in the matrix: its outcome, then per verdict a badge with its count (the
    whole text, cell_text, is the cell's tooltip and its panel's title)."""
    badges = "".join(_verdict_badge(v, verdicts.count(v)) for v in FINDING_VERDICTS if v in verdicts)
    return f"{_e(cell['outcome'])}{badges}"


def render_html(document: Mapping[str, Any]) -> str:
    """One self-contained page: the matrix (sticky header row and rule column), filters, the
    verdict legend, and every cell's findings."""
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
                      + ". Click a cell to open its findings; a link to a cell's findings is the address of the page "
                        "once it is open.</p>"]
    sdks = list(dict.fromkeys(_sdk_of(column) for column in columns))
    languages = list(dict.fromkeys(_language_of(column) for column in columns))
    per_sdk = {sdk: sum(1 for column in columns if _sdk_of(column) == sdk) for sdk in sdks}
    out.append('<div class="filters">')
    out.append(_checkboxes("area", "area", [(area, f"{_e(area)} <small>{_e(AREAS[area][0])}</small>") for area in areas]))
    out.append(_checkboxes("sdk", "SDK", [(sdk, f"{_e(sdk)} <small>({per_sdk[sdk]})</small>") for sdk in sdks]))
    out.append(_checkboxes("lang", "language", [(language, _e(language)) for language in languages]))
    out.append(_checkboxes("verdict", "rows with findings", [(v, _verdict_badge(v)) for v in FINDING_VERDICTS]
                           + [("none", "cells without findings")]))
    out.append("</div>")
    out.append('<div id="legend"><dl>'
               + "".join(f"<dt>{_verdict_badge(v)}</dt><dd>{_e(VERDICT_LEGEND[v][1])};</dd>" for v in FINDING_VERDICTS)
               + "</dl><span>A badge's number: that cell's findings with that verdict.</span></div>")
    # Columns
    out.append('<details id="columns-box"><summary>SDK paths: versions, status, findings by verdict</summary>'
               '<table id="columns"><thead><tr><th>SDK path</th><th>language</th><th>versions</th><th>status</th>'
               "<th>failed rules</th><th>findings</th>"
               + "".join(f"<th>{_e(VERDICT_LEGEND[v][0])}</th>" for v in FINDING_VERDICTS)
               + "<th>time</th></tr></thead><tbody>")
    for column in columns:
        counts = column_counts(document, column["key"])
        status = _e(column["status"]) + (f": {_e(column['reason'])}" if column["reason"] else "")
        numbers = ("failed_rules", "findings", "confirmed", "disputed", "kit_bug_fixed", "unconfirmed")
        out.append(f'<tr data-col="{_e(column["key"])}" class="status-{_e(column["status"])}"><td><b>{_e(column["title"])}</b>'
                   f'<br><code>{_e(column["key"])}</code></td><td>{_e(_language_of(column))}</td>'
                   f'<td>{_e(_versions(column)) or "-"}</td><td>{status}</td>'
                   + ("".join(f'<td class="n-{name}">{counts[name]}</td>' for name in numbers)
                      if column["status"] == "ran" else "<td>-</td>" * len(numbers))
                   + f"<td>{column['duration_s']:.0f} s</td></tr>")
    out.append("</tbody></table></details>")
    # The matrix: a bounded box scrolling both ways, its header row and rule column sticky in it
    out.append('<div id="matrix-box"><table id="matrix"><thead><tr><th class="rule">rule</th>')
    for column in columns:
        tip = f"{column['title']} ({_versions(column) or column['key']})"
        out.append(f'<th class="col" data-col="{_e(column["key"])}" data-sdk="{_e(_sdk_of(column))}" '
                   f'data-lang="{_e(_language_of(column))}" title="{_e(tip)}"><span>{_e(column["key"])}</span></th>')
    out.append("</tr></thead><tbody>")
    panels: list[str] = []
    new_keys = {(f["column"], f["rule"], f["key"]) for f in document.get("changes", {}).get("new_findings", [])}
    for rule_id, rule in rules.items():
        area = rule_id.split("-", 1)[0]
        out.append(f'<tr data-area="{_e(area)}" id="row-{_e(rule_id)}"><th class="rule" scope="row">'
                   f'<b>{_e(rule_id)}</b><small>{_e(rule["title"])}</small></th>')
        for column in columns:
            cell = document["cells"][column["key"]][rule_id]
            ident = cell_id(column["key"], rule_id)
            outcome_class = "o-" + cell["outcome"].replace(" ", "-")
            text = cell_text(cell)
            verdicts = cell_verdicts(cell)
            if column["status"] != "ran":  # the column's reason is in the columns table; no panel per row
                content = f'<span title="{_e(column["reason"])}">{_e(text)}</span>'
            elif cell["findings"] or cell["reasons"]:
                content = f'<a href="#open={_e(ident)}" data-open="{_e(ident)}">{_cell_content(cell, verdicts)}</a>'
                title = f"{rule_id} on {column['key']}: {text}"
                body = [f'<section class="cell-findings" id="{_e(ident)}" data-title="{_e(title)}">',
                        f"<h3>{_e(rule_id)} {_e(rule['title'])} &mdash; <code>{_e(column['key'])}</code>: "
                        f"{_e(cell['outcome'])}</h3>"]
                if cell["reasons"]:
                    body.append("<p>notes from the run:</p><ul class=\"reasons\">"
                                + "".join(f"<li>{_e(r)}</li>" for r in cell["reasons"] if r) + "</ul>")
                body.extend(_finding_html(finding, verdict, new=(column["key"], rule_id, finding["key"]) in new_keys)
                            for finding, verdict in zip(cell["findings"], verdicts, strict=True))
                body.append("</section>")
                panels.append("\n".join(body))
            else:
                content = _e(text)
            out.append(f'<td class="cell {outcome_class}" data-col="{_e(column["key"])}" data-cell="{_e(ident)}" '
                       f'data-verdicts="{_e(" ".join(dict.fromkeys(verdicts)) or "none")}" title="{_e(text)}">{content}</td>')
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
