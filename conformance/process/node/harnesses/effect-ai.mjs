// strictconformance harness for Effect AI (effect 4 `effect/unstable/ai` with @effect/ai-openai and
// @effect/ai-anthropic). Calls only the SDK's own code: LanguageModel.generateText() with a toolkit
// of Tool.dynamic tools (raw JSON Schema parameters), each annotated with Tool.Strict when the
// request sets it, and the provider config's strictJsonSchema; the HTTP request the provider
// client builds is captured by the fetch the SDK's FetchHttpClient calls (globalThis.fetch), and
// the call stops there.

import { Effect, Redacted } from "effect";
import { LanguageModel, Tool, Toolkit } from "effect/unstable/ai";
import { FetchHttpClient } from "effect/unstable/http";
import { OpenAiClient, OpenAiLanguageModel } from "@effect/ai-openai";
import { AnthropicClient, AnthropicLanguageModel } from "@effect/ai-anthropic";
import { serve, Refusal, packageVersion } from "../harness-kit.mjs";

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
  check_response: "not implemented in this harness",
  tools: "tool layer not implemented in this harness",
};

let captured = null;
globalThis.fetch = async (url, init = {}) => {
  const request = new Request(url, init);
  const text = await request.text();
  captured = { url: request.url, headers: Object.fromEntries(request.headers.entries()), body: JSON.parse(text) };
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

function reproduceBuildRequest({ request }) {
  const provider = PROVIDERS[request.provider];
  const tools = request.tools.map((t, i) => `const t${i} = Tool.dynamic(${JSON.stringify(t.name)}, { description: ${JSON.stringify(t.description)}, parameters: ${JSON.stringify(t.input_schema)} })${t.strict !== null ? `.annotate(Tool.Strict, ${t.strict})` : ""};`).join("\n");
  const names = request.tools.map((_, i) => `t${i}`).join(", ");
  const handlers = request.tools.map((t) => `${JSON.stringify(t.name)}: () => Effect.succeed(null)`).join(", ");
  const config = request.config_strict === null ? "{}" : `{ strictJsonSchema: ${request.config_strict} }`;
  return `// npm install effect@${versions.effect} ${provider.pkg}@${versions[provider.pkg]}
import { Effect, Redacted } from "effect";
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

serve({
  implementation: { name: "effect-ai", version: versions.effect, homepage: "https://effect.website", sdk: versions },
  declarations: {
    // Tool.getStrictMode(tool) ?? config.strictJsonSchema ?? true (OpenAiLanguageModel.prepareTools).
    strict_defaults: { openai: true, anthropic: true },
    providers: ["openai", "anthropic"],
  },
  notCovered: NOT_COVERED,
  capabilities: { build_request: buildRequest },
  reproducers: { build_request: reproduceBuildRequest },
});
