"""The shipped cassettes: list them by provider and API, load them, read their provenance.

Cassettes are vcrpy YAML files under ``strictconformance.cassettes``, one folder per provider and
API (``anthropic/messages/tool_use.yaml`` holds ``anthropic.messages`` responses). Each carries its
provenance under vcrpy's ``metadata`` key::

    metadata:
      strictconformance:
        api: anthropic.messages
        scenario: tool_call
        features: [text, tool_call]
        provenance:
          origin: recorded-live | recorded-elsewhere | documented-shape
          ...

vcrpy itself ignores that key when replaying, so the files work as ordinary vcrpy cassettes.
:func:`provenance_problems` says whether a cassette's provenance has one of the three complete
forms a shipped cassette may have (imported recording, the kit's own recorder, documented shape).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args
from urllib.parse import urlsplit

import yaml

from strictconformance.drift.shapes import API_IDS, get_shape
from strictconformance.drift.sse import SSEEvent, parse_sse
from strictconformance.drift.validator import load_json_text

if TYPE_CHECKING:
    from importlib.abc import Traversable

__all__ = [
    "METADATA_KEY",
    "ORIGINS",
    "RECORDER",
    "Cassette",
    "CassetteError",
    "Interaction",
    "Provenance",
    "RecordedResponse",
    "api_folder",
    "documented_host",
    "endpoint_host",
    "list_cassettes",
    "load_cassette",
    "load_cassette_file",
    "provenance_problems",
    "recorded_responses",
]

METADATA_KEY = "strictconformance"
_PACKAGE = "strictconformance.cassettes"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class CassetteError(ValueError):
    """A cassette file that cannot be read as a vcrpy cassette with strictconformance metadata."""


def api_folder(api: str) -> str:
    """``anthropic.messages`` -> ``anthropic/messages``."""
    provider, _, name = api.partition(".")
    return f"{provider}/{name}"


Origin = Literal["recorded-live", "recorded-elsewhere", "documented-shape"]
#: ``recorded-live``: recorded from the provider's own documented host; ``recorded-elsewhere``:
#: recorded by the kit's recorder from another endpoint (a proxy, a compatible or local server),
#: which it names; ``documented-shape``: built from the provider's documentation, never recorded.
ORIGINS: tuple[str, ...] = get_args(Origin)
#: What the kit's own recorder writes as ``provenance.recorder``.
RECORDER = "strictconformance.record"


@dataclass(frozen=True)
class Provenance:
    """Where a cassette's bodies come from. ``origin`` says whether they were recorded, and where."""

    origin: Origin
    recorded_by: str
    recorded_on: str | None
    date_evidence: str
    source: str
    licence: str | None
    changes: str
    raw: Mapping[str, Any]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str) -> Provenance:
        origin = data.get("origin")
        if origin not in ORIGINS:
            raise CassetteError(f"{where}: provenance.origin must be one of {', '.join(map(repr, ORIGINS))}, not {origin!r}")
        missing = [key for key in ("recorded_by", "date_evidence", "source", "changes") if not data.get(key)]
        if missing:
            raise CassetteError(f"{where}: provenance lacks {', '.join(missing)}")
        recorded_on = data.get("recorded_on")
        return cls(
            origin=origin,
            recorded_by=str(data["recorded_by"]),
            recorded_on=None if recorded_on is None else str(recorded_on),
            date_evidence=str(data["date_evidence"]),
            source=str(data["source"]),
            licence=None if data.get("licence") is None else str(data["licence"]),
            changes=str(data["changes"]),
            raw=dict(data),
        )


def endpoint_host(url: str) -> str:
    """The host of ``url`` as provenance names it: lower case, ``:port`` only when not the
    scheme's default (``api.openai.com``, ``127.0.0.1:8080``)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    default = {"https": 443, "http": 80}.get(parts.scheme.lower())
    return host if port is None or port == default else f"{host}:{port}"


def documented_host(api: str) -> str:
    """The provider's own host for ``api``, from its documented endpoint (``api.anthropic.com``)."""
    endpoint = get_shape(api).endpoint.split()[-1]
    return endpoint_host(endpoint)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_COMMIT = re.compile(r"[0-9a-f]{40}")
#: What the kit's recorder writes, every key required (``licence`` may be null).
_SELF_RECORDED = ("recorder", "kit_version", "recorded_by", "recorded_on", "date_evidence", "endpoint", "record_mode",
                  "source", "model", "request_built_from", "changes")
#: What an imported recording (another project's cassette) names.
_IMPORTED = ("recorded_by", "date_evidence", "source", "repository", "path", "commit", "licence", "changes")
#: Record modes that write interactions (``none`` only replays).
_RECORDING_MODES = ("all", "new_episodes", "once")


def provenance_problems(cassette: Cassette) -> list[str]:
    """What keeps ``cassette``'s provenance from one of the complete forms a shipped cassette may
    have (empty when it has one):

    * **imported**, ``recorded-live``: another project recorded it; ``repository``, ``path`` and
      ``commit`` locate it (in ``source``), ``licence`` says how it may be shipped, and
      ``recorded_by`` names them, not this kit;
    * **self-recorded**, by ``python -m strictconformance.record`` (``recorder``): the kit
      version, the date, the ``endpoint`` host the requests went to (the host of ``source``),
      the record mode, the model and the tool requests were built from; ``recorded-live`` only
      when the endpoint is the provider's documented host over HTTPS, else ``recorded-elsewhere``;
    * **documented-shape**: built from documentation (``source``), never recorded, no date.
    """
    provenance = cassette.provenance
    raw = provenance.raw
    problems: list[str] = []

    def need(keys: tuple[str, ...]) -> None:
        problems.extend(f"provenance lacks {key}" for key in keys if raw.get(key) in (None, ""))

    if raw.get("recorder") is not None:
        need(_SELF_RECORDED)
        if raw.get("recorder") != RECORDER:
            problems.append(f"provenance.recorder is {raw.get('recorder')!r}; the kit's recorder writes {RECORDER!r}")
        if provenance.recorded_on is None or not _DATE.fullmatch(provenance.recorded_on):
            problems.append(f"provenance.recorded_on must be the recording's date (YYYY-MM-DD), not {provenance.recorded_on!r}")
        if raw.get("record_mode") not in _RECORDING_MODES:
            problems.append(f"provenance.record_mode must be one of {', '.join(_RECORDING_MODES)}, not {raw.get('record_mode')!r}")
        endpoint = str(raw.get("endpoint") or "")
        if endpoint and endpoint != endpoint_host(provenance.source):
            problems.append(f"provenance.endpoint {endpoint!r} is not the host of its source {provenance.source!r}")
        own = documented_host(cassette.api)
        live = endpoint == own and provenance.source.lower().startswith("https://")
        expected = "recorded-live" if live else "recorded-elsewhere"
        if endpoint and provenance.origin != expected:
            where = f"the provider's documented host {own}" if live else f"not {own} over HTTPS, the provider's documented host"
            problems.append(f"provenance.origin is {provenance.origin!r}, but the requests went to {endpoint} ({where}): {expected!r}")
    elif provenance.origin == "recorded-live":
        need(_IMPORTED)
        for key in ("repository", "path"):
            if raw.get(key) and str(raw[key]) not in provenance.source:
                problems.append(f"provenance.source does not point into its {key} ({raw[key]!r})")
        if raw.get("commit") and not _COMMIT.fullmatch(str(raw["commit"])):
            problems.append(f"provenance.commit must be a full commit hash, not {raw['commit']!r}")
        if "strictconformance" in provenance.recorded_by:
            problems.append("an imported recording names who recorded it; the kit's own recordings say recorder, endpoint, record_mode")
        if provenance.recorded_on is not None and not _DATE.fullmatch(provenance.recorded_on):
            problems.append(f"provenance.recorded_on must be YYYY-MM-DD or null, not {provenance.recorded_on!r}")
    elif provenance.origin == "documented-shape":
        if provenance.recorded_on is not None:
            problems.append("a documented-shape cassette was never recorded: recorded_on must be null")
        if "never recorded" not in provenance.recorded_by:
            problems.append("a documented-shape cassette says in recorded_by that it was never recorded")
        if "http" not in provenance.source and "response_shapes.md" not in provenance.source:
            problems.append("a documented-shape cassette names the documentation it was built from (source)")
    else:
        problems.append(f"only the kit's recorder writes {provenance.origin!r} provenance (with recorder, endpoint, record_mode)")
    return problems


@dataclass(frozen=True)
class Interaction:
    """One request/response pair of a cassette."""

    index: int
    method: str
    uri: str
    request_body: str | None
    status: int
    content_type: str
    response_body: str

    @property
    def is_stream(self) -> bool:
        return self.content_type.startswith("text/event-stream")

    def json(self) -> Any:
        """The decoded JSON response body (``ValueError`` for a stream or bad JSON)."""
        if self.is_stream:
            raise ValueError(f"interaction {self.index} is a stream; use events()")
        return load_json_text(self.response_body)

    def events(self) -> tuple[SSEEvent, ...]:
        """The response's SSE events (``ValueError`` when it is not a stream)."""
        if not self.is_stream:
            raise ValueError(f"interaction {self.index} is not a stream; use json()")
        return parse_sse(self.response_body)

    def request_json(self) -> Any:
        return None if self.request_body is None else load_json_text(self.request_body)


@dataclass(frozen=True)
class Cassette:
    """A loaded cassette: its API, scenario, provenance and interactions."""

    name: str
    location: str
    api: str
    scenario: str
    features: tuple[str, ...]
    provenance: Provenance
    interactions: tuple[Interaction, ...]

    @property
    def provider(self) -> str:
        return self.api.split(".", 1)[0]

    def responses(self) -> Iterator[RecordedResponse]:
        for interaction in self.interactions:
            if 200 <= interaction.status < 300:
                yield RecordedResponse(self, interaction)


@dataclass(frozen=True)
class RecordedResponse:
    """One successful response of a cassette, as a payload or a stream."""

    cassette: Cassette
    interaction: Interaction

    @property
    def api(self) -> str:
        return self.cassette.api

    @property
    def is_stream(self) -> bool:
        return self.interaction.is_stream

    @property
    def label(self) -> str:
        return f"{self.cassette.location}#{self.interaction.index}"

    def payload(self) -> Any:
        return self.interaction.json()

    def events(self) -> tuple[SSEEvent, ...]:
        return self.interaction.events()


def _header(headers: object, name: str) -> str:
    if isinstance(headers, Mapping):
        for key, value in headers.items():
            if str(key).lower() == name:
                return str(value[0] if isinstance(value, list) and value else value)
    return ""


def _body_text(body: object) -> str | None:
    if isinstance(body, Mapping):
        body = body.get("string")
    if body is None:
        return None
    if isinstance(body, bytes):
        return body.decode("utf-8")
    return str(body)


def parse_cassette(text: str, location: str) -> Cassette:
    """Read a cassette's YAML text; ``CassetteError`` names what is wrong."""
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise CassetteError(f"{location}: not YAML: {exc}") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("interactions"), list):
        raise CassetteError(f"{location}: not a vcrpy cassette (no interactions list)")
    meta = (data.get("metadata") or {}).get(METADATA_KEY) if isinstance(data.get("metadata"), Mapping) else None
    if not isinstance(meta, Mapping):
        raise CassetteError(f"{location}: no metadata.{METADATA_KEY} (api, scenario, provenance)")
    api = meta.get("api")
    if api not in API_IDS:
        raise CassetteError(f"{location}: metadata api {api!r} is not one of {', '.join(API_IDS)}")
    provenance = meta.get("provenance")
    if not isinstance(provenance, Mapping):
        raise CassetteError(f"{location}: metadata has no provenance")
    interactions = []
    for index, raw in enumerate(data["interactions"]):
        request, response = raw.get("request") or {}, raw.get("response") or {}
        status = (response.get("status") or {}).get("code")
        body = _body_text(response.get("body"))
        if not isinstance(status, int) or body is None:
            raise CassetteError(f"{location}: interaction {index} has no status code or body")
        interactions.append(
            Interaction(
                index=index,
                method=str(request.get("method", "")),
                uri=str(request.get("uri", "")),
                request_body=_body_text(request.get("body")),
                status=status,
                content_type=_header(response.get("headers"), "content-type"),
                response_body=body,
            )
        )
    return Cassette(
        name=Path(location).stem,
        location=location,
        api=str(api),
        scenario=str(meta.get("scenario", "")),
        features=tuple(str(f) for f in meta.get("features") or ()),
        provenance=Provenance.from_mapping(provenance, location),
        interactions=tuple(interactions),
    )


def _walk_package() -> Iterator[tuple[str, Traversable]]:
    root = resources.files(_PACKAGE)
    stack: list[tuple[str, Traversable]] = [("", root)]
    while stack:
        prefix, node = stack.pop()
        for child in sorted(node.iterdir(), key=lambda c: c.name, reverse=True):
            relative = f"{prefix}{child.name}"
            if child.is_dir():
                stack.append((relative + "/", child))
            elif child.name.endswith(".yaml"):
                yield relative, child


def list_cassettes(api: str | None = None, provider: str | None = None) -> tuple[str, ...]:
    """Locations (``provider/api/name.yaml``) of the shipped cassettes, sorted, optionally filtered."""
    if api is not None and api not in API_IDS:
        raise ValueError(f"unknown API {api!r}; known: {', '.join(API_IDS)}")
    found = []
    for location, _ in _walk_package():
        parts = location.split("/")
        if len(parts) != 3:
            continue
        if api is not None and f"{parts[0]}/{parts[1]}" != api_folder(api):
            continue
        if provider is not None and parts[0] != provider:
            continue
        found.append(location)
    return tuple(sorted(found))


def load_cassette(location: str) -> Cassette:
    """Load a shipped cassette by its location (as :func:`list_cassettes` gives it)."""
    node = resources.files(_PACKAGE)
    for part in location.split("/"):
        node = node.joinpath(part)
    if not node.is_file():
        raise CassetteError(f"no shipped cassette {location!r}; see list_cassettes()")
    return parse_cassette(node.read_text(encoding="utf-8"), location)


def load_cassette_file(path: Path | str) -> Cassette:
    """Load a cassette from any file (a re-recording, your own)."""
    path = Path(path)
    return parse_cassette(path.read_text(encoding="utf-8"), str(path))


def recorded_responses(api: str | None = None, *, streams: bool | None = None) -> tuple[RecordedResponse, ...]:
    """Every successful response in the shipped cassettes (optionally one API, streams or not)."""
    out = []
    for location in list_cassettes(api):
        for response in load_cassette(location).responses():
            if streams is None or response.is_stream == streams:
                out.append(response)
    return tuple(out)
