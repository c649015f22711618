// strictconformance harness for the Vercel AI SDK (`ai` with @ai-sdk/openai, @ai-sdk/anthropic,
// @ai-sdk/google). Calls only the SDK's own code: generateText() with a custom fetch that captures
// the HTTP request the provider package builds (build_request), and that answers a recorded
// response body so the provider's own response schemas parse it (check_response).
//
// Not covered (declared in not_covered, never faked): see NOT_COVERED below.

import { generateText, jsonSchema, tool, Output } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { serve, Refusal, DeclaredError, packageVersion, stringifyDeep } from "../harness-kit.mjs";

const PACKAGES = ["ai", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/google"];
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
  "check_stream": "not implemented in this harness",
  "tools": "tool layer not implemented in this harness",
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

// The response path of the provider package alone: LanguageModel.doGenerate() fetches (mocked:
// the recorded body), parses it with the provider's response schema and maps it to content.
// generateText() would also run tool-call handling, which is not response parsing.
async function checkResponse({ api, payload }) {
  const provider = Object.keys(API).find((key) => API[key] === api);
  if (!provider) throw new Refusal(`this harness parses ${Object.values(API).join(", ")} responses only`);
  const fetch = async () => new Response(stringifyDeep(payload), { status: 200, headers: { "content-type": "application/json" } });
  const modelId = { openai: "gpt-4o", anthropic: "claude-sonnet-4-5", google: "gemini-2.5-flash" }[provider];
  const model = providerModel(provider, modelId, fetch);
  try {
    await model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
  } catch (error) {
    // A body the provider's response schema rejects: AI_APICallError "Invalid JSON response" whose
    // cause is the AI_TypeValidationError with the zod issues (their path is the drift path).
    const cause = error?.cause;
    const issue = cause?.cause?.issues?.[0] ?? cause?.issues?.[0] ?? error?.issues?.[0];
    const parts = issue ? deepestPath(issue) : null;
    const path = parts ? parts.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("").replace(/^\./, "") : null;
    const detail = cause?.message ? `: ${cause.message}` : "";
    throw new DeclaredError(error?.name ?? "Error", `${String(error?.message ?? error)}${detail}`.slice(0, 4000), { path });
  }
  return null;
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
import { generateText, jsonSchema, tool, Output } from "ai";
import { ${factory[0]} } from "${factory[1]}";
// prints the request body the SDK would send, then stops
const fetch = async (url, init) => { console.log(init.headers, init.body); throw new Error("captured"); };
const model = ${factory[0]}({ apiKey: "test", fetch })${factory[2]}(${JSON.stringify(request.model)});
await generateText({ model, prompt: "hi", maxRetries: 0, tools: {
${tools}
}, ${extra.join(" ")} }).catch(() => {});
`;
}

serve({
  implementation: { name: "vercel-ai-sdk", version: versions.ai, homepage: "https://ai-sdk.dev", sdk: versions },
  declarations: {
    // Unset strict is omitted on every provider (the AI SDK dropped its default in Dec 2025).
    strict_defaults: { openai: null, anthropic: null, google: null },
    providers: ["openai", "anthropic", "google"],
    drift_errors: ["AI_TypeValidationError", "AI_APICallError", "AI_JSONParseError", "AI_NoContentGeneratedError", "AI_InvalidResponseDataError"],
    drift_apis: ["openai.chat", "anthropic.messages", "gemini.generate_content"],
  },
  notCovered: NOT_COVERED,
  capabilities: { build_request: buildRequest, check_response: checkResponse },
  reproducers: { build_request: reproduceBuildRequest },
});
