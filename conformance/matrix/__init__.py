"""The SDK matrix: the suite against every shipped SDK path (and the reference), in one page.

``python -m strictconformance.matrix`` runs each column in its own process
(:mod:`strictconformance.matrix.run`), combines the reports into one document
(:mod:`strictconformance.matrix.combine`, following ``matrix.schema.json``), joins the findings to
the hand-checked triage files (:mod:`strictconformance.sdks.triage`) and renders Markdown and one
static HTML page (:mod:`strictconformance.matrix.render`).
"""

from __future__ import annotations

from strictconformance.matrix.combine import (
    MATRIX_SCHEMA,
    ColumnResult,
    MatrixError,
    annotate_triage,
    combine,
    diff_matrices,
    report_findings,
)
from strictconformance.matrix.render import render_html, render_markdown

__all__ = [
    "MATRIX_SCHEMA",
    "ColumnResult",
    "MatrixError",
    "annotate_triage",
    "combine",
    "diff_matrices",
    "render_html",
    "render_markdown",
    "report_findings",
]
