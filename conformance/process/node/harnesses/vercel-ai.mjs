// strictconformance harness for the Vercel AI SDK (`ai` with @ai-sdk/openai, @ai-sdk/anthropic,
// @ai-sdk/google). Calls only the SDK's own code: generateText() with a custom fetch that captures
// the HTTP request the provider package builds (build_request); each provider model's doGenerate()
// and doStream() on a recorded body or event stream answered by a mocked fetch, so the provider's
// own response schemas parse it, returning what they parsed (check_response / check_stream, DR-7);
// and the tool layer, tool() with jsonSchema() (or a Zod schema with `--zod`) run through
// streamText()'s tool-use path (define/describe/invoke_tool).
//
// Not covered (declared in not_covered, never faked): see NOT_COVERED below.

import { generateText, streamText, jsonSchema, asSchema, tool, Output } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { z } from "zod";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { serve, Refusal, DeclaredError, packageVersion, stringifyDeep } from "../harness-kit.mjs";

// `--zod`: the tool layer defines tools with a Zod schema (zod's own z.fromJSONSchema of the
// kit's JSON Schema) instead of jsonSchema().
const ZOD = process.argv.includes("--zod");
const PACKAGES = ["ai", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/google", ...(ZOD ? ["zod"] : [])];
const versions = Object.fromEntries(await Promise.all(PACKAGES.map(async (name) => [name, await packageVersion(name)])));

const API = { openai: "openai.chat", anthropic: "anthropic.messages", google: "gemini.generate_content" };
// AI SDK toolChoice for Gemini's function-calling modes (VALIDATED has none: the SDK sets it itself).
const TOOL_CHOICE = { AUTO: "auto", ANY: "required", NONE: "none" };

const NOT_COVERED = {
  "config_strict": "the AI SDK has no provider-level strict setting for tools (providerOptions.openai.strictJsonSchema applies to response formats only): requests that set one are refused",
  "function_calling_mode VALIDATED": "toolChoice has no VALIDATED; the SDK sets it itself for strict tools (RES-6): requests asking for it are refused",
  "plan_request": "the AI SDK has no model selection among candidates (priority convention)",
  "strict_support": "no public API resolves a model's strict format",
  "strictify/encode/decode": "the AI SDK sends tool schemas as given (no strictify)",
  "call_tool": "the AI SDK's tool object has no direct call of its own: tool.execute is the caller's function, run as given (TL-6's direct call is not covered; its tool-use path is)",
  "sources": "tools from type hints or Python models cannot cross the process boundary; `--zod` defines them with a Zod schema converted by z.fromJSONSchema",
  ...(ZOD ? { "build_request/check_response/check_stream": "with --zod only the tool layer runs: requests and response parsing do not depend on how a tool's schema is written (the harness without --zod checks them)" } : {}),
};

class CaptureDone extends Error {}

function providerModel(provider, modelId, fetch) {
  const common = { apiKey: "sk-strictconformance-not-a-key", fetch };
  if (provider === "openai") return createOpenAI(common).chat(modelId);
  if (provider === "anthropic") return createAnthropic(common)(modelId);
  if (provider === "google") return createGoogleGenerativeAI(common)(modelId);
  throw new Refusal(`unknown provider ${provider}`);
}

function sdkTools(request) {
  const tools = {};
  for (const spec of request.tools) {
    if (spec.strict !== null && typeof spec.strict !== "boolean") {
      throw new Refusal(`tool ${spec.name}: the AI SDK's strict is a boolean, not ${JSON.stringify(spec.strict)}`);
    }
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema(spec.input_schema),
      ...(spec.strict !== null ? { strict: spec.strict } : {}),
    });
  }
  return tools;
}

function callOptions(request) {
  if (request.config_strict !== null) throw new Refusal(NOT_COVERED.config_strict);
  const options = { prompt: "hi", maxRetries: 0 };
  if (request.tools.length) options.tools = sdkTools(request);
  if (request.response_schema !== null) options.output = Output.object({ schema: jsonSchema(request.response_schema) });
  const mode = request.function_calling_mode;
  if (mode !== null) {
    if (request.provider !== "google") throw new Refusal("function_calling_mode is Google's");
    if (!(mode in TOOL_CHOICE)) throw new Refusal(NOT_COVERED["function_calling_mode VALIDATED"]);
    options.toolChoice = TOOL_CHOICE[mode];
  }
  return options;
}

async function buildRequest({ request }) {
  let captured = null;
  const fetch = async (url, init) => {
    captured = { url: String(url), headers: Object.fromEntries(new Headers(init.headers).entries()), body: JSON.parse(init.body) };
    throw new CaptureDone("captured");
  };
  const options = callOptions(request);
  try {
    await generateText({ model: providerModel(request.provider, request.model, fetch), ...options });
  } catch (error) {
    if (captured === null) throw error;
  }
  if (captured === null) throw new Error("the SDK sent no request");
  return { api: API[request.provider], body: captured.body, headers: captured.headers };
}

// The response path of the provider package alone: LanguageModel.doGenerate() / doStream() fetch
// (mocked: the recorded body or event stream), parse it with the provider's response schemas and
// map it to content parts. generateText() would also run tool-call handling, which is not parsing.
const RESPONSE_APIS = { "openai.chat": "openai", "openai.responses": "openai", "anthropic.messages": "anthropic", "gemini.generate_content": "google" };
const RESPONSE_MODELS = { openai: "gpt-4o", anthropic: "claude-sonnet-4-5", google: "gemini-2.5-flash" };
// The id the provider packages make up for a tool call the response gives none (Gemini calls
// often have none): read back as "no id", what the payload holds.
const MADE_UP_ID = "strictconformance-generated-id";

function responseModel(api, fetch) {
  const provider = RESPONSE_APIS[api];
  if (!provider) throw new Refusal(`this harness parses ${Object.keys(RESPONSE_APIS).join(", ")} responses only`);
  const common = { apiKey: "sk-strictconformance-not-a-key", fetch };
  const modelId = RESPONSE_MODELS[provider];
  if (api === "openai.responses") return createOpenAI(common).responses(modelId);
  if (api === "openai.chat") return createOpenAI(common).chat(modelId);
  if (provider === "anthropic") return createAnthropic(common)(modelId);
  return createGoogleGenerativeAI({ ...common, generateId: () => MADE_UP_ID })(modelId);
}

const PROMPT = [{ role: "user", content: [{ type: "text", text: "hi" }] }];

// A provider-package error as the kit's drift error: AI_APICallError "Invalid JSON response"
// (or a stream's error part) whose cause is the AI_TypeValidationError with the zod issues
// (their path is the drift path). In a stream the provider packages validate each event's data
// on its own: the issues' path is a path into one event, and which event that was is not in the
// error, so a stream's drift error carries no path (`inStream`), as the Python adapters do.
function driftError(error, { inStream = false } = {}) {
  const cause = error?.cause;
  const issue = cause?.cause?.issues?.[0] ?? cause?.issues?.[0] ?? error?.issues?.[0];
  const parts = issue && !inStream ? deepestPath(issue) : null;
  const path = parts ? parts.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("").replace(/^\./, "") : null;
  const detail = cause?.message ? `: ${cause.message}` : "";
  if (!(error instanceof Error) && error && typeof error === "object" && "statusCode" in error && "data" in error) {
    // a stream's error event, as the provider packages normalize it (createProviderStreamError)
    return new DeclaredError("AI_ProviderStreamError", String(error.message ?? JSON.stringify(error.data)).slice(0, 4000));
  }
  const name = error instanceof Error ? error.name : "AI_StreamError";
  const message = error instanceof Error ? String(error.message) : JSON.stringify(error);
  return new DeclaredError(name, `${message}${detail}`.slice(0, 4000), { path });
}

function parsedArguments(input) {
  if (typeof input !== "string") return input ?? {};
  if (!input.trim()) return {};
  try {
    return JSON.parse(input);
  } catch {
    return input; // not JSON: the kit shows the text the SDK kept
  }
}

// What the SDK read, in the kit's normalized form (strictconformance.drift.fidelity.ParsedResponse):
// the text parts joined, the calls the user runs (not provider-executed ones), the provider's raw
// stop reason (finishReason.raw), and the token counts the provider wrote where the SDK keeps
// them unchanged (chat/Responses: totals; Anthropic: input without cache, its output; Gemini:
// candidatesTokenCount as outputTokens.text; Gemini's input total adds tool-use prompt tokens).
function normalized(api, text, calls, finishReason, usage) {
  const out = { text, tool_calls: calls.filter((call) => !call.providerExecuted).map((call) => ({
    name: call.toolName, arguments: parsedArguments(call.input), id: call.toolCallId === MADE_UP_ID ? null : call.toolCallId ?? null,
  })) };
  // (Responses: the SDK's raw reason is incomplete_details.reason, not the response's status, the
  // stop reason the kit reads: not comparable, so not reported)
  if (typeof finishReason?.raw === "string" && api !== "openai.responses") out.stop_reason = finishReason.raw;
  // the provider packages' mark of a stream that ended without its completion signal ("provider
  // stream ended without a completion signal; output may be incomplete", @ai-sdk/provider
  // LanguageModelV4FinishReason): the reading is marked incomplete (DR-9)
  if (finishReason?.unified === "interrupted") out.incomplete = true;
  const counts = {};
  const input = api === "anthropic.messages" ? usage?.inputTokens?.noCache : api === "gemini.generate_content" ? undefined : usage?.inputTokens?.total;
  const output = api === "gemini.generate_content" ? usage?.outputTokens?.text : usage?.outputTokens?.total;
  // (safe integers only: a count past 2^53 is not the integer the provider wrote)
  if (Number.isSafeInteger(input) && usage?.raw != null) counts.input_tokens = input;
  if (Number.isSafeInteger(output) && usage?.raw != null) counts.output_tokens = output;
  if (Object.keys(counts).length) out.usage = counts;
  return out;
}

async function checkResponse({ api, payload }) {
  const fetch = async () => new Response(stringifyDeep(payload), { status: 200, headers: { "content-type": "application/json" } });
  let result;
  try {
    result = await responseModel(api, fetch).doGenerate({ prompt: PROMPT });
  } catch (error) {
    throw driftError(error);
  }
  const text = result.content.filter((part) => part.type === "text").map((part) => part.text).join("");
  return normalized(api, text, result.content.filter((part) => part.type === "tool-call"), result.finishReason, result.usage);
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

async function checkStream({ api, events }) {
  const fetch = async () => new Response(sseText(events), { status: 200, headers: { "content-type": "text/event-stream" } });
  const texts = [];
  const calls = [];
  let finish = null;
  try {
    const { stream } = await responseModel(api, fetch).doStream({ prompt: PROMPT });
    for await (const part of stream) {
      if (part.type === "error") throw part.error;
      if (part.type === "text-delta") texts.push(part.delta);
      else if (part.type === "tool-call") calls.push(part);
      else if (part.type === "finish") finish = part;
    }
  } catch (error) {
    throw driftError(error, { inStream: true });
  }
  // A stream that ends with no finish part (the provider packages emit none when it is cut before
  // any output, e.g. @ai-sdk/anthropic after message_start alone): streamText, the SDK's streaming
  // call, then rejects with AI_NoOutputGeneratedError "No output generated. The model stream ended
  // without a finish chunk." (ai, dist/index.js), the SDK's own error for that stream
  if (finish === null) {
    throw new DeclaredError("AI_NoOutputGeneratedError", "No output generated. The model stream ended without a finish chunk.");
  }
  return normalized(api, texts.join(""), calls, finish?.finishReason, finish?.usage);
}

// A zod issue's path; for a union that no branch accepts, zod keeps each branch's issues under
// `errors`: the deepest of those paths is where the value broke (the union's own path is its parent).
function deepestPath(issue, prefix = []) {
  let best = [...prefix, ...(issue.path ?? [])];
  for (const branch of issue.errors ?? []) {
    for (const inner of branch) {
      const candidate = deepestPath(inner, best);
      if (candidate.length > best.length) best = candidate;
    }
  }
  return best;
}

function reproduceBuildRequest({ request }) {
  const factory = { openai: ["createOpenAI", "@ai-sdk/openai", ".chat"], anthropic: ["createAnthropic", "@ai-sdk/anthropic", ""], google: ["createGoogleGenerativeAI", "@ai-sdk/google", ""] }[request.provider];
  const tools = request.tools.map((t) => `  ${JSON.stringify(t.name)}: tool({ description: ${JSON.stringify(t.description)}, inputSchema: jsonSchema(${JSON.stringify(t.input_schema)})${t.strict !== null ? `, strict: ${t.strict}` : ""} }),`).join("\n");
  const extra = [];
  if (request.response_schema !== null) extra.push(`output: Output.object({ schema: jsonSchema(${JSON.stringify(request.response_schema)}) }),`);
  if (request.function_calling_mode in TOOL_CHOICE) extra.push(`toolChoice: ${JSON.stringify(TOOL_CHOICE[request.function_calling_mode])},`);
  return `// npm install ai@${versions.ai} ${factory[1]}@${versions[factory[1]]}
import { generateText, streamText, jsonSchema, asSchema, tool, Output } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { z } from "zod";
import { ${factory[0]} } from "${factory[1]}";
// prints the request body the SDK would send, then stops
const fetch = async (url, init) => { console.log(init.headers, init.body); throw new Error("captured"); };
const model = ${factory[0]}({ apiKey: "test", fetch })${factory[2]}(${JSON.stringify(request.model)});
await generateText({ model, prompt: "hi", maxRetries: 0, tools: {
${tools}
}, ${extra.join(" ")} }).catch(() => {});
`;
}

// -- the tool layer: tool({ inputSchema: jsonSchema(...) | zod, execute }) -----------------------
// invoke_tool is the tool-use path of streamText(): a model (the SDK's own MockLanguageModelV4)
// calls the tool with the given input; the SDK validates it against the tool's schema, runs
// execute, and streams preliminary results (each item of a generator) then the tool-result or
// tool-error part. The callback runs in the kit (callback messages).
const tools = new Map();
const current = { ctx: null, plainValue: false };

function fromKit(answer) {
  if (answer && typeof answer === "object" && answer.generator && Object.keys(answer).length === 1) {
    const { items, raise: error } = answer.generator;
    return (async function* stream() {
      for (const item of items) yield item;
      if (error) throw new DeclaredError(error.type, error.message);
    })();
  }
  return answer;
}

async function defineTool({ definition }) {
  if (definition.input_schema === null) throw new Refusal("this harness defines tools from a JSON Schema only");
  let inputSchema;
  try {
    inputSchema = ZOD ? z.fromJSONSchema(definition.input_schema) : jsonSchema(definition.input_schema);
  } catch (error) {
    throw new Refusal(`zod cannot convert this JSON Schema: ${String(error?.message ?? error).slice(0, 300)}`);
  }
  const handle = `tool-${tools.size + 1}`;
  const execute = (input, options) => {
    const args = definition.context ? [input, { tool_use_id: options.toolCallId, tool_name: definition.name, invocation_state: options.context ?? {} }] : [input];
    return current.ctx.callback(definition.callback, args).then(fromKit);
  };
  // The SDK tells a streaming execute (an async iterable) from a plain one when execute returns,
  // before the kit has said which its callback is: the bridge is always a generator, and a plain
  // callback's value is marked so invokeTool drops the one preliminary result the bridge made
  // (a plain async execute gives only the final result).
  const made = tool({ description: definition.description, inputSchema, execute: async function* (input, options) {
    const outcome = await execute(input, options);
    if (outcome && typeof outcome === "object" && Symbol.asyncIterator in outcome) {
      yield* outcome;
      return;
    }
    current.plainValue = true;
    yield outcome;
  }, ...(definition.strict !== null ? { strict: definition.strict } : {}) });
  tools.set(handle, { tool: made, definition });
  return { tool: handle };
}

function entry(handle) {
  const found = tools.get(handle);
  if (!found) throw new Error(`unknown tool handle ${handle}`);
  return found;
}

async function describeTool({ tool: handle }) {
  const { tool: made, definition } = entry(handle);
  const schema = await asSchema(made.inputSchema).jsonSchema;
  return { name: definition.name, description: made.description ?? "", input_schema: schema, strict: made.strict ?? null };
}

// A zod issue path as a JSON pointer.
function pointer(parts) {
  return parts.length ? "/" + parts.map((part) => String(part).replaceAll("~", "~0").replaceAll("/", "~1")).join("/") : "";
}

async function invokeTool({ tool: handle, tool_use_id, tool_input, invocation_state }, ctx) {
  const { tool: made, definition } = entry(handle);
  current.ctx = ctx;
  current.plainValue = false;
  const model = new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream([
    { type: "stream-start", warnings: [] },
    { type: "tool-call", toolCallId: tool_use_id, toolName: definition.name, input: stringifyDeep(tool_input) },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } } },
  ]) }) });
  const outputs = [];
  let invalid = null;
  const result = streamText({ model, prompt: "hi", maxRetries: 0, tools: { [definition.name]: made },
                              toolsContext: { [definition.name]: invocation_state } });
  for await (const part of result.fullStream) {
    if (part.type === "tool-call" && part.invalid) invalid = part.error;
    else if (part.type === "tool-result" && part.preliminary) {
      outputs.push({ kind: "event", tool_use_id: part.toolCallId, index: outputs.length, data: part.output ?? null });
    } else if (part.type === "tool-result") {
      // The SDK's final output is its last preliminary result ("the last value yielded"): that
      // preliminary is the final result previewed, not a progress event of its own.
      const last = outputs[outputs.length - 1];
      if (last?.kind === "event" && last.data === (part.output ?? null)) outputs.pop();
      const value = part.output === undefined ? null : part.output;
      outputs.push({ kind: "result", tool_use_id: part.toolCallId, status: "success", content: typeof value === "string" ? value : stringifyDeep(value), value });
    } else if (part.type === "tool-error") {
      const error = invalid ?? part.error;
      const issue = invalid?.cause?.cause?.issues?.[0] ?? invalid?.cause?.issues?.[0];
      const type = error instanceof Error ? error.name : "Error";
      const message = error instanceof Error ? error.message : String(error);
      outputs.push({ kind: "result", tool_use_id: part.toolCallId, status: "error", content: `${type}: ${message}`, value: null,
                     error_type: type, error_message: message, error_field: issue ? pointer(deepestPath(issue)) : null });
    } else if (part.type === "error") {
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    }
  }
  if (current.plainValue) return { outputs: outputs.filter((output) => output.kind !== "event") };
  return { outputs };
}

function toolSource(definition) {
  const schema = ZOD ? `z.fromJSONSchema(${JSON.stringify(definition.input_schema)})` : `jsonSchema(${JSON.stringify(definition.input_schema)})`;
  const strict = definition.strict !== null ? `, strict: ${JSON.stringify(definition.strict)}` : "";
  return `tool({ description: ${JSON.stringify(definition.description)}, inputSchema: ${schema}${strict},
  execute: async (input, options) => { console.log("execute received", JSON.stringify(input), options.toolCallId); return "ok"; } })`;
}

function reproduceDefineTool({ definition }) {
  return `// npm install ai@${versions.ai}${ZOD ? ` zod@${versions.zod}` : ""}
import { tool, jsonSchema, asSchema } from "ai";${ZOD ? '\nimport { z } from "zod";' : ""}
// tool() keeps what it is given: the strict setting and the schema the providers will send
const t = ${toolSource(definition)};
console.log("strict:", JSON.stringify(t.strict), "schema:", JSON.stringify(await asSchema(t.inputSchema).jsonSchema));
`;
}

function reproduceInvokeTool({ tool: handle, tool_use_id, tool_input }) {
  const found = tools.get(handle);
  if (!found) return null;
  const name = JSON.stringify(found.definition.name);
  return `// npm install ai@${versions.ai}${ZOD ? ` zod@${versions.zod}` : ""}
import { streamText, tool, jsonSchema } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";${ZOD ? '\nimport { z } from "zod";' : ""}
// a model calls the tool with this input; the SDK validates it and runs execute (or not)
const model = new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream([
  { type: "tool-call", toolCallId: ${JSON.stringify(tool_use_id)}, toolName: ${name}, input: ${JSON.stringify(stringifyDeep(tool_input))} },
  { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } } },
]) }) });
const tools = { [${name}]: ${toolSource(found.definition)} };
for await (const part of streamText({ model, prompt: "hi", tools }).fullStream) {
  if (part.type.startsWith("tool-")) console.log(part.type, JSON.stringify(part.output ?? part.error?.message ?? part.error ?? null));
}
`;
}

function responseModelSource(api) {
  const provider = RESPONSE_APIS[api];
  const [factory, pkg] = { openai: ["createOpenAI", "@ai-sdk/openai"], anthropic: ["createAnthropic", "@ai-sdk/anthropic"], google: ["createGoogleGenerativeAI", "@ai-sdk/google"] }[provider];
  const suffix = api === "openai.responses" ? ".responses" : api === "openai.chat" ? ".chat" : "";
  return { factory, pkg, model: `${factory}({ apiKey: "test", fetch })${suffix}(${JSON.stringify(RESPONSE_MODELS[provider])})` };
}

function reproduceCheckResponse({ api, payload }) {
  if (!RESPONSE_APIS[api]) return null;
  const { factory, pkg, model } = responseModelSource(api);
  return `// npm install ${pkg}@${versions[pkg]}
import { ${factory} } from "${pkg}";
// the recorded (or mutated) response body the provider package parses
const body = ${stringifyDeep(payload)};
const fetch = async () => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
const model = ${model};
const result = await model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })
  .catch((error) => { console.log(error.name, error.message, error.cause?.message); process.exit(1); });
console.log(JSON.stringify({ content: result.content, finishReason: result.finishReason, usage: result.usage }, null, 2));
`;
}

function reproduceCheckStream({ api, events }) {
  if (!RESPONSE_APIS[api]) return null;
  const { factory, pkg, model } = responseModelSource(api);
  return `// npm install ${pkg}@${versions[pkg]}
import { ${factory} } from "${pkg}";
// the recorded (or mutated) server-sent events the provider package parses
const sse = ${JSON.stringify(sseText(events))};
const fetch = async () => new Response(sse, { headers: { "content-type": "text/event-stream" } });
const model = ${model};
const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
for await (const part of stream) console.log(JSON.stringify(part));
`;
}

serve({
  implementation: { name: ZOD ? "vercel-ai-sdk (zod tools)" : "vercel-ai-sdk", version: versions.ai, homepage: "https://ai-sdk.dev", sdk: versions },
  declarations: {
    ...(ZOD ? {} : {
      // Unset strict is omitted on every provider (the AI SDK dropped its default in Dec 2025).
      strict_defaults: { openai: null, anthropic: null, google: null },
      providers: ["openai", "anthropic", "google"],
      api_errors: ["AI_ProviderStreamError"],
      drift_errors: ["AI_TypeValidationError", "AI_APICallError", "AI_JSONParseError", "AI_NoContentGeneratedError", "AI_InvalidResponseDataError", "AI_NoOutputGeneratedError"],
      drift_apis: Object.keys(RESPONSE_APIS),
      // Response fields the provider packages do not read: their zod schemas do not declare them
      // (z.object strips an undeclared key), so no value of theirs reaches the caller and DR-2/DR-3
      // do not mutate them. Not Anthropic usage.cache_creation: the usage looseObject keeps it and
      // hands it on (usage.raw, @ai-sdk/anthropic dist/index.js:2429; providerMetadata.anthropic.usage, :5255).
      drift_unread: {
        "openai.chat": {
          "object": "@ai-sdk/openai 4.0.118 dist/index.js:1694-1757 (openaiChatResponseSchema: z.object of id, created, model, "
            + "choices and usage; no object)",
          "system_fingerprint": "@ai-sdk/openai 4.0.118 dist/index.js:1694-1757 (openaiChatResponseSchema: z.object of id, created, "
            + "model, choices and usage; no system_fingerprint)",
        },
        "openai.responses": {
          "output[type=function_call].status": "@ai-sdk/openai 4.0.118 dist/index.js:5185-5194 (openaiResponsesResponseSchema output[] "
            + "function_call variant: z.object of type, call_id, name, arguments, id, async, namespace, caller; no status)",
          "events[type=response.created].data.sequence_number": "@ai-sdk/openai 4.0.118 dist/index.js:4544-4552 (openaiResponsesChunkSchema "
            + "response.created: z.object of type and response; no sequence_number, which only the error and response.failed chunks declare, :4411, :4421, :4531)",
        },
        "anthropic.messages": {
          "events[type=message_start].data.message.type": "@ai-sdk/anthropic 4.0.105 dist/index.js:876-900 (anthropicChunkSchema message_start: "
            + "message is a z.object of id, model, role, service_tier, usage, content, stop_reason, input_transformations, container; no type, "
            + "which the non-stream anthropicResponseSchema checks, :614)",
        },
      },
      // check_response / check_stream return what doGenerate() / doStream() parsed (DR-7).
      parse_fidelity: true,
    }),
    // tool(): strict is a boolean; a generator's last item is the final output ("the last value
    // yielded"), none at all gives an undefined output.
    tool_layer_traits: { sources: ["json_schema"], strict_convention: "boolean", final_value: "last_item", empty_generator_value: null },
  },
  notCovered: NOT_COVERED,
  capabilities: { ...(ZOD ? {} : { build_request: buildRequest, check_response: checkResponse, check_stream: checkStream }),
                  define_tool: defineTool, describe_tool: describeTool, invoke_tool: invokeTool },
  reproducers: { ...(ZOD ? {} : { build_request: reproduceBuildRequest, check_response: reproduceCheckResponse, check_stream: reproduceCheckStream }),
                 define_tool: reproduceDefineTool, invoke_tool: reproduceInvokeTool },
});
