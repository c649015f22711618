"""The shipped cassettes: loadable by vcrpy and by the kit, provenance complete, no secrets."""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import time
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
import vcr
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vcr.persisters.filesystem import FilesystemPersister
from vcr.serializers import yamlserializer

from strictconformance.drift.cassettes import (
    Cassette,
    CassetteError,
    list_cassettes,
    load_cassette,
    load_cassette_file,
    parse_cassette,
    provenance_problems,
    recorded_responses,
)
from strictconformance.drift.secrets import (
    is_secret_field,
    is_sensitive_header,
    scan_cassette_file,
    scan_cassette_text,
    scan_shipped_cassettes,
    scrub_cassette_text,
    scrub_headers,
    scrub_text,
    scrub_uri,
)
from strictconformance.drift.shapes import API_IDS

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
LOCATIONS = list_cassettes()


def test_every_api_has_cassettes_for_text_tool_calls_and_streams() -> None:
    for api in API_IDS:
        cassettes = [load_cassette(location) for location in list_cassettes(api)]
        features = {feature for cassette in cassettes for feature in cassette.features}
        assert {"tool_call", "stream"} <= features, api
        assert any(r.is_stream for c in cassettes for r in c.responses()), api
        assert any(not r.is_stream for c in cassettes for r in c.responses()), api
    every = {feature for location in LOCATIONS for feature in load_cassette(location).features}
    assert {"text", "tool_call", "refusal", "thinking", "reasoning", "server_tool", "stream", "structured_output"} <= every


def test_listing_filters_by_api_and_provider() -> None:
    assert list_cassettes("anthropic.messages") == tuple(loc for loc in LOCATIONS if loc.startswith("anthropic/messages/"))
    assert set(list_cassettes(provider="openai")) == set(list_cassettes("openai.chat")) | set(list_cassettes("openai.responses"))
    with pytest.raises(ValueError, match="unknown API"):
        list_cassettes("openai.chats")
    with pytest.raises(CassetteError, match="no shipped cassette"):
        load_cassette("openai/chat/nope.yaml")


@pytest.mark.parametrize("location", LOCATIONS)
def test_vcrpy_replays_every_cassette(location: str) -> None:
    requests, responses, metadata = FilesystemPersister.load_cassette(CASSETTES / location, yamlserializer)
    assert len(requests) == len(responses) == len(load_cassette(location).interactions)
    assert metadata["strictconformance"]["api"] in API_IDS
    with vcr.VCR(record_mode="none").use_cassette(str(CASSETTES / location)) as cassette:
        assert cassette.get_metadata("strictconformance", None)["scenario"]


@pytest.mark.parametrize("location", LOCATIONS)
def test_every_cassette_names_its_provenance(location: str) -> None:
    """One of the three complete forms: an imported recording (repository, path, commit,
    licence, recorded by someone else), the kit's own recorder (version, date, endpoint, record
    mode), or a documented shape (never recorded)."""
    cassette = load_cassette(location)
    assert location.startswith(cassette.api.replace(".", "/") + "/")
    assert cassette.provenance.changes
    assert provenance_problems(cassette) == []


def _with_provenance(provenance: dict[str, object], location: str = "openai/chat/tool_call.yaml") -> Cassette:
    data = yaml.safe_load((CASSETTES / location).read_text())
    data["metadata"]["strictconformance"]["provenance"] = provenance
    return parse_cassette(yaml.safe_dump(data), location)


def _self_recorded(**changes: object) -> dict[str, object]:
    """What ``python -m strictconformance.record --base-url openai=http://127.0.0.1:8080/v1`` writes."""
    provenance: dict[str, object] = {
        "origin": "recorded-elsewhere",
        "recorder": "strictconformance.record",
        "kit_version": "0.1.0",
        "recorded_by": "python -m strictconformance.record (strictconformance 0.1.0, vcrpy 7.0.0, urllib)",
        "recorded_on": "2026-11-23",
        "date_evidence": "clock of the machine that recorded",
        "endpoint": "127.0.0.1:8080",
        "record_mode": "all",
        "source": "http://127.0.0.1:8080/v1/chat/completions",
        "model": "gpt-4o-mini",
        "request_built_from": "strictconformance.strategies.tools.tool_lists: tool 'tool_00_search'",
        "licence": None,
        "changes": "scrubbed while recording by strictconformance.drift.secrets",
    }
    provenance.update(changes)
    return {key: value for key, value in provenance.items() if value is not _DROP}


_DROP = object()


def test_the_kits_own_recordings_have_an_accepted_provenance_form() -> None:
    assert provenance_problems(_with_provenance(_self_recorded())) == []
    live = _self_recorded(origin="recorded-live", endpoint="api.openai.com", source="https://api.openai.com/v1/chat/completions")
    assert provenance_problems(_with_provenance(live)) == []


@pytest.mark.parametrize(
    ("provenance", "problem"),
    [
        *[(_self_recorded(**{key: _DROP}), f"lacks {key}") for key in
          ("kit_version", "recorded_by", "date_evidence", "endpoint", "record_mode", "model", "request_built_from", "changes")],
        (_self_recorded(recorded_on=None), "recorded_on"),
        (_self_recorded(recorded_on="last week"), "recorded_on"),
        (_self_recorded(record_mode="none"), "record_mode"),
        (_self_recorded(recorder="someone-else"), "recorder"),
        (_self_recorded(endpoint="api.openai.com"), "not the host of its source"),
        # honest origins: live only from the provider's own host, over HTTPS
        (_self_recorded(origin="recorded-live"), "'recorded-elsewhere'"),
        (_self_recorded(endpoint="api.openai.com", source="https://api.openai.com/v1/chat/completions"), "'recorded-live'"),
        (_self_recorded(origin="recorded-live", endpoint="api.openai.com", source="http://api.openai.com/v1/chat/completions"),
         "'recorded-elsewhere'"),
        # what the recorder wrote before: no recorder, endpoint or record mode, and no repository either
        ({"origin": "recorded-live", "recorded_by": "python -m strictconformance.record (vcrpy 7.0.0, urllib)",
          "recorded_on": "2026-11-23", "date_evidence": "clock", "source": "https://api.openai.com/v1/chat/completions",
          "licence": None, "changes": "scrubbed"}, "lacks repository"),
        ({"origin": "recorded-elsewhere", "recorded_by": "me", "recorded_on": "2026-11-23", "date_evidence": "clock",
          "source": "http://127.0.0.1/v1", "changes": "none"}, "only the kit's recorder"),
        ({"origin": "recorded-live", "recorded_by": "fantasy", "recorded_on": None, "date_evidence": "none",
          "source": "https://github.com/o/r/blob/abc/x.yaml", "repository": "o/r", "path": "x.yaml", "commit": "abc",
          "licence": "MIT", "changes": "none"}, "full commit hash"),
        ({"origin": "documented-shape", "recorded_by": "never recorded: built from the docs", "recorded_on": "2026-01-01",
          "date_evidence": "none", "source": "https://docs.example", "changes": "built"}, "recorded_on must be null"),
    ],
)
def test_incomplete_or_dishonest_provenance_is_rejected(provenance: dict[str, object], problem: str) -> None:
    try:
        problems = provenance_problems(_with_provenance(provenance))
    except CassetteError as error:  # the loader itself refuses the most basic gaps
        problems = [str(error)]
    assert any(problem in text for text in problems), problems


def test_recorded_responses_cover_every_cassette() -> None:
    labels = {response.label.split("#")[0] for response in recorded_responses()}
    assert labels == set(LOCATIONS)


def test_the_loader_names_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(CassetteError, match="not a vcrpy cassette"):
        parse_cassette("just: text\n", "x.yaml")
    with pytest.raises(CassetteError, match="no metadata"):
        parse_cassette("interactions: []\nversion: 1\n", "x.yaml")
    text = (CASSETTES / LOCATIONS[0]).read_text()
    broken = text.replace("origin: ", "origin: guessed-", 1)
    with pytest.raises(CassetteError, match="origin"):
        parse_cassette(broken, "x.yaml")
    path = tmp_path / "copy.yaml"
    path.write_text(text)
    assert load_cassette_file(path).api == load_cassette(LOCATIONS[0]).api


# -- secrets ---------------------------------------------------------------------------------------------


def test_no_shipped_cassette_holds_a_secret() -> None:
    assert scan_shipped_cassettes() == []


def _planted(kind: str) -> str:
    return {
        "openai": "sk-" + "proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
        "anthropic": "sk-" + "ant-" + "api03-AbCdEfGhIjKlMnOpQrStUvWx",
        "google": "AI" + "za" + "SyAbCdEfGhIjKlMnOpQrStUvWxYz0123456",
        "groq": "gsk" + "_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
        "bearer": "Bearer " + "abcdefghijklmnopqrstuvwxyz0123",
    }[kind]


@pytest.mark.parametrize("kind", ["openai", "anthropic", "google", "groq", "bearer"])
def test_the_scan_fails_on_a_planted_key(kind: str, tmp_path: Path) -> None:
    text = (CASSETTES / "openai/chat/tool_call.yaml").read_text()
    planted = text.replace("fp_cbf1785567", _planted(kind), 1)
    path = tmp_path / "planted.yaml"
    path.write_text(planted)
    findings = scan_cassette_file(path)
    assert findings, kind
    assert all(_planted(kind) not in str(finding) for finding in findings)  # the report masks the key


_CLOUDFLARE_TOKEN = "Zk3mQ8vR2tY7wP1sL4nB6cX9dF0gH5jK2aE8uIo" + "Q"  # 40 characters, no prefix


def _plant_binary(data: dict[str, Any]) -> None:
    data["interactions"][0]["response"]["body"]["string"] = json.dumps({"echo": _planted("openai")}).encode()


def _plant_gzip(data: dict[str, Any]) -> None:
    data["interactions"][0]["response"]["body"]["string"] = gzip.compress(json.dumps({"echo": _planted("anthropic")}).encode())


def _plant_escaped(data: dict[str, Any]) -> None:
    body = json.dumps({"messages": [{"role": "user", "content": _planted("openai")}]})
    data["interactions"][0]["request"]["body"] = body.replace("sk-", "\\u0073k-")


def _plant_escaped_in_a_stream(data: dict[str, Any]) -> None:
    event = json.dumps({"choices": [{"delta": {"content": _planted("groq")}}]}).replace("gsk_", "\\u0067sk_")
    data["interactions"][0]["response"]["body"]["string"] = f"data: {event}\n\ndata: [DONE]\n\n"


def _plant_cloudflare_field(data: dict[str, Any]) -> None:
    data["interactions"][0]["request"]["body"] = json.dumps({"api_token": "opaque-token-value"})


def _plant_cloudflare_in_body(data: dict[str, Any]) -> None:
    data["interactions"][0]["request"]["body"] = json.dumps({"model": "x", "note": _CLOUDFLARE_TOKEN})


def _plant_cloudflare_in_header(data: dict[str, Any]) -> None:
    data["interactions"][0]["request"]["headers"]["X-Forwarded-Credential-Echo"] = [_CLOUDFLARE_TOKEN]


@pytest.mark.parametrize(
    ("plant", "secret", "hidden"),
    [
        (_plant_binary, _planted("openai"), True),
        (_plant_gzip, _planted("anthropic"), True),
        (_plant_escaped, _planted("openai"), True),
        (_plant_escaped_in_a_stream, _planted("groq"), True),
        (_plant_cloudflare_field, "opaque-token-value", False),
        (_plant_cloudflare_in_body, _CLOUDFLARE_TOKEN, False),
        (_plant_cloudflare_in_header, _CLOUDFLARE_TOKEN, False),
    ],
    ids=["binary-body", "gzip-body", "json-escaped-key", "json-escaped-key-in-sse", "secret-named-field", "cloudflare-token-in-body",
         "cloudflare-token-in-header"],
)
def test_the_scan_reads_decoded_values(plant: Any, secret: str, hidden: bool, tmp_path: Path) -> None:
    """Keys the line scan cannot see (inside a !!binary or gzipped body, written with JSON
    \\u escapes) or cannot recognise (an unprefixed Cloudflare token, a field named api_token):
    the scan reads the parsed values."""
    data = yaml.safe_load((CASSETTES / "openai/chat/tool_call.yaml").read_text())
    plant(data)
    path = tmp_path / "planted.yaml"
    path.write_text(yaml.safe_dump(data))
    text = path.read_text()
    assert (secret not in text) is hidden  # hidden ones are not in the file's text as such
    findings = scan_cassette_file(path)
    assert findings, text[:400]
    assert all(secret not in str(finding) for finding in findings)  # masked


def test_the_scan_fails_on_auth_headers_and_account_ids(tmp_path: Path) -> None:
    data = yaml.safe_load((CASSETTES / "cloudflare/chat/stream_text.yaml").read_text())
    data["interactions"][0]["request"]["headers"]["Authorization"] = ["Bearer " + "x" * 3]
    data["interactions"][0]["request"]["uri"] = data["interactions"][0]["request"]["uri"].replace("ACCOUNT_ID", "0123456789abcdef" * 2)
    findings = scan_cassette_text(yaml.safe_dump(data), "planted")
    kinds = {finding.kind for finding in findings}
    assert "sensitive header in interactions[0].request" in kinds
    assert "Cloudflare account id in a URL" in kinds


def test_opaque_base64_is_not_mistaken_for_a_key() -> None:
    blob = "EtEDCs4DARFNMg9yXq63pfAU3sk-iNT5jIhmxsoqXBitScazQ4AoCso4PdFQ"
    assert scan_cassette_text(f'body: "{blob}"\n') == []
    assert scrub_text(blob) == blob


def test_scrubbing_drops_headers_by_name_and_pattern_and_masks_values() -> None:
    headers = {
        "Authorization": ["Bearer " + "k" * 30],
        "x-api-key": ["secret"],
        "X-Goog-Api-Key": ["secret"],
        "Cookie": ["a=b"],
        "x-session-token": ["t"],
        "OpenAI-Organization": ["org-" + "a" * 24],
        "anthropic-ratelimit-tokens-limit": ["100"],
        "Content-Type": ["application/json"],
        "X-Echo": ["prefix " + _planted("openai")],
    }
    kept = scrub_headers(headers)
    assert set(kept) == {"anthropic-ratelimit-tokens-limit", "Content-Type", "X-Echo"}
    assert kept["X-Echo"] == ["prefix REDACTED"]
    assert is_sensitive_header("CF-Access-Client-Secret")
    assert not is_sensitive_header("x-stainless-read-timeout")
    uri = scrub_uri("https://api.cloudflare.com/client/v4/accounts/" + "ab" * 16 + "/ai/v1/chat?key=" + "x" * 20 + "&alt=sse")
    assert uri == "https://api.cloudflare.com/client/v4/accounts/ACCOUNT_ID/ai/v1/chat?alt=sse"
    assert scrub_text('{"key": "' + _planted("anthropic") + '"}') == '{"key": "REDACTED"}'


def test_the_readme_lists_every_cassette_with_its_origin() -> None:
    readme = (CASSETTES / "README.md").read_text(encoding="utf-8")
    for location in LOCATIONS:
        row = next((line for line in readme.splitlines() if line.startswith(f"| `{location}` |")), None)
        assert row is not None, f"cassettes/README.md does not list {location}"
        assert f"| {load_cassette(location).provenance.origin} |" in row


# -- every form of secret the scan and the scrubber cover, planted in a copy of a cassette ---------------

_PROXY_LOGIN = "proxyuser:hunter2-Proxy-Pass"


def _json_body_with(secret: str) -> str:
    return json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": f"echo {secret}"}]})


def _plant_userinfo(data: dict[str, Any]) -> str:
    data["interactions"][0]["request"]["uri"] = f"https://{_PROXY_LOGIN}@proxy.example:8443/v1/chat/completions"
    return _PROXY_LOGIN


def _plant_key_after_slash(data: dict[str, Any]) -> str:
    data["interactions"][0]["request"]["uri"] = f"https://proxy.example/keys/{_planted('openai')}/v1/chat/completions"
    return _planted("openai")


def _plant_key_after_plus(data: dict[str, Any]) -> str:
    data["interactions"][0]["request"]["body"] = _json_body_with("token+" + _planted("groq"))
    return _planted("groq")


def _plant_google_key_after_slash(data: dict[str, Any]) -> str:
    key = _planted("google")  # 39 characters, as Google's are
    assert len(key) == 39
    data["interactions"][0]["request"]["uri"] = f"https://proxy.example/{key}/v1beta/models"
    return key


def _plant_api_key_query(data: dict[str, Any]) -> str:
    data["interactions"][0]["request"]["uri"] = "https://myresource.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21&api-key=0123abcdOpaqueAzureKey"
    return "0123abcdOpaqueAzureKey"


def _plant_api_key_query_in_a_body(data: dict[str, Any]) -> str:
    data["interactions"][0]["response"]["body"]["string"] = json.dumps({"next": "https://proxy.example/v1/files?api-key=0123abcdOpaqueKey&page=2"})
    return "0123abcdOpaqueKey"


def _plant_percent_encoded(data: dict[str, Any]) -> str:
    encoded = _planted("anthropic").replace("-", "%2D")
    data["interactions"][0]["request"]["body"] = _json_body_with(encoded)
    return encoded


def _plant_fully_percent_encoded(data: dict[str, Any]) -> str:
    encoded = "".join(f"%{byte:02X}" for byte in _planted("openai").encode())
    data["interactions"][0]["request"]["uri"] += "&q=" + encoded
    return encoded


def _plant_base64_text(data: dict[str, Any]) -> str:
    data["interactions"][0]["response"]["body"]["string"] = base64.b64encode(_json_body_with(_planted("openai")).encode()).decode()
    return _planted("openai")


def _plant_base64_of_gzip(data: dict[str, Any]) -> str:
    zipped = gzip.compress(_json_body_with(_planted("anthropic")).encode(), mtime=0)
    data["interactions"][0]["response"]["body"]["string"] = base64.b64encode(zipped).decode()
    return _planted("anthropic")


_FORMS = {
    "url-userinfo": _plant_userinfo,
    "key-after-slash": _plant_key_after_slash,
    "key-after-plus": _plant_key_after_plus,
    "google-key-after-slash": _plant_google_key_after_slash,
    "api-key-query-parameter": _plant_api_key_query,
    "api-key-query-in-a-body": _plant_api_key_query_in_a_body,
    "percent-encoded-key": _plant_percent_encoded,
    "fully-percent-encoded-key": _plant_fully_percent_encoded,
    "base64-text-body": _plant_base64_text,
    "base64-of-gzip-body": _plant_base64_of_gzip,
}


@pytest.mark.parametrize("form", list(_FORMS))
def test_every_secret_form_is_caught_by_the_scan_and_removed_by_the_scrubber(form: str, tmp_path: Path) -> None:
    data = yaml.safe_load((CASSETTES / "openai/chat/tool_call.yaml").read_text())
    secret = _FORMS[form](data)
    path = tmp_path / "planted.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    findings = scan_cassette_file(path)
    assert findings, form
    assert all(secret not in str(finding) for finding in findings)  # the report masks it
    scrubbed = scrub_cassette_text(path.read_text())
    assert scan_cassette_text(scrubbed, "scrubbed") == []
    assert secret not in scrubbed and unquote(secret) not in scrubbed
    for value in _strings(yaml.safe_load(scrubbed)):  # nor inside a decoded body
        assert secret not in value and unquote(secret) not in value
    # the scrubbed cassette still replays: the same number of interactions, bodies of the same kind
    again = yaml.safe_load(scrubbed)
    assert len(again["interactions"]) == len(data["interactions"])


def _strings(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [s for value in node.values() for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    if isinstance(node, str):
        found = [node]
        with contextlib.suppress(ValueError, OSError):
            raw = base64.b64decode(node, validate=True)
            found.append((gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8", "replace"))
        return found
    return []


def test_base64_bodies_keep_their_encoding_when_scrubbed() -> None:
    text = _json_body_with(_planted("openai"))
    plain = scrub_text(base64.b64encode(text.encode()).decode())
    assert json.loads(base64.b64decode(plain))["messages"][0]["content"] == "echo REDACTED"
    zipped = scrub_text(base64.b64encode(gzip.compress(text.encode())).decode())
    assert json.loads(gzip.decompress(base64.b64decode(zipped)))["messages"][0]["content"] == "echo REDACTED"
    harmless = base64.b64encode(b'{"ok": true, "text": "nothing secret here"}').decode()
    assert scrub_text(harmless) == harmless


def test_url_credentials_and_key_parameters_are_scrubbed_from_uris() -> None:
    assert scrub_uri("https://user:p%40ss@proxy.example:8443/v1/chat?api-key=abc&alt=sse") == "https://proxy.example:8443/v1/chat?alt=sse"
    assert scrub_text("GET https://bob:hunter2@proxy/ failed") == "GET https://REDACTED@proxy/ failed"
    assert scrub_text("https://x/?key=abc&api_key=def&page=2") == "https://x/?key=REDACTED&api_key=REDACTED&page=2"
    assert scan_cassette_text('uri: "https://REDACTED@proxy/?api-key=REDACTED"\n') == []


# -- every named form, in every place, and the provider key formats of every cassette provider ------------
#
# Each is planted into a copy of a shipped cassette: the scan must flag it (masked), the scrubber must
# remove it (from the text and from every value decoded from it), and the scan must flag nothing after.

_KEYS = {
    "openai": "sk-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl",
    "openai-project": "sk-" + "proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "anthropic": "sk-" + "ant-" + "api03-AbCdEfGhIjKlMnOpQrStUvWx",
    "gemini": "AI" + "za" + "SyAbCdEfGhIjKlMnOpQrStUvWxYz0123456",
    "groq": "gsk" + "_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOp",
    "cerebras": "csk" + "-abcdefghijklmnopqrstuvwxyz0123456789abcdefghij",
    "cloudflare": "cfut" + "_Zk3mQ8vR2tY7wP1sL4nB6cX9dF0gH5jK2aE8uIoQ3f9a1b2c",
    "cloudflare-legacy": _CLOUDFLARE_TOKEN,
    "github-pat": "github" + "_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdef",
    "google-oauth": "ya" + "29.a0AfH6SMBx-Abcdefghijklmnopqrstuvwxyz0123456789_ABCDEF",
}
_PEM_LINES = ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj",
              "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu"]
_AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfi" + "CYEXAMPLEKEY"


def _pem(kind: str = "") -> str:
    label = f"{kind} PRIVATE KEY".strip()
    return f"-----BEGIN {label}-----\n" + "\n".join(_PEM_LINES) + f"\n-----END {label}-----\n"


def _request(data: dict[str, Any]) -> dict[str, Any]:
    return data["interactions"][0]["request"]  # type: ignore[no-any-return]


def _response(data: dict[str, Any]) -> dict[str, Any]:
    return data["interactions"][0]["response"]  # type: ignore[no-any-return]


def _in_request_header(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        _request(data)["headers"]["X-Debug-Echo"] = [f"client key {_KEYS[key]}"]
        return _KEYS[key]
    return plant


def _in_response_header(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        _response(data)["headers"]["X-Echo"] = [_KEYS[key]]
        return _KEYS[key]
    return plant


def _in_query(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        uri = _request(data)["uri"]
        _request(data)["uri"] = uri + ("&" if "?" in uri else "?") + "q=" + _KEYS[key]
        return _KEYS[key]
    return plant


def _in_request_json(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        _request(data)["body"] = _json_body_with(_KEYS[key])
        return _KEYS[key]
    return plant


def _in_response_json(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        _response(data)["body"]["string"] = json.dumps({"echo": _KEYS[key]}, indent=2)
        return _KEYS[key]
    return plant


def _in_stream(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        event = json.dumps({"choices": [{"delta": {"content": _KEYS[key]}}]})
        _response(data)["body"]["string"] = f"data: {event}\n\ndata: [DONE]\n\n"
        return _KEYS[key]
    return plant


def _in_form(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        _request(data)["body"] = f"model=m&note={_KEYS[key]}"
        return _KEYS[key]
    return plant


def _in_metadata(key: str) -> Any:
    def plant(data: dict[str, Any]) -> str:
        data.setdefault("metadata", {})["note"] = f"recorded with {_KEYS[key]}"
        return _KEYS[key]
    return plant


def _setting(where: str, value: Any, secret: str) -> Any:
    """A planter that sets one place (request.body, response.body, request.header NAME, metadata
    PATH) to ``value`` and returns ``secret``, the part that must not survive scrubbing."""
    def plant(data: dict[str, Any]) -> str:
        side, _, name = where.partition(".")
        if side == "metadata":
            node = data.setdefault("metadata", {})
            *parents, last = name.split(".")
            for parent in parents:
                node = node.setdefault(parent, {})
            node[last] = value
        elif name == "body":
            target = _request(data) if side == "request" else _response(data)["body"]
            target["body" if side == "request" else "string"] = value
        else:
            (_request(data) if side == "request" else _response(data))["headers"][name.partition(" ")[2]] = value
        return secret
    return plant


_SSE_PASSWORD = 'data: {"delta": {"\\u0070assword": "opaque-sse-pass"}}\n\n'
_TOOL_ARGUMENTS = {"choices": [{"message": {"tool_calls": [{"function": {"name": "f", "arguments": json.dumps({"password": "opaque-nested-pass"})}}]}}]}

# (form, cassette it is planted into, planter)
_EVERY_FORM: list[tuple[str, str, Any]] = [
    # the provider key formats of every cassette provider, each in its own provider's cassette
    ("openai-key-in-a-request-header", "openai/chat/tool_call.yaml", _in_request_header("openai")),
    ("openai-project-key-in-a-query", "openai/responses/stream_text.yaml", _in_query("openai-project")),
    ("anthropic-key-in-a-response-body", "anthropic/messages/tool_use.yaml", _in_response_json("anthropic")),
    ("gemini-key-in-a-stream", "gemini/generate_content/stream_function_call.yaml", _in_stream("gemini")),
    ("groq-key-in-a-form-body", "groq/chat/tool_call.yaml", _in_form("groq")),
    ("cerebras-key-in-metadata", "cerebras/chat/tool_call.yaml", _in_metadata("cerebras")),
    ("cloudflare-token-in-a-response-header", "cloudflare/chat/tool_call.yaml", _in_response_header("cloudflare")),
    ("cloudflare-legacy-token-in-a-query", "cloudflare/chat/stream_text.yaml", _in_query("cloudflare-legacy")),
    # tokens of other services that reach a cassette through a proxy, an error message, an echo
    ("github-pat-in-a-request-body", "openai/chat/refusal.yaml", _in_request_json("github-pat")),
    ("github-pat-in-metadata", "groq/chat/stream_tool_call.yaml", _in_metadata("github-pat")),
    ("google-oauth-token-in-a-request-body", "gemini/generate_content/function_call.yaml", _in_request_json("google-oauth")),
    ("google-oauth-token-in-a-query", "gemini/generate_content/stream_code_execution.yaml", _in_query("google-oauth")),
    ("google-oauth-bearer-in-an-error", "gemini/generate_content/blocked_prompt.yaml",
     _setting("response.body", json.dumps({"error": f"sent with Authorization: Bearer {_KEYS['google-oauth']}"}), _KEYS["google-oauth"])),
    ("pem-private-key-in-a-json-body", "openai/chat/tool_call.yaml", _setting("request.body", json.dumps({"pem": _pem()}), _PEM_LINES[0])),
    ("rsa-private-key-in-a-text-body", "anthropic/messages/stream_text.yaml",
     _setting("response.body", "key file:\n" + _pem("RSA"), _PEM_LINES[1])),
    ("openssh-private-key-in-a-header", "cerebras/chat/stream_tool_call.yaml",
     _setting("request.header X-Key-File", [_pem("OPENSSH").replace("\n", " ")], _PEM_LINES[0])),
    ("aws-secret-access-key-json-field", "openai/chat/tool_call.yaml",
     _setting("request.body", json.dumps({"aws_secret_access_key": _AWS_SECRET}), _AWS_SECRET)),
    ("aws-secret-access-key-in-an-ini-body", "anthropic/messages/tool_use.yaml",
     _setting("response.body", f"[default]\naws_access_key_id = AKIA{'ABCDEFGHIJKLMNOP'}\naws_secret_access_key = {_AWS_SECRET}\n", _AWS_SECRET)),
    ("aws-secret-access-key-env-in-a-header", "groq/chat/tool_call.yaml",
     _setting("request.header X-Env", [f"AWS_SECRET_ACCESS_KEY={_AWS_SECRET}"], _AWS_SECRET)),
    ("aws-secret-access-key-camel-case", "cloudflare/chat/tool_call.yaml",
     _setting("response.body", json.dumps({"Credentials": {"SecretAccessKey": "opaqueAwsSecretValue"}}), "opaqueAwsSecretValue")),
    ("form-body-first-field-api-key", "openai/chat/tool_call.yaml", _setting("request.body", "api_key=opaqueFormKey123&model=m", "opaqueFormKey123")),
    ("form-body-first-field-client-secret", "gemini/generate_content/function_call.yaml",
     _setting("request.body", "client_secret=opaqueClientSecret9&grant_type=client_credentials", "opaqueClientSecret9")),
    ("form-body-password", "anthropic/messages/tool_use.yaml",
     _setting("request.body", "grant_type=password&username=u&password=opaquePass77", "opaquePass77")),
    ("form-body-first-field-as-bytes", "openai/chat/tool_call.yaml", _setting("request.body", b"token=opaqueTokenBytes&x=1", "opaqueTokenBytes")),
    ("secret-named-json-field", "openai/chat/tool_call.yaml", _setting("request.body", json.dumps({"api_token": "opaque-token-value"}), "opaque-token-value")),
    ("camel-case-secret-named-field", "cerebras/chat/tool_call.yaml",
     _setting("response.body", json.dumps({"clientSecret": "opaque-client-secret"}, indent=2), "opaque-client-secret")),
    ("secret-named-field-in-tool-arguments", "openai/chat/tool_call.yaml", _setting("response.body", json.dumps(_TOOL_ARGUMENTS), "opaque-nested-pass")),
    ("escaped-field-name", "groq/chat/tool_call.yaml",
     _setting("request.body", '{"model": "m", "\\u0061pi_key": "opaque-escaped-field"}', "opaque-escaped-field")),
    ("escaped-field-name-in-a-stream", "openai/chat/stream_tool_call.yaml", _setting("response.body", _SSE_PASSWORD, "opaque-sse-pass")),
    ("escaped-key-value", "openai/chat/tool_call.yaml",
     _setting("request.body", json.dumps({"content": _KEYS["openai-project"]}).replace("sk-", "\\u0073k-"), _KEYS["openai-project"][3:])),
    ("metadata-secret-named-field", "anthropic/messages/stream_refusal.yaml",
     _setting("metadata.strictconformance.provenance.api_token", "opaque-meta-token", "opaque-meta-token")),
    ("metadata-url-key-parameter", "gemini/generate_content/thinking_function_call.yaml",
     _setting("metadata.strictconformance.provenance.source", "https://proxy.example/v1?api_key=opaqueMetaKey&x=1", "opaqueMetaKey")),
    ("metadata-url-credentials", "openai/responses/refusal.yaml",
     _setting("metadata.strictconformance.provenance.source", "https://bob:opaque-meta-pass@proxy.example/v1", "opaque-meta-pass")),
    ("key-as-a-header-name", "anthropic/messages/thinking_tool_use.yaml", _setting(f"response.header {_KEYS['anthropic']}", ["1"], _KEYS["anthropic"])),
    ("zlib-compressed-body", "groq/chat/tool_call.yaml",
     _setting("response.body", zlib.compress(json.dumps({"echo": _KEYS["groq"]}).encode()), _KEYS["groq"])),
    ("binary-body-not-utf8", "openai/chat/tool_call.yaml",
     _setting("response.body", b"\xff\xfe\x00junk " + _KEYS["openai"].encode() + b" \xff", _KEYS["openai"])),
    ("base64-body-inside-json", "cerebras/chat/tool_call.yaml",
     _setting("response.body", json.dumps({"data": base64.b64encode(json.dumps({"k": _KEYS["cerebras"]}).encode()).decode()}), _KEYS["cerebras"])),
]


def _decoded_values(node: Any) -> list[str]:
    """Every text a cassette value holds, decoded every way the scan decodes: bytes (gunzipped or
    inflated), base64 text, JSON (escapes read, strings within strings), percent-encoding."""
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, bytes):
            with contextlib.suppress(zlib.error):
                item = zlib.decompressobj(47).decompress(item) if item[:2] == b"\x1f\x8b" or item[:1] == b"\x78" else item
            stack.append(item.decode("utf-8", "replace"))
        elif isinstance(item, str) and item not in found:
            found.append(item)
            found.append(unquote(item))
            with contextlib.suppress(ValueError):
                stack.append(base64.b64decode(item, validate=True))
            for text in (item, *(line[5:] for line in item.splitlines() if line.startswith("data:"))):
                with contextlib.suppress(ValueError):
                    stack.append(json.loads(text))
    return found


@pytest.mark.parametrize(("cassette", "plant"), [(cassette, plant) for _, cassette, plant in _EVERY_FORM],
                         ids=[form for form, _, _ in _EVERY_FORM])
def test_every_named_form_is_caught_by_the_scan_and_removed_by_the_scrubber(cassette: str, plant: Any, tmp_path: Path) -> None:
    data = yaml.safe_load((CASSETTES / cassette).read_text())
    secret = plant(data)
    path = tmp_path / "planted.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    findings = scan_cassette_file(path)
    assert findings, "the scan missed it"
    assert all(secret not in str(finding) for finding in findings)  # the report masks it
    scrubbed = scrub_cassette_text(path.read_text())
    assert scan_cassette_text(scrubbed, "scrubbed") == [], "the scan flags what the scrubber left"
    assert secret not in scrubbed
    assert not [value for value in _decoded_values(yaml.safe_load(scrubbed)) if secret in value], "left in a decoded value"
    again = yaml.safe_load(scrubbed)  # still a cassette: the same interactions, the shipped data untouched elsewhere
    assert len(again["interactions"]) == len(data["interactions"])
    assert again["interactions"][1:] == yaml.safe_load((CASSETTES / cassette).read_text())["interactions"][1:]


def test_every_cassette_provider_has_its_key_format_planted() -> None:
    providers = {path.parts[0] for path in (Path(location) for location in LOCATIONS)}
    planted = {cassette.split("/")[0] for form, cassette, _ in _EVERY_FORM if form.split("-")[0] in providers}
    assert planted == providers


def test_the_scrubber_leaves_the_shipped_cassettes_as_they_are() -> None:
    """No false alarm: scrubbing a shipped cassette changes none of its values (page tokens,
    signatures, usage counts of "tokens" are no secrets)."""
    for location in LOCATIONS:
        text = (CASSETTES / location).read_text()
        assert yaml.safe_load(scrub_cassette_text(text)) == yaml.safe_load(text), location


@pytest.mark.parametrize("name", ["api_token", "clientSecret", "aws_secret_access_key", "SecretAccessKey", "x-api-key", "password",
                                  "refresh_token", "token", "private_key", "Authorization"])
def test_secret_field_names(name: str) -> None:
    assert is_secret_field(name)


@pytest.mark.parametrize("name", ["next_page_token", "nextPageToken", "max_tokens", "total_tokens", "signature", "key", "tokenizer",
                                  "private_key_id", "input_tokens"])
def test_names_that_are_no_secret(name: str) -> None:
    assert not is_secret_field(name)


# -- the invariant: whatever a cassette holds, the scan flags nothing the scrubber returns ------------------

_SHARDS = ["sk-", "proj-", "sk-ant-", "AIza", "gsk_", "csk-", "cfut_", "ya29.", "github_pat_", "ghp_", "AKIA", "eyJ", "org-", "proj_",
           "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----", "password=", "api_key=",
           "client_secret=", "token=", "key=", "?", "&", "=", '"', "'", ":", "\\", "\\u0073", "\\u0061", "\\/", "%2D", "%73", "Bearer ",
           "://", "u:p@", "@", "/", "+", " ", "\n", "aws_secret_access_key", "AWS_SECRET_ACCESS_KEY", '"api_token": "', '"password":"',
           '"\\u0061pi_key": "', "REDACTED", "data: ", "{", "}", "[", "]", ",", _CLOUDFLARE_TOKEN[:-1], "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
           "/accounts/", "0123456789abcdef" * 2]
_TEXTS = st.lists(st.one_of(st.sampled_from(_SHARDS), st.text(alphabet="aAbB0123456789_-+/=.%xyzXYZ", min_size=1, max_size=50)),
                  min_size=1, max_size=14).map("".join)
_PLACES = ["request body", "response body", "response bytes", "response gzip", "JSON body", "header", "query", "metadata", "base64 body",
           "stream", "header name"]


@st.composite
def _cassettes_holding_anything(draw: st.DrawFn) -> str:
    data = yaml.safe_load((CASSETTES / "openai/chat/tool_call.yaml").read_text())
    request, response = _request(data), _response(data)
    for _ in range(draw(st.integers(1, 3))):
        text, place = draw(_TEXTS), draw(st.sampled_from(_PLACES))
        if place == "request body":
            request["body"] = text
        elif place == "response body":
            response["body"]["string"] = text
        elif place == "response bytes":
            response["body"]["string"] = text.encode()
        elif place == "response gzip":
            response["body"]["string"] = gzip.compress(text.encode(), mtime=0)
        elif place == "JSON body":
            request["body"] = json.dumps({"a": text, draw(_TEXTS): [text]}, ensure_ascii=draw(st.booleans()))
        elif place == "header":
            request["headers"]["X-Thing"] = [text]
        elif place == "query":
            request["uri"] += "?" + text
        elif place == "metadata":
            data["metadata"]["note"] = text
        elif place == "base64 body":
            response["body"]["string"] = base64.b64encode(text.encode()).decode()
        elif place == "stream":
            response["body"]["string"] = "data: " + json.dumps({"d": text}) + "\n\n"
        else:
            response["headers"][text] = ["1"]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_cassettes_holding_anything())
def test_the_scan_flags_nothing_the_scrubber_returns(text: str) -> None:
    """Texts built from the pieces secrets are made of (prefixes, escapes, separators, markers),
    planted anywhere in a cassette: what the scrubber returns, the scan passes."""
    assert scan_cassette_text(scrub_cassette_text(text), "scrubbed") == []


def test_a_long_opaque_blob_is_scanned_and_scrubbed_in_linear_time() -> None:
    """A 200 kB URL-safe base64 signature beside a percent escape and a JSON escape: the run
    patterns match each run once from its start (they used to backtrack over the blob from every
    position in it: minutes)."""
    blob = base64.urlsafe_b64encode(bytes(range(256)) * 600).decode()
    body = json.dumps({"signature": blob, "note": "a\nb%20c \\u0041"})
    data = yaml.safe_load((CASSETTES / "openai/chat/tool_call.yaml").read_text())
    _response(data)["body"]["string"] = body
    text = yaml.safe_dump(data, sort_keys=False)
    start = time.monotonic()
    assert scan_cassette_text(text) == []
    assert yaml.safe_load(scrub_cassette_text(text)) == data
    assert time.monotonic() - start < 60  # about a second; the quadratic search took minutes
