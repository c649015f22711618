"""Re-recording end to end: a real HTTP server on 127.0.0.1, vcrpy, urllib, every record mode.

The server plays the providers: it answers each API's path with a shipped recording (or a
drifted one, or an error) and remembers every request, so the tests can see which mode reached
the network, which key was sent, and that no key reached a cassette.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import vcr
import yaml

from strictconformance._version import __version__
from strictconformance.drift.cassettes import (
    list_cassettes,
    load_cassette,
    load_cassette_file,
    provenance_problems,
)
from strictconformance.drift.secrets import scan_cassette_file
from strictconformance.drift.shapes import API_IDS
from strictconformance.drift.validator import validate_response, validate_stream
from strictconformance.record import RecordOptions, main, record_all, recording_origin
from strictconformance.record.scenarios import PROVIDERS

# fake keys, shaped like real ones so the scrubber's patterns are exercised
FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-" + "proj-" + "T3stKeyForLocalServer0123456789abcd",
    "ANTHROPIC_API_KEY": "sk-" + "ant-" + "api03-LocalOnly0123456789abcdefghij",
    "GEMINI_API_KEY": "AI" + "za" + "SyLocalOnly0123456789abcdefghijklmn",
    "GROQ_API_KEY": "gsk" + "_LocalOnly0123456789abcdefghijklmn",
    "CEREBRAS_API_KEY": "csk" + "-LocalOnly0123456789abcdefghijklmn",
    "CLOUDFLARE_API_TOKEN": "cf" + "LocalOnlyToken0123456789abcdefghij",
    "CLOUDFLARE_ACCOUNT_ID": "0123456789abcdef0123456789abcdef",
}

PREFIXES = {
    "openai": "/openai/v1",
    "anthropic": "/anthropic/v1",
    "gemini": "/gemini/v1beta",
    "groq": "/groq/openai/v1",
    "cerebras": "/cerebras/v1",
    "cloudflare": "/cloudflare/client/v4/accounts/0123456789abcdef0123456789abcdef/ai/v1",
}


@dataclass
class Canned:
    status: int
    content_type: str
    body: str


def _canned(api: str, *, stream: bool, tools: bool, tool_result: bool) -> Canned:
    """A shipped recording of ``api`` that fits the request."""
    cassettes = [load_cassette(location) for location in list_cassettes(api)]
    pool = [(c, i) for c in cassettes for i in c.interactions if i.is_stream == stream]
    if not stream:
        with_tools = [(c, i) for c, i in pool if c.scenario == "tool_call"]
        if tool_result:
            pool = [(c, i) for c, i in with_tools if i.index == 1] or pool
        elif tools:
            pool = [(c, i) for c, i in with_tools if i.index == 0] or pool
    _, interaction = pool[0]
    return Canned(200, interaction.content_type, interaction.response_body)


@dataclass
class FakeProviders:
    """State shared with the handler: what to answer and what was asked."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    override: dict[str, Canned] = field(default_factory=dict)  # api -> forced answer
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, path: str, body: dict[str, Any]) -> Canned:
        api = _api_for(path)
        if api in self.override:
            return self.override[api]
        text = json.dumps(body)
        stream = bool(body.get("stream")) or ":streamGenerateContent" in path
        tools = "tools" in body
        tool_result = any(marker in text for marker in ('"role": "tool"', "function_call_output", "tool_result", "functionResponse"))
        return _canned(api, stream=stream, tools=tools, tool_result=tool_result)


def _api_for(path: str) -> str:
    if path.startswith(PREFIXES["groq"]):
        return "groq.chat"
    if path.startswith(PREFIXES["cerebras"]):
        return "cerebras.chat"
    if path.startswith(PREFIXES["cloudflare"]):
        return "cloudflare.chat"
    if path.startswith(PREFIXES["anthropic"]):
        return "anthropic.messages"
    if path.startswith(PREFIXES["gemini"]):
        return "gemini.generate_content"
    return "openai.responses" if path.startswith(PREFIXES["openai"] + "/responses") else "openai.chat"


@pytest.fixture
def server() -> Iterator[tuple[str, FakeProviders]]:
    state = FakeProviders()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            with state.lock:
                state.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
            canned = state.answer(self.path, body)
            data = canned.body.encode("utf-8")
            self.send_response(canned.status)
            self.send_header("Content-Type", canned.content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Set-Cookie", "__cf_bm=SessionCookieThatMustNotBeRecorded; path=/")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _options(base: str, out: Path, mode: str, apis: tuple[str, ...] = API_IDS, **extra: Any) -> RecordOptions:
    settings: dict[str, Any] = {"env": dict(FAKE_KEYS), "timeout": 10, **extra}
    return RecordOptions(
        out=out,
        apis=apis,
        record_mode=mode,  # type: ignore[arg-type]
        base_urls={provider: base + prefix for provider, prefix in PREFIXES.items()},
        **settings,
    )


def _recorded_files(out: Path) -> list[Path]:
    return sorted(out.rglob("*.yaml"))


def test_mode_all_records_every_cassette_through_vcrpy_and_scrubs_it(server: tuple[str, FakeProviders], tmp_path: Path) -> None:
    base, state = server
    summary = record_all(_options(base, tmp_path, "all"))
    assert summary.exit_code == 0, summary.render()
    assert {r.status for r in summary.results} == {"recorded"}
    assert len(summary.results) == len(list_cassettes())
    assert not [r for r in summary.results if r.drift]
    files = _recorded_files(tmp_path)
    assert len(files) == len(list_cassettes())
    # the keys were sent ...
    sent = {header for request in state.requests for header in request["headers"].values()}
    assert f"Bearer {FAKE_KEYS['OPENAI_API_KEY']}" in sent
    assert FAKE_KEYS["ANTHROPIC_API_KEY"] in sent
    assert FAKE_KEYS["GEMINI_API_KEY"] in sent
    # ... and never written down
    for path in files:
        text = path.read_text(encoding="utf-8")
        for key in FAKE_KEYS.values():
            assert key not in text, (path, key)
        assert "SessionCookieThatMustNotBeRecorded" not in text
        assert scan_cassette_file(path) == []
        cassette = load_cassette_file(path)  # a valid cassette with provenance
        provenance = cassette.provenance
        # a local server is not the provider: recorded elsewhere, and where
        assert provenance.origin == "recorded-elsewhere"
        assert provenance.source.startswith(base)
        assert provenance.raw["endpoint"] == base.removeprefix("http://")
        assert provenance.raw["record_mode"] == "all"
        assert provenance.raw["recorder"] == "strictconformance.record"
        assert provenance.raw["kit_version"] == __version__
        assert "strictconformance.strategies.tools" in provenance.raw["request_built_from"]
        for response in cassette.responses():
            report = validate_stream(cassette.api, response.events()) if response.is_stream else validate_response(cassette.api, response.payload())
            assert report.ok, (path, report.errors)
    # a tool-call cassette has the tool-result turn, built from the first answer
    tool_call = load_cassette_file(tmp_path / "anthropic/messages/tool_use.yaml")
    assert len(tool_call.interactions) == 2
    assert "tool_result" in (tool_call.interactions[1].request_body or "")
    # requests were built around the drawn tool
    tool_requests = [r["body"] for r in state.requests if "tools" in r["body"]]
    assert tool_requests
    # vcrpy itself reads the files back
    with vcr.VCR(record_mode="none").use_cassette(str(tmp_path / "openai/chat/tool_call.yaml")) as cassette:
        assert len(cassette.data) == 2


def test_the_recorders_output_passes_the_shipped_cassette_provenance_check(
    server: tuple[str, FakeProviders], tmp_path: Path
) -> None:
    """cassettes/README.md says: review the diff and copy the new files over. Every file the
    recorder writes has the self-recorded provenance form the shipped-cassette check accepts,
    at the location of the cassette it replaces."""
    base, _ = server
    assert record_all(_options(base, tmp_path, "all")).exit_code == 0
    for path in _recorded_files(tmp_path):
        cassette = load_cassette_file(path)
        location = path.relative_to(tmp_path).as_posix()
        assert location in list_cassettes(cassette.api)
        assert provenance_problems(cassette) == [], (location, provenance_problems(cassette))


@pytest.mark.parametrize("api", API_IDS)
def test_only_the_providers_own_host_is_recorded_live(api: str) -> None:
    provider = PROVIDERS[api.split(".")[0]]
    default = provider.base_url.replace("{account_id}", "ACCOUNT_ID") + "/x"
    assert recording_origin(api, default) == "recorded-live"  # the recorder's default is the documented host
    assert recording_origin(api, default.replace("https://", "http://", 1)) == "recorded-elsewhere"
    assert recording_origin(api, "http://127.0.0.1:8080/v1/x") == "recorded-elsewhere"
    assert recording_origin(api, "https://proxy.example.com/v1/x") == "recorded-elsewhere"


def test_mode_none_replays_without_the_network_and_fails_clearly_without_a_cassette(
    server: tuple[str, FakeProviders], tmp_path: Path
) -> None:
    base, state = server
    missing = record_all(_options(base, tmp_path, "none", apis=("groq.chat",)))
    assert {r.status for r in missing.results} == {"failed"}
    assert all("cannot serve" in r.message for r in missing.results)
    assert state.requests == []
    assert record_all(_options(base, tmp_path, "all", apis=("groq.chat",))).exit_code == 0
    hits = len(state.requests)
    before = {p: p.read_text() for p in _recorded_files(tmp_path)}
    replay = record_all(_options(base, tmp_path, "none", apis=("groq.chat",), env={}))
    assert {r.status for r in replay.results} == {"replayed"}, replay.render()
    assert len(state.requests) == hits
    assert {p: p.read_text() for p in _recorded_files(tmp_path)} == before  # provenance untouched on replay


def test_mode_once_records_then_replays(server: tuple[str, FakeProviders], tmp_path: Path) -> None:
    base, state = server
    first = record_all(_options(base, tmp_path, "once", apis=("cerebras.chat", "gemini.generate_content")))
    assert {r.status for r in first.results} == {"recorded"}, first.render()
    hits = len(state.requests)
    assert hits > 0
    again = record_all(_options(base, tmp_path, "once", apis=("cerebras.chat", "gemini.generate_content")))
    assert {r.status for r in again.results} == {"replayed"}
    assert len(state.requests) == hits


def test_mode_new_episodes_keeps_old_interactions_and_records_new_ones(server: tuple[str, FakeProviders], tmp_path: Path) -> None:
    base, state = server
    assert record_all(_options(base, tmp_path, "once", apis=("openai.chat",))).exit_code == 0
    hits = len(state.requests)
    same = record_all(_options(base, tmp_path, "new_episodes", apis=("openai.chat",)))
    assert {r.status for r in same.results} == {"replayed"}
    assert len(state.requests) == hits
    other_model = record_all(_options(base, tmp_path, "new_episodes", apis=("openai.chat",), models={"openai.chat": "gpt-4.1-mini"}))
    assert {r.status for r in other_model.results} == {"recorded"}
    assert len(state.requests) > hits
    data = yaml.safe_load((tmp_path / "openai/chat/text_reasoning_model.yaml").read_text())
    models = [json.loads(i["request"]["body"])["model"] for i in data["interactions"]]
    assert models == ["gpt-4o-mini", "gpt-4.1-mini"]


def test_drift_in_a_new_recording_is_reported_with_its_path(server: tuple[str, FakeProviders], tmp_path: Path) -> None:
    base, state = server
    tool_use = load_cassette("anthropic/messages/tool_use.yaml").interactions[0]
    drifted = tool_use.response_body.replace('"type":"tool_use"', '"type":"function_call"')
    state.override["anthropic.messages"] = Canned(200, "application/json", drifted)
    summary = record_all(_options(base, tmp_path, "all", apis=("anthropic.messages",)))
    assert summary.exit_code == 1
    drift = [e for r in summary.results for e in r.drift]
    assert drift
    assert {e.path for e in drift} == {"content[1].type"}
    assert {e.rule_id for e in drift} == {"DR-5"}
    diff = next(r.diff for r in summary.results if r.location == "anthropic/messages/tool_use.yaml")
    assert any("content[type=function_call]" in line for line in diff)


def test_errors_are_reported_and_never_recorded(server: tuple[str, FakeProviders], tmp_path: Path) -> None:
    base, state = server
    state.override["groq.chat"] = Canned(401, "application/json", '{"error":{"message":"Invalid API Key"}}')
    summary = record_all(_options(base, tmp_path, "all", apis=("groq.chat",)))
    assert summary.exit_code == 1
    assert {r.status for r in summary.results} == {"failed"}
    assert all("HTTP 401" in r.message for r in summary.results)
    for path in _recorded_files(tmp_path):
        assert yaml.safe_load(path.read_text()).get("interactions") in (None, [])


def test_missing_keys_skip_with_a_message(server: tuple[str, FakeProviders], tmp_path: Path) -> None:
    base, _ = server
    summary = record_all(_options(base, tmp_path, "all", apis=("cloudflare.chat",), env={}))
    assert {r.status for r in summary.results} == {"skipped"}
    assert all("CLOUDFLARE_API_TOKEN" in r.message for r in summary.results)


def test_the_command_line(server: tuple[str, FakeProviders], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    base, _ = server
    for name, value in FAKE_KEYS.items():
        monkeypatch.setenv(name, value)
    code = main(["--out", str(tmp_path), "--api", "groq.chat", "--base-url", f"groq={base}{PREFIXES['groq']}", "--json"])
    output = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {r["status"] for r in output["results"]} == {"recorded"}
    assert main(["--base-url", "nonsense"]) == 2
    assert main(["--list", "--api", "groq.chat"]) == 0
    assert "groq/chat/tool_call.yaml" in capsys.readouterr().out


def test_a_run_that_records_nothing_fails_and_names_the_missing_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    for name in FAKE_KEYS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    code = main(["--out", str(tmp_path), "--api", "groq.chat", "--api", "anthropic.messages"])
    captured = capsys.readouterr()
    assert code == 3  # not 0 (a green scheduled job that recorded nothing), not 1 (drift)
    assert "nothing was recorded" in captured.out
    assert "GROQ_API_KEY (groq.chat)" in captured.out and "ANTHROPIC_API_KEY (anthropic.messages)" in captured.out
    assert "--allow-empty" in captured.out
    assert main(["--out", str(tmp_path), "--api", "groq.chat", "--allow-empty"]) == 0
    assert "accepted (--allow-empty)" in capsys.readouterr().out
    code = main(["--out", str(tmp_path), "--api", "groq.chat", "--json"])
    captured = capsys.readouterr()
    assert code == 3 and json.loads(captured.out)["nothing_recorded"].startswith("nothing was recorded")
    assert "GROQ_API_KEY" in captured.err
    # a provider whose URL needs a variable too names it beside the key
    monkeypatch.delenv("CLOUDFLARE_API_TOKEN", raising=False)
    assert main(["--out", str(tmp_path), "--api", "cloudflare.chat"]) == 3
    assert "CLOUDFLARE_API_TOKEN with CLOUDFLARE_ACCOUNT_ID (cloudflare.chat)" in capsys.readouterr().out


def test_a_listing_cut_short_by_its_reader_ends_quietly(tmp_path: Path) -> None:
    """``record --list | head -1``: no BrokenPipeError traceback, exit 0."""
    import subprocess
    import sys

    listing = subprocess.run(f"{sys.executable} -m strictconformance.record --list | head -1", shell=True, capture_output=True,
                             text=True, timeout=300, cwd=tmp_path)
    assert listing.stdout.count("\n") == 1 and "Traceback" not in listing.stderr, listing.stderr


def test_help_names_every_key_variable(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for provider in PROVIDERS.values():
        for name in (*provider.key_env, *provider.url_env.values()):
            assert name in text, name
    assert "--allow-empty" in text


def test_base_url_credentials_are_sent_as_a_header_and_never_recorded(server: tuple[str, FakeProviders], tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    base, state = server
    for name, value in FAKE_KEYS.items():
        monkeypatch.setenv(name, value)
    login = "proxyuser:Hunter2ProxyPass"
    with_login = base.replace("http://", f"http://{login}@")
    code = main(["--out", str(tmp_path), "--api", "anthropic.messages", "--api", "groq.chat",
                 "--base-url", f"anthropic={with_login}{PREFIXES['anthropic']}", "--base-url", f"groq={with_login}{PREFIXES['groq']}"])
    output = capsys.readouterr().out
    assert code == 0, output
    import base64

    basic = "Basic " + base64.b64encode(login.encode()).decode()
    sent = [request["headers"] for request in state.requests]
    assert sent and all(basic in (h.get("Authorization"), h.get("Proxy-Authorization")) for h in sent)
    assert any(h.get("Proxy-Authorization") == basic for h in sent)  # groq's key is in Authorization
    files = _recorded_files(tmp_path)
    assert files
    for path in files:
        text = path.read_text()
        assert "proxyuser" not in text and "Hunter2ProxyPass" not in text and basic not in text, path
        assert scan_cassette_file(path) == []


_PEM = "-----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----\n"


def test_secrets_the_provider_echoes_are_scrubbed_not_left_for_the_user(server: tuple[str, FakeProviders], tmp_path: Path) -> None:
    """A response echoing a secret-named field, a PEM key and a \\u-escaped key, and a model name
    that reaches the metadata with a key parameter: the recording is scrubbed (hooks and metadata)
    and kept, not deleted for the user to clean by hand."""
    base, state = server
    shipped = _canned("openai.chat", stream=False, tools=True, tool_result=False)
    payload = json.loads(shipped.body)
    payload["echo"] = {"api_token": "opaque-echoed-token", "pem": _PEM, "note": FAKE_KEYS["OPENAI_API_KEY"]}
    state.override["openai.chat"] = Canned(200, "application/json", json.dumps(payload).replace("sk-", "\\u0073k-"))
    model = "gpt-4o?api_key=opaqueModelKey"
    summary = record_all(_options(base, tmp_path, "all", apis=("openai.chat",), models={"openai.chat": model}))
    recorded = [r for r in summary.results if r.location == "openai/chat/tool_call.yaml"]
    assert [r.status for r in recorded] == ["recorded"], summary.render()
    path = tmp_path / "openai/chat/tool_call.yaml"
    text = path.read_text(encoding="utf-8")
    assert scan_cassette_file(path) == []
    for secret in ("opaque-echoed-token", "MIIEvQIBADANBgkqhkiG9w0", FAKE_KEYS["OPENAI_API_KEY"][3:], "opaqueModelKey"):
        assert secret not in text, secret
    assert yaml.safe_load(text)["metadata"]["strictconformance"]["provenance"]["model"] == "gpt-4o?api_key=REDACTED"
