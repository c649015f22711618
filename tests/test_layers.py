"""The kit's layers point one way (STYLE.md, "Layers point down"; issue 13).

Bottom to top: the spec data (rules, dialects, response shapes), the adapter contract and its data
types, the oracles (the dialect validator, the drift validator and judges, the tool layer and its
judges), the implementations under test (the reference, the shipped SDK adapters, the process
adapter), the strategies, the harness, the checks, and the front ends (plugin, CLI, benchmarks,
recorder, matrix). A module imports only from its own layer or below. The reference is an
implementation under test like any other: nothing imports it but :mod:`strictconformance.baseline`
(the checks' and the CLI's one way to it), its own benchmark, and the self-tests; the plugin names
it by a string as the default adapter.

Every import counts: at module level, inside functions (the plugin's lazy ones), under
``TYPE_CHECKING``, and ``importlib.import_module("...")`` with a literal name. A new module must be
given a layer in :data:`LAYERS` (the test says which are missing).
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "strictconformance"
#: Import-name prefix -> source folder (pyproject's package-dir).
SOURCES: Mapping[str, Path] = {PACKAGE: ROOT / "conformance", f"{PACKAGE}.strategies": ROOT / "strategies"}

#: Bottom to top: (layer, the modules in it by name prefix). The longest matching prefix decides.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("spec data", (
        "strictconformance._text", "strictconformance._version", "strictconformance.spec", "strictconformance.cases",
        "strictconformance.profiles",
        # how long a call may take (CPU time, not a busy clock): used by the harness and the process client
        "strictconformance.cputime",
        # the dialects are rule data (SPEC §3's catalogue is built from them), with their pointer and value helpers
        "strictconformance.dialects.model", "strictconformance.dialects.catalogue", "strictconformance.dialects.shipped",
        "strictconformance.dialects.contexts",
        "strictconformance.dialects.registry", "strictconformance.dialects.pointers", "strictconformance.dialects.values",
        # the providers' response shapes are data too
        "strictconformance.drift.shapes", "strictconformance.drift.paths",
    )),
    ("contract", (
        "strictconformance.adapter", "strictconformance.wire", "strictconformance.findings",
        "strictconformance.drift.sse", "strictconformance.drift.errors", "strictconformance.drift.fidelity",
        # the drift_unread declaration: its type and its reading against the shipped shapes (spec data)
        "strictconformance.drift.unread",
        "strictconformance.tools.contract", "strictconformance.tools.results", "strictconformance.tools.jsonvalue",
        "strictconformance.tools.errors",
    )),
    ("oracles", (
        "strictconformance.dialects", "strictconformance.drift", "strictconformance.tools",
        # the package's public names: the contract's types and the tool helper, imported on first use
        "strictconformance",
    )),
    ("implementations", ("strictconformance.reference", "strictconformance.sdks", "strictconformance.process")),
    ("strategies", ("strictconformance.strategies",)),
    ("harness", ("strictconformance.harness", "strictconformance.watchdog", "strictconformance.baseline",
                 # what a check and a run may spend, and the Hypothesis engine hook that keeps it
                 "strictconformance.checkbudget",
                 "strictconformance.report", "strictconformance.render", "strictconformance.lint")),
    ("checks", ("strictconformance.checks",)),
    ("front ends", ("strictconformance.plugin", "strictconformance.cli", "strictconformance.__main__",
                    "strictconformance.bench", "strictconformance.record", "strictconformance.matrix",
                    # the SDKs' triage files and the README block made from them and the matrix: a tool, not an adapter
                    "strictconformance.sdks.triage", "strictconformance.sdks.reproduce",
                    # issues to file upstream, made from a report, the triage files and the matrix's join
                    "strictconformance.upstream")),
)

REFERENCE = "strictconformance.reference"
#: Who may import the reference besides itself, and why.
REFERENCE_IMPORTERS: Mapping[str, str] = {
    "strictconformance.baseline": "the checks' and the CLI's one way to the reference's strictify and encoding",
    "strictconformance.bench.schemas": "benchmarks the reference strictify itself (unmemoised)",
    "strictconformance.bench.corpus": "times the reference strictify on the real-world corpus (issue 10 item 11)",
    "strictconformance.bench.scaling": "times the reference strictify on shared sub-schemas (DAG) for the scaling figures",
}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    path: Path
    line: int

    def __str__(self) -> str:
        try:
            where = self.path.relative_to(ROOT)
        except ValueError:
            where = self.path
        return f"{where}:{self.line}: {self.importer} imports {self.imported}"


def package_modules(sources: Mapping[str, Path] = SOURCES) -> dict[str, Path]:
    """Every module of the package: import name -> file."""
    modules: dict[str, Path] = {}
    for prefix, folder in sources.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join([prefix, *parts])
            if any(other != prefix and other.startswith(prefix + ".") and (name == other or name.startswith(other + "."))
                   for other in sources):
                continue  # another source folder owns this name
            modules[name] = path
    return modules


def _target(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def import_edges(modules: Mapping[str, Path]) -> list[Import]:
    """Every import of a package module by a package module (``from a import b`` is of ``a.b`` when
    that is a module, else of ``a``)."""
    edges: list[Import] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                target = _target(name, is_package, node)
                found = [f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target for alias in node.names]
            elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)
                  and (getattr(node.func, "attr", None) == "import_module" or getattr(node.func, "id", None) == "import_module")):
                found = [node.args[0].value]
            edges += [Import(name, target, path, node.lineno) for target in dict.fromkeys(found)
                      if target == PACKAGE or target.startswith(PACKAGE + ".")]
    return edges


def layer_of(module: str, layers: Iterable[tuple[str, tuple[str, ...]]] = LAYERS) -> tuple[int, str] | None:
    """(rank, layer name) of ``module``: its longest matching prefix's layer; None when none matches."""
    best: tuple[int, int, str] | None = None
    for rank, (layer, prefixes) in enumerate(layers):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), rank, layer)
    return None if best is None else (best[1], best[2])


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def violations(edges: Iterable[Import], *, layer: Callable[[str], tuple[int, str] | None] = layer_of,
               reference: str = REFERENCE, reference_importers: Iterable[str] = REFERENCE_IMPORTERS) -> list[str]:
    """Every import that breaks the layering, one line each, naming file, line, both modules and layers."""
    allowed = tuple(reference_importers)
    problems: list[str] = []
    for edge in edges:
        if _within(edge.imported, reference) and not _within(edge.importer, reference) and edge.importer not in allowed:
            problems.append(f"{edge}: only {', '.join(allowed)} may import the reference")
            continue
        source, target = layer(edge.importer), layer(edge.imported)
        if source is None or target is None:
            continue  # unassigned modules: test_every_module_has_a_layer names them
        if target[0] > source[0]:
            problems.append(f"{edge}: the {source[1]} layer imports the {target[1]} layer above it")
    return problems


def test_every_module_has_a_layer() -> None:
    missing = [name for name in package_modules() if layer_of(name) is None]
    assert not missing, "modules with no layer in tests/test_layers.py LAYERS: " + ", ".join(missing)


def test_the_layers_point_down() -> None:
    edges = import_edges(package_modules())
    assert len(edges) > 300, "the import walk found too few imports to be reading the package"
    problems = violations(edges)
    assert not problems, f"{len(problems)} import(s) break the layering:\n" + "\n".join(problems)


def test_the_reference_importers_exist_and_import_it() -> None:
    """An entry of REFERENCE_IMPORTERS that no longer imports the reference is stale: remove it."""
    importers = {edge.importer for edge in import_edges(package_modules()) if _within(edge.imported, REFERENCE)}
    assert set(REFERENCE_IMPORTERS) <= importers


def test_the_plugin_names_the_reference_as_its_default() -> None:
    """The other way the kit reaches the reference: by the default adapter's name, loaded by the plugin."""
    from strictconformance.plugin import DEFAULT_ADAPTER

    assert DEFAULT_ADAPTER.split(":")[0] == REFERENCE


# -- the checker itself catches what it should ------------------------------------------------


def _edge(importer: str, imported: str, line: int = 1) -> Import:
    return Import(importer, imported, Path(f"/fake/{importer.replace('.', '/')}.py"), line)


def test_violations_lists_every_upward_and_reference_import() -> None:
    planted = [
        _edge("strictconformance.wire", "strictconformance.reference.resolution", 21),  # contract -> reference
        _edge("strictconformance.checks._strict", "strictconformance.plugin", 35),  # checks -> front end
        _edge("strictconformance.tools.oracles", "strictconformance.harness", 37),  # oracle -> harness
        _edge("strictconformance.spec.strict", "strictconformance.dialects.validator", 3),  # data -> oracle
        _edge("strictconformance.checks.test_cases", "strictconformance.reference.strictify", 28),  # checks -> reference
    ]
    fine = [
        _edge("strictconformance.checks._strict", "strictconformance.harness"),
        _edge("strictconformance.baseline", "strictconformance.reference.strictify"),
        _edge("strictconformance.reference.adapter", "strictconformance.adapter"),
        _edge("strictconformance.reference.adapter", "strictconformance.reference.strictify"),
        _edge("strictconformance.plugin", "strictconformance.checks"),
        _edge("strictconformance.dialects.validator", "strictconformance.dialects.model"),
    ]
    problems = violations([*planted, *fine])
    assert len(problems) == len(planted), "\n".join(problems)
    for edge, problem in zip(planted, problems, strict=True):
        assert problem.startswith(f"/fake/{edge.importer.replace('.', '/')}.py:{edge.line}: {edge.importer} imports {edge.imported}")
    assert "only strictconformance.baseline" in problems[0] and "may import the reference" in problems[0]
    assert "the checks layer imports the front ends layer above it" in problems[1]
    assert "the oracles layer imports the harness layer above it" in problems[2]
    assert "the spec data layer imports the oracles layer above it" in problems[3]


def test_a_planted_import_in_a_copy_of_the_package_is_found(tmp_path: Path) -> None:
    """The whole walk, on a copy of the package with upward imports planted: at module level, in a
    function, under TYPE_CHECKING and through importlib, each reported with its file and line."""
    copy = tmp_path / "conformance"
    shutil.copytree(SOURCES[PACKAGE], copy, ignore=lambda folder, names: [
        name for name in names if not name.endswith(".py") and not (Path(folder) / name).is_dir()])
    wire = copy / "wire.py"
    wire.write_text(wire.read_text(encoding="utf-8") + (
        "\n\nfrom strictconformance.harness import Harness  # planted\n"
        "if TYPE_CHECKING:\n    from strictconformance.checks import _strict  # planted\n"
        "def _planted() -> None:\n    from . import plugin  # planted\n"
        "    importlib.import_module('strictconformance.reference.adapter')  # planted\n"),
        encoding="utf-8")
    planted_lines = [number for number, line in enumerate(wire.read_text(encoding="utf-8").splitlines(), 1) if "# planted" in line]
    every = violations(import_edges(package_modules({PACKAGE: copy, f"{PACKAGE}.strategies": SOURCES[f"{PACKAGE}.strategies"]})))
    problems = [problem for problem in every if problem.startswith(f"{wire}:")]
    assert [problem.split(":")[1] for problem in problems] == [str(number) for number in planted_lines], "\n".join(every)
    assert [problem.split(" imports ")[1].split(":")[0] for problem in problems] == [
        "strictconformance.harness", "strictconformance.checks._strict", "strictconformance.plugin", "strictconformance.reference.adapter"]


def test_layer_of_takes_the_longest_prefix() -> None:
    assert layer_of("strictconformance.dialects.model") == (0, "spec data")
    assert layer_of("strictconformance.dialects.validator") == (2, "oracles")
    assert layer_of("strictconformance.dialects") == (2, "oracles")
    assert layer_of("strictconformance.checks.test_drift") == (6, "checks")
    assert layer_of("elsewhere") is None


@pytest.mark.parametrize("module", ["strictconformance.reference", "strictconformance.reference.strictify._passes"])
def test_the_reference_may_import_itself(module: str) -> None:
    assert violations([_edge(module, "strictconformance.reference.strictify")]) == []
