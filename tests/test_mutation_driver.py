"""scripts/mutation.py, the mutation-testing driver: its families point at real modules and checks,
and only mutants inside (never-evaluated) annotations are left out of the score."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _driver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_driver", ROOT / "scripts" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_driver"] = module
    spec.loader.exec_module(module)
    return module


def test_every_family_mutates_existing_modules_under_existing_checks() -> None:
    driver = _driver()
    for name, family in driver.FAMILIES.items():
        for module in family.modules:
            assert (ROOT / module).is_file(), (name, module)
        for check in family.checks:
            assert (ROOT / "conformance" / "checks" / f"{check}.py").is_file(), (name, check)
        command = driver.test_command(family)
        assert "--sc-profile ci" in command and " -x " in command and "--sc-rule" not in command


def _inside(spans: list[tuple[tuple[int, int], tuple[int, int]]], position: tuple[int, int]) -> bool:
    return any(low <= position < high for low, high in spans)


def test_annotation_spans_cover_annotations_and_nothing_else(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from __future__ import annotations\n"
        "x: int | None = 1 | 2\n"
        "def f(a: str | None, *b: int | str, c: bytes | None = None) -> int | None:\n"
        "    return a | c\n", encoding="utf-8")
    spans = _driver()._annotation_spans(source)
    line2, line3, line4 = source.read_text().splitlines()[1:4]
    assert _inside(spans, (2, line2.index("|")))  # `int | None`
    assert not _inside(spans, (2, line2.rindex("|")))  # `1 | 2`: evaluated
    for at in [i for i, ch in enumerate(line3) if ch == "|"]:
        assert _inside(spans, (3, at)), at  # every parameter's and the return's annotation
    assert not _inside(spans, (4, line4.index("|")))  # the body


def test_a_module_without_postponed_annotations_is_refused(tmp_path: Path) -> None:
    """Without ``from __future__ import annotations`` an annotation is evaluated at definition: a
    mutant in it is not equivalent, so the driver must not skip it silently."""
    source = tmp_path / "m.py"
    source.write_text("def f(a: int | None) -> None:\n    pass\n", encoding="utf-8")
    with pytest.raises(ValueError, match="annotations are evaluated"):
        _driver()._annotation_spans(source)


def test_equivalents_are_read_from_the_list_line_by_line(tmp_path: Path) -> None:
    page = tmp_path / "mutation.md"
    page.write_text(
        "- `conformance/reference/budgets.py:36` `core/ReplaceComparisonOperator_Eq_GtE` #0: nothing exceeds inf\n"
        "- `conformance/reference/budgets.py:39` `core/ReplaceTrueWithFalse` #1:\n"  # no argument: not an entry
        "  `conformance/reference/budgets.py:40` `core/AddNot` #0: not a list item\n", encoding="utf-8")
    assert _driver().equivalents(page) == {"conformance/reference/budgets.py:36 core/ReplaceComparisonOperator_Eq_GtE #0"}
