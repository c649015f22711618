// strictconformance harness for Effect AI (effect 4 `effect/unstable/ai` with @effect/ai-openai and
// @effect/ai-anthropic). Calls only the SDK's own code:
// * build_request: LanguageModel.generateText() with a toolkit of Tool.dynamic tools (raw JSON
//   Schema parameters), each annotated with Tool.Strict when the request sets it, and the provider
//   config's strictJsonSchema; the HTTP request the provider client builds is captured by the fetch
//   the SDK's FetchHttpClient calls (globalThis.fetch), and the call stops there.
// * check_response / check_stream (OpenAI Responses, Anthropic Messages): generateText() /
//   streamText() on OpenAiLanguageModel / AnthropicLanguageModel, the fetch answering with the
//   recorded (or mutated) body or event stream, so the provider packages' own schemas decode it;
//   a failure is Effect's AiError reason (InvalidOutputError with the path Effect names,
//   ToolParameterValidationError), a stream's error part is ErrorPart, and a success returns what
//   Effect parsed (text, tool calls, usage) for DR-7.
// * define_tool / describe_tool: Tool.dynamic + Tool.Strict, read back with Tool.getJsonSchema and
//   Tool.getStrictMode (TL-1, TL-7).
//
// Not covered (declared in not_covered, never faked): see NOT_COVERED below.

import { Effect, Redacted, Schema, Stream } from "effect";
import { LanguageModel, Tool, Toolkit } from "effect/unstable/ai";
import { FetchHttpClient } from "effect/unstable/http";
import { OpenAiClient, OpenAiLanguageModel } from "@effect/ai-openai";
import { AnthropicClient, AnthropicLanguageModel } from "@effect/ai-anthropic";
import { serve, Refusal, DeclaredError, packageVersion, stringifyDeep } from "../harness-kit.mjs";

const PACKAGES = ["effect", "@effect/ai-openai", "@effect/ai-anthropic"];
const versions = Object.fromEntries(await Promise.all(PACKAGES.map(async (name) => [name, await packageVersion(name)])));

const PROVIDERS = {
  openai: { api: "openai.responses", client: OpenAiClient, model: OpenAiLanguageModel, pkg: "@effect/ai-openai", names: ["OpenAiClient", "OpenAiLanguageModel"] },
  anthropic: { api: "anthropic.messages", client: AnthropicClient, model: AnthropicLanguageModel, pkg: "@effect/ai-anthropic", names: ["AnthropicClient", "AnthropicLanguageModel"] },
};

const NOT_COVERED = {
  google: "npm has no @effect/ai-google for effect 4 (its latest, 0.15.0, needs effect ^3.21 and @effect/ai ^0.36, whose Google model has no strict setting): Google rules are not covered",
  response_schema: "structured-output response formats (generateObject) are not driven by this harness: requests with one are refused",
  plan_request: "Effect AI has no model selection among candidates (priority convention)",
  strict_support: "no public API resolves a model's strict format",
  "strictify/encode/decode": "Effect AI sends dynamic tools' JSON Schemas as given",
  "drift APIs": "Effect AI's provider models speak the OpenAI Responses API and Anthropic Messages only (no OpenAI Chat Completions model, no Gemini): other APIs' drift checks are not covered",
  stop_reason: "Effect keeps only its own finish reason (\"stop\", \"tool-calls\"...), not the provider's stop_reason or status: DR-7 compares text, tool calls and usage",
  invoke_tool: "Effect runs a tool as an Effect handler (toolkit.toLayer): a failure is typed and its failureMode decides whether it reaches the model or fails the call, a generator has no counterpart (progress is context.preliminary()), and the handler's context holds the tool-call id but no invocation state; bridging the kit's callbacks to that would judge the harness's mapping, not Effect: TL-2..TL-6 are not covered",
  call_tool: "an Effect tool is a description, not a callable: its handler is the caller's own Effect",
  sources: "tools from type hints or Python models cannot cross the process boundary; Effect Schema tools (Tool.make) are not built from the kit's JSON Schemas",
};

// One fetch for the whole process (the SDK's FetchHttpClient calls globalThis.fetch): build_request
// captures the request and stops there; the response checks answer with the recorded body or
// event stream (`answer`), as the provider would.
let captured = null;
let answer = null;
globalThis.fetch = async (url, init = {}) => {
  const request = new Request(url, init);
  const text = await request.text();
  captured = { url: request.url, headers: Object.fromEntries(request.headers.entries()), body: JSON.parse(text) };
  if (answer !== null) return answer();
  throw new Error("strictconformance: request captured, not sent");
};

function sdkToolkit(request) {
  const tools = request.tools.map((spec) => {
    if (spec.strict !== null && typeof spec.strict !== "boolean") {
      throw new Refusal(`tool ${spec.name}: Tool.Strict is a boolean, not ${JSON.stringify(spec.strict)}`);
    }
    const tool = Tool.dynamic(spec.name, { description: spec.description, parameters: spec.input_schema });
    return spec.strict === null ? tool : tool.annotate(Tool.Strict, spec.strict);
  });
  return Toolkit.make(...tools);
}

async function buildRequest({ request }) {
  const provider = PROVIDERS[request.provider];
  if (!provider) throw new Refusal(NOT_COVERED.google);
  if (request.response_schema !== null) throw new Refusal(NOT_COVERED.response_schema);
  const config = request.config_strict === null ? {} : { strictJsonSchema: request.config_strict };
  const options = { prompt: "hi" };
  let program;
  if (request.tools.length) {
    const toolkit = sdkToolkit(request);
    const handlers = toolkit.toLayer(Object.fromEntries(request.tools.map((t) => [t.name, () => Effect.succeed(null)])));
    program = LanguageModel.generateText({ ...options, toolkit }).pipe(Effect.provide(handlers));
  } else {
    program = LanguageModel.generateText(options);
  }
  captured = null;
  const exit = await Effect.runPromiseExit(program.pipe(
    Effect.provide(provider.model.model(request.model, config)),
    Effect.provide(provider.client.layer({ apiKey: Redacted.make("sk-strictconformance-not-a-key") })),
    Effect.provide(FetchHttpClient.layer),
  ));
  if (captured === null) throw new Error(`the SDK sent no request (${exit._tag})`);
  return { api: provider.api, body: captured.body, headers: captured.headers };
}

// -- response parsing: check_response / check_stream -----------------------------------------------
// LanguageModel.generateText() / streamText() on the provider's language model, whose client
// fetches (mocked: the recorded body or event stream) and decodes the response with the
// provider package's own schemas (OpenAiSchema.Response / ResponseStreamEvent, Anthropic's
// Generated.BetaMessage and stream events), then maps it to Effect's response parts.
const RESPONSE_APIS = { "openai.responses": "openai", "anthropic.messages": "anthropic" };
const RESPONSE_MODELS = { openai: "gpt-4o", anthropic: "claude-sonnet-4-5" };
// The provider models resolve every tool call against the caller's toolkit and decode its params
// with the tool's parameters schema (transformToolCallParams in OpenAiLanguageModel.js and
// AnthropicLanguageModel.js: a call of a tool the toolkit lacks fails with ToolNotFoundError), so
// the caller offers a tool of each name the response may call, as an application whose model
// calls its own tools; disableToolCallResolution: the calls are parsed, not run.
// * Anthropic: Tool.dynamic with a raw JSON Schema (parameters decoded as given).
// * OpenAI: that tool cannot receive a call (toCodecOpenAI rejects its Schema.Unknown parameters
//   with UnsupportedSchemaError, as it rejects any schema that is not an object of fixed keys), so
//   its parameters are a Schema.Struct of the keys the response's calls pass, each Schema.Json: a
//   key every call passes is required (kept as sent, null too), another optional (Effect's OpenAI
//   codec then reads null as absent).
const MAX_TOOL_NAMES = 256;
const PLACEHOLDER_KEY = "strictconformance_no_arguments";

// The tools the caller offers for a response of `api` (`values`: its body, or its events' data):
// one of every string under a "name" key, anywhere; for OpenAI, the keys of the objects the
// "arguments" JSON texts hold (a key all of them pass is required). Walked without recursion: the
// kit sends values nested 20,000 deep.
function offeredTools(api, values) {
  const names = new Set();
  const argumentKeys = [];
  const stack = [...values];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === "object") stack.push(item);
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        if (key === "name" && typeof item === "string") names.add(item);
        else if (key === "arguments" && typeof item === "string") {
          try {
            const parsed = JSON.parse(item);
            if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) argumentKeys.push(Object.keys(parsed));
          } catch {
            // not JSON: Effect says so itself (ToolParameterValidationError)
          }
        } else if (item !== null && typeof item === "object") stack.push(item);
      }
    }
  }
  if (names.size > MAX_TOOL_NAMES) throw new Refusal(`the response names ${names.size} tools; this harness offers at most ${MAX_TOOL_NAMES}`);
  if (api !== "openai.responses") return { names: [...names], fields: null };
  const every = argumentKeys.length ? argumentKeys.reduce((common, keys) => common.filter((key) => keys.includes(key))) : [];
  const fields = new Map();  // (a key may be "__proto__")
  for (const keys of argumentKeys) {
    for (const key of keys) fields.set(key, every.includes(key) ? "required" : "optional");
  }
  if (!fields.size) fields.set(PLACEHOLDER_KEY, "optional");
  return { names: [...names], fields: [...fields] };
}

function toolParameters({ fields }) {
  if (fields === null) return { type: "object" };
  return Schema.Struct(Object.fromEntries(fields.map(([key, kind]) => [key, kind === "required" ? Schema.Json : Schema.optionalKey(Schema.Json)])));
}

function toolParametersSource({ fields }) {
  if (fields === null) return '{ type: "object" }';
  const entries = fields.map(([key, kind]) => `[${JSON.stringify(key)}, ${kind === "required" ? "Schema.Json" : "Schema.optionalKey(Schema.Json)"}]`);
  return `Schema.Struct(Object.fromEntries([${entries.join(", ")}]))`;
}

function eventData(events) {
  const out = [];
  for (const event of events) {
    try {
      out.push(JSON.parse(event.data));
    } catch {
      // not JSON: names nothing
    }
  }
  return out;
}

function responseProvider(api) {
  const provider = RESPONSE_APIS[api];
  if (!provider) throw new Refusal(`this harness parses ${Object.keys(RESPONSE_APIS).join(", ")} responses only`);
  return PROVIDERS[provider];
}

function responseToolkit(offered) {
  const parameters = toolParameters(offered);
  return Toolkit.make(...offered.names.map((name) => Tool.dynamic(name, { parameters })));
}

function provided(program, api, toolkit, names) {
  const provider = responseProvider(api);
  const handlers = toolkit.toLayer(Object.fromEntries(names.map((name) => [name, () => Effect.succeed(null)])));
  return program.pipe(
    Effect.provide(handlers),
    Effect.provide(provider.model.model(RESPONSE_MODELS[RESPONSE_APIS[api]])),
    Effect.provide(provider.client.layer({ apiKey: Redacted.make("sk-strictconformance-not-a-key") })),
    Effect.provide(FetchHttpClient.layer),
  );
}

// An Effect issue path as Effect's default formatter prints it (`["usage"]["inference_geo"]`,
// `[0]["data"]["message"]`), read back as its keys.
const ISSUE_PATH = /\n\s*at ((?:\[(?:\d+|"(?:[^"\\]|\\.)*")\])+)/;

function issuePath(description, stream) {
  const match = ISSUE_PATH.exec(String(description ?? ""));
  if (!match) return null;
  const keys = [...match[1].matchAll(/\[(\d+|"(?:[^"\\]|\\.)*")\]/g)].map(([, key]) => (key.startsWith('"') ? JSON.parse(key) : Number(key)));
  // A stream is decoded in batches of events (Sse.decodeDataSchema): the answer is one chunk, so
  // the batch is the whole stream and its index is the event's.
  if (stream && typeof keys[0] === "number") keys.unshift("events");
  let path = "";
  for (const key of keys) {
    if (typeof key === "number") path += `[${key}]`;
    else path += /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path ? "." : ""}${key}` : `[${JSON.stringify(key)}]`;
  }
  return path;
}

// What the program's failure is to the kit: an AiError as its reason (InvalidOutputError: the
// response did not decode; the provider's errors as theirs), with the issue path Effect names.
// A defect (the SDK threw instead of failing) is passed on as the error it threw.
function failureOf(cause, stream) {
  const reasons = cause?.reasons ?? [];
  const fail = reasons.find((reason) => reason._tag === "Fail");
  if (fail) {
    const error = fail.error;
    if (error?._tag === "AiError" && error.reason) {
      // Only the provider clients decode the response itself: LanguageModel's own decode (module
      // "LanguageModel") is of the response parts Effect built, whose paths are not the payload's.
      const decodedPayload = error.module === "OpenAiClient" || error.module === "AnthropicClient";
      const path = decodedPayload ? issuePath(error.reason.description, stream) : null;
      return new DeclaredError(error.reason._tag, String(error.message).slice(0, 4000), { path });
    }
    return new DeclaredError(error?._tag ?? error?.name ?? "Error", String(error?.message ?? error).slice(0, 4000));
  }
  const die = reasons.find((reason) => reason._tag === "Die");
  if (die) return die.defect instanceof Error ? die.defect : new Error(`Effect died with ${String(die.defect)}`);
  return new Error(`the program did not complete: ${String(cause)}`.slice(0, 4000));
}

// A stream's error part: how Effect's provider models pass on an error event the provider sent
// (Response.ErrorPart: Anthropic `error`, OpenAI `error` and `response.failed`).
function errorPart(part) {
  return new DeclaredError("ErrorPart", `the stream carried an error part: ${stringifyDeep(part.error ?? null)}`.slice(0, 4000));
}

// What Effect read, in the kit's normalized form (strictconformance.drift.fidelity.ParsedResponse):
// the text parts joined, the tool calls the caller runs (not provider-executed ones) with their
// parsed params, and the token counts the provider wrote that Effect keeps unchanged (OpenAI:
// usage.inputTokens.total / outputTokens.total; Anthropic: inputTokens.uncached, Anthropic's
// input_tokens, and outputTokens.total). The stop reason is not returned: Effect keeps only its
// own mapping (FinishReason "stop", "tool-calls"...), not the provider's value.
function normalized(text, calls, finish) {
  const out = { text, tool_calls: calls.filter((call) => call.providerExecuted !== true).map((call) => ({
    name: call.name, arguments: call.params === undefined ? null : call.params, id: call.id ?? null,
  })) };
  const usage = finish?.usage;
  const counts = {};
  const input = finish?.provider === "anthropic" ? usage?.inputTokens?.uncached : usage?.inputTokens?.total;
  const output = usage?.outputTokens?.total;
  if (Number.isSafeInteger(input)) counts.input_tokens = input;
  if (Number.isSafeInteger(output)) counts.output_tokens = output;
  if (Object.keys(counts).length) out.usage = counts;
  return out;
}

async function runAnswered(respond, program) {
  answer = respond;
  captured = null;
  try {
    return await Effect.runPromiseExit(program);
  } finally {
    answer = null;
  }
}

async function checkResponse({ api, payload }) {
  responseProvider(api);
  const offered = offeredTools(api, [payload]);
  const { names } = offered;
  const toolkit = responseToolkit(offered);
  const body = stringifyDeep(payload);
  const program = LanguageModel.generateText({ prompt: "hi", toolkit, disableToolCallResolution: true });
  const exit = await runAnswered(() => new Response(body, { status: 200, headers: { "content-type": "application/json" } }),
                                 provided(program, api, toolkit, names));
  if (captured === null) throw new Refusal(`Effect built no request with a toolkit of these tool names (${exit._tag}): ${JSON.stringify(names).slice(0, 300)}`);
  if (exit._tag === "Failure") throw failureOf(exit.cause, false);
  const parts = exit.value.content;
  const finish = parts.find((part) => part.type === "finish");
  return normalized(exit.value.text, parts.filter((part) => part.type === "tool-call"), finish && { usage: finish.usage, provider: RESPONSE_APIS[api] });
}

function sseText(events) {
  let out = "";
  for (const event of events) {
    if (event.event != null) out += `event: ${event.event}\n`;
    if (event.id != null) out += `id: ${event.id}\n`;
    for (const line of String(event.data).split("\n")) out += `data: ${line}\n`;
    out += "\n";
  }
  return out;
}

// The event stream as one chunk (see issuePath).
function sseResponse(events) {
  const bytes = new TextEncoder().encode(sseText(events));
  const body = new ReadableStream({ start(controller) { controller.enqueue(bytes); controller.close(); } });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

async function checkStream({ api, events }) {
  responseProvider(api);
  const offered = offeredTools(api, eventData(events));
  const { names } = offered;
  const toolkit = responseToolkit(offered);
  const texts = [];
  const calls = [];
  let finish = null;
  let streamError = null;
  const collect = LanguageModel.streamText({ prompt: "hi", toolkit, disableToolCallResolution: true }).pipe(Stream.runForEach((part) => Effect.sync(() => {
    if (part.type === "text-delta") texts.push(part.delta);
    else if (part.type === "tool-call") calls.push(part);
    else if (part.type === "finish") finish = part;
    else if (part.type === "error" && streamError === null) streamError = part;
  })));
  const exit = await runAnswered(() => sseResponse(events), provided(collect, api, toolkit, names));
  if (captured === null) throw new Refusal(`Effect built no request with a toolkit of these tool names (${exit._tag}): ${JSON.stringify(names).slice(0, 300)}`);
  if (exit._tag === "Failure") throw failureOf(exit.cause, true);
  if (streamError !== null) throw errorPart(streamError);
  return normalized(texts.join(""), calls, finish && { usage: finish.usage, provider: RESPONSE_APIS[api] });
}

// -- the tool layer, as far as it maps: define_tool / describe_tool ---------------------------------
// Tool.dynamic(name, { description, parameters: <raw JSON Schema> }), annotated Tool.Strict when
// the definition sets strict (what build_request sends); what it advertises is Tool.getJsonSchema()
// and Tool.getStrictMode(). The callback is never run: see NOT_COVERED.invoke_tool.
const definedTools = new Map();

function effectTool(definition) {
  const tool = Tool.dynamic(definition.name, { description: definition.description, parameters: definition.input_schema });
  return definition.strict === null ? tool : tool.annotate(Tool.Strict, definition.strict);
}

async function defineTool({ definition }) {
  if (definition.input_schema === null) throw new Refusal("this harness defines tools from a JSON Schema only (Tool.dynamic)");
  const handle = `tool-${definedTools.size + 1}`;
  definedTools.set(handle, { tool: effectTool(definition), definition });
  return { tool: handle };
}

async function describeTool({ tool: handle }) {
  const found = definedTools.get(handle);
  if (!found) throw new Error(`unknown tool handle ${handle}`);
  const strict = Tool.getStrictMode(found.tool);
  return { name: found.tool.name, description: found.tool.description ?? "", input_schema: Tool.getJsonSchema(found.tool),
           strict: strict === undefined ? null : strict };
}

function reproduceDefineTool({ definition }) {
  const strict = definition.strict === null ? "" : `.annotate(Tool.Strict, ${JSON.stringify(definition.strict)})`;
  return `// npm install effect@${versions.effect}
import { Tool } from "effect/unstable/ai";
// Tool.dynamic keeps what it is given: the strict annotation and the schema the providers will send
const t = Tool.dynamic(${JSON.stringify(definition.name)}, { description: ${JSON.stringify(definition.description)}, parameters: ${JSON.stringify(definition.input_schema)} })${strict};
console.log("strict:", JSON.stringify(Tool.getStrictMode(t)), "schema:", JSON.stringify(Tool.getJsonSchema(t)));
`;
}

function reproduceBuildRequest({ request }) {
  const provider = PROVIDERS[request.provider];
  const tools = request.tools.map((t, i) => `const t${i} = Tool.dynamic(${JSON.stringify(t.name)}, { description: ${JSON.stringify(t.description)}, parameters: ${JSON.stringify(t.input_schema)} })${t.strict !== null ? `.annotate(Tool.Strict, ${t.strict})` : ""};`).join("\n");
  const names = request.tools.map((_, i) => `t${i}`).join(", ");
  const handlers = request.tools.map((t) => `${JSON.stringify(t.name)}: () => Effect.succeed(null)`).join(", ");
  const config = request.config_strict === null ? "{}" : `{ strictJsonSchema: ${request.config_strict} }`;
  return `// npm install effect@${versions.effect} ${provider.pkg}@${versions[provider.pkg]}
import { Effect, Redacted, Schema, Stream } from "effect";
import { LanguageModel, Tool, Toolkit } from "effect/unstable/ai";
import { FetchHttpClient } from "effect/unstable/http";
import { ${provider.names[0]}, ${provider.names[1]} } from "${provider.pkg}";
// prints the request the SDK would send, then stops
globalThis.fetch = async (url, init) => { const r = new Request(url, init); console.log(r.url, Object.fromEntries(r.headers), await r.text()); throw new Error("captured"); };
${tools}
const toolkit = Toolkit.make(${names});
await Effect.runPromiseExit(LanguageModel.generateText({ prompt: "hi"${request.tools.length ? ", toolkit" : ""} }).pipe(
  ${request.tools.length ? `Effect.provide(toolkit.toLayer({ ${handlers} })),` : ""}
  Effect.provide(${provider.names[1]}.model(${JSON.stringify(request.model)}, ${config})),
  Effect.provide(${provider.names[0]}.layer({ apiKey: Redacted.make("test") })),
  Effect.provide(FetchHttpClient.layer)));
`;
}

function reproduceResponse(api, offered, what, fetchSource, call, show) {
  const provider = responseProvider(api);
  const tools = offered.names.map((name) => `Tool.dynamic(${JSON.stringify(name)}, { parameters })`).join(", ");
  const handlers = offered.names.map((name) => `${JSON.stringify(name)}: () => Effect.succeed(null)`).join(", ");
  return `// npm install effect@${versions.effect} ${provider.pkg}@${versions[provider.pkg]}
import { Effect, Redacted, Schema, Stream } from "effect";
import { LanguageModel, Tool, Toolkit } from "effect/unstable/ai";
import { FetchHttpClient } from "effect/unstable/http";
import { ${provider.names[0]}, ${provider.names[1]} } from "${provider.pkg}";
// ${what}
${fetchSource}
// the caller's toolkit: a tool of each name the response may call (the calls are parsed, not run)
const parameters = ${toolParametersSource(offered)};
const toolkit = Toolkit.make(${tools});
const exit = await Effect.runPromiseExit(${call}.pipe(
  Effect.provide(toolkit.toLayer({ ${handlers} })),
  Effect.provide(${provider.names[1]}.model(${JSON.stringify(RESPONSE_MODELS[RESPONSE_APIS[api]])})),
  Effect.provide(${provider.names[0]}.layer({ apiKey: Redacted.make("test") })),
  Effect.provide(FetchHttpClient.layer)));
if (exit._tag === "Failure") console.log(String(exit.cause));
else ${show}
`;
}

function reproduceCheckResponse({ api, payload }) {
  if (!RESPONSE_APIS[api]) return null;
  return reproduceResponse(api, offeredTools(api, [payload]), "the recorded (or mutated) response body the provider package parses",
    `const body = ${stringifyDeep(payload)};
globalThis.fetch = async () => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });`,
    "LanguageModel.generateText({ prompt: \"hi\", toolkit, disableToolCallResolution: true })",
    "console.log(JSON.stringify(exit.value.content.filter((part) => part.type !== \"response-metadata\"), null, 2));");
}

function reproduceCheckStream({ api, events }) {
  if (!RESPONSE_APIS[api]) return null;
  return reproduceResponse(api, offeredTools(api, eventData(events)), "the recorded (or mutated) server-sent events the provider package parses",
    `const sse = ${JSON.stringify(sseText(events))};
globalThis.fetch = async () => new Response(sse, { headers: { "content-type": "text/event-stream" } });`,
    "LanguageModel.streamText({ prompt: \"hi\", toolkit, disableToolCallResolution: true }).pipe(Stream.runCollect)",
    "for (const part of exit.value) if (part.type !== \"response-metadata\") console.log(JSON.stringify(part));");
}

serve({
  implementation: { name: "effect-ai", version: versions.effect, homepage: "https://effect.website", sdk: versions },
  declarations: {
    // Tool.getStrictMode(tool) ?? config.strictJsonSchema ?? true (OpenAiLanguageModel.prepareTools).
    strict_defaults: { openai: true, anthropic: true },
    providers: ["openai", "anthropic"],
    drift_apis: Object.keys(RESPONSE_APIS),
    // Response fields Effect does not read: its Response schema does not declare them (Schema.Struct
    // ignores an undeclared key), in a body and in the response events of a stream alike, and
    // makeResponse (OpenAiLanguageModel.js:670-688) reads neither: DR-2/DR-3 do not mutate them.
    drift_unread: {
      "openai.responses": Object.fromEntries(["status", "completed_at"].flatMap((name) => [
        [name, `@effect/ai-openai 4.0.0-beta.106 dist/OpenAiSchema.js:551-563 (Response = Schema.Struct({ id, object?, model, created_at, `
          + `output, usage?, error?, incomplete_details?, service_tier? }): no ${name})`],
        [`events[*].data.response.${name}`, `@effect/ai-openai 4.0.0-beta.106 dist/OpenAiSchema.js:564-583 (the response.created, `
          + `.completed, .incomplete and .failed events' response is that Response, :551-563: no ${name})`],
      ])),
    },
    // Tool.Strict is typed boolean; a tool's strict left unset stays unset (getStrictMode: undefined).
    tool_layer_traits: { sources: ["json_schema"], strict_convention: "boolean" },
    // AiError reasons (AiError.js): InvalidOutputError, the response (body, SSE, an event) failed
    // the provider package's schema, or Effect's response-part schema; ToolParameterValidationError,
    // a tool call's params are not JSON or fail the tool's parameters schema.
    drift_errors: ["InvalidOutputError", "ToolParameterValidationError"],
    // A stream's error event as the provider models pass it on: a Response.ErrorPart.
    api_errors: ["ErrorPart"],
    // check_response / check_stream return what generateText() / streamText() parsed (DR-7).
    parse_fidelity: true,
  },
  notCovered: NOT_COVERED,
  capabilities: { build_request: buildRequest, check_response: checkResponse, check_stream: checkStream, define_tool: defineTool, describe_tool: describeTool },
  reproducers: { build_request: reproduceBuildRequest, check_response: reproduceCheckResponse, check_stream: reproduceCheckStream, define_tool: reproduceDefineTool },
});
