"""The case library: fixed strictify cases as data (``cases.json``, checked against
``cases.schema.json``), a curated real-world corpus (``corpus/``), and a user's own folder of
schemas (``--sc-corpus DIR``).

A :class:`Case` is an original schema with what it exercises and where it comes from; the checks
of :mod:`strictconformance.checks.test_cases` run each as its own test item per rule and dialect,
so one failing case never hides another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

__all__ = ["DRAFT_2020_12", "Case", "CaseLibraryError", "corpus_cases", "library", "load_cases", "shipped_corpus"]

#: ``$schema`` values the kit's oracles (Draft 2020-12 jsonschema) judge values under as written.
DRAFT_2020_12 = frozenset({"", "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#"})


class CaseLibraryError(ValueError):
    """A case file or corpus folder that cannot be used: names the file and the problem."""


@dataclass(frozen=True)
class Case:
    id: str
    kind: str
    exercises: str
    source: str
    dialects: tuple[str, ...]
    schema: Any
    values: tuple[Any, ...] = ()
    breaks: dict[str, str] | None = None

    def applies_to(self, dialect: str) -> bool:
        return "*" in self.dialects or dialect in self.dialects

    @property
    def values_judged(self) -> bool:
        """Whether values can be judged against the original as written: the oracles read a
        schema in the draft its ``$schema`` names (04, 06, 07, 2019-09, 2020-12; none is 2020-12),
        so a schema naming a draft jsonschema does not know is checked for RT-1..RT-3 only."""
        declared = self.schema.get("$schema", "") if isinstance(self.schema, dict) else ""
        if not isinstance(declared, str):
            return False
        return not declared or declared in DRAFT_2020_12 or _known_draft(declared)


@lru_cache(maxsize=1)
def _validator() -> Any:
    text = resources.files(__package__).joinpath("cases.schema.json").read_text(encoding="utf-8")
    return Draft202012Validator(json.loads(text))


def load_cases(document: Any, where: str = "cases.json") -> tuple[Case, ...]:
    """The cases of a case-library document, checked against ``cases.schema.json``."""
    errors = sorted(_validator().iter_errors(document), key=lambda error: list(error.absolute_path))
    if errors:
        path = "/".join(str(part) for part in errors[0].absolute_path)
        raise CaseLibraryError(f"{where}: at /{path}: {errors[0].message}")
    return _cases(document, where)


def _cases(document: Any, where: str) -> tuple[Case, ...]:
    """The cases of a document already checked against ``cases.schema.json``."""
    cases = tuple(Case(item["id"], item["kind"], item["exercises"], item["source"], tuple(item["dialects"]), item["schema"],
                       tuple(item.get("values", ())), item.get("breaks")) for item in document["cases"])
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise CaseLibraryError(f"{where}: case id {case.id!r} is used twice")
        seen.add(case.id)
    return cases


@lru_cache(maxsize=1)
def _library_text() -> str:
    return resources.files(__package__).joinpath("cases.json").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _checked_library_text() -> str:
    """The shipped library's text, once checked against ``cases.schema.json`` (the check of the
    whole library cost about 30 ms, and the strict checks read the library once or twice a test)."""
    text = _library_text()
    load_cases(json.loads(text))
    return text


def library() -> tuple[Case, ...]:
    """The shipped case library (fresh objects on each call: callers may not mutate shared data)."""
    return _cases(json.loads(_checked_library_text()), "cases.json")


def corpus_cases(directory: str | Path, *, source: str = "") -> tuple[Case, ...]:
    """Every ``*.json`` file under ``directory`` (recursively, sorted) as a case of kind
    ``corpus`` applying to every dialect; its id is the file's path below ``directory``."""
    root = Path(directory)
    if not root.is_dir():
        raise CaseLibraryError(f"{root}: not a directory of JSON Schema files")
    cases = []
    for path in sorted(root.rglob("*.json")):
        relative = path.relative_to(root).as_posix()
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise CaseLibraryError(f"{path}: not a JSON file: {error}") from None
        if not isinstance(schema, (dict, bool)):
            raise CaseLibraryError(f"{path}: a schema is a JSON object or boolean, got {type(schema).__name__}")
        cases.append(Case(relative.removesuffix(".json"), "corpus", "a schema from a corpus of real schemas",
                          source or str(root), ("*",), schema))
    if not cases:
        raise CaseLibraryError(f"{root}: no *.json files")
    return tuple(cases)


def shipped_corpus() -> tuple[Case, ...]:
    """The curated subset of JSONSchemaBench shipped with the kit (see ``corpus/README.md``)."""
    folder = resources.files(__package__).joinpath("corpus")
    return corpus_cases(Path(str(folder)), source="JSONSchemaBench (MIT), see strictconformance/cases/corpus/README.md")


def _known_draft(uri: str) -> bool:
    """Whether jsonschema has a validator for the draft ``uri`` names (with or without its ``#``)."""
    from jsonschema.validators import validator_for  # type: ignore[import-untyped]

    return validator_for({"$schema": uri}, default=None) is not None
