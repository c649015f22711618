"""Every rule ID is greppable (STYLE.md, "Every ID greppable"; issue 13): a grep of any rule of
``strictconformance.spec.all_rules()`` reaches its data, its check and its broken adapter.

"Reaches" means the ID as a string literal in code, where it is applied: a ``Rule``/catalogue entry,
a ``check("ID")`` or a row of a check table, a broken adapter's table or class. An ID only in a
comment or a docstring does not count (a list of IDs in a comment is easy to let rot).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

from strictconformance.checks.test_strict_mode import SM_CHECKS
from strictconformance.dialects import CATALOGUE
from strictconformance.spec import all_rules

ROOT = Path(__file__).resolve().parents[1]
#: Where the rules' data is: the spec modules, and the dialect catalogue the SM rules are built from
#: (conformance/spec/strict.py reads it).
DATA = (*sorted((ROOT / "conformance" / "spec").glob("*.py")), ROOT / "conformance" / "dialects" / "catalogue.py")
CHECKS = tuple(sorted((ROOT / "conformance" / "checks").glob("*.py")))
BROKEN = tuple(sorted((ROOT / "tests").glob("broken_*.py")))


def literal_sites(paths: Iterable[Path]) -> dict[str, list[str]]:
    """Each string literal of ``paths`` (docstrings left out) -> where it is, as ``file:line``."""
    sites: dict[str, list[str]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and ast.get_docstring(node, clean=False) is not None}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                sites.setdefault(node.value, []).append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{node.lineno}")
    return sites


def unreached(rule_ids: Iterable[str], places: Mapping[str, Mapping[str, list[str]]]) -> list[str]:
    """One line per rule some place lacks: ``ID: no data, no check``."""
    return [f"{rule_id}: no {', no '.join(missing)}" for rule_id in rule_ids
            if (missing := [place for place, sites in places.items() if rule_id not in sites])]


def test_every_rule_id_reaches_its_data_its_check_and_its_broken_adapter() -> None:
    places = {"data": literal_sites(DATA), "check": literal_sites(CHECKS), "broken adapter": literal_sites(BROKEN)}
    rules = list(all_rules())
    assert len(rules) >= 80
    missing = unreached(rules, places)
    assert not missing, (
        f"{len(missing)} rule ID(s) a grep does not reach (as a string literal in conformance/spec or the dialect "
        "catalogue, in conformance/checks, in tests/broken_*.py):\n" + "\n".join(missing))


def test_the_sm_check_table_is_the_catalogue() -> None:
    """SM_CHECKS, the table the SM checks are generated from, has one row per catalogue rule, with its check."""
    assert {rule_id: CATALOGUE[rule_id].check for rule_id in sorted(CATALOGUE)} == SM_CHECKS


def test_each_sm_rule_has_its_two_generated_checks() -> None:
    from strictconformance.checks import test_strict_mode

    for rule_id in SM_CHECKS:
        prefix = f"test_{rule_id.lower().replace('-', '_')}_"
        made = [name for name in vars(test_strict_mode) if name.startswith(prefix)]
        assert len(made) == 2 and f"{prefix}fixed_cases" in made, (rule_id, made)


def test_an_id_only_in_a_comment_or_docstring_is_not_reached(tmp_path: Path) -> None:
    planted = tmp_path / "broken_planted.py"
    planted.write_text('"""Breaks RES-1."""\n\n# RES-2 too\n\n\nclass Broken:\n    """RES-3: says so."""\n\n'
                       '    rule = "RES-4"\n    text = "RES-5 in a sentence"\n', encoding="utf-8")
    sites = literal_sites([planted])
    assert "RES-4" in sites and sites["RES-4"] == [f"{planted}:9"]
    places = {"data": {"RES-4": ["x"]}, "check": {"RES-4": ["x"], "RES-1": ["x"]}, "broken adapter": sites}
    assert unreached(["RES-1", "RES-2", "RES-3", "RES-4", "RES-5"], places) == [
        "RES-1: no data, no broken adapter",
        "RES-2: no data, no check, no broken adapter",
        "RES-3: no data, no check, no broken adapter",
        "RES-5: no data, no check, no broken adapter",  # a literal that merely contains the ID is not it
    ]
