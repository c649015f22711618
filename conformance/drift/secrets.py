"""Keep secrets out of cassettes: scrub what is recorded, scan what is shipped.

Scrubbing drops headers by name (``authorization``, ``x-api-key``...) and by pattern (any name
with ``key``, ``token``, ``secret``, ``auth``, ``cookie``, ``session`` or ``password`` as a word),
replaces key-shaped strings anywhere (``sk-…``, ``AIza…``, ``gsk_…``, bearer tokens, JWTs,
OpenAI org/project ids; also right after a ``/`` or ``+``, and percent-encoded) with ``REDACTED``,
replaces URL credentials (``https://user:pass@proxy/`` becomes ``https://REDACTED@proxy/``),
removes key query parameters (``key``, ``api-key``, ``api_key``…, in a URI or anywhere in a text),
rewrites a body that is base64 text (or base64 of gzip) with its secrets scrubbed, and replaces
Cloudflare account ids in URLs with ``ACCOUNT_ID``.

:func:`scan_cassette_text` reports what still looks secret in a cassette file; the self-tests
run it over every shipped cassette, and the recorder runs it on what it writes. It reads the
file's lines, then every value of the parsed YAML: ``!!binary`` bodies decoded (and gunzipped),
JSON bodies and SSE events parsed so ``\u0073k-…`` escapes read as ``sk-…``, base64 text bodies
without the ``!!binary`` tag decoded (and gunzipped), percent-encoded text decoded, and fields
named like secrets (``api_token``, ``client_secret``...) in them, whatever their value looks like.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import json
import re
import zlib
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import yaml

__all__ = [
    "PLACEHOLDER",
    "SECRET_VALUE_PATTERNS",
    "SENSITIVE_HEADER_NAMES",
    "SecretFinding",
    "is_sensitive_header",
    "scan_cassette_file",
    "scan_cassette_text",
    "scan_shipped_cassettes",
    "scrub_cassette_text",
    "scrub_headers",
    "scrub_text",
    "scrub_uri",
]

PLACEHOLDER = "REDACTED"
ACCOUNT_PLACEHOLDER = "ACCOUNT_ID"

#: Headers dropped by exact (case-insensitive) name.
SENSITIVE_HEADER_NAMES: frozenset[str] = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "set-cookie",
        "openai-organization",
        "openai-project",
        "anthropic-organization-id",
        "cf-access-client-id",
        "cf-access-client-secret",
        "x-auth-email",
        "x-auth-key",
    }
)

# a sensitive word as a whole dash/underscore-separated part of a header name ("x-api-key",
# "session-token") but not inside another word ("anthropic-ratelimit-tokens-limit" is fine)
_SENSITIVE_HEADER_PATTERN = re.compile(
    r"(?:^|[-_])(?:api[-_]?key|key|token|secret|auth|authorization|cookie|session|password|credentials?)(?:$|[-_])",
    re.IGNORECASE,
)

# a key must not be glued to a longer base64/word run (opaque signatures contain "sk-" by chance)
_B = r"(?<![A-Za-z0-9_\-+/])"
# a key whose prefix holds "-" or "_" may follow "/" or "+" (a URL path, "a+sk-…"): standard base64
# has no "-"/"_" and URL-safe base64 has no "/"/"+", so no base64 blob holds "/sk-" by chance
_S = r"(?<![A-Za-z0-9_\-])"
# a prefix without "-"/"_" right after "/" or "+": only as a whole token of the key's exact length
# (a path segment: "/AIza…/v1beta"); a base64 blob holding one by chance is ~1e-9 per position
_AFTER_SLASH = r"(?<=[/+])"
_END = r"(?![A-Za-z0-9_\-+=])"
#: (name, pattern) of values that are secrets wherever they appear.
SECRET_VALUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Anthropic API key", re.compile(_S + r"sk-ant-[A-Za-z0-9_\-]{16,}")),
    ("OpenAI-style API key", re.compile(_S + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    ("Google API key", re.compile(_B + r"AIza[0-9A-Za-z_\-]{30,}")),
    ("Google API key", re.compile(_AFTER_SLASH + r"AIza[0-9A-Za-z_\-]{35}" + _END)),
    ("Groq API key", re.compile(_S + r"gsk_[A-Za-z0-9]{20,}")),
    ("Cerebras API key", re.compile(_S + r"csk-[A-Za-z0-9]{20,}")),
    ("Hugging Face token", re.compile(_S + r"hf_[A-Za-z0-9]{30,}")),
    ("GitHub token", re.compile(_S + r"gh[pousr]_[A-Za-z0-9]{30,}")),
    ("AWS access key id", re.compile(_B + r"AKIA[0-9A-Z]{16}")),
    ("AWS access key id", re.compile(_AFTER_SLASH + r"AKIA[0-9A-Z]{16}" + _END)),
    # credentials in a URL: https://user:pass@host/ (what --base-url with a proxy login writes)
    ("credentials in a URL", re.compile(r"(?<=://)(?!" + PLACEHOLDER + r"@)[^/\s@\"'<>?#]+(?=@[A-Za-z0-9\[])")),
    # a key as a query parameter anywhere in a text (a URL in a body, a header, an error message)
    ("key in a query parameter", re.compile(
        r"(?<=[?&;])(?:api[-_]?key|x-api-key|key|access[-_]token|auth[-_]?token|token|signature|sig)=(?!" + PLACEHOLDER
        + r"(?![^&\s\"'#]))[^&\s\"'#]+", re.IGNORECASE)),
    ("bearer token", re.compile(r"\bBearer\s+(?!" + PLACEHOLDER + r")[A-Za-z0-9._~+/=\-]{16,}")),
    ("JSON Web Token", re.compile(_B + r"eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}")),
    ("OpenAI organization id", re.compile(_B + r"org-[A-Za-z0-9]{20,}")),
    ("OpenAI project id", re.compile(_B + r"proj_[A-Za-z0-9]{20,}")),
    # Cloudflare API tokens carry no prefix: exactly 40 letters, digits, _ and -, mixed case with
    # digits, standing alone (commit hashes are lower-case hex; opaque blobs are longer runs)
    ("Cloudflare-style API token", re.compile(
        r"(?<![A-Za-z0-9_\-+/=.])(?=[A-Za-z0-9_\-]*[A-Z])(?=[A-Za-z0-9_\-]*[a-z])(?=[A-Za-z0-9_\-]*[0-9])"
        r"[A-Za-z0-9_\-]{40}(?![A-Za-z0-9_\-+/=.])"
    )),
)

#: JSON fields whose value is a secret whatever it looks like (``{"api_token": "..."}`` in a body).
_SECRET_FIELD = re.compile(
    r"^(?:.*[-_])?(?:api[-_]?keys?|api[-_]?tokens?|access[-_]?tokens?|refresh[-_]?tokens?|auth[-_]?tokens?|bearer[-_]?tokens?"
    r"|session[-_]?tokens?|id[-_]?tokens?|secret[-_]?keys?|client[-_]?secrets?|private[-_]?keys?|secrets?|passwords?|passwd"
    r"|authorization|credentials?|token)$",
    re.IGNORECASE,
)
#: Placeholder values a scrubbed secret field may hold.
_SCRUBBED_VALUES = frozenset({"", PLACEHOLDER, "Bearer " + PLACEHOLDER, ACCOUNT_PLACEHOLDER})
#: Bodies decompressed past this many bytes are scanned only that far.
_MAX_DECODED = 64 * 1024 * 1024

_ACCOUNT_IN_PATH = re.compile(r"(/accounts/)([0-9a-f]{32})(?=/|$)")
_SECRET_QUERY_KEYS = frozenset({"key", "api_key", "api-key", "apikey", "x-api-key", "access_token", "access-token",
                                "auth_token", "auth-token", "token", "auth", "signature", "sig"})
# a run of URL characters holding at least one %XX escape (a percent-encoded key)
_PERCENT_RUN = re.compile(r"(?:[A-Za-z0-9_.~\-]|%[0-9A-Fa-f]{2})*%[0-9A-Fa-f]{2}(?:[A-Za-z0-9_.~\-]|%[0-9A-Fa-f]{2})*")
# a text that is all base64 (a body recorded without the !!binary tag): 24+ characters
_BASE64_TEXT = re.compile(r"\s*(?:[A-Za-z0-9+/]{4}\s*){5,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})\s*")


def is_sensitive_header(name: str) -> bool:
    """Whether a header is dropped from cassettes (by exact name or by pattern)."""
    lowered = name.lower()
    return lowered in SENSITIVE_HEADER_NAMES or bool(_SENSITIVE_HEADER_PATTERN.search(lowered))


def _replacement(kind: str, match: re.Match[str]) -> str:
    if kind == "bearer token":
        return "Bearer " + PLACEHOLDER
    if kind == "key in a query parameter":
        return match.group(0).split("=", 1)[0] + "=" + PLACEHOLDER
    return PLACEHOLDER


def _has_secret(text: str) -> bool:
    return any(pattern.search(text) for _, pattern in SECRET_VALUE_PATTERNS)


def _base64_body(text: str) -> tuple[bytes, bool] | None:
    """The bytes a base64 text holds and whether they were gzipped, when they are a text body
    (UTF-8 after gunzipping); None for anything else (a word that happens to be base64)."""
    if not _BASE64_TEXT.fullmatch(text):
        return None
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        return None
    zipped = raw[:2] == b"\x1f\x8b"
    if zipped:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error):
            return None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return raw, zipped


def scrub_text(text: str) -> str:
    """``text`` with every key-shaped value replaced by ``REDACTED`` (also percent-encoded ones,
    URL credentials and key query parameters), account ids masked, and a text that is a base64
    (or base64-of-gzip) body re-encoded with its content scrubbed."""
    body = _base64_body(text)
    if body is not None:
        raw, zipped = body
        decoded = raw.decode("utf-8")
        cleaned = scrub_text(decoded)
        if cleaned != decoded:
            data = cleaned.encode("utf-8")
            return base64.b64encode(gzip.compress(data, mtime=0) if zipped else data).decode("ascii")
        return text
    if "%" in text:
        text = _PERCENT_RUN.sub(lambda m: PLACEHOLDER if _has_secret(unquote(m.group(0))) else m.group(0), text)
    for kind, pattern in SECRET_VALUE_PATTERNS:
        text = pattern.sub(lambda m, kind=kind: _replacement(kind, m), text)  # type: ignore[misc]
    return _ACCOUNT_IN_PATH.sub(r"\g<1>" + ACCOUNT_PLACEHOLDER, text)


def scrub_uri(uri: str) -> str:
    """A URI without key query parameters and with Cloudflare account ids masked."""
    parts = urlsplit(uri)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() not in _SECRET_QUERY_KEYS]
    netloc = parts.netloc.rpartition("@")[2]  # never the user:password of a proxy login
    rebuilt = urlunsplit((parts.scheme, netloc, parts.path, urlencode(query, safe=":"), parts.fragment))
    return scrub_text(rebuilt)


def scrub_headers(headers: Mapping[str, Any]) -> dict[str, Any]:
    """Headers without the sensitive ones, other values scrubbed (lists of values kept as lists)."""
    kept: dict[str, Any] = {}
    for name, value in headers.items():
        if is_sensitive_header(name):
            continue
        if isinstance(value, list):
            kept[name] = [scrub_text(v) if isinstance(v, str) else v for v in value]
        else:
            kept[name] = scrub_text(value) if isinstance(value, str) else value
    return kept


# -- vcrpy hooks -------------------------------------------------------------------------------------


def scrub_vcr_request(request: Any) -> Any:
    """``before_record_request`` hook for vcrpy: drop sensitive headers, scrub URI and body."""
    for name in list(request.headers):
        if is_sensitive_header(name):
            del request.headers[name]
    request.uri = scrub_uri(request.uri)
    body = request.body
    if isinstance(body, bytes):
        with contextlib.suppress(UnicodeDecodeError):
            request.body = scrub_text(body.decode("utf-8")).encode("utf-8")
    elif isinstance(body, str):
        request.body = scrub_text(body)
    return request


def scrub_vcr_response(response: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """``before_record_response`` hook for vcrpy: drop sensitive headers, scrub the body."""
    response["headers"] = scrub_headers(response.get("headers") or {})
    body = response.get("body") or {}
    data = body.get("string")
    if isinstance(data, bytes):
        with contextlib.suppress(UnicodeDecodeError):
            body["string"] = scrub_text(data.decode("utf-8")).encode("utf-8")
    elif isinstance(data, str):
        body["string"] = scrub_text(data)
    return response


def vcr_scrub_options() -> dict[str, Any]:
    """Keyword arguments for ``vcr.VCR(...)``/``use_cassette`` that scrub everything recorded."""
    return {
        "filter_headers": sorted(SENSITIVE_HEADER_NAMES),
        "filter_query_parameters": sorted(_SECRET_QUERY_KEYS),
        "before_record_request": scrub_vcr_request,
        "before_record_response": scrub_vcr_response,
        "decode_compressed_response": True,
    }


def _scrub_body(value: Any) -> Any:
    """A recorded body scrubbed in its own form: text stays text, bytes stay bytes, gzip stays gzip."""
    if not isinstance(value, bytes):
        return scrub_text(value) if isinstance(value, str) else value
    zipped = value[:2] == b"\x1f\x8b"
    try:
        text = (gzip.decompress(value) if zipped else value).decode("utf-8")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError):
        return value
    cleaned = scrub_text(text)
    if cleaned == text:
        return value
    data = cleaned.encode("utf-8")
    return gzip.compress(data, mtime=0) if zipped else data


def scrub_cassette_text(text: str) -> str:
    """A whole cassette file scrubbed as the recorder scrubs what it records: request URIs,
    sensitive headers dropped, other headers and every body (``!!binary``, gzip, base64 text)
    scrubbed. For cleaning a cassette recorded by other means before committing it."""
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for interaction in _interactions(data):
        assert isinstance(interaction, dict)
        request = interaction.get("request") or {}
        if isinstance(request.get("uri"), str):
            request["uri"] = scrub_uri(request["uri"])
        if "body" in request:
            request["body"] = _scrub_body(request["body"])
        response = interaction.get("response") or {}
        body = response.get("body")
        if isinstance(body, dict) and "string" in body:
            body["string"] = _scrub_body(body["string"])
        for side in (request, response):
            if isinstance(side.get("headers"), Mapping):
                side["headers"] = scrub_headers(side["headers"])
    return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True)


# -- scanning ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SecretFinding:
    """Something in a cassette that looks like a secret."""

    where: str
    line: int
    kind: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.kind}: {self.excerpt}"


def _mask(secret: str) -> str:
    return secret[:6] + "…" if len(secret) > 6 else "…"


def _decoded(data: bytes) -> str:
    """The text of a recorded body: gunzipped (or inflated) when compressed, bounded in size."""
    if data[:2] == b"\x1f\x8b" or data[:1] == b"\x78":
        wbits = 16 + zlib.MAX_WBITS if data[:2] == b"\x1f\x8b" else zlib.MAX_WBITS
        with contextlib.suppress(zlib.error):
            data = zlib.decompressobj(wbits).decompress(data, _MAX_DECODED)
    return data.decode("utf-8", "replace")


def _embedded(text: str) -> list[object]:
    """The JSON values ``text`` holds: itself as a JSON document, or its SSE events' data."""
    stripped = text.strip()
    candidates: list[str] = []
    if stripped[:1] in ("{", "[", '"'):
        candidates.append(stripped)
    elif "data:" in text:
        from strictconformance.drift.sse import parse_sse  # a body's events, as SDKs read them

        with contextlib.suppress(Exception):
            candidates.extend(event.data for event in parse_sse(text))
    values: list[object] = []
    for candidate in candidates:
        with contextlib.suppress(ValueError, RecursionError):
            values.append(json.loads(candidate))
    return values


def _scan_values(data: object, where: str, known: set[str]) -> list[SecretFinding]:
    """Secrets in every parsed value: strings, ``!!binary`` bytes (decoded, gunzipped), the JSON
    documents and SSE events inside them (escapes decoded), and fields named like secrets."""
    findings: list[SecretFinding] = []
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        label, node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                child = f"{label}.{key}" if label else str(key)
                stack.append((child, value))
                if isinstance(key, str) and _SECRET_FIELD.match(key) and isinstance(value, str) and value.strip() not in _SCRUBBED_VALUES:
                    findings.append(SecretFinding(where, 0, f"value of the secret-named field {child}", _mask(value)))
                elif isinstance(key, str):
                    stack.append((f"{label} (key)", key))
        elif isinstance(node, list):
            stack.extend((f"{label}[{index}]", value) for index, value in enumerate(node))
        elif isinstance(node, (bytes, str)):
            text = _decoded(node) if isinstance(node, bytes) else node
            if isinstance(node, str):
                body = _base64_body(node)
                if body is not None:  # a body recorded as base64 text without the !!binary tag
                    stack.append((f"{label} (base64{' of gzip' if body[1] else ''})", body[0]))
                if "%" in node:
                    for run in _PERCENT_RUN.finditer(node):
                        decoded = unquote(run.group(0))
                        if _has_secret(decoded) and run.group(0) not in known:
                            known.add(run.group(0))
                            findings.append(SecretFinding(where, 0, f"percent-encoded secret in {label or 'the document'}",
                                                          _mask(run.group(0))))
            for kind, pattern in SECRET_VALUE_PATTERNS:
                for match in pattern.finditer(text):
                    if match.group(0) not in known:
                        known.add(match.group(0))
                        findings.append(SecretFinding(where, 0, f"{kind} in {label or 'the document'} (decoded)", _mask(match.group(0))))
            stack.extend((f"{label} (JSON)", value) for value in _embedded(text))
    return findings


def scan_cassette_text(text: str, where: str = "<cassette>") -> list[SecretFinding]:
    """Key-shaped values, unmasked account ids and sensitive headers left in a cassette: in its
    lines, and in its parsed values (binary and gzip bodies decoded, JSON escapes read, fields
    named like secrets)."""
    findings: list[SecretFinding] = []
    known: set[str] = set()  # secrets already reported from the lines
    for number, line in enumerate(text.splitlines(), start=1):
        for kind, pattern in SECRET_VALUE_PATTERNS:
            for match in pattern.finditer(line):
                known.add(match.group(0))
                findings.append(SecretFinding(where, number, kind, _mask(match.group(0))))
        findings.extend(
            SecretFinding(where, number, "Cloudflare account id in a URL", _mask(m.group(2))) for m in _ACCOUNT_IN_PATH.finditer(line)
        )
    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        findings.append(SecretFinding(where, 0, "unreadable YAML (cannot check headers)", str(exc)[:80]))
        return findings
    findings.extend(_scan_values(data, where, known))
    for index, interaction in enumerate(_interactions(data)):
        for side in ("request", "response"):
            headers = (interaction.get(side) or {}).get("headers") or {}
            if isinstance(headers, Mapping):
                findings.extend(
                    SecretFinding(where, 0, f"sensitive header in interactions[{index}].{side}", str(name))
                    for name in headers
                    if is_sensitive_header(str(name))
                )
        uri = str((interaction.get("request") or {}).get("uri", ""))
        query_keys = {k.lower() for k, _ in parse_qsl(urlsplit(uri).query)}
        findings.extend(
            SecretFinding(where, 0, f"secret query parameter in interactions[{index}].request.uri", key)
            for key in sorted(query_keys & _SECRET_QUERY_KEYS)
        )
    return findings


def _interactions(data: object) -> Iterable[Mapping[str, Any]]:
    if isinstance(data, Mapping) and isinstance(data.get("interactions"), list):
        return [i for i in data["interactions"] if isinstance(i, Mapping)]
    return []


def scan_cassette_file(path: Path | str) -> list[SecretFinding]:
    path = Path(path)
    return scan_cassette_text(path.read_text(encoding="utf-8"), str(path))


def scan_shipped_cassettes() -> list[SecretFinding]:
    """Scan every cassette shipped in ``strictconformance.cassettes``."""
    findings: list[SecretFinding] = []
    root = resources.files("strictconformance.cassettes")
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.iterdir():
            if child.is_dir():
                stack.append(child)
            elif child.name.endswith((".yaml", ".yml")):
                findings.extend(scan_cassette_text(child.read_text(encoding="utf-8"), str(child)))
    return findings
