// strictconformance harness for the Anthropic TypeScript SDK (@anthropic-ai/sdk). Calls only the
// SDK's own code. One column per path, chosen by the command-line flag:
//
// * (no flag) `jsonSchemaOutputFormat(schema)` (helpers/json-schema), the helper a caller passes as
//   `output_config.format` to `messages.parse()`: strictify is the `schema` it returns, i.e. the
//   SDK's strict transform `transformJSONSchema` (lib/transform-json-schema) run on the caller's
//   JSON Schema. Its `parse(content)` is `JSON.parse`: the answer reaches the caller unchanged, so
//   encode/decode are left out and RT-4..RT-6 judge the identity codec. Its deliberate errors are
//   declared refusals: a root that is not `type: "object"` (helpers/json-schema.ts, "JSON schema
//   must be an object") and a node with no type, combinator, enum or const
//   (lib/transform-json-schema.ts, "JSON schema must have a type defined ...").
// * `--tools`: the tool helper `betaTool({name, description, inputSchema, run, strict})`
//   (helpers/beta/json-schema): define_tool builds it, describe_tool reads what goes in `tools[]`
//   (name, description, input_schema, strict), invoke_tool runs `client.beta.messages.toolRunner()`
//   end to end against a mocked `fetch`: the first answer asks for the tool, the `tool_result` block
//   the runner sends next is the result; call_tool is the tool's own `run` after its `parse`, as the
//   runner calls them.
//
// Audit of @anthropic-ai/sdk 1.14.0's functions that choose strict, rewrite a schema, encode or
// decode values, parse responses or define tools:
// * lib/transform-json-schema `transformJSONSchema`: strictify, through `jsonSchemaOutputFormat`
//   (no flag); `betaJSONSchemaOutputFormat` (helpers/beta/json-schema) runs the same transform with
//   the same parse (not a separate column: same code). `zodOutputFormat` / `betaZodOutputFormat`
//   (helpers/zod, helpers/beta/zod) run it on `z.toJSONSchema(zodSchema)` and parse with Zod's
//   `safeParse`: not covered yet (a column would need Zod schemas from the kit's JSON Schemas, i.e.
//   zod's own `z.fromJSONSchema`, whose findings must be told apart from the SDK's).
//   helpers/beta/standard-schema `betaStandardSchemaOutputFormat`: the same transform after a
//   Standard Schema's own JSON Schema conversion; not covered (needs a Standard Schema library).
// * lib/parser `parseMessage` (`.parsed_output`): the format's `parse`: the identity (JSON.parse)
//   for JSON Schema formats (judged as the identity codec), Zod's `safeParse` for Zod formats (not
//   covered, as above).
// * helpers/beta/json-schema `betaTool`: `--tools`. helpers/beta/zod `betaZodTool`: a Zod input
//   schema advertised untransformed, validated with Zod's `parse`; not covered (the tool layer of
//   `--tools` runs through the same runner; Zod tools from a JSON Schema would judge zod's
//   converter). `strict` is passed through as written by both (`...extraProps`).
// * `messages.create` / `beta.messages.create` sending `tools` and `output_config` as written, and
//   the client reading responses and streams: not covered by this harness (build_request,
//   check_response, check_stream).
// * helpers/beta/mcp, toolsets, memory, environments: not covered (they need an MCP session or a
//   server-side feature).

import { jsonSchemaOutputFormat } from "@anthropic-ai/sdk/helpers/json-schema";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import Anthropic from "@anthropic-ai/sdk";
import { serve, Refusal, DeclaredError, packageVersion, stringifyDeep } from "../harness-kit.mjs";

const TOOLS = process.argv.includes("--tools");
const SDK = await packageVersion("@anthropic-ai/sdk");

// The SDK's deliberate errors, by the start of their message, and the error type the harness answers.
const REFUSALS = [
  ["JSON schema must be an object", "NonObjectRootError"],
  ["JSON schema for tool", "NonObjectRootError"],
  ["JSON schema must have a type defined", "UntypedNodeError"],
];

function declared(error) {
  const message = String(error?.message ?? error);
  for (const [start, type] of REFUSALS) {
    if (error?.constructor === Error && message.startsWith(start)) return new DeclaredError(type, message);
  }
  return error;
}

// -- output formats ------------------------------------------------------------------------------


async function strictify({ schema, dialect }) {
  if (dialect !== "anthropic") throw new Refusal(`the Anthropic SDK has no ${dialect} dialect`, { scope: "check" });
  let format;
  try {
    format = jsonSchemaOutputFormat(schema);
  } catch (error) {
    throw declared(error);
  }
  return { schema: format.schema, losses: [] };
}

function reproduceStrictify({ schema }) {
  return `// npm install @anthropic-ai/sdk@${SDK}
import { jsonSchemaOutputFormat } from "@anthropic-ai/sdk/helpers/json-schema";
const schema = ${stringifyDeep(schema)};
console.log(JSON.stringify(jsonSchemaOutputFormat(schema).schema, null, 2));
`;
}

// -- tools ---------------------------------------------------------------------------------------

const tools = new Map();
const current = { ctx: null, refusal: null };

// A generator callback has no counterpart: betaTool's run returns one value (string or content
// blocks), so a check whose callback is a generator is refused after the run (never faked).
const GENERATORS = "betaTool's run returns one value (a string or content blocks): a generator callback has no counterpart";

function defineTool({ definition }) {
  if (definition.context) throw new Refusal("betaTool's run takes the parsed input and a run context the SDK fills (no caller context)", { scope: "check" });
  if (definition.input_schema === null) throw new Refusal("this harness defines tools from a raw JSON Schema only");
  if (definition.strict !== null && typeof definition.strict !== "boolean") {
    throw new Refusal(`betaTool's strict is a boolean, not ${JSON.stringify(definition.strict)}`);
  }
  let made;
  try {
    made = betaTool({
      name: definition.name, description: definition.description, inputSchema: definition.input_schema,
      ...(definition.strict !== null ? { strict: definition.strict } : {}),
      run: async (input) => {
        const answer = await current.ctx.callback(definition.callback, [input]);
        if (answer && typeof answer === "object" && answer.generator && Object.keys(answer).length === 1) {
          current.refusal = GENERATORS;
          return "";
        }
        return answer;
      },
    });
  } catch (error) {
    throw declared(error);
  }
  const handle = `tool-${tools.size + 1}`;
  tools.set(handle, { tool: made, definition });
  return { tool: handle };
}

function entry(handle) {
  const found = tools.get(handle);
  if (!found) throw new Error(`unknown tool handle ${handle}`);
  return found;
}

function describeTool({ tool: handle }) {
  const { tool: made } = entry(handle);
  return { name: made.name, description: made.description ?? "", input_schema: made.input_schema, strict: made.strict ?? null };
}

const MODEL = "claude-sonnet-4-5";
const message = (id, content, stopReason) => ({
  id, type: "message", role: "assistant", model: MODEL, content, stop_reason: stopReason, stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

async function invokeTool({ tool: handle, tool_use_id, tool_input }, ctx) {
  const { tool: made, definition } = entry(handle);
  current.ctx = ctx;
  current.refusal = null;
  const sent = [];
  const fetch = async (url, init) => {
    sent.push(JSON.parse(init.body));
    const body = sent.length === 1
      ? message("msg_1", [{ type: "tool_use", id: tool_use_id, name: definition.name, input: tool_input }], "tool_use")
      : message("msg_2", [{ type: "text", text: "done" }], "end_turn");
    return new Response(stringifyDeep(body), { status: 200, headers: { "content-type": "application/json" } });
  };
  const client = new Anthropic({ apiKey: "sk-ant-strictconformance-not-a-key", baseURL: "http://127.0.0.1:9", maxRetries: 0, fetch });
  const runner = client.beta.messages.toolRunner({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "hi" }], tools: [made], max_iterations: 2 });
  for await (const _ of runner) { /* run to the end */ }
  if (current.refusal) throw new Refusal(current.refusal, { scope: "check" });
  const second = sent[1];
  if (!second) throw new Error("the tool runner sent no tool_result");
  const last = second.messages[second.messages.length - 1];
  const block = (Array.isArray(last.content) ? last.content : []).find((b) => b.type === "tool_result");
  if (!block) throw new Error(`the tool runner's second request has no tool_result: ${JSON.stringify(last)}`);
  const content = typeof block.content === "string" ? block.content : stringifyDeep(block.content ?? null);
  if (block.is_error) {
    // the runner's error text is `Error: ${message}` (lib/internal/toolsets/sanitize.ts thrownErrorText)
    const match = /^Error: ([\s\S]*)$/.exec(content);
    return { outputs: [{ kind: "result", tool_use_id: block.tool_use_id, status: "error", content, value: null,
                         error_type: match ? "Error" : null, error_message: match ? match[1] : content, error_field: null }] };
  }
  return { outputs: [{ kind: "result", tool_use_id: block.tool_use_id, status: "success", content, value: block.content ?? null }] };
}

async function callTool({ tool: handle, tool_input }, ctx) {
  const { tool: made } = entry(handle);
  current.ctx = ctx;
  current.refusal = null;
  // as the runner calls a tool (lib/tools/BetaRunnableTool.ts runRunnableTool): parse, then run
  const input = made.parse ? made.parse(tool_input) : tool_input;
  const value = await made.run(input);
  if (current.refusal) throw new Refusal(current.refusal, { scope: "check" });
  return value ?? null;
}

function toolSource(definition) {
  return `betaTool({ name: ${JSON.stringify(definition.name)}, description: ${JSON.stringify(definition.description)}, inputSchema: ${stringifyDeep(definition.input_schema)},${definition.strict !== null ? ` strict: ${definition.strict},` : ""}
  run: async (input) => { console.log("run called with", JSON.stringify(input)); return "ok"; } })`;
}

function reproduceDefineTool({ definition }) {
  return `// npm install @anthropic-ai/sdk@${SDK}
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
const t = ${toolSource(definition)};
console.log(JSON.stringify({ name: t.name, input_schema: t.input_schema, strict: t.strict }));
`;
}

function reproduceInvokeTool({ tool: handle, tool_use_id, tool_input }) {
  const found = tools.get(handle);
  if (!found) return null;
  return `// npm install @anthropic-ai/sdk@${SDK}
import Anthropic from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
const t = ${toolSource(found.definition)};
// the model asks for the tool with this input; the runner runs it and sends the tool_result next
const answers = [
  { id: "msg_1", type: "message", role: "assistant", model: "${MODEL}", stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
    content: [{ type: "tool_use", id: ${JSON.stringify(tool_use_id)}, name: ${JSON.stringify(found.definition.name)}, input: ${stringifyDeep(tool_input)} }] },
  { id: "msg_2", type: "message", role: "assistant", model: "${MODEL}", stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
    content: [{ type: "text", text: "done" }] },
];
const sent = [];
const fetch = async (url, init) => { sent.push(JSON.parse(init.body)); return new Response(JSON.stringify(answers[sent.length - 1]), { headers: { "content-type": "application/json" } }); };
const client = new Anthropic({ apiKey: "sk-ant-not-a-key", baseURL: "http://127.0.0.1:9", maxRetries: 0, fetch });
for await (const _ of client.beta.messages.toolRunner({ model: "${MODEL}", max_tokens: 64, messages: [{ role: "user", content: "hi" }], tools: [t], max_iterations: 2 })) {}
console.log(JSON.stringify(sent[1].messages.at(-1).content));
`;
}

// -- serve ---------------------------------------------------------------------------------------

const NOT_COVERED = {
  "build_request/check_response/check_stream": "not implemented in this harness: the client sends tools and output_config as written",
  "plan_request/strict_support": "the SDK has no model selection and no model table",
};

if (TOOLS) {
  serve({
    implementation: { name: "anthropic-sdk-ts (betaTool + toolRunner)", version: SDK, homepage: "https://github.com/anthropics/anthropic-sdk-typescript", sdk: { "@anthropic-ai/sdk": SDK } },
    declarations: {
      rejection_errors: ["NonObjectRootError"],
      tool_layer_traits: { sources: ["json_schema"], strict_convention: "boolean", final_value: "none", empty_generator_value: null, strict_default: null, callback_returns: "text" },
    },
    notCovered: {
      ...NOT_COVERED,
      context: "betaTool's run takes the parsed input and a run context the SDK fills: no caller context",
      generators: "betaTool's run returns one value (string or content blocks): no progress events",
      sources: "tools from type hints or Python models cannot cross the process boundary; betaZodTool is not driven (it would judge zod's JSON Schema converter)",
      strictify: "a tool's input_schema is sent as written (betaTool does not transform it)",
    },
    capabilities: { define_tool: defineTool, describe_tool: describeTool, invoke_tool: invokeTool, call_tool: callTool },
    reproducers: { define_tool: reproduceDefineTool, invoke_tool: reproduceInvokeTool },
  });
} else {
  serve({
    implementation: { name: "anthropic-sdk-ts (jsonSchemaOutputFormat)", version: SDK,
                      homepage: "https://github.com/anthropics/anthropic-sdk-typescript", sdk: { "@anthropic-ai/sdk": SDK } },
    declarations: {
      strictify_dialects: ["anthropic"],
      strictify_context: "output",
      strictify_refusals: ["NonObjectRootError", "UntypedNodeError"],
    },
    notCovered: {
      ...NOT_COVERED,
      "encode/decode": "the format's parse is JSON.parse: the answer reaches the caller unchanged (the identity codec)",
      "tools": "this column is the output format; `--tools` runs betaTool",
    },
    capabilities: { strictify },
    reproducers: { strictify: reproduceStrictify },
  });
}
