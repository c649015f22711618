"""Re-record the shipped cassettes against the live APIs, then diff the new shapes against them.

::

    OPENAI_API_KEY=... ANTHROPIC_API_KEY=... python -m strictconformance.record --out recordings/
    python -m strictconformance.record --api anthropic.messages --record-mode new_episodes --out recordings/
    python -m strictconformance.record --base-url openai=http://127.0.0.1:8080/v1 --out /tmp/rec

For every shipped cassette whose scenario can be produced live (``tool_call``, ``stream_text``…),
the recorder builds the request around a tool drawn from the kit's tool strategy, sends it
through vcrpy with ``urllib`` (a tool-call cassette gets a second, tool-result turn), scrubs
everything recorded (:mod:`strictconformance.drift.secrets`), writes provenance into the
cassette's ``metadata``, scans the file for secrets (scrubbing the whole file, metadata included,
when the scan finds any; a cassette the scan still flags is deleted), validates every new response with the
reference validator and diffs its shape against the shipped recording.

The provenance says who recorded (this kit, its version), when, the endpoint host the requests
went to and the record mode: ``recorded-live`` only when that is the provider's own documented
host, ``recorded-elsewhere`` for any other (a proxy, a compatible or local server). It is the
self-recorded form the shipped-cassette check accepts, so a reviewed re-recording can be copied
over a shipped cassette as is.

Keys come from the environment (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY`` or
``GOOGLE_API_KEY``, ``GROQ_API_KEY``, ``CEREBRAS_API_KEY``, ``CLOUDFLARE_API_TOKEN`` with
``CLOUDFLARE_ACCOUNT_ID``). Base URLs can be overridden per provider (``--base-url`` or
``STRICTCONFORMANCE_BASE_URL_<PROVIDER>``). Record modes are vcrpy's: ``all`` (always call the
API), ``new_episodes`` (replay what matches, record the rest), ``once`` (record only a missing
cassette) and ``none`` (replay only, never touch the network). The shipped cassettes are never
overwritten unless ``--out`` points at them. Exit code: 0 when nothing drifted, 1 on drift or on
a failed recording, 2 on bad arguments, 3 when nothing was recorded nor replayed (every key
missing: the message names the environment variables; ``--allow-empty`` makes it 0).

A base URL may carry credentials (``https://user:pass@proxy.example/v1``): they are taken out of
the URL and sent as HTTP Basic credentials (``Authorization``, or ``Proxy-Authorization`` when the
provider's key travels in ``Authorization``), so they never reach a cassette's ``uri`` or provenance.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import unquote, urlsplit, urlunsplit

import vcr
import yaml

from strictconformance._version import __version__
from strictconformance.drift.cassettes import (
    METADATA_KEY,
    RECORDER,
    documented_host,
    endpoint_host,
    list_cassettes,
    load_cassette,
)
from strictconformance.drift.errors import DriftNotice, SchemaDriftError
from strictconformance.drift.secrets import (
    scan_cassette_file,
    scrub_cassette_text,
    scrub_uri,
    scrub_vcr_response,
    vcr_scrub_options,
)
from strictconformance.drift.shape_diff import diff_signatures, signature, stream_signature
from strictconformance.drift.shapes import API_IDS
from strictconformance.drift.sse import parse_sse
from strictconformance.drift.validator import load_json_text, validate_response, validate_stream
from strictconformance.record.scenarios import (
    DEFAULT_MODELS,
    PROVIDERS,
    Provider,
    RequestSpec,
    follow_up_for,
    scenario_for,
)

if TYPE_CHECKING:
    from strictconformance.wire import ToolSpec

__all__ = ["RECORD_MODES", "CassetteResult", "RecordOptions", "RecordSummary", "main", "record_all", "recording_origin"]

RECORD_MODES = ("all", "new_episodes", "once", "none")
RecordMode = Literal["all", "new_episodes", "once", "none"]
_MATCH_ON = ("method", "scheme", "host", "port", "path", "query", "body")


@dataclass(frozen=True)
class RecordOptions:
    """What to re-record, where, and how."""

    out: Path
    apis: tuple[str, ...] = API_IDS
    record_mode: RecordMode = "all"
    base_urls: Mapping[str, str] = field(default_factory=dict)
    models: Mapping[str, str] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    timeout: float = 120.0


@dataclass
class CassetteResult:
    """What happened to one cassette."""

    location: str
    status: Literal["recorded", "replayed", "skipped", "failed"]
    message: str
    interactions: int = 0
    recorded: int = 0
    drift: list[SchemaDriftError] = field(default_factory=list)
    notices: list[DriftNotice] = field(default_factory=list)
    diff: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "location": self.location,
            "status": self.status,
            "message": self.message,
            "interactions": self.interactions,
            "recorded": self.recorded,
            "drift": [error.as_dict() for error in self.drift],
            "notices": [str(notice) for notice in self.notices],
            "shape_diff": self.diff,
        }


#: Exit code of a run that recorded nothing (a scheduled re-record whose secrets are missing).
EXIT_NOTHING_RECORDED = 3


@dataclass
class RecordSummary:
    results: list[CassetteResult]
    #: Accept a run that recorded and replayed nothing (every cassette skipped) as a success.
    allow_empty: bool = False
    #: Environment variables whose absence skipped a cassette, with the APIs they would record.
    missing_env: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """Nothing was recorded nor replayed (a scheduled re-record without secrets)."""
        return not any(r.status in ("recorded", "replayed") for r in self.results)

    @property
    def exit_code(self) -> int:
        if any(r.drift or r.status == "failed" for r in self.results):
            return 1
        return EXIT_NOTHING_RECORDED if self.empty and not self.allow_empty else 0

    def empty_message(self) -> str:
        if self.missing_env:
            wanted = "; ".join(f"{names} ({', '.join(apis)})" for names, apis in self.missing_env.items())
            why = f"no key is set for any selected API: set {wanted}"
        else:
            why = "no selected cassette has a live scenario"
        verdict = "accepted (--allow-empty)" if self.allow_empty else "failing: pass --allow-empty to accept an empty run"
        return f"nothing was recorded: {why}; {verdict}"

    def render(self) -> str:
        lines = []
        for result in self.results:
            lines.append(f"{result.status:>8}  {result.location}: {result.message}")
            lines.extend(f"          drift: {error}" for error in result.drift)
            lines.extend(f"          notice: {notice}" for notice in result.notices[:10])
            if len(result.notices) > 10:
                lines.append(f"          … {len(result.notices) - 10} more notices")
            lines.extend(f"          shape {line}" for line in result.diff[:40])
        counts: dict[str, int] = {}
        for result in self.results:
            counts[result.status] = counts.get(result.status, 0) + 1
        drifted = sum(1 for r in self.results if r.drift)
        lines.append(", ".join(f"{n} {status}" for status, n in sorted(counts.items())) + f"; {drifted} with drift")
        if self.empty:
            lines.append(self.empty_message())
        return "\n".join(lines)


# -- one cassette -------------------------------------------------------------------------------------


#: Where the recording tool comes from (written into each cassette's provenance).
RECORDING_TOOL_SOURCE = "strictconformance.strategies.tools.tool_lists"


@cache
def recording_tool() -> dict[str, Any]:
    """The tool requests are built around: the smallest strict-ready tool the kit's own tool
    strategy (``strictconformance.strategies.tools``) draws, found deterministically, as
    ``{"name", "description", "parameters"}``."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis import strategies as st

    from strictconformance.strategies.tools import tool_lists, tool_schemas

    quiet = settings(database=None, derandomize=True, max_examples=500, phases=[Phase.generate, Phase.shrink],
                     suppress_health_check=list(HealthCheck))
    # Strict mode wants every property required and no unions; a described tool with two or more
    # flat properties gives the model something to fill in.
    schemas = tool_schemas(max_properties=3, max_depth=0, optional=False, unions=False)
    candidates = tool_lists(min_size=1, max_size=1, strict=st.just(True), schema=schemas)

    def strict_ready(drawn: tuple[ToolSpec, ...]) -> bool:
        tool = drawn[0]
        return bool(tool.description) and len(tool.input_schema["properties"]) >= 2

    (tool,) = find(candidates, strict_ready, settings=quiet)
    return {"name": tool.name, "description": tool.description, "parameters": dict(tool.input_schema)}


def _provider_url(provider: Provider, options: RecordOptions) -> str:
    env_name = f"STRICTCONFORMANCE_BASE_URL_{provider.name.upper()}"
    base = options.base_urls.get(provider.name) or options.env.get(env_name) or provider.base_url
    values = {name: options.env.get(var, "") for name, var in provider.url_env.items()}
    for name, value in values.items():
        base = base.replace("{" + name + "}", value or "ACCOUNT_ID")
    return base.rstrip("/")


def split_userinfo(url: str) -> tuple[str, str | None]:
    """``url`` without its ``user:password@`` part, and that part as an HTTP Basic credential
    (``Basic base64(user:password)``), or None when the URL has none."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    token = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment)), "Basic " + token


def _key(provider: Provider, env: Mapping[str, str]) -> str | None:
    return next((env[name] for name in provider.key_env if env.get(name)), None)


@dataclass
class _Exchange:
    status: int
    content_type: str
    body: str


def _send(url: str, spec: RequestSpec, headers: Mapping[str, str], timeout: float) -> _Exchange:
    data = json.dumps(spec.body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return _Exchange(response.status, response.headers.get("Content-Type", ""), response.read().decode("utf-8", "replace"))
    except urllib.error.HTTPError as error:
        return _Exchange(error.code, error.headers.get("Content-Type", "") if error.headers else "", error.read().decode("utf-8", "replace"))


def _keep_successes(response: MutableMapping[str, Any]) -> MutableMapping[str, Any] | None:
    """vcrpy hook: never record an error response (a 401 is not a shape); scrub the rest."""
    code = (response.get("status") or {}).get("code", 0)
    if not isinstance(code, int) or not 200 <= code < 300:
        return None
    return scrub_vcr_response(response)


def _vcr(mode: RecordMode) -> vcr.VCR:
    options = vcr_scrub_options()
    options["before_record_response"] = _keep_successes
    return vcr.VCR(record_mode=mode, match_on=_MATCH_ON, **options)


def recording_origin(api: str, url: str) -> Literal["recorded-live", "recorded-elsewhere"]:
    """``recorded-live`` when ``url`` is the provider's own documented host over HTTPS; anything
    else (a proxy, a compatible or local server given with ``--base-url``) is ``recorded-elsewhere``."""
    live = endpoint_host(url) == documented_host(api) and url.lower().startswith("https://")
    return "recorded-live" if live else "recorded-elsewhere"


def _provenance(api: str, scenario: str, features: Sequence[str], url: str, model: str, mode: RecordMode) -> dict[str, Any]:
    """The self-recorded provenance form (see :func:`strictconformance.drift.cassettes.provenance_problems`)."""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    tool = recording_tool()
    source = scrub_uri(url)
    return {
        "api": api,
        "scenario": scenario,
        "features": list(features),
        "provenance": {
            "origin": recording_origin(api, url),
            "recorder": RECORDER,
            "kit_version": __version__,
            "recorded_by": f"python -m {RECORDER} (strictconformance {__version__}, vcrpy {vcr.__version__}, urllib)",
            "recorded_on": today,
            "date_evidence": "clock of the machine that recorded",
            "endpoint": endpoint_host(source),
            "record_mode": mode,
            "source": source,
            "model": model,
            "request_built_from": f"{RECORDING_TOOL_SOURCE}: tool {tool['name']!r}",
            "licence": None,
            "changes": "scrubbed while recording by strictconformance.drift.secrets (sensitive headers, keys, account ids)",
        },
    }


def _write_metadata(path: Path, metadata: Mapping[str, Any]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.setdefault("metadata", {})[METADATA_KEY] = dict(metadata)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")


def _check(api: str, exchange: _Exchange) -> tuple[list[SchemaDriftError], list[DriftNotice], dict[str, set[str]]]:
    if exchange.content_type.startswith("text/event-stream"):
        events = parse_sse(exchange.body)
        report = validate_stream(api, events)
        return list(report.errors), list(report.notices), stream_signature(events)
    try:
        payload = load_json_text(exchange.body)
    except ValueError as exc:
        error = SchemaDriftError(api.split(".")[0], api, "", "a JSON body", "invalid JSON text", "DR-6", str(exc)[:80])
        return [error], [], {}
    report = validate_response(api, payload)
    return list(report.errors), list(report.notices), signature(payload)


def record_cassette(location: str, options: RecordOptions) -> CassetteResult:
    """Re-record one shipped cassette into ``options.out / location``."""
    shipped = load_cassette(location)
    scenario = scenario_for(shipped.api, shipped.scenario)
    if scenario is None:
        why = "a documented-shape cassette" if shipped.provenance.origin == "documented-shape" else "a recorded cassette"
        return CassetteResult(location, "skipped", f"{why} whose scenario {shipped.scenario!r} has no live request")
    provider = PROVIDERS[shipped.provider]
    key = _key(provider, options.env)
    if key is None and options.record_mode == "all":
        return CassetteResult(location, "skipped", f"set {_needed(provider)} to record {shipped.api}")
    base, basic = split_userinfo(_provider_url(provider, options))
    model = options.models.get(shipped.api) or DEFAULT_MODELS[shipped.api]
    tool = recording_tool()
    headers = dict(provider.extra_headers)
    if key is not None:
        headers[provider.auth_header] = provider.auth_prefix + key
    if basic is not None:  # credentials of the base URL: a header (scrubbed), never the recorded URI
        headers["Proxy-Authorization" if provider.auth_header.lower() == "authorization" else "Authorization"] = basic
    target = options.out / location
    target.parent.mkdir(parents=True, exist_ok=True)
    first = scenario.build(model, tool)
    exchanges: list[_Exchange] = []
    try:
        with _vcr(options.record_mode).use_cassette(str(target)) as cassette:
            spec: RequestSpec | None = first
            while spec is not None:
                exchange = _send(base + spec.path, spec, {**headers, **spec.extra_headers}, options.timeout)
                exchanges.append(exchange)
                if not 200 <= exchange.status < 300:
                    break
                spec = None
                if scenario.follow_up and len(exchanges) == 1 and not first.stream:
                    body = follow_up_for(shipped.api)(first.body, load_json_text(exchange.body))
                    spec = RequestSpec(first.path, body) if body is not None else None
            replayed = cassette.play_count
    except vcr.errors.CannotOverwriteExistingCassetteException as exc:
        return CassetteResult(location, "failed", f"record mode {options.record_mode!r} cannot serve this request: {str(exc).splitlines()[0]}")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return CassetteResult(location, "failed", f"request failed: {exc}")
    failed = next((e for e in exchanges if not 200 <= e.status < 300), None)
    recorded = len(exchanges) - replayed
    if recorded > 0 and target.exists():
        _write_metadata(target, _provenance(shipped.api, shipped.scenario, shipped.features, base + first.path.split("?")[0], model,
                                            options.record_mode))
    if target.exists() and scan_cassette_file(target):  # what the hooks cannot see (the metadata written above)
        target.write_text(scrub_cassette_text(target.read_text(encoding="utf-8")), encoding="utf-8")
    if target.exists():
        leaks = [str(f) for f in scan_cassette_file(target)]
        if key and key in target.read_text(encoding="utf-8"):
            leaks.append("the API key itself")
        if leaks:
            target.unlink()
            return CassetteResult(location, "failed", f"deleted: secrets survived scrubbing: {'; '.join(leaks[:3])}")
    if failed is not None:
        return CassetteResult(location, "failed", f"HTTP {failed.status} from {base + first.path}: {failed.body[:200]}", len(exchanges), recorded)
    result = CassetteResult(
        location,
        "recorded" if recorded else "replayed",
        f"{len(exchanges)} interaction(s), {recorded} new, model {model}",
        len(exchanges),
        recorded,
    )
    for index, exchange in enumerate(exchanges):
        errors, notices, new_signature = _check(shipped.api, exchange)
        result.drift.extend(errors)
        result.notices.extend(notices)
        if index < len(shipped.interactions):
            old = shipped.interactions[index]
            old_signature = stream_signature(old.events()) if old.is_stream else signature(old.json())
            result.diff.extend(f"[{index}] {line}" for line in diff_signatures(old_signature, new_signature).lines())
    return result


def record_all(options: RecordOptions, *, allow_empty: bool = False) -> RecordSummary:
    """Re-record every shipped cassette of ``options.apis``."""
    results = []
    missing: dict[str, list[str]] = {}
    for api in options.apis:
        for location in list_cassettes(api):
            result = record_cassette(location, options)
            results.append(result)
            provider = PROVIDERS[load_cassette(location).provider]
            if result.status == "skipped" and scenario_for(api, load_cassette(location).scenario) is not None \
                    and _key(provider, options.env) is None:
                apis = missing.setdefault(_needed(provider), [])
                if api not in apis:
                    apis.append(api)
    return RecordSummary(results, allow_empty, {names: tuple(apis) for names, apis in missing.items()})


def _needed(provider: Provider) -> str:
    """The environment a provider's recording needs: its key, and the variables in its URL."""
    key = " or ".join(provider.key_env)
    return key + (f" with {', '.join(provider.url_env.values())}" if provider.url_env else "")


def key_environment() -> str:
    """The environment variables the recorder reads, per provider, for ``--help``."""
    lines = []
    for provider in PROVIDERS.values():
        extra = "".join(f" and {var} (the {{{name}}} in its URL)" for name, var in provider.url_env.items())
        lines.append(f"  {provider.name:<10} {' or '.join(provider.key_env)}{extra}; base URL {provider.base_url}")
    return "\n".join(lines)


# -- command line -------------------------------------------------------------------------------------


def _pairs(values: Sequence[str], what: str, known: Sequence[str]) -> dict[str, str]:
    out = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not rest or name not in known:
            raise argparse.ArgumentTypeError(f"--{what} takes NAME=VALUE with NAME one of {', '.join(known)}; got {value!r}")
        out[name] = rest
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m strictconformance.record",
        description="Re-record the shipped cassettes against the live APIs (keys from the environment), "
        "validate the new responses and diff their shapes against the shipped ones.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="environment variables (a provider without its key is skipped; a run that records "
        "nothing exits 3 unless --allow-empty):\n" + key_environment()
        + "\n  STRICTCONFORMANCE_BASE_URL_<PROVIDER> overrides a base URL, like --base-url."
        "\nexit codes: 0 recorded without drift, 1 drift or a failed recording, 2 bad arguments, 3 nothing recorded.",
    )
    parser.add_argument("--out", type=Path, default=Path("sc-recordings"), help="directory for the new cassettes (default: sc-recordings)")
    parser.add_argument("--api", action="append", choices=API_IDS, help="only these APIs (repeatable; default: all)")
    parser.add_argument("--record-mode", choices=RECORD_MODES, default="all", help="vcrpy record mode (default: all)")
    parser.add_argument("--base-url", action="append", default=[], metavar="PROVIDER=URL", help="override a provider's base URL")
    parser.add_argument("--model", action="append", default=[], metavar="API=MODEL", help="override the model used for an API")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default: 120)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--list", action="store_true", help="list the cassettes, their scenarios and whether they can be re-recorded")
    parser.add_argument("--allow-empty", action="store_true",
                        help="exit 0 even when nothing was recorded (every key missing); by default that is a failure")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        base_urls = _pairs(args.base_url, "base-url", sorted(PROVIDERS))
        models = _pairs(args.model, "model", API_IDS)
    except argparse.ArgumentTypeError as exc:
        parser.print_usage(sys.stderr)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    apis = tuple(args.api) if args.api else API_IDS
    if args.list:
        for api in apis:
            for location in list_cassettes(api):
                cassette = load_cassette(location)
                live = "live" if scenario_for(api, cassette.scenario) else "no live scenario"
                print(f"{location}  {cassette.scenario}  {cassette.provenance.origin}  ({live})")
        return 0
    options = RecordOptions(out=args.out, apis=apis, record_mode=args.record_mode, base_urls=base_urls, models=models, timeout=args.timeout)
    summary = record_all(options, allow_empty=args.allow_empty)
    if args.json:
        document: dict[str, Any] = {"results": [r.as_dict() for r in summary.results], "exit_code": summary.exit_code}
        if summary.empty:
            document["nothing_recorded"] = summary.empty_message()
        print(json.dumps(document, indent=2))
    else:
        print(summary.render())
    if summary.empty and args.json:  # the text summary says it already; JSON readers get it on stderr too
        print(f"python -m strictconformance.record: {summary.empty_message()}", file=sys.stderr)
    return summary.exit_code
