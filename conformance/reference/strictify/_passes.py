"""The named passes of the reference strictify, in pipeline order.

Each pass takes the pipeline state and replaces its working schema with a new tree (nodes are
never changed in place, so a subtree may be shared). A pass only runs where the dialect's value
encoding asks for it; the lenient dialect runs none.
"""

from __future__ import annotations

import importlib
import re
from collections import deque
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from strictconformance.dialects.model import Dialect, Loss
from strictconformance.dialects.pointers import (
    is_under,
    join_pointer,
    resolve_pointer,
    split_pointer,
)
from strictconformance.reference.strictify._input import MAX_NESTING
from strictconformance.reference.strictify._merge import canonical, merge_schemas
from strictconformance.reference.strictify._schema import (
    DATA_EDGES,
    MARK,
    SUBSCHEMA_KEYWORDS,
    Node,
    json_type_of,
    map_children,
    on_cycles,
    origin,
    strip_marks,
    subschema_kind,
    type_set,
)
from strictconformance.spec.keywords import ANNOTATION_KEYWORDS, DEFINITION_KEYWORDS

__all__ = ["PASSES", "Pass", "State"]

#: Keywords that change no validation outcome: dropping them is not a loss (the meta-data
#: annotations, and comments, identifiers and content annotations).
ANNOTATIONS = ANNOTATION_KEYWORDS | frozenset({
    "$comment", "$schema", "$id", "$anchor", "$dynamicAnchor", "contentEncoding", "contentMediaType", "contentSchema",
    "$vocabulary",
})
_BY_TYPE: dict[str, frozenset[str]] = {
    "object": frozenset({"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
                         "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties"}),
    "array": frozenset({"items", "prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems",
                        "uniqueItems", "unevaluatedItems", "additionalItems"}),
    "string": frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
}
_BY_TYPE["integer"] = _BY_TYPE["number"]
_TYPED_KEYWORDS = frozenset().union(*_BY_TYPE.values())
ROOT_KEY = "result"
OPAQUE_DESCRIPTION = "A JSON text holding the value (strictconformance could not express this part of the schema here)"


@dataclass
class State:
    """What the pipeline carries from pass to pass."""

    dialect: Dialect
    schema: Any
    refs: dict[str, str]
    losses: list[Loss] = field(default_factory=list)
    #: the schema after the semantic passes, before any change of value shape (for the codec)
    semantic: Any = None
    #: tagged subschemas `$ref`s reach outside any keyword, by pointer (``CheckedInput.detached``)
    detached: dict[str, Node] = field(default_factory=dict)
    #: names of the ``$defs`` entries kept because several places refer to them (not recursive):
    #: :func:`settle_shared_definitions` inlines those the final schema refers to only once
    shared: set[str] = field(default_factory=set)

    def target(self, pointer: str) -> Any:
        """The tagged node a reference's target ``pointer`` names, also outside every keyword."""
        if pointer in self.detached:
            return self.detached[pointer]
        holders = [root for root in self.detached if is_under(pointer, root)]
        if holders:
            root = max(holders, key=len)
            return resolve_pointer(self.detached[root], pointer[len(root):])
        return resolve_pointer(self.schema, pointer)

    def lose(self, pointer: str, kind: str, keyword: str, detail: str) -> None:
        self.losses.append(Loss(pointer, kind, keyword, detail))


Pass = tuple[str, Callable[[State], None], str]


def _with_mark(node: Node, **updates: Any) -> Node:
    copy = dict(node)
    copy[MARK] = {**node.get(MARK, {}), **updates}
    return copy


def _keep_definitions(before: Node, after: Node) -> Node:
    """A node that replaces the root keeps the root's ``$defs``."""
    if "$defs" in before and "$defs" not in after:
        return {**after, "$defs": before["$defs"]}
    return after


def opaque(at_origin: str, *, replacing: Any = None, cutting: Any = None) -> Node:
    """A node carrying any value as JSON text (keeping the semantic pointer of the node it
    replaces, so the codec still knows which ``anyOf`` branch it stands for). ``cutting``: the
    subtree it cuts before the semantic snapshot is taken (:func:`snapshot_semantics`)."""
    marks: dict[str, Any] = {"origin": at_origin, "codec": "json"}
    if isinstance(replacing, dict) and "sem" in replacing.get(MARK, {}):
        marks["sem"] = replacing[MARK]["sem"]
    if cutting is not None:
        marks["means"] = _cut_meaning(cutting)
    return {"type": "string", "description": OPAQUE_DESCRIPTION, MARK: marks}


def _cut_meaning(node: Any) -> dict[str, Any]:
    """What the semantic snapshot says of a subtree cut before it is taken (recursion unrolled
    to its depth, nesting past the limit): the subtree cannot be spelt out there (it recurses), so
    it stands for every value of the types the subtree declares (its own ``type``, a necessary
    condition), or for any value."""
    if not isinstance(node, dict) or "$ref" in node or "$dynamicRef" in node:
        return {}
    declared = node.get("type")
    if isinstance(declared, str) or (isinstance(declared, list) and all(isinstance(name, str) for name in declared)):
        return {"type": declared}
    return {}


def _bottom_up(fn: Callable[[Node], Any]) -> Callable[[Any], Any]:
    """Apply ``fn`` to every dict node, children first. ``fn`` sees only the node, so a subtree
    shared in the tree (an unrolled definition) is converted once and the result shared again:
    visiting every path through shared subtrees would grow with the unfolded tree, not the DAG."""
    done: dict[int, tuple[Node, Any]] = {}  # id -> (the node, kept alive so ids stay unique; its result)

    def visit(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        if id(node) in done:
            return done[id(node)][1]
        result = fn(map_children(node, lambda sub, keyword, key: visit(sub)))
        done[id(node)] = (node, result)
        return result
    return visit


# --- resolve_references -----------------------------------------------------------------------

def _recursive_targets(refs: dict[str, str]) -> set[str]:
    """Targets of references that lead back to themselves (a reference leads to every reference
    inside its target, except those inside the target's own ``$defs``/``definitions``: a value of
    the target never meets them unless another reference leads there, and inlining drops them)."""
    successors = {pointer: [other for other in refs if is_under(other, target)
                            and not _through_definitions(split_pointer(other)[len(split_pointer(target)):])]
                  for pointer, target in refs.items()}
    return {refs[pointer] for pointer in on_cycles(successors)}


def _ignored_site(site: str, state: State) -> bool:
    """Is this reference inside an ``additionalItems`` that applies to nothing (its parent has no
    ``items`` list), or inside a ``dependentSchemas`` (draft 04-07: ``dependencies``) the dialect
    strips? Such a reference is dropped with it, so it makes nothing recursive (kept as a recursive
    definition, it would be one no longer in the output, and a second strictify would inline it:
    not idempotent, RT-3)."""
    allowed = state.dialect.encoding.keywords
    strips_dependent = allowed is not None and "dependentSchemas" not in allowed
    tokens = split_pointer(site)
    for index, token in enumerate(tokens):
        if token not in ("additionalItems", "dependentSchemas", "dependencies"):
            continue
        try:
            parent = state.target(join_pointer("", *tokens[:index]))
        except (LookupError, TypeError, ValueError):
            continue
        if not isinstance(parent, dict):
            continue
        if token == "additionalItems" and "additionalItems" in parent and not isinstance(parent.get("items"), list):
            return True
        if strips_dependent and token != "additionalItems" and MARK in parent and "dependentSchemas" in parent:
            was = parent[MARK].get("renamed", {}).get("dependentSchemas", "dependentSchemas")
            if was == token:
                return True
    return False


def _through_definitions(tokens: list[str]) -> bool:
    """Does this path of keywords (with names and indexes) pass through a definitions keyword?"""
    index = 0
    while index < len(tokens):
        keyword = tokens[index]
        if keyword in ("$defs", "definitions"):
            return True
        kind = SUBSCHEMA_KEYWORDS.get(keyword)
        if kind is None:
            return False  # a location outside every keyword: not a definition of the target
        listed_items = keyword == "items" and index + 1 < len(tokens) and tokens[index + 1].isdigit()
        index += 2 if kind in ("map", "list") or listed_items else 1
    return False


def _definition_name(target: str, taken: set[str]) -> str:
    tokens = split_pointer(target)
    base = re.sub(r"[^A-Za-z0-9_.-]", "_", tokens[-1]) if tokens else "root"
    name, suffix = base or "def", 2
    while name in taken:
        name, suffix = f"{base}_{suffix}", suffix + 1
    taken.add(name)
    return name


ROOT_REF = "#"


def resolve_references(state: State) -> None:
    """Inline every reference; keep recursive definitions where the dialect allows recursion,
    else unroll them ``unroll_depth`` times and truncate below (a loss). Recursion through the root
    stays ``$ref: "#"`` (OpenAI and Gemini take it; ``wrap_root`` moves the root to ``$defs`` if it
    wraps it). Where the dialect keeps references and has no depth limit, a definition that is not
    recursive and is referred to from several places is kept once under ``$defs`` and referred to
    (inlining it at each place unfolds a DAG of shared definitions exponentially); a depth limit is
    counted on the tree, so there it stays inlined."""
    encoding = state.dialect.encoding
    keep = encoding.references == "keep" and encoding.recursion == "keep"
    share = encoding.references == "keep" and state.dialect.limits.max_depth is None
    original_root = state.schema
    recursive = _recursive_targets({site: target for site, target in state.refs.items() if not _ignored_site(site, state)})
    uses: dict[str, int] = {}
    for target in state.refs.values():
        uses[target] = uses.get(target, 0) + 1
    # counted on the input: a use that later passes merge away or drop leaves a definition used once,
    # which settle_shared_definitions inlines (idempotence: the output keeps what it refers to twice)
    shared = {target for target, count in uses.items() if share and count >= 2 and target and target not in recursive}
    taken: set[str] = set()
    names = {target: _definition_name(target, taken) for target in sorted((recursive if keep else set()) | shared) if target}
    state.shared = {names[target] for target in shared}
    target_node = state.target  # (before state.schema is replaced below)
    bodies: dict[tuple[str, int], Any] = {}

    def inline(node: Any, chain: tuple[str, ...], nesting: int) -> Any:
        if not isinstance(node, dict):
            return node
        if nesting > MAX_NESTING:
            state.lose(origin(node), "truncated", "$ref", f"nesting beyond {MAX_NESTING} levels travels as JSON text")
            return opaque(origin(node), cutting=node)
        siblings = {k: v for k, v in node.items() if k not in ("$ref", "$dynamicRef")}
        if "$ref" not in node and "$dynamicRef" not in node:
            walked = map_children(siblings, lambda sub, keyword, key: inline(sub, chain, nesting + 1))
            for keyword in ("$defs", "definitions", "$anchor", "$dynamicAnchor", "$id"):
                walked.pop(keyword, None)
            return walked
        here = origin(node)
        target = state.refs[here]
        # definitions beside a reference validate nothing there (inlining drops them): with only them
        # and annotations beside it, the target is annotated in place, not merged in an allOf whose
        # merge would keep one of two descriptions (RT-9)
        meaningful = {k for k in siblings if k != MARK and k not in ANNOTATIONS and k not in DEFINITION_KEYWORDS}
        notes = {k: siblings[k] for k in ("title", "description") if isinstance(siblings.get(k), str) and siblings[k].strip()}
        if keep and target in recursive and not meaningful:
            for keyword in notes:  # a kept reference carries nothing beside it (RT-9: said, not silent)
                state.lose(here, "annotation-dropped", keyword, f"the `{keyword}` beside a recursive `$ref` is not kept")
            return {"$ref": f"#/$defs/{names[target]}" if target else ROOT_REF, MARK: {"origin": here}}
        if target in shared and not notes:
            # a shared definition: referred to; the keywords beside the reference apply as well (allOf,
            # merged where the dialect merges). A title or description beside it is kept by inlining
            # the target annotated (below): a kept reference carries nothing beside it
            reference = {"$ref": f"#/$defs/{names[target]}", MARK: {"origin": here}}
            if not meaningful:
                return reference
            return {"allOf": [reference, inline(siblings, chain, nesting + 1)], MARK: {"origin": here}}
        # unrolled levels count every recursive definition met on the way, not each one apart: with
        # several definitions referring to each other, per-definition counts grow the output exponentially
        depth = sum(met in recursive for met in chain)
        if not keep and target in recursive and depth >= encoding.unroll_depth:
            state.lose(here, "truncated", "$ref", f"recursion unrolled {encoding.unroll_depth} times; deeper levels travel as JSON text")
            return opaque(here, cutting=target_node(target))
        # a target's body at a given unrolled depth is the same tree wherever it is met: built once and
        # shared (passes never change nodes in place), so shared definitions are not unfolded exponentially
        if (target, depth) not in bodies:
            bodies[target, depth] = inline(target_node(target), (*chain, target), nesting + 1)
        body = bodies[target, depth]
        if not meaningful:
            if keep and isinstance(body, dict) and "$ref" in body:
                # the target is itself a kept recursive reference (a reference to a reference): this
                # one is that reference, which carries nothing beside it, as above (else the notes
                # would stay here and go on strictifying the output again: not idempotent, RT-3)
                for keyword in notes:
                    state.lose(here, "annotation-dropped", keyword, f"the `{keyword}` beside a recursive `$ref` is not kept")
                return body
            return _annotated(body, notes, here)
        rest = inline(siblings, chain, nesting + 1)
        return {"allOf": [body, rest], MARK: {"origin": here}}

    def definition(target: str) -> Any:
        if target in shared:  # not recursive: its body is the same at every unrolled depth
            if (target, 0) not in bodies:
                bodies[target, 0] = inline(target_node(target), (target,), 1)
            return bodies[target, 0]
        return inline(target_node(target), (target,), 1)

    root = inline(original_root, ("",) if "" in recursive else (), 0)
    if names:
        definitions = {names[target]: definition(target) for target in sorted(names)}
        if isinstance(root, dict) and set(root) <= {"$ref", MARK} and "$ref" in root:
            root = dict(definitions[root["$ref"].rsplit("/", 1)[1]])
        root = {**root, "$defs": definitions} if isinstance(root, dict) else root
    state.schema = root


def _annotated(body: Any, notes: Mapping[str, str], here: str) -> Any:
    """``body`` (a reference's target) with the ``title``/``description`` written beside the
    reference (at ``here``): kept where the target has none, else folded into its description
    (RT-9). The marks remember where they were written, so a pass that drops the node's
    description later reports it there too (:func:`_lose_noted`)."""
    if not notes or not isinstance(body, dict) or body.get("description") == OPAQUE_DESCRIPTION:
        return body
    result = dict(body)
    marks = result.get(MARK, {})
    result[MARK] = {**marks, "noted": (*marks.get("noted", ()), *((here, keyword, text) for keyword, text in notes.items()))}
    for keyword, text in notes.items():
        current = result.get(keyword)
        if not isinstance(current, str) or not current.strip():
            result[keyword] = text
        elif text not in current:
            description = result.get("description")
            described = description if isinstance(description, str) and description.strip() else ""
            result["description"] = f"{text}\n\n{described}" if described and text not in described else (described or text)
    return result


def _lose_noted(state: State, node: Node, replaced: Node) -> None:
    """Report what was written beside a reference into ``node`` (:func:`_annotated`) and is not
    in ``replaced`` (the JSON-text node taking its place) as dropped where it was written: the
    opaque loss names only the node's own place (the nightly fuzz found a description beside a
    `$ref` to an untyped member lost unreported, RT-9)."""
    kept = " ".join(str(replaced.get(keyword, "")) for keyword in ("title", "description"))
    for pointer, keyword, text in node.get(MARK, {}).get("noted", ()):
        if text not in kept:
            state.lose(pointer, "annotation-dropped", keyword,
                       f"the `{keyword}` beside a `$ref` went with its target, which travels as JSON text")


def _refers_to_root(node: Any) -> bool:
    stack = [node]
    seen: set[int] = set()  # a subtree shared by unrolled recursion is looked at once
    while stack:
        current = stack.pop()
        if isinstance(current, (dict, list)):
            if id(current) in seen:
                continue
            seen.add(id(current))
        if isinstance(current, dict):
            if current.get("$ref") == ROOT_REF:
                return True
            stack.extend(value for key, value in current.items() if key != MARK)
        elif isinstance(current, list):
            stack.extend(current)
    return False


def _retarget_root(node: Any, reference: str) -> Any:
    """``node`` with every ``$ref: "#"`` pointing at ``reference`` instead."""
    def retarget(current: Node) -> Any:
        return {**current, "$ref": reference} if current.get("$ref") == ROOT_REF else current
    return _bottom_up(retarget)(node)


# --- combine_all_of, rewrite_one_of, split_type_lists ----------------------------------------

def combine_all_of(state: State) -> None:
    """Merge ``allOf`` branches into their parent (exact where possible, else a loss)."""
    def combine(node: Node) -> Any:
        if "allOf" not in node:
            return node
        here = origin(node)
        result: Any = {k: v for k, v in node.items() if k != "allOf"}
        branches = _implied_by_references([result, *node["allOf"]], definitions, state.shared)
        result = branches[0]
        for branch in branches[1:]:
            result = merge_schemas(result, branch, lambda keyword, detail: state.lose(here, "loosened", keyword, detail), resolve)
        return _with_mark(result, origin=here) if isinstance(result, dict) else result
    definitions = state.schema.get("$defs", {}) if isinstance(state.schema, dict) else {}
    visit = _bottom_up(combine)
    resolve = _shared_resolver(state, definitions, visit)
    state.schema = _settle_merged_references(visit(state.schema), state)


def _shared_resolver(state: State, definitions: Mapping[str, Any],
                     settled: Callable[[Any], Any] = lambda body: body) -> Callable[[Any], Any] | None:
    """For :func:`merge_schemas`: a reference to a shared definition (nothing but annotations beside
    it) read as the definition's body as this pass leaves it (``settled``), annotated as the
    reference is; anything else as it is. A merge of two different references, or of a reference
    and other keywords, is a merge of what they mean (it cannot stay one reference)."""
    if not state.shared:
        return None

    def resolve(node: Any) -> Any:
        name = _reference_name(node.get("$ref")) if isinstance(node, dict) else None
        if name not in state.shared or not isinstance(definitions.get(name), dict) or any(
                k not in ANNOTATIONS for k in node if k not in ("$ref", MARK)):
            return node
        notes = {k: node[k] for k in ("title", "description") if isinstance(node.get(k), str) and node[k].strip()}
        return _annotated(settled(definitions[name]), notes, origin(node))
    return resolve


def _settle_merged_references(root: Any, state: State) -> Any:
    """A kept reference that a merge left beside meaningful keywords (``allOf`` of ``$ref: A`` and
    ``{"required": [...]}``, an object's keywords distributed into a ``$ref`` branch) would be
    inlined by a second strictify (not idempotent), so it is settled here: where the reference is
    on its target's own cycle it becomes a reference to a new definition, the target's body merged
    with those keywords (on the same cycle, so kept again next time); elsewhere it becomes that
    merged body in place. Shared subtrees are settled once."""
    if not isinstance(root, dict):
        return root
    definitions = dict(root.get("$defs", {})) if isinstance(root.get("$defs"), dict) else {}
    top = {k: v for k, v in root.items() if k != "$defs"}
    taken = set(definitions)
    made: dict[tuple[str, str], str] = {}  # (target, the keywords merged into it) -> new definition
    bodies: dict[str, Any] = {}
    reachable: dict[str, set[int]] = {}

    def body_of(target: str) -> Any:
        return definitions[target] if target else top

    def reached_from(target: str) -> set[int]:
        """Ids of every node a value of ``target`` may meet (through children and references)."""
        if target not in reachable:
            seen: set[int] = set()
            stack, names = [body_of(target)], {target}
            while stack:
                current = stack.pop()
                if not isinstance(current, (dict, list)) or id(current) in seen:
                    continue
                seen.add(id(current))
                if isinstance(current, list):
                    stack.extend(current)
                    continue
                name = _reference_name(current.get("$ref"))
                if name is not None and name not in names and (name == "" or name in definitions):
                    names.add(name)
                    stack.append(body_of(name))
                stack.extend(value for key, value in current.items() if key != MARK)
            reachable[target] = seen
        return reachable[target]

    def site(node: Node) -> tuple[str, dict[str, Any]] | None:
        name = _reference_name(node.get("$ref"))
        siblings = {k: v for k, v in node.items() if k not in ("$ref", MARK)}
        if name is None or (name and not isinstance(definitions.get(name), dict)) or all(k in ANNOTATIONS for k in siblings):
            return None
        return name, siblings

    def merged(node: Node, target: str, siblings: dict[str, Any]) -> Any:
        here = origin(node)
        # the site's own title and description are kept or folded into the target's (a merge keeps the
        # first side's annotations: the target's would silently win, RT-9)
        notes = {k: siblings[k] for k in ("title", "description") if isinstance(siblings.get(k), str) and siblings[k].strip()}
        rest = {k: v for k, v in siblings.items() if k not in notes}
        result = merge_schemas(body_of(target), rest, lambda keyword, detail: state.lose(here, "loosened", keyword, detail), resolve)
        # the merged node stands for the site (its keywords are the site's): later losses name the site
        return _with_mark(_annotated(result, notes, here), origin=here) if isinstance(result, dict) else result

    resolve = _shared_resolver(state, definitions)
    done: dict[int, tuple[Any, Any]] = {}  # id -> (node kept alive, its rewrite)
    settled_any = False

    def rewrite(node: Any) -> Any:
        nonlocal settled_any
        if not isinstance(node, dict):
            return node
        if id(node) not in done:
            found = site(node)
            settled_any = settled_any or found is not None
            if found is None:
                result = map_children(node, lambda sub, keyword, key: rewrite(sub))
            elif id(node) in reached_from(found[0]):  # on its target's cycle: a new definition
                key = (found[0], canonical(strip_marks(found[1])))
                if key not in made:
                    made[key] = _definition_name(f"/{found[0] or 'root'}_and", taken)
                    bodies[made[key]] = merged(node, *found)
                result = {"$ref": f"#/$defs/{made[key]}", MARK: node.get(MARK, {})}
            else:
                result = rewrite(merged(node, *found))
            done[id(node)] = (node, result)
        return done[id(node)][1]

    settled = rewrite(top)
    rewritten = {name: rewrite(body) for name, body in definitions.items()}
    while len(rewritten) < len(definitions) + len(bodies):  # a new body may hold further sites
        rewritten.update({name: rewrite(body) for name, body in list(bodies.items()) if name not in rewritten})
    if not settled_any:
        return root
    if rewritten:
        settled["$defs"] = rewritten
    return settled


def _reference_name(ref: Any) -> str | None:
    """The definition a kept reference names (``""`` for the root, ``$ref: "#"``), else None."""
    if ref == ROOT_REF:
        return ""
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return ref[len("#/$defs/"):]
    return None


def _implied_by_references(branches: list[Any], definitions: dict[str, Any], shared: AbstractSet[str] = frozenset()) -> list[Any]:
    """``branches`` without those a kept reference among them already implies (``allOf`` of
    ``$ref: Foo`` and ``{"type": "object"}`` where Foo is an object): merging them would leave
    a ``$ref`` with sibling keywords, which strict dialects judge as an unclosed object. Where
    every such reference names a ``shared`` definition, the title and description of a dropped
    branch go to the node's own keywords (settle_shared_definitions then writes the definition
    annotated in place: ``allOf`` of ``{"title": ...}`` and ``$ref`` keeps its title, RT-9)."""
    names = [branch["$ref"][len("#/$defs/"):] for branch in branches
             if isinstance(branch, dict) and isinstance(branch.get("$ref"), str) and branch["$ref"].startswith("#/$defs/")
             and set(branch) <= {"$ref", MARK}]
    bodies = [target for target in (definitions.get(name) for name in names) if isinstance(target, dict)]
    if not bodies:
        return branches

    def implied(branch: Any) -> bool:
        said = {k: v for k, v in branch.items() if k != MARK and k not in ANNOTATIONS} if isinstance(branch, dict) else None
        return said is not None and "$ref" not in said and any(
            all(keyword in body and canonical(body[keyword]) == canonical(value) for keyword, value in said.items()) for body in bodies)

    kept = [branch for index, branch in enumerate(branches) if index == 0 or not implied(branch)]
    if isinstance(kept[0], dict) and implied(kept[0]) and len(kept) > 1:  # the node's own keywords (annotations stay)
        kept[0] = {k: v for k, v in kept[0].items() if k == MARK or k in ANNOTATIONS}
    if names and all(name in shared for name in names) and isinstance(kept[0], dict):
        for branch in branches[1:]:
            if isinstance(branch, dict) and implied(branch):
                notes = {k: branch[k] for k in ("title", "description") if isinstance(branch.get(k), str) and branch[k].strip()}
                kept[0] = _annotated(kept[0], notes, origin(branch))
    return kept


def _values(node: Any) -> set[str] | None:
    if isinstance(node, dict) and "const" in node:
        return {canonical(node["const"])}
    if isinstance(node, dict) and isinstance(node.get("enum"), list):
        return {canonical(value) for value in node["enum"]}
    return None


def _referred(node: Any, definitions: Mapping[str, Any]) -> Any:
    """What ``node`` says, read through a kept reference with nothing but annotations beside it (its
    definition's body), to be looked at, never written."""
    for _ in range(len(definitions) + 1):
        name = _reference_name(node.get("$ref")) if isinstance(node, dict) else None
        if not name or not isinstance(definitions.get(name), dict) or any(k not in ANNOTATIONS for k in node if k not in ("$ref", MARK)):
            break
        node = definitions[name]
    return node


def _disjoint(a: Any, b: Any, definitions: Mapping[str, Any] | None = None) -> bool:
    if definitions:
        a, b = _referred(a, definitions), _referred(b, definitions)
    types_a, types_b = type_set(a), type_set(b)
    if types_a and types_b and not (types_a & types_b) and not ({"integer", "number"} <= types_a | types_b):
        return True
    values_a, values_b = _values(a), _values(b)
    if values_a is not None and values_b is not None and not values_a & values_b:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        shared = set(a.get("required", [])) & set(b.get("required", []))
        for name in shared:
            tag_a = _values(a.get("properties", {}).get(name))
            tag_b = _values(b.get("properties", {}).get(name))
            if tag_a is not None and tag_b is not None and not tag_a & tag_b:
                return True
    return False


def rewrite_one_of(state: State) -> None:
    """``oneOf`` becomes ``anyOf``: exact when the branches cannot overlap, else a loss."""
    def rewrite(node: Node) -> Any:
        if "oneOf" not in node:
            return node
        branches = node["oneOf"]
        here = origin(node)
        if not all(_disjoint(x, y, definitions) for i, x in enumerate(branches) for y in branches[i + 1:]):
            state.lose(here, "loosened", "oneOf", "oneOf became anyOf: a value matching several branches is no longer rejected")
        rest = {k: v for k, v in node.items() if k != "oneOf"}
        return merge_schemas(rest, {"anyOf": branches}, lambda keyword, detail: state.lose(here, "loosened", keyword, detail), resolve)
    definitions = state.schema.get("$defs", {}) if isinstance(state.schema, dict) else {}
    visit = _bottom_up(rewrite)
    resolve = _shared_resolver(state, definitions, visit)
    state.schema = visit(state.schema)


#: What a node says about the object it describes (besides ``type``), which its ``anyOf`` branches
#: must each say too once every object is closed.
_OBJECT_LEVEL = _BY_TYPE["object"]


def _open_object(node: Any, definitions: Mapping[str, Any]) -> bool:
    """Might ``node`` describe an object with keys it does not list (which closing rejects)?"""
    node = _referred(node, definitions)
    if not isinstance(node, dict) or (type_set(node) and "object" not in type_set(node)):
        return False
    return node.get("additionalProperties", True) is not False


def distribute_into_branches(state: State) -> None:
    """A node that describes an object and has ``anyOf`` (or ``oneOf``) branches becomes an ``anyOf``
    (``oneOf``) of the node merged into each branch (X and (A or B) = (X and A) or (X and B), exact): once each branch is
    closed, properties kept beside the branches could never appear (the shape ``allOf`` of a
    ``oneOf`` with a properties-only member leaves). A branch of another type than the node's is
    dropped (it accepts nothing there)."""
    def report(here: str) -> Callable[[str, str], None]:
        return lambda keyword, detail: state.lose(here, "loosened", keyword, detail)

    def distribute(node: Node) -> Any:
        # X and oneOf(A, B) = oneOf(X and A, X and B) too; with both, anyOf takes X
        combinator = "anyOf" if isinstance(node.get("anyOf"), list) else "oneOf"
        branches = node.get(combinator)
        if combinator == "oneOf" and isinstance(branches, list) and any(_open_object(branch, definitions) for branch in branches) and not all(
                _disjoint(x, y, definitions) for i, x in enumerate(branches) for y in branches[i + 1:]):
            # closing a branch lets a value through that the original rejects for matching it too
            state.lose(origin(node), "loosened", "oneOf", "oneOf branches are closed: a value matching an open branch "
                       "besides another one matches only the other on the wire")
        shared = {k: v for k, v in node.items() if k in _OBJECT_LEVEL}
        if not isinstance(branches, list) or not shared:
            return node
        here = origin(node)
        if "type" in node:
            shared["type"] = node["type"]
        merged = []
        for branch in branches:
            kinds = type_set(_referred(branch, definitions))  # a kept reference's: its definition's
            if isinstance(branch, dict) and kinds and type_set(shared) and not (
                    kinds & type_set(shared) or {"integer", "number"} <= kinds | type_set(shared)):
                continue  # a string branch of an object node: accepts nothing here
            combined = merge_schemas(shared, branch, report(here), resolve)
            if combined is False:
                continue
            if isinstance(combined, dict):
                combined = distribute(_with_mark(combined, origin=origin(branch, here)))
            merged.append(combined)
        if not merged:
            return False
        rest = {k: v for k, v in node.items() if k not in _OBJECT_LEVEL and k not in (combinator, "type")}  # `type` is in each branch
        rest[combinator] = merged
        return rest
    # keywords distributed into a kept `$ref` branch are settled (see _settle_merged_references); a
    # settled body may need distributing in turn (bounded: each round settles what the last made)
    for _ in range(4):
        definitions = state.schema.get("$defs", {}) if isinstance(state.schema, dict) else {}
        visit = _bottom_up(distribute)
        resolve = _shared_resolver(state, definitions, visit)
        distributed = visit(state.schema)
        state.schema = _settle_merged_references(distributed, state)
        if state.schema is distributed:
            break


def split_type_lists(state: State) -> None:
    """A ``type`` list becomes an ``anyOf`` of one branch per type, each with its own keywords."""
    def split(node: Node) -> Any:
        declared = node.get("type")
        if not isinstance(declared, list):
            return node
        if len(declared) == 1:
            return {**node, "type": declared[0]}
        here = origin(node)
        shared = {k: v for k, v in node.items() if k not in _TYPED_KEYWORDS and k not in ("type", "enum", "const")}
        branches = []
        for name in declared:
            branch: Node = {"type": name, MARK: {"origin": here}}
            branch.update({k: v for k, v in node.items() if k in _BY_TYPE.get(name, ())})
            if "enum" in node:
                kept = [v for v in node["enum"] if json_type_of(v) == name or (name == "number" and json_type_of(v) == "integer")]
                if not kept:
                    continue
                branch["enum"] = kept
            if "const" in node:
                if not (json_type_of(node["const"]) == name or (name == "number" and json_type_of(node["const"]) == "integer")):
                    continue
                branch["const"] = node["const"]
            branches.append(branch)
        if not branches:
            return False
        return merge_schemas(shared, {"anyOf": branches}, lambda keyword, detail: state.lose(here, "loosened", keyword, detail), resolve)
    definitions = state.schema.get("$defs", {}) if isinstance(state.schema, dict) else {}
    visit = _bottom_up(split)
    resolve = _shared_resolver(state, definitions, visit)
    state.schema = visit(state.schema)


def snapshot_semantics(state: State) -> None:
    """Record the schema as it means the original values (before any change of shape); every node
    gets a number naming its node there, so the codec can tell which ``anyOf`` branch a value
    belongs to. A number, not a pointer: a subtree shared by unrolled recursion has one meaning
    wherever it is met, and tagging each path apart would unfold the DAG (exponential)."""
    numbers = iter(range(1 << 62))

    def tag(node: Node) -> Any:
        return {**node, MARK: {**node.get(MARK, {}), "sem": next(numbers)}}

    def meaning(node: Node) -> Any:
        # a subtree cut already (recursion unrolled, see opaque) means its original values, not
        # JSON text: an `anyOf` branch holding one is the branch of a value deep enough to reach it
        marks = node.get(MARK, {})
        return {**marks["means"], MARK: marks} if marks.get("codec") == "json" and "means" in marks else node
    state.schema = _bottom_up(tag)(state.schema)
    state.semantic = _bottom_up(meaning)(state.schema)


# --- records, tuples ---------------------------------------------------------------------------

def _key_schema(node: Node, here: str, state: State) -> Node:
    key: Node = {"type": "string"}
    names = node.get("propertyNames")
    if isinstance(names, dict):
        for keyword in ("pattern", "minLength", "maxLength", "enum", "const", "format"):
            if keyword in names:
                key[keyword] = names[keyword]
    patterns = node.get("patternProperties") or {}
    if len(patterns) == 1 and node.get("additionalProperties") is False and "pattern" not in key:
        key["pattern"] = next(iter(patterns))
    return key


def fold_pattern_properties(state: State) -> None:
    """Where the dialect keeps maps native but has no ``patternProperties``, the patterns' schemas
    become the ``additionalProperties`` schema (the key patterns are lost: a loss)."""
    def fold(node: Node) -> Any:
        patterns = node.get("patternProperties")
        if not patterns:
            return node
        here = origin(node)
        extra = node.get("additionalProperties", True)
        values = [*patterns.values(), *([] if extra is False else [extra if isinstance(extra, dict) else {MARK: {"origin": here}}])]
        state.lose(here, "loosened", "patternProperties", "key patterns are not supported; their value schemas apply to every extra key")
        folded = {k: v for k, v in node.items() if k != "patternProperties"}
        folded["additionalProperties"] = values[0] if len(values) == 1 else {"anyOf": values, MARK: {"origin": here}}
        return folded
    state.schema = _bottom_up(fold)(state.schema)


def records_to_pairs(state: State) -> None:
    """A map (``additionalProperties`` with a schema, ``patternProperties``, or an object with no
    properties) becomes an array of ``{"key", "value"}`` pairs."""
    def convert(node: Node) -> Any:
        declared = type_set(node)
        objectish = declared == {"object"} or (not declared and any(k in node for k in ("additionalProperties", "patternProperties")))
        if not objectish or "$ref" in node:  # a kept (recursive) reference: its target says what the object holds
            return node
        here = origin(node)
        extra = node.get("additionalProperties", True)
        patterns = node.get("patternProperties") or {}
        if node.get("properties"):
            if isinstance(extra, dict) or patterns:
                state.lose(here, "narrowed", "additionalProperties", "extra keys beside declared properties cannot travel; the object is closed")
                return {k: v for k, v in node.items() if k not in ("additionalProperties", "patternProperties")}
            return node
        if extra is False and not patterns:
            return node  # an empty closed object
        value: Any
        if patterns and extra is False and len(patterns) == 1:
            value = next(iter(patterns.values()))
        elif patterns:
            value = {"anyOf": [*patterns.values(), *([extra] if isinstance(extra, dict) else [{}])], MARK: {"origin": here}}
            state.lose(here, "loosened", "patternProperties", "which value schema applies to which key is lost")
        else:
            value = extra if isinstance(extra, dict) else {MARK: {"origin": here}}
        if node.get("required"):
            state.lose(here, "loosened", "required", "required keys of a map cannot be enforced on pairs")
        pair = {
            "type": "object",
            "properties": {"key": _key_schema(node, here, state), "value": value},
            "required": ["key", "value"],
            "additionalProperties": False,
            MARK: {"origin": here, "synthetic": True},  # a wire-only shape: never cut on its own
        }
        result: Node = {"type": "array", "items": pair, MARK: {**node.get(MARK, {}), "codec": "pairs"}}
        renamed: dict[str, str] = {}
        for source, target in (("minProperties", "minItems"), ("maxProperties", "maxItems")):
            if source in node:
                result[target] = node[source]
                renamed[target] = source  # a loss of it later names what the original says
        if renamed:
            result[MARK]["renamed"] = renamed
        for keyword in ("title", "description"):
            if keyword in node:
                result[keyword] = node[keyword]
        return _keep_definitions(node, result)
    state.schema = _bottom_up(convert)(state.schema)


def tuples_to_objects(state: State) -> None:
    """A tuple (``prefixItems``) becomes an object keyed ``"0"``, ``"1"``, ..."""
    def convert(node: Node) -> Any:
        if "prefixItems" in node:
            prefix, rest = node["prefixItems"], node.get("items", True)
        elif isinstance(node.get("items"), list):
            prefix, rest = node["items"], node.get("additionalItems", True)
        else:
            return node
        here = origin(node)
        minimum, maximum = node.get("minItems", 0), node.get("maxItems")
        positions = len(prefix) if maximum is None else min(len(prefix), maximum)
        # a `false` position admits no item there, so none after it either: the tuple ends before it
        closed_at = next((index for index, sub in enumerate(prefix) if sub is False), None)
        if closed_at is not None:
            positions = min(positions, closed_at)
        if closed_at is None and rest is not False and (maximum is None or maximum > len(prefix)):
            state.lose(here, "narrowed", "items", f"items after the {len(prefix)} tuple positions cannot travel")
        if minimum > positions:
            state.lose(here, "narrowed", "minItems", "the tuple needs more items than it has positions")
        for keyword in ("uniqueItems", "contains"):
            if keyword in node:
                state.lose(here, "keyword-stripped", keyword, f"`{keyword}` does not apply to a tuple sent as an object")
        result: Node = {
            "type": "object",
            "properties": {str(index): prefix[index] for index in range(positions)},
            "required": [str(index) for index in range(min(minimum, positions))],
            "additionalProperties": False,
            MARK: {**node.get(MARK, {}), "codec": "tuple", "positions": positions},
        }
        for keyword in ("title", "description"):
            if keyword in node:
                result[keyword] = node[keyword]
        return _keep_definitions(node, result)
    state.schema = _bottom_up(convert)(state.schema)


# --- strip_unsupported, declare_types -----------------------------------------------------------

def _simple_pattern(pattern: str) -> bool:
    """No backreference, lookaround or word boundary (parsed, not scanned)."""
    try:
        sre_parse: Any = importlib.import_module("re._parser")  # Python 3.11+
    except ImportError:  # pragma: no cover - Python 3.10
        sre_parse = importlib.import_module("sre_parse")
    try:
        parsed = sre_parse.parse(pattern)
    except re.error:
        return False
    banned = {"GROUPREF", "GROUPREF_EXISTS", "ASSERT", "ASSERT_NOT"}

    def clean(items: Any) -> bool:
        for op, argument in items:
            name = str(op)
            if name in banned or (name == "AT" and str(argument) in ("AT_BOUNDARY", "AT_NON_BOUNDARY")):
                return False
            for part in argument if isinstance(argument, (list, tuple)) else ():
                if hasattr(part, "data") and not clean(part.data):
                    return False
                if isinstance(part, (list, tuple)):
                    for inner in part:
                        if hasattr(inner, "data") and not clean(inner.data):
                            return False
        return True
    return clean(parsed.data)


def strip_unsupported(state: State) -> None:
    """Remove what the dialect does not support (its keyword allowlist, formats, minItems values,
    complex patterns, enums listing arrays or objects); each removal that loosens validation is a loss."""
    encoding = state.dialect.encoding

    def strip(node: Node) -> Any:
        node_here = origin(node)
        renamed = node.get(MARK, {}).get("renamed", {})
        # a keyword merged in from another allOf/oneOf member is lost where that member had it
        contributed = node.get(MARK, {}).get("from", {})
        result: Node = {}
        allowed = encoding.keywords
        if allowed is not None and "const" in node and "const" not in allowed and "enum" in allowed:
            node = {**{k: v for k, v in node.items() if k != "const"}, "enum": [node["const"]]}
        for keyword, value in node.items():
            if keyword == MARK:
                result[keyword] = value
                continue
            here = contributed.get(renamed.get(keyword, keyword), contributed.get(keyword, node_here))
            if allowed is not None and keyword not in allowed:
                if keyword not in ANNOTATIONS:
                    was = renamed.get(keyword, keyword)
                    state.lose(here, "keyword-stripped", was, f"`{keyword}` is not supported by {state.dialect.name}"
                               + (f" (the wire form of `{was}`)" if was != keyword else ""))
                continue
            if keyword == "format" and encoding.formats is not None and value not in encoding.formats:
                state.lose(here, "keyword-stripped", "format", f"format {value!r} is not supported by {state.dialect.name}")
                continue
            if keyword == "enum" and encoding.scalar_enums and isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
                state.lose(here, "keyword-stripped", "enum", f"an enum listing arrays or objects is not supported by {state.dialect.name}")
                continue
            if keyword == "pattern" and encoding.simple_patterns_only and not (isinstance(value, str) and _simple_pattern(value)):
                state.lose(here, "keyword-stripped", "pattern", f"pattern {value!r} is too complex for {state.dialect.name}")
                continue
            if keyword == "minItems" and encoding.min_items_allowed is not None and value not in encoding.min_items_allowed:
                lower = [allowed_value for allowed_value in encoding.min_items_allowed if allowed_value <= value]
                state.lose(here, "keyword-stripped", renamed.get("minItems", "minItems"), f"minItems {value} lowered for {state.dialect.name}")
                if lower:
                    result[keyword] = max(lower)
                continue
            result[keyword] = value
        return result
    state.schema = _bottom_up(strip)(state.schema)


def _without_foreign_keywords(node: Any) -> Any:
    """``node`` without the keywords of types it does not declare (``properties`` beside
    ``type: "array"``): they apply to no value it accepts, so dropping them is exact, and a strict
    dialect would otherwise judge them (SM-29 on properties no object can have)."""
    declared = type_set(node)
    if not declared:
        return node
    own = frozenset().union(*(_BY_TYPE.get(name, frozenset()) for name in declared))
    foreign = [keyword for keyword in node if keyword in _TYPED_KEYWORDS and keyword not in own]
    return {k: v for k, v in node.items() if k not in foreign} if foreign else node


def declare_types(state: State) -> None:
    """Give every node a ``type``: from its values (enum/const), else from its keywords (a loss:
    the node no longer accepts other types); a node that says nothing travels as JSON text."""
    def declare(node: Node) -> Any:
        typed = _without_foreign_keywords(declare_node(node))
        if not isinstance(typed, dict) or type_set(typed) != {"array"} or "items" in typed or "prefixItems" in typed:
            return typed
        # an element with no schema says nothing either: it travels as JSON text
        here = origin(typed)
        if "enum" in typed or "const" in typed:  # JSON-text elements could not match the listed arrays
            state.lose(here, "opaque", "items", "an enum of arrays with no `items` travels as JSON text")
            replaced = opaque(here, replacing=typed)
            _lose_noted(state, typed, replaced)
            return _keep_definitions(typed, replaced)
        state.lose(here, "opaque", "items", "an array with no `items` carries its elements as JSON text")
        return {**typed, "items": opaque(here)}

    def declare_node(node: Node) -> Any:
        if "type" in node or any(k in node for k in ("anyOf", "oneOf", "allOf", "$ref")):
            return node
        here = origin(node)
        values = node.get("enum") if isinstance(node.get("enum"), list) else ([node["const"]] if "const" in node else None)
        if values is not None:
            kinds = list(dict.fromkeys(json_type_of(value) for value in values))
            return {**node, "type": kinds[0]} if len(kinds) == 1 else node
        implied = {name for name, keywords in _BY_TYPE.items() if name != "integer" and keywords & set(node)}
        if len(implied) == 1:
            name = implied.pop()
            state.lose(here, "narrowed", "type", f"an untyped node with {name} keywords now accepts only {name} values")
            return {**node, "type": name}
        state.lose(here, "opaque", "type", "a node with no type travels as JSON text")
        replaced = {**opaque(here), **{k: v for k, v in node.items() if k in ("title",)}, MARK: {**node.get(MARK, {}), "codec": "json"}}
        _lose_noted(state, node, replaced)
        return _keep_definitions(node, replaced)
    state.schema = _bottom_up(declare)(state.schema)


# --- close_objects, optional_to_nullable, wrap_root -------------------------------------------

def close_objects(state: State) -> None:
    """Every object gets ``additionalProperties: false`` (an open one is narrowed: a loss)."""
    def close(node: Node) -> Any:
        if type_set(node) != {"object"} or "$ref" in node:  # a kept reference's target is closed itself
            return node
        here = origin(node)
        properties = {name: sub for name, sub in node.get("properties", {}).items() if sub is not False}
        for name in node.get("required", []):
            if name not in properties:
                state.lose(join_pointer(here, "required"), "opaque", "required", f"required {name!r} has no schema; it travels as JSON text")
                properties[name] = opaque(here)
        if node.get("additionalProperties", True) is not False:
            state.lose(here, "narrowed", "additionalProperties", "an open object is closed: extra keys cannot travel")
        closed = {k: v for k, v in node.items() if k not in ("patternProperties", "propertyNames", "unevaluatedProperties")}
        closed["properties"] = properties
        closed["additionalProperties"] = False
        return closed
    state.schema = _bottom_up(close)(state.schema)


def optional_to_nullable(state: State) -> None:
    """Every property becomes required; an optional one as ``T | null`` with null meaning absent.
    Where ``T`` already accepts null, absent and null meet on the wire: reported as a loss."""
    root_validator = Draft202012Validator(state.schema)

    def accepts_null(node: Any) -> bool:
        return bool(root_validator.evolve(schema=node).is_valid(None))

    def require(node: Node) -> Any:
        properties = node.get("properties")
        if type_set(node) != {"object"} or not isinstance(properties, dict):
            return node
        required = set(node.get("required", []))
        new_properties: Node = {}
        absent_as_null, collapsed = [], []
        for name, sub in properties.items():
            if name in required:
                new_properties[name] = sub
            elif accepts_null(sub):
                collapsed.append(name)
                # the property's place in the original (its schema may be a shared definition)
                keyword = "prefixItems" if node.get(MARK, {}).get("codec") == "tuple" else "properties"
                state.lose(join_pointer(origin(node), keyword, name), "absent-null-collapse", "required",
                           f"optional property {name!r} also accepts null: absent and null both travel as null")
                new_properties[name] = sub
            else:
                absent_as_null.append(name)
                new_properties[name] = {"anyOf": [sub, {"type": "null"}], MARK: {"origin": origin(sub), "codec": "nullable"}}
        result = {**node, "properties": new_properties, "required": list(properties)}
        return _with_mark(result, absent_as_null=absent_as_null, collapsed=collapsed) if absent_as_null or collapsed else result
    state.schema = _bottom_up(require)(state.schema)


def wrap_root(state: State) -> None:
    """A root that is not a plain object travels as ``{"result": <root>}`` (a root it refers to
    itself with ``$ref: "#"`` moves to ``$defs``, since ``#`` is now the wrapper)."""
    root = state.schema
    if isinstance(root, dict) and type_set(root) == {"object"} and not any(k in root for k in ("anyOf", "oneOf", "allOf")):
        return
    body = {k: v for k, v in root.items() if k != "$defs"} if isinstance(root, dict) else root
    definitions = dict(root["$defs"]) if isinstance(root, dict) and "$defs" in root else {}
    if _refers_to_root(root):
        name = _definition_name("", set(definitions))
        reference = f"#/$defs/{name}"
        definitions = {key: _retarget_root(sub, reference) for key, sub in definitions.items()}
        definitions[name] = _retarget_root(body, reference)
        body = {"$ref": reference, MARK: {"origin": ""}}
    wrapped: Node = {"type": "object", "properties": {ROOT_KEY: body}, "required": [ROOT_KEY], MARK: {"origin": "", "codec": "wrap", "key": ROOT_KEY}}
    if state.dialect.encoding.close_objects:
        wrapped["additionalProperties"] = False
    if definitions:
        wrapped["$defs"] = definitions
    state.schema = wrapped


# --- truncate_depth, apply_limits, property_ordering -------------------------------------------

def _has_nested_schema(node: Node) -> bool:
    return any(
        isinstance(sub, dict)
        for keyword in DATA_EDGES if keyword in node
        for sub in (node[keyword].values() if isinstance(node[keyword], dict) and keyword == "properties"
                    else node[keyword] if isinstance(node[keyword], list) else [node[keyword]])
    )


def truncate_depth(state: State) -> None:
    """Below the dialect's depth limit a subtree travels as JSON text (a loss)."""
    limit = state.dialect.limits.max_depth
    if limit is None:
        return

    done: dict[tuple[int, int], tuple[Any, Any]] = {}  # (id, depth) -> (node kept alive, its cut copy)

    def cut(node: Any, depth: int) -> Any:
        # a subtree shared by unrolled recursion is cut once per depth, not once per path through it
        if not isinstance(node, dict):
            return node
        if (id(node), depth) not in done:
            done[id(node), depth] = (node, cut_node(node, depth))
        return done[id(node), depth][1]

    def cut_node(node: Node, depth: int) -> Any:
        # a pairs array nests its pair object one level further: cut the whole map, never a pair
        pairs = node.get(MARK, {}).get("codec") == "pairs"
        if (depth >= limit and _has_nested_schema(node)) or (pairs and depth + 2 > limit):
            state.lose(origin(node), "truncated", "", f"nesting beyond depth {limit} travels as JSON text")
            return opaque(origin(node), replacing=node)
        return map_children(node, lambda sub, keyword, key: sub if keyword in DEFINITION_KEYWORDS
                            else cut(sub, depth + 1 if keyword in DATA_EDGES else depth))

    root = cut(state.schema, 0)
    if isinstance(root, dict) and isinstance(root.get("$defs"), dict):
        root = {**root, "$defs": {name: cut(sub, 0) for name, sub in root["$defs"].items()}}
    state.schema = root


def _nodes_breadth_first(root: Any) -> list[tuple[tuple[tuple[str, str | int | None], ...], Node]]:
    found: list[tuple[tuple[tuple[str, str | int | None], ...], Node]] = []
    queue: deque[tuple[tuple[tuple[str, str | int | None], ...], Any]] = deque([((), root)])
    while queue:
        path, node = queue.popleft()
        if not isinstance(node, dict):
            continue
        found.append((path, node))
        def enqueue(sub: Any, keyword: str, key: str | int | None, at: tuple[tuple[str, str | int | None], ...] = path) -> Any:
            queue.append(((*at, (keyword, key)), sub))
            return sub
        map_children(node, enqueue)
    return found


_Path = tuple[tuple[str, str | int | None], ...]


def _node_at(root: Any, path: _Path) -> Any:
    node = root
    for keyword, key in path:
        node = node[keyword] if key is None else node[keyword][key]
    return node


def _cut_point(root: Any, path: _Path) -> tuple[_Path, Any]:
    """Where to cut to drop ``path``: the node itself, or for a synthetic pair its whole map."""
    node = _node_at(root, path)
    while path and isinstance(node, dict) and node.get(MARK, {}).get("synthetic"):
        path = path[:-1]
        node = _node_at(root, path)
    return path, node


def _inside(path: _Path, cut: dict[_Path, Any]) -> bool:
    return any(path[:length] in cut for length in range(len(path) + 1))


def _apply_cuts(root: Any, cuts: dict[_Path, Any]) -> Any:
    """``root`` with the node at each path of ``cuts`` replaced, in one walk (only the paths
    leading to a cut are copied)."""
    leading = {path[:length] for path in cuts for length in range(len(path))}

    def rebuild(node: Any, path: _Path) -> Any:
        if path in cuts:
            return cuts[path]
        if path not in leading or not isinstance(node, dict):
            return node
        return map_children(node, lambda sub, keyword, key: rebuild(sub, (*path, (keyword, key))))
    return rebuild(root, ())


def apply_limits(state: State) -> None:
    """Keep totals within the dialect's limits: enums past the budget lose their values, objects
    past the property or string budget travel as JSON text (each a loss)."""
    limits = state.dialect.limits
    if limits.max_total_properties is None and limits.max_enum_values is None and limits.max_total_string_length is None:
        return
    root = state.schema
    enum_budget = limits.max_enum_values
    cuts: dict[_Path, Any] = {}
    for path, node in _nodes_breadth_first(root):
        values = node.get("enum")
        if isinstance(values, list):
            too_large = (limits.large_enum_threshold is not None and limits.large_enum_string_length is not None
                         and len(values) > limits.large_enum_threshold
                         and sum(len(v) for v in values if isinstance(v, str)) > limits.large_enum_string_length)
            if too_large or (enum_budget is not None and len(values) > enum_budget):
                state.lose(origin(node), "keyword-stripped", "enum", "enum values over the dialect's limits were dropped")
                cuts[path] = {k: v for k, v in node.items() if k != "enum"}
            elif enum_budget is not None:
                enum_budget -= len(values)
    root = _apply_cuts(root, cuts)

    def cut_at(path: _Path, detail: str) -> None:
        path, node = _cut_point(root, path)
        if not _inside(path, cuts):
            state.lose(origin(node), "truncated", "properties", detail)
            cuts[path] = _keep_definitions(node, opaque(origin(node), replacing=node)) if path else _opaque_root(state, node)

    property_budget = limits.max_total_properties
    cuts = {}
    if property_budget is not None:
        for path, node in _nodes_breadth_first(root):
            properties = node.get("properties")
            if _inside(path, cuts) or not isinstance(properties, dict):
                continue  # inside a subtree already sent as JSON text
            if len(properties) > property_budget:
                cut_at(path, "properties over the dialect's total travel as JSON text")
            else:
                property_budget -= len(properties)
    root = _apply_cuts(root, cuts)
    if limits.max_total_string_length is not None:
        nodes = _nodes_breadth_first(root)
        size = sum(_string_size(node) for _, node in nodes)
        cuts = {}
        for path, node in reversed(nodes):  # deepest first
            if size <= limits.max_total_string_length:
                break
            if not path or _inside(path, cuts) or path[-1][0] == "$defs" or not _string_size(node):
                continue
            target, target_node = _cut_point(root, path)
            if target and not _inside(target, cuts):
                size -= sum(_string_size(inner) for _, inner in _nodes_breadth_first(target_node))
                cut_at(target, "names and values over the dialect's string budget travel as JSON text")
        if size > limits.max_total_string_length:  # the root's own names are over the budget
            cut_at((), "names and values over the dialect's string budget travel as JSON text")
        root = _apply_cuts(root, cuts)
    state.schema = root


def _opaque_root(state: State, node: Node) -> Node:
    """The whole root as JSON text: wrapped where the dialect wraps roots, so it stays an object
    (its definitions go: nothing refers to them any more)."""
    body = opaque(origin(node), replacing=node)
    if not state.dialect.encoding.wrap_root:
        return body
    wrapped: Node = {"type": "object", "properties": {ROOT_KEY: body}, "required": [ROOT_KEY],
                     MARK: {"origin": "", "codec": "wrap", "key": ROOT_KEY}}
    if state.dialect.encoding.close_objects:
        wrapped["additionalProperties"] = False
    return wrapped


def _string_size(node: Node) -> int:
    size = sum(len(name) for key in ("properties", "$defs") if isinstance(node.get(key), dict) for name in node[key])
    size += sum(len(v) for v in node.get("enum", []) if isinstance(v, str)) if isinstance(node.get("enum"), list) else 0
    return size + (len(node["const"]) if isinstance(node.get("const"), str) else 0)


def property_ordering(state: State) -> None:
    """Emit ``propertyOrdering`` (the declared order) on every object with properties."""
    def order(node: Node) -> Any:
        if isinstance(node.get("properties"), dict) and node["properties"]:
            return {**node, "propertyOrdering": list(node["properties"])}
        return node
    state.schema = _bottom_up(order)(state.schema)


def _wire_types(node: Any, definitions: dict[str, Any], seen: frozenset[str],
                memo: dict[tuple[str, frozenset[str]], frozenset[str] | None] | None = None) -> frozenset[str] | None:
    """The JSON types a wire value of ``node`` can have (None: any); integer counts as number.
    ``memo``: what each definition gave (per set of definitions on the way), so a DAG of shared
    definitions is followed once per definition, not once per path."""
    if not isinstance(node, dict):
        return None if node is not False else frozenset()
    reference = node.get("$ref")
    if isinstance(reference, str) and (reference.startswith("#/$defs/") or reference == ROOT_REF):
        name = reference[len("#/$defs/"):] if reference != ROOT_REF else ROOT_REF
        if name in seen:
            return frozenset()
        if memo is None:
            memo = {}
        if (name, seen) not in memo:
            memo[name, seen] = _wire_types(definitions.get(name, {}), definitions, seen | {name}, memo)
        return memo[name, seen]
    declared = frozenset("number" if t == "integer" else t for t in type_set(node)) or None
    for combinator in ("anyOf", "oneOf"):
        if isinstance(node.get(combinator), list):
            inner: set[str] = set()
            for branch in node[combinator]:
                kinds = _wire_types(branch, definitions, seen, memo)
                if kinds is None:
                    return declared
                inner |= kinds
            return frozenset(inner) & declared if declared is not None else frozenset(inner)
    if declared is None and isinstance(node.get("enum"), list):
        return frozenset("number" if json_type_of(v) == "integer" else json_type_of(v) for v in node["enum"])
    return declared


def _changes_values(node: Any, definitions: dict[str, Any], seen: frozenset[str]) -> bool:
    """Does the codec change values anywhere under ``node``?"""
    stack, visited = [node], set(seen)
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            marks = current.get(MARK, {})
            if "codec" in marks or marks.get("absent_as_null") or marks.get("collapsed"):
                return True
            reference = current.get("$ref")
            if isinstance(reference, str) and (reference.startswith("#/$defs/") or reference == ROOT_REF) and reference not in visited:
                visited.add(reference)
                stack.append(definitions.get(reference[len("#/$defs/"):] if reference != ROOT_REF else ROOT_REF))
            stack.extend(value for key, value in current.items() if key != MARK)
        elif isinstance(current, list):
            stack.extend(current)
    return False


def report_ambiguous_branches(state: State) -> None:
    """Where two ``anyOf`` branches can put the same value on the wire and the codec changes
    values in one of them, a wire value may decode through the wrong branch: a loss."""
    root = state.schema
    # definitions by name, and the root as "#" (no definition name has that character)
    definitions = {**(root.get("$defs", {}) if isinstance(root, dict) else {}), ROOT_REF: root}
    memo: dict[tuple[str, frozenset[str]], frozenset[str] | None] = {}

    def visit(node: Node) -> Any:
        for combinator in ("anyOf", "oneOf"):
            branches = node.get(combinator)
            if not isinstance(branches, list) or node.get(MARK, {}).get("codec") == "nullable":
                continue
            kinds = [_wire_types(branch, definitions, frozenset(), memo) for branch in branches]
            changing = [_changes_values(branch, definitions, frozenset()) for branch in branches]
            for i in range(len(branches)):
                for j in range(i + 1, len(branches)):
                    overlap = kinds[i] is None or kinds[j] is None or bool(kinds[i] & kinds[j])  # type: ignore[operator]
                    if overlap and (changing[i] or changing[j]):
                        state.lose(origin(node), "ambiguous", combinator,
                                   f"branches {i} and {j} can share a wire value that decodes differently")
                        return node
        return node
    _bottom_up(visit)(root)


def _subschemas(node: Any) -> list[Any]:
    """The direct subschemas of a working node (not the values of ``enum``, ``const``, ``default``...)."""
    if not isinstance(node, dict):
        return []
    found: list[Any] = []
    for keyword, value in node.items():
        kind = subschema_kind(keyword, value) if keyword != MARK else None
        if kind == "one":
            found.append(value)
        elif kind == "map" and isinstance(value, dict):
            found.extend(value.values())
        elif kind == "list" and isinstance(value, list):
            found.extend(value)
    return found


def _use_counts(top: Any, definitions: Mapping[str, Any]) -> dict[str, int]:
    """How many places of the final schema (``top`` and the definitions it reaches, each written
    once) refer to each definition, counted up to 2. The working schema shares subtrees (unrolled
    recursion, a body annotated at two places): the count is taken over the tree it is written as,
    without unfolding it (each distinct node's number of places, parents first)."""
    starts: list[Any] = [top]
    reached: set[str] = set()
    seen: set[int] = set()
    stack: list[Any] = [top]
    while stack:  # the definitions the top reaches, through references
        current = stack.pop()
        if not isinstance(current, dict) or id(current) in seen:
            continue
        seen.add(id(current))
        name = _reference_name(current.get("$ref"))
        if name and name not in reached and isinstance(definitions.get(name), dict):
            reached.add(name)
            starts.append(definitions[name])
            stack.append(definitions[name])
        stack.extend(_subschemas(current))
    order: list[Any] = []  # distinct nodes, children before parents
    done: set[int] = set()
    walk: list[tuple[Any, bool]] = [(start, False) for start in reversed(starts)]
    while walk:
        current, expanded = walk.pop()
        if expanded:
            order.append(current)
            continue
        if not isinstance(current, dict) or id(current) in done:
            continue
        done.add(id(current))
        walk.append((current, True))
        walk.extend((sub, False) for sub in reversed(_subschemas(current)))
    places: dict[int, int] = {}
    for start in starts:
        places[id(start)] = min(2, places.get(id(start), 0) + 1)
    counts: dict[str, int] = {}
    for current in reversed(order):  # parents first: a node's count is complete when it is reached
        here = places.get(id(current), 0)
        name = _reference_name(current.get("$ref"))
        if name:
            counts[name] = min(2, counts.get(name, 0) + here)
        for sub in _subschemas(current):
            if isinstance(sub, dict):
                places[id(sub)] = min(2, places.get(id(sub), 0) + here)
    return counts


def share_definitions(state: State) -> None:
    """After the merges, keep a shared definition only where two places still refer to it (see
    :func:`settle_shared_definitions`): one merged into each of its uses goes before the later
    passes convert it (and report its losses) for nothing."""
    _settle_shared(state)


def settle_shared_definitions(state: State) -> None:
    """Decide on the final schema which shared definitions stay (those ``resolve_references`` kept
    because several places of the input refer to them): a reference to one with a title or
    description beside it (a merge can leave one) becomes the definition annotated in place (RT-9:
    a kept reference carries nothing beside it), and one that the schema now refers to from fewer
    than two places (its other uses merged away, dropped or cut) is inlined where it is used, or
    dropped. A second strictify keeps exactly the definitions referred to twice: idempotent."""
    _settle_shared(state)


def _settle_shared(state: State) -> None:
    root = state.schema
    if not state.shared or not isinstance(root, dict) or not isinstance(root.get("$defs"), dict):
        return
    definitions: dict[str, Any] = root["$defs"]
    shared = {name for name in state.shared if isinstance(definitions.get(name), dict)}
    if not shared:
        return

    def shared_site(node: Node) -> str | None:
        """The shared definition ``node`` refers to, with nothing but annotations beside it."""
        name = _reference_name(node.get("$ref"))
        if name not in shared or any(k not in ANNOTATIONS and k not in DEFINITION_KEYWORDS for k in node if k not in ("$ref", MARK)):
            return None
        return name

    def bare(node: Node) -> Node:
        return {"$ref": node["$ref"], MARK: node.get(MARK, {})}

    annotated: dict[int, tuple[Any, Any]] = {}  # id -> (node kept alive, its rewrite)
    changed = False

    def unannotate(node: Any) -> Any:
        nonlocal changed
        if not isinstance(node, dict):
            return node
        if id(node) not in annotated:
            result: Any = node
            name = shared_site(node)
            while name is not None and set(result) - {"$ref", MARK}:
                changed = True
                notes = {k: result[k] for k in ("title", "description") if isinstance(result.get(k), str) and result[k].strip()}
                # (an alias definition, itself a reference to a shared one, is followed on the next turn)
                result = _annotated(unannotate(definitions[name]), notes, origin(result)) if notes else bare(result)
                name = shared_site(result) if isinstance(result, dict) else None
            if result is node:
                result = map_children(node, lambda sub, keyword, key: unannotate(sub))
            annotated[id(node)] = (node, result)
        return annotated[id(node)][1]

    top = unannotate({k: v for k, v in root.items() if k != "$defs"})
    definitions = {name: unannotate(body) for name, body in definitions.items()}
    counts = _use_counts(top, definitions)
    once = {name for name in shared if counts.get(name, 0) == 1}
    # one nothing refers to any more goes (drop_unused_definitions keeps every definition when the
    # schema holds a `$ref` the pipeline did not write, e.g. in a keyword it keeps as data)
    unused = {name for name in shared if not counts.get(name)}
    if unused:
        definitions = {name: body for name, body in definitions.items() if name not in unused}
    if once:
        inlined: dict[int, tuple[Any, Any]] = {}

        def substitute(node: Any) -> Any:
            if not isinstance(node, dict):
                return node
            if id(node) not in inlined:
                name = shared_site(node)
                result = substitute(definitions[name]) if name in once else map_children(node, lambda sub, keyword, key: substitute(sub))
                inlined[id(node)] = (node, result)
            return inlined[id(node)][1]
        top = substitute(top)
        definitions = {name: substitute(body) for name, body in definitions.items() if name not in once}
    elif not changed and not unused:
        return
    state.schema = {k: definitions if k == "$defs" else top[k] for k in root if k in top or (k == "$defs" and definitions)}


def drop_unused_definitions(state: State) -> None:
    """``$defs`` entries no reference reaches any more (their uses were inlined, cut to JSON text
    or merged away) are dropped: a second strictify would drop them (idempotence)."""
    root = state.schema
    if not isinstance(root, dict) or not isinstance(root.get("$defs"), dict):
        return
    definitions = root["$defs"]
    used: set[str] = set()
    seen: set[int] = set()
    stack: list[Any] = [{k: v for k, v in root.items() if k != "$defs"}]
    while stack:
        current = stack.pop()
        if not isinstance(current, (dict, list)) or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, list):
            stack.extend(current)
            continue
        ref = current.get("$ref")
        if isinstance(ref, str) and ref != ROOT_REF and not ref.startswith("#/$defs/"):
            return  # a reference this pipeline did not write (an absolute one kept as it was): keep every definition
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref[len("#/$defs/"):] not in used:
            used.add(ref[len("#/$defs/"):])
            stack.append(definitions.get(ref[len("#/$defs/"):]))
        stack.extend(value for key, value in current.items() if key != MARK)
    if used >= set(definitions):
        return
    kept = {name: sub for name, sub in definitions.items() if name in used}
    state.schema = {k: kept if k == "$defs" else v for k, v in root.items() if k != "$defs" or kept}  # key order kept


def _when(condition: Callable[[Dialect], bool], fn: Callable[[State], None]) -> Callable[[State], None]:
    def run(state: State) -> None:
        if condition(state.dialect):
            fn(state)
    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _transforms(dialect: Dialect) -> bool:
    encoding = dialect.encoding
    return encoding != type(encoding)()  # the lenient (default) encoding transforms nothing


#: (name, pass, what it does), in pipeline order. ``check_input`` runs before and the codec is
#: built after (see :func:`strictconformance.reference.strictify.strictify`).
PASSES: tuple[Pass, ...] = tuple(
    (fn.__name__, fn, (fn.__doc__ or "").split("\n")[0])
    for fn in (
        _when(_transforms, resolve_references),
        _when(lambda d: d.encoding.combine_all_of, combine_all_of),
        _when(lambda d: d.encoding.one_of_as_any_of, rewrite_one_of),
        _when(lambda d: d.encoding.close_objects, distribute_into_branches),
        _when(lambda d: d.encoding.declare_types, split_type_lists),
        share_definitions,
        snapshot_semantics,
        _when(lambda d: d.encoding.records == "pairs", records_to_pairs),
        _when(lambda d: d.encoding.records == "native" and d.encoding.keywords is not None
              and "patternProperties" not in d.encoding.keywords, fold_pattern_properties),
        _when(lambda d: d.encoding.tuples == "numeric_keys", tuples_to_objects),
        _when(lambda d: d.encoding.keywords is not None or d.encoding.formats is not None or d.encoding.scalar_enums, strip_unsupported),
        _when(lambda d: d.encoding.declare_types, declare_types),
        _when(lambda d: d.encoding.close_objects, close_objects),
        _when(lambda d: d.encoding.optional == "required_nullable", optional_to_nullable),
        _when(lambda d: d.encoding.wrap_root, wrap_root),
        truncate_depth,
        apply_limits,
        _when(lambda d: d.encoding.property_ordering, property_ordering),
        report_ambiguous_branches,
        settle_shared_definitions,
        _when(_transforms, drop_unused_definitions),
    )
)
