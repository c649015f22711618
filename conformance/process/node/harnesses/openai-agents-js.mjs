// strictconformance harness for the OpenAI Agents SDK for TypeScript (`@openai/agents`): its function
// tools, `tool({ name, description, parameters, strict, execute })`, with a raw JSON Schema as
// `parameters`. One column per path, chosen by the argument:
//
//   (default)        the tool layer. define_tool is tool(); strict is passed only when the definition
//                    sets it (documented default: true). describe_tool reads the FunctionTool (`name`,
//                    `description`, `parameters`, `strict`). invoke_tool is `tool.invoke(runContext,
//                    argumentsJson, { toolCall })`, the call the runner makes for a model's function call
//                    (invokeFunctionTool wraps it with a timeout only): the SDK parses the arguments, runs
//                    `execute`, and on any failure (arguments it cannot parse, an exception of execute)
//                    answers the default error function's fixed text, documented as not exposing the
//                    error to the model (tool.ts, defaultToolErrorFunction): an error result here,
//                    declared as `tool_layer_traits.error_text` (TL-3). execute's context: the
//                    RunContext's `context` is the kit's invocation state, the call id is
//                    `details.toolCall.callId`. tool() refuses, with a `UserError` saying why, a strict
//                    JSON Schema it will not make strict (the same conversion as --strict-schema):
//                    declared refusals (`tool_refusals`, TL-11 judges them).
//   --strict-schema  the strict-schema conversion tool() runs on a JSON Schema when strict is on
//                    (prepareOpenAIStrictToolSchema, utils/strictToolSchema.ts) -> strictify: the
//                    `parameters` of tool({ parameters: schema, strict: true }); and its input
//                    normalization (`normalizeInput`: a `null` for an optional property it made nullable
//                    becomes absent) -> decode: the value as `execute` receives it from
//                    `tool.invoke(runContext, JSON.stringify(value))`. Its `UserError`s (a schema it will
//                    not make strict, said with a reason) are declared refusals (RT-10 judges them).
//
// Not covered (declared in not_covered, never faked): Zod and Standard Schema parameters (the Zod path
// runs the OpenAI Node SDK's zodResponsesFunction: the openai-node harness's --zod column), generator
// (streaming) tools (execute returns one value: a generator callback is refused for the check),
// `call_tool` (execute is the caller's own function), requests and responses (the Responses model sends
// through the openai package), output types (convertAgentOutputTypeToSerializable: Zod only), encode
// (the SDK has no encoder), plan_request, strict_support.

import { tool, RunContext, UserError } from "@openai/agents";
import { serve, Refusal, DeclaredError, packageVersion, stringifyDeep } from "../harness-kit.mjs";

const STRICT_SCHEMA = process.argv.includes("--strict-schema");
const version = await packageVersion("@openai/agents");
const versions = { "@openai/agents": version };

// What the default error function answers for any failure (tool.ts defaultToolErrorFunction).
const FAILURE_TEXT = "An error occurred while running the tool. Please try again.";

const tools = new Map(); // handle -> { tool, definition }
const current = { ctx: null }; // the call in progress: the tool's execute calls back into the kit through it

function isGenerator(answer) {
  return answer && typeof answer === "object" && answer.generator && Object.keys(answer).length === 1;
}

function sdkError(error) {
  if (error instanceof UserError) return new DeclaredError("UserError", error.message);
  if (error instanceof Error) return new DeclaredError(error.name || "Error", error.message);
  return new DeclaredError("Error", String(error));
}

// -- the tool layer ------------------------------------------------------------------------------

function defineTool({ definition }) {
  if (definition.input_schema === null) throw new Refusal("this harness defines tools from a raw JSON Schema only");
  if (definition.strict !== null && typeof definition.strict !== "boolean") {
    throw new Refusal(`@openai/agents' strict is a boolean, not ${JSON.stringify(definition.strict)}`);
  }
  let made;
  try {
    made = tool({
      name: definition.name,
      description: definition.description,
      parameters: definition.input_schema,
      ...(definition.strict !== null ? { strict: definition.strict } : {}),
      execute: async (input, runContext, details) => {
        const args = definition.context
          ? [input, { tool_use_id: details?.toolCall?.callId ?? "", tool_name: definition.name,
                      invocation_state: runContext?.context ?? {} }]
          : [input];
        const answer = await current.ctx.callback(definition.callback, args);
        if (isGenerator(answer)) current.generator = true;
        return answer;
      },
    });
  } catch (error) {
    throw sdkError(error);
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
  return { name: made.name, description: made.description ?? "", input_schema: made.parameters, strict: made.strict ?? null };
}

function contentOf(output) {
  // the runner's text for a tool output (toSmartString): a string as is, anything else as JSON
  return typeof output === "string" ? output : JSON.stringify(output ?? null);
}

async function invokeTool({ tool: handle, tool_use_id, tool_input, invocation_state }, ctx) {
  const { tool: made, definition } = entry(handle);
  current.ctx = ctx;
  current.generator = false;
  const argumentsJson = stringifyDeep(tool_input);
  const toolCall = { type: "function_call", callId: tool_use_id, name: definition.name, arguments: argumentsJson };
  let output;
  try {
    output = await made.invoke(new RunContext(invocation_state ?? {}), argumentsJson, { toolCall });
  } catch (error) {
    const name = error?.name ?? "Error";
    const message = String(error?.message ?? error);
    return { outputs: [{ kind: "result", tool_use_id, status: "error", content: `${name}: ${message}`, value: null,
                         error_type: name, error_message: message, error_field: null }] };
  }
  if (current.generator) {
    throw new Refusal("@openai/agents tools have no generator (streaming) execute: execute returns one value", { scope: "check" });
  }
  if (output === FAILURE_TEXT) {
    return { outputs: [{ kind: "result", tool_use_id, status: "error", content: output, value: null,
                         error_type: null, error_message: output, error_field: null }] };
  }
  return { outputs: [{ kind: "result", tool_use_id, status: "success", content: contentOf(output), value: output ?? null }] };
}

// -- the strict-schema conversion ------------------------------------------------------------------

const strictTools = new Map(); // schema JSON -> { tool, captured }

function strictTool(schema) {
  const key = stringifyDeep(schema);
  if (strictTools.has(key)) return strictTools.get(key);
  const made = { captured: undefined };
  try {
    made.tool = tool({ name: "answer", description: "", parameters: structuredClone(schema), strict: true,
                       execute: async (input) => { made.captured = { input }; return "ok"; } });
  } catch (error) {
    throw sdkError(error);
  }
  if (strictTools.size > 200) strictTools.clear();
  strictTools.set(key, made);
  return made;
}

function checkDialect(dialect) {
  if (dialect !== "openai") throw new Refusal(`@openai/agents makes tool schemas strict for OpenAI only, not ${dialect}`, { scope: "check" });
}

function strictify({ schema, dialect }) {
  checkDialect(dialect);
  return { schema: strictTool(schema).tool.parameters, losses: [] };
}

async function decode({ schema, dialect, value }) {
  checkDialect(dialect);
  const made = strictTool(schema);
  made.captured = undefined;
  const output = await made.tool.invoke(new RunContext({}), stringifyDeep(value), {
    toolCall: { type: "function_call", callId: "call-1", name: "answer", arguments: stringifyDeep(value) } });
  if (made.captured === undefined) {
    throw new DeclaredError("InvalidToolInput", `tool.invoke did not run execute: it answered ${JSON.stringify(output)}`);
  }
  return made.captured.input ?? null;
}

// -- reproducers ---------------------------------------------------------------------------------

function toolSource(definition) {
  const strict = definition.strict !== null ? `, strict: ${JSON.stringify(definition.strict)}` : "";
  return `tool({ name: ${JSON.stringify(definition.name)}, description: ${JSON.stringify(definition.description)},
  parameters: ${stringifyDeep(definition.input_schema)}${strict},
  execute: async (input) => { console.log("execute received", JSON.stringify(input)); return "ok"; } })`;
}

function reproduceDefineTool({ definition }) {
  return `// npm install @openai/agents@${version}
import { tool } from "@openai/agents";
const t = ${toolSource(definition)};
console.log("name:", t.name, "strict:", t.strict, "parameters:", JSON.stringify(t.parameters));
`;
}

function reproduceInvokeTool({ tool: handle, tool_use_id, tool_input }) {
  const found = tools.get(handle);
  if (!found) return null;
  return `// npm install @openai/agents@${version}
import { tool, RunContext } from "@openai/agents";
const t = ${toolSource(found.definition)};
// the model's function call, as the runner hands it to the tool
const args = ${JSON.stringify(stringifyDeep(tool_input))};
console.log("output:", JSON.stringify(await t.invoke(new RunContext({}), args, { toolCall: { type: "function_call", callId: ${JSON.stringify(tool_use_id)}, name: t.name, arguments: args } })));
`;
}

function reproduceStrictify({ schema }) {
  return `// npm install @openai/agents@${version}
import { tool } from "@openai/agents";
const t = tool({ name: "answer", description: "", parameters: ${stringifyDeep(schema)}, strict: true, execute: async () => "ok" });
console.log(JSON.stringify(t.parameters, null, 2));
`;
}

function reproduceDecode({ schema, value }) {
  return `// npm install @openai/agents@${version}
import { tool, RunContext } from "@openai/agents";
const t = tool({ name: "answer", description: "", parameters: ${stringifyDeep(schema)}, strict: true,
  execute: async (input) => { console.log("execute received", JSON.stringify(input)); return "ok"; } });
// the model's strict answer, as the runner hands it to the tool
const args = ${JSON.stringify(stringifyDeep(value))};
console.log("output:", JSON.stringify(await t.invoke(new RunContext({}), args, { toolCall: { type: "function_call", callId: "call-1", name: "answer", arguments: args } })));
`;
}

const NOT_COVERED = {
  sources: "Zod and Standard Schema parameters are not driven by this harness (the Zod path runs the OpenAI Node SDK's zodResponsesFunction: the openai-node --zod column); type hints and Python models cannot cross the process",
  "generator tools": "execute returns one value: @openai/agents has no streaming tools (a generator callback is refused for the check)",
  call_tool: "execute is the caller's own function; the tool's own call is invoke, the runner's path (invoke_tool)",
  "build_request/check_response/check_stream": "the SDK's Responses model sends through the openai package",
  encode: "the SDK has no encoder: the answer's wire shape is the model's own",
  "plan_request/strict_support": "the SDK has no model selection and no strict-support lookup",
  ...(STRICT_SCHEMA ? { "tool layer": "the harness without --strict-schema checks it" }
                    : { "strictify/decode": "the harness with --strict-schema checks them" }),
};

serve({
  implementation: { name: STRICT_SCHEMA ? "openai-agents-js (strict tool schema)" : "openai-agents-js (tool)", version,
                    homepage: "https://openai.github.io/openai-agents-js/", sdk: versions },
  declarations: STRICT_SCHEMA
    ? { strictify_dialects: ["openai"], strictify_context: "tool_input", strictify_refusals: ["UserError"] }
    : { tool_layer_traits: { sources: ["json_schema"], strict_convention: "boolean", strict_default: true,
                             final_value: "tool_return", advertised_defaults: "dropped_when_strict", error_text: FAILURE_TEXT },
        tool_refusals: ["UserError"] },
  notCovered: NOT_COVERED,
  capabilities: STRICT_SCHEMA ? { strictify, decode } : { define_tool: defineTool, describe_tool: describeTool, invoke_tool: invokeTool },
  reproducers: STRICT_SCHEMA ? { strictify: reproduceStrictify, decode: reproduceDecode }
                             : { define_tool: reproduceDefineTool, invoke_tool: reproduceInvokeTool },
});
