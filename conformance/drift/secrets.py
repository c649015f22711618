r"""Keep secrets out of cassettes: scrub what is recorded, scan what is shipped.

Scrubbing drops headers by name (``authorization``, ``x-api-key``...) and by pattern (any name
with ``key``, ``token``, ``secret``, ``auth``, ``cookie``, ``session`` or ``password`` as a word),
replaces key-shaped strings anywhere with ``REDACTED``: provider keys (OpenAI ``sk-``/``sk-proj-``,
Anthropic ``sk-ant-``, Google ``AIza…``, Groq ``gsk_``, Cerebras ``csk-``, Cloudflare ``cfut_``/
``cfat_``/``cfk_`` and unprefixed 40-character tokens), GitHub ``ghp_``/``github_pat_`` tokens,
Google ``ya29.`` OAuth tokens, PEM private keys, AWS keys and ``aws_secret_access_key`` values,
bearer tokens, JWTs, OpenAI org/project ids; also right after a ``/`` or ``+``, percent-encoded or
written with JSON ``\u`` escapes. It replaces URL credentials (``https://user:pass@proxy/`` becomes
``https://REDACTED@proxy/``), the values of key parameters in a query or a form-encoded body
(``api_key=…``, ``client_secret=…``, the first field too) and of secret-named fields
(``{"api_token": …}``, ``"\u0061pi_key"``, ``clientSecret``), rewrites a body that is base64 text
(or base64 of gzip) with its secrets scrubbed, and replaces Cloudflare account ids in URLs with
``ACCOUNT_ID``. :func:`scrub_cassette_text` does all of it to every value of a cassette, its
``metadata`` included.

:func:`scan_cassette_text` reports what still looks secret in a cassette file; the self-tests
run it over every shipped cassette, and the recorder runs it on what it writes. It reads the
file's lines, then every value of the parsed YAML: ``!!binary`` bodies decoded (and gunzipped),
JSON bodies and SSE events parsed so ``\u0073k-…`` escapes read as ``sk-…``, base64 text bodies
without the ``!!binary`` tag decoded (and gunzipped), percent-encoded and ``\u``-escaped text
decoded, and fields named like secrets (``api_token``, ``client_secret``...) in them, whatever
their value looks like. The scrubber never leaves what the scan flags.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import json
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
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
    "is_secret_field",
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
    r"(?:^|[-_])(?:api[-_]?key|key|token|secret|auth|authorization|cookie|session|password|passwd|credentials?)(?:$|[-_])",
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

# Names whose value is a secret whatever it looks like, as snake_case words: the last word(s) of a
# field or parameter name ("aws_secret_access_key", "clientSecret", "x-api-key"). A bare "token" is
# one too, but not "next_page_token": only the credential kinds below take a prefix.
_SECRET_NAME_WORDS = (
    r"api_?keys?|api_?tokens?|access_?tokens?|refresh_?tokens?|auth_?tokens?|bearer_?tokens?|oauth_?tokens?"
    r"|session_?tokens?|security_?tokens?|id_?tokens?|secret_?keys?|secret_?access_?keys?|client_?secrets?"
    r"|private_?keys?|secrets?|passwords?|passwd|authorization|credentials?"
)
_SECRET_FIELD = re.compile(r"(?:[a-z0-9]+_)*(?:" + _SECRET_NAME_WORDS + r")|token")
# the same names as they are written in a text: any case, "-", "_" or "." between words, camelCase
_SECRET_NAME_TEXT = (
    r"(?:(?:[A-Za-z0-9]+[-_.])*(?-i:[A-Za-z0-9]*[a-z0-9](?=[A-Z]))?(?:" + _SECRET_NAME_WORDS.replace("_?", r"[-_.]?") + r")|token)"
)
# what a scrubbed value is (a value that is one of these is no secret)
_SCRUBBED = r"(?:REDACTED|ACCOUNT_ID|Bearer\s+REDACTED|null|true|false|None)(?![A-Za-z0-9_\-])"

#: (name, pattern) of values that are secrets wherever they appear. A pattern with a group named
#: ``keep`` keeps that part (the parameter's name) and replaces the rest.
SECRET_VALUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Anthropic API key", re.compile(_S + r"sk-ant-[A-Za-z0-9_\-]{16,}")),
    ("OpenAI-style API key", re.compile(_S + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    ("Google API key", re.compile(_B + r"AIza[0-9A-Za-z_\-]{30,}")),
    ("Google API key", re.compile(_AFTER_SLASH + r"AIza[0-9A-Za-z_\-]{35}" + _END)),
    ("Google OAuth access token", re.compile(_S + r"ya29\.[0-9A-Za-z_\-.]{20,}")),
    ("Groq API key", re.compile(_S + r"gsk_[A-Za-z0-9]{20,}")),
    ("Cerebras API key", re.compile(_S + r"csk-[A-Za-z0-9]{20,}")),
    ("Cloudflare API token", re.compile(_S + r"(?:cfk|cfut|cfat)_[A-Za-z0-9]{40,}")),
    ("Hugging Face token", re.compile(_S + r"hf_[A-Za-z0-9]{30,}")),
    ("GitHub token", re.compile(_S + r"gh[pousr]_[A-Za-z0-9]{30,}")),
    ("GitHub token", re.compile(_S + r"github_pat_[A-Za-z0-9_]{30,}")),
    ("AWS access key id", re.compile(_B + r"(?:AKIA|ASIA)[0-9A-Z]{16}")),
    ("AWS access key id", re.compile(_AFTER_SLASH + r"(?:AKIA|ASIA)[0-9A-Z]{16}" + _END)),
    # a PEM block to its END line (escaped newlines in JSON too), or the rest of a cut-off one
    ("private key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,65536}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"|(?:[A-Za-z0-9+/=:,\s]|\\[nr])*)")),
    # credentials in a URL: https://user:pass@host/ (what --base-url with a proxy login writes)
    ("credentials in a URL", re.compile(r"(?<=://)(?!" + PLACEHOLDER + r"@)[^/\s@\"'<>?#]+(?=@[A-Za-z0-9\[])")),
    # a key as a query parameter anywhere in a text (a URL in a body, a header, an error message),
    # or a form-encoded body's field, the first one included
    ("key in a query parameter", re.compile(
        r"(?:(?<=[?&;])|^)(?P<keep>(?:api[-_]?key|x-api-key|key|access[-_]token|auth[-_]?token|signature|sig|" + _SECRET_NAME_TEXT
        + r")=)(?!" + _SCRUBBED + r"(?:[&\s\"'#]|:(?=\s|$)|$))[^&\s\"'#]+", re.IGNORECASE)),
    # a secret-named field given a value in a text: "password=…", "aws_secret_access_key = …" (an
    # env or ini file), '"api_token": "…"' (JSON as text, one level of \" escapes too)
    ("value of a secret-named parameter", re.compile(
        r"(?<![A-Za-z0-9_\-.\\])(?P<keep>" + _SECRET_NAME_TEXT + r"(?:[ \t]*=[ \t]*|\\?[\"'][ \t]*[:=][ \t]*)(?:\\?[\"'])?)"
        r"(?!" + _SCRUBBED + r"|:(?:\s|$))[^\s\"'\\&,;{}\[\]<>]+", re.IGNORECASE)),
    ("bearer token", re.compile(r"\bBearer\s+(?!" + PLACEHOLDER + r")[A-Za-z0-9._~+/=\-]{16,}")),
    ("JSON Web Token", re.compile(_B + r"eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}")),
    ("OpenAI organization id", re.compile(_B + r"org-[A-Za-z0-9]{20,}")),
    ("OpenAI project id", re.compile(_B + r"proj_[A-Za-z0-9]{20,}")),
    # Cloudflare API tokens made before the prefixed format: exactly 40 letters, digits, _ and -,
    # mixed case with digits, standing alone (commit hashes are lower-case hex; blobs are longer runs)
    ("Cloudflare-style API token", re.compile(
        r"(?<![A-Za-z0-9_\-+/=.\\])(?=[A-Za-z0-9_\-]*[A-Z])(?=[A-Za-z0-9_\-]*[a-z])(?=[A-Za-z0-9_\-]*[0-9])"
        r"[A-Za-z0-9_\-]{40}(?![A-Za-z0-9_\-+/=.])"
    )),
    ("Cloudflare-style API token", re.compile(  # the same, as a query parameter's or a form field's value
        r"(?:(?<=[?&;])|^)(?P<keep>[A-Za-z0-9_.\-]{1,64}=)(?=[A-Za-z0-9_\-]*[A-Z])(?=[A-Za-z0-9_\-]*[a-z])(?=[A-Za-z0-9_\-]*[0-9])"
        r"[A-Za-z0-9_\-]{40}(?![A-Za-z0-9_\-+/=.%])"
    )),
)

#: Placeholder values a scrubbed secret field may hold.
_SCRUBBED_VALUES = frozenset({"", PLACEHOLDER, "Bearer " + PLACEHOLDER, ACCOUNT_PLACEHOLDER})
#: Bodies decompressed past this many bytes are scanned only that far.
_MAX_DECODED = 64 * 1024 * 1024

_ACCOUNT_IN_PATH = re.compile(r"(/accounts/)([0-9a-f]{32})(?=/|$)")
_SECRET_QUERY_KEYS = frozenset({"key", "api_key", "api-key", "apikey", "x-api-key", "access_token", "access-token",
                                "auth_token", "auth-token", "token", "auth", "signature", "sig"})
# a run of URL characters (a percent-encoded key when it holds a %XX escape); each run is matched
# once, from its start (a pattern that must find the escape inside would backtrack over long runs)
_PERCENT_RUN = re.compile(r"(?:[A-Za-z0-9_.~\-]|%[0-9A-Fa-f]{2})+")
# a run of JSON string characters and escapes (a key written with escapes when it holds \u0073 or \/)
_ESCAPE_RUN = re.compile(r"(?:[^\s\"\\]|\\.)+")
# a JSON string literal (in a JSON text, or an SSE event's), and what makes it a field's name
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_COLON = re.compile(r"\s*:\s*")
# a text that is all base64 (a body recorded without the !!binary tag): 24+ characters
_BASE64_TEXT = re.compile(r"\s*(?:[A-Za-z0-9+/]{4}\s*){5,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})\s*")


def is_secret_field(name: str) -> bool:
    """Whether a field (a JSON or YAML key, a form or query parameter) holds a secret by its name:
    ``api_token``, ``clientSecret``, ``aws_secret_access_key``, ``x-api-key``, ``password``..."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    return bool(_SECRET_FIELD.fullmatch(re.sub(r"[-. ]", "_", words)))


def _unescaped(run: str) -> str | None:
    """A run of text with its JSON escapes read (None when it is not one JSON string's content)."""
    try:
        value = json.loads(f'"{run}"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def is_sensitive_header(name: str) -> bool:
    """Whether a header is dropped from cassettes (by exact name or by pattern)."""
    lowered = name.lower()
    return lowered in SENSITIVE_HEADER_NAMES or bool(_SENSITIVE_HEADER_PATTERN.search(lowered))


def _replacement(kind: str, match: re.Match[str]) -> str:
    if kind == "bearer token":
        return "Bearer " + PLACEHOLDER
    return (match.groupdict().get("keep") or "") + PLACEHOLDER


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


def _percent_secret(run: str) -> bool:
    """Whether a run of URL characters is a percent-encoded secret."""
    return "%" in run and _has_secret(unquote(run))


def _escaped_secret(run: str) -> bool:
    """Whether a run of JSON string text is a secret written with ``\\u`` (or ``\\/``) escapes."""
    if "\\u" not in run and "\\/" not in run:
        return False
    decoded = _unescaped(run)
    return decoded is not None and _has_secret(decoded)


def _scrub_json_strings(text: str) -> str:
    """Every JSON string literal of ``text`` read as JSON reads it (its escapes decoded) and
    scrubbed as a text of its own (a JSON document or a base64 body inside a string is scrubbed in
    turn); the value of a secret-named field (``"api_token"``, ``"\\u0061pi_key"``) is replaced."""
    tokens = list(_JSON_STRING.finditer(text))
    if not tokens:
        return text
    pieces: list[str] = []
    position = 0
    secret_value_at = -1  # the start of the string that is a secret-named field's value
    for index, token in enumerate(tokens):
        literal = token.group(0)
        try:
            value = json.loads(literal)
        except ValueError:
            continue
        if token.start() == secret_value_at:
            cleaned = value if value.strip() in _SCRUBBED_VALUES else PLACEHOLDER
        else:
            cleaned = scrub_text(value)
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        colon = _COLON.match(text, token.end())
        if colon and following is not None and following.start() == colon.end() and is_secret_field(value):
            secret_value_at = following.start()
        if cleaned != value:
            pieces.append(text[position:token.start()])
            pieces.append(json.dumps(cleaned, ensure_ascii=False))
            position = token.end()
    pieces.append(text[position:])
    return "".join(pieces)


def _scrub_once(text: str) -> str:
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
        text = _PERCENT_RUN.sub(lambda m: PLACEHOLDER if _percent_secret(m.group(0)) else m.group(0), text)
    if "\\" in text:
        text = _ESCAPE_RUN.sub(lambda m: PLACEHOLDER if _escaped_secret(m.group(0)) else m.group(0), text)
    for kind, pattern in SECRET_VALUE_PATTERNS:
        text = pattern.sub(lambda m, kind=kind: _replacement(kind, m), text)  # type: ignore[misc]
    if '"' in text:
        text = _scrub_json_strings(text)
    return _ACCOUNT_IN_PATH.sub(r"\g<1>" + ACCOUNT_PLACEHOLDER, text)


def scrub_text(text: str) -> str:
    """``text`` with every key-shaped value replaced by ``REDACTED`` (also percent-encoded or
    ``\\u``-escaped ones, URL credentials, the values of key parameters and of secret-named fields
    of the JSON it holds), account ids masked, and a text that is a base64 (or base64-of-gzip) body
    re-encoded with its content scrubbed."""
    for _ in range(4):  # until nothing changes: a replacement can complete another pattern's context
        cleaned = _scrub_once(text)
        if cleaned == text:
            break
        text = cleaned
    return text


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
    request.body = _scrub_body(request.body)
    return request


def scrub_vcr_response(response: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """``before_record_response`` hook for vcrpy: drop sensitive headers, scrub the body."""
    response["headers"] = scrub_headers(response.get("headers") or {})
    body = response.get("body")
    if isinstance(body, MutableMapping) and "string" in body:
        body["string"] = _scrub_body(body["string"])
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
    """A recorded body scrubbed in its own form: text stays text, bytes stay bytes, gzip and zlib
    stay compressed; bytes that are not UTF-8 are scrubbed around what they cannot decode."""
    if not isinstance(value, bytes):
        return scrub_text(value) if isinstance(value, str) else value
    wbits = 16 + zlib.MAX_WBITS if value[:2] == b"\x1f\x8b" else zlib.MAX_WBITS if value[:1] == b"\x78" else None
    raw = value
    if wbits is not None:
        inflater = zlib.decompressobj(wbits)
        try:
            raw = inflater.decompress(value)
        except zlib.error:  # not compressed after all: scanned as it is, so scrubbed as it is
            raw, wbits = value, None
        else:
            if not inflater.eof:
                raw, wbits = value, None
    text = raw.decode("utf-8", "surrogateescape")
    cleaned = scrub_text(text)
    if cleaned == text:
        return value
    data = cleaned.encode("utf-8", "surrogateescape")
    if wbits is None:
        return data
    return gzip.compress(data, mtime=0) if wbits > zlib.MAX_WBITS else zlib.compress(data)


def _scrub_value(node: Any, key: object = None) -> Any:
    """Every string and body of a parsed cassette scrubbed, wherever it is (``metadata`` too):
    ``headers`` without the sensitive ones, a ``uri`` without key parameters, a secret-named
    field's value replaced, keys that hold a secret scrubbed."""
    if isinstance(node, Mapping):
        if key == "headers":
            node = scrub_headers(node)
        cleaned: dict[Any, Any] = {}
        for name, value in node.items():
            if isinstance(name, str) and is_secret_field(name) and isinstance(value, str):
                cleaned[scrub_text(name)] = value if value.strip() in _SCRUBBED_VALUES else PLACEHOLDER
            elif name == "uri" and isinstance(value, str):
                cleaned[name] = scrub_uri(value)
            else:
                cleaned[scrub_text(name) if isinstance(name, str) else name] = _scrub_value(value, name)
        return cleaned
    if isinstance(node, list):
        return [_scrub_value(value) for value in node]
    return _scrub_body(node)


def _dump(data: object) -> str:
    return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True, width=120)


def scrub_cassette_text(text: str) -> str:
    """A whole cassette file scrubbed as the recorder scrubs what it records, and more: every
    value (request URIs, headers, bodies as ``!!binary``, gzip or base64 text, and the cassette's
    ``metadata``), sensitive headers dropped. For cleaning a cassette recorded by other means
    before committing it; :func:`scan_cassette_text` flags nothing in what it returns."""
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    dumped = _dump(_scrub_value(data))
    # The scan also reads the file's lines: YAML's quoting and line breaks can put a key-shaped
    # run on a line that no value holds. Such runs are replaced in the text itself, kept only if
    # the result still reads as YAML.
    lines = dumped.split("\n")
    for number, line in _text_lines(dumped):
        for kind, pattern in SECRET_VALUE_PATTERNS:
            line = pattern.sub(lambda m, kind=kind: _replacement(kind, m), line)  # type: ignore[misc]
        lines[number - 1] = line
    fixed = "\n".join(lines)
    if fixed != dumped:
        with contextlib.suppress(yaml.YAMLError):
            yaml.load(fixed, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            return fixed
    return dumped


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
                if isinstance(key, str) and is_secret_field(key) and isinstance(value, str) and value.strip() not in _SCRUBBED_VALUES:
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
                        if _percent_secret(run.group(0)) and run.group(0) not in known:
                            known.add(run.group(0))
                            findings.append(SecretFinding(where, 0, f"percent-encoded secret in {label or 'the document'}",
                                                          _mask(run.group(0))))
            if "\\" in text:
                for run in _ESCAPE_RUN.finditer(text):
                    if _escaped_secret(run.group(0)) and run.group(0) not in known:
                        known.add(run.group(0))
                        findings.append(SecretFinding(where, 0, f"escaped secret in {label or 'the document'}", _mask(run.group(0))))
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
    for number, line in _text_lines(text):
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


_BINARY_BLOCK = re.compile(r"^(\s*)(?:-\s+)?(?:[^\s:][^:]*:\s+)?!!binary\s*[|>][-+0-9]*\s*$")


def _text_lines(text: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of a YAML text, but those of ``!!binary`` blocks: base64 is no text, and
    a line of it can look like a key (40 letters and digits); the scan reads those bodies decoded."""
    block_indent: int | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None and line.strip() and indent > block_indent:
            continue
        block_indent = None
        opening = _BINARY_BLOCK.match(line)
        if opening:
            block_indent = len(opening.group(1))
        yield number, line


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
