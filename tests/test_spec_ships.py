"""The specification ships (issue 13, item 3): SPEC.md is package data, every rule's source points
at it and at provider documentation (never at a file a user of the installed kit lacks), and a
failure's replay command names the installed check, not a path into site-packages."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import SuiteRun
from strictconformance.dialects.catalogue import SOURCES
from strictconformance.spec import AREAS, SPEC_RESOURCE, all_rules, spec_section, spec_text

ROOT = Path(__file__).resolve().parent.parent
#: A file name in a source: something.md, .txt, .py, .json, .yaml.
_FILE = re.compile(r"[\w./-]+\.(?:md|txt|py|json|ya?ml)\b")


def _files_outside_the_package(source: str) -> set[str]:
    named = {name for name in _FILE.findall(source) if not name.startswith("https://") and "//" not in name}
    return {name for name in named if name != SPEC_RESOURCE}


@pytest.mark.parametrize("rule_id", list(all_rules()))
def test_a_rule_source_names_only_the_shipped_spec_and_urls(rule_id: str) -> None:
    source = all_rules()[rule_id].source
    assert SPEC_RESOURCE in source, source
    assert not _files_outside_the_package(source), source
    without_urls = re.sub(r"https://\S+", "", source)
    assert "seeds/" not in without_urls and "reference/" not in without_urls, source


def test_dialect_sources_name_only_the_shipped_spec_and_urls() -> None:
    for key, source in SOURCES.items():
        assert not _files_outside_the_package(source), (key, source)
        assert "seeds/" not in source, (key, source)


def test_the_spec_is_package_data_and_every_area_has_its_section() -> None:
    text = spec_text()
    assert text == (ROOT / "conformance" / "spec" / "SPEC.md").read_text(encoding="utf-8")
    assert re.search(r'"strictconformance\.spec" = \["SPEC\.md"\]', (ROOT / "pyproject.toml").read_text())
    for area, (section, _) in AREAS.items():
        assert spec_section(area).startswith(f"## {section.split()[0].lstrip('§')}. "), area
        assert f"({area})" in spec_section(area).splitlines()[0]
    for rule_id in all_rules():  # each rule's section is the one its source names
        assert f"§{spec_section(rule_id)[3]}" in all_rules()[rule_id].source, rule_id
    assert "seeds/" not in text and "reference/provider_limits.md" not in text  # files a user lacks
    with pytest.raises(KeyError, match="unknown area"):
        spec_section("XX-1")


def test_a_replay_names_the_installed_check_and_runs_it_alone(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_resolution:ConfigBeatsTool", "--sc-rule", "RES-1", "-k", "not seed_table")
    assert run.report is not None, run.output
    [check] = [c for c in run.report["rules"]["RES-1"]["checks"] if c.get("findings")]
    replay = check["replay"]
    assert "--pyargs strictconformance.checks.test_resolution::test_res_1_tool_beats_config_beats_default" in replay
    assert "site-packages" not in replay and "/" not in replay.split("--pyargs")[1], replay
    words = shlex.split(replay)
    assert words[:3] == ["pytest", "-p", "strictconformance"]
    again = run_suite(None, *words[3:], profile=None)
    again.result.assert_outcomes(failed=1)  # that one check, not the suite beside it
    assert again.outcome("RES-1") == "failed"
