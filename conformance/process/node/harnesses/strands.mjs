// strictconformance harness for the Strands Agents TypeScript SDK (@strands-agents/sdk): its tool
// helper, tool({ name, description, inputSchema, callback }), with a raw JSON Schema (FunctionTool).
// define_tool builds the tool with the SDK's own tool(); its callback calls back into the kit, which
// holds the check's callback. describe_tool reads tool.toolSpec; invoke_tool runs tool.stream(),
// the path the agent loop takes, and reports every ToolStreamEvent and the ToolResultBlock;
// call_tool is tool.invoke(), the direct call.
//
// Strict: the SDK's tools have no strict setting (no `strict` in dist/src/tools nor
// dist/src/models), so definitions that set one are refused: TL-7 is not covered.

import { tool } from "@strands-agents/sdk";
import { serve, Refusal, DeclaredError, packageVersion } from "../harness-kit.mjs";

const version = await packageVersion("@strands-agents/sdk");
const tools = new Map();

function contextJson(toolContext, definition) {
  return { tool_use_id: toolContext?.toolUse?.toolUseId ?? "", tool_name: definition.name,
           invocation_state: toolContext?.invocationState ?? toolContext?.agent?.state?.getAll?.() ?? {} };
}

// The kit's answer for a callback, as a JS callback gives it: a value, an async generator (items,
// then its return value), or a thrown error of the kit callback's type.
function fromKit(answer) {
  if (answer && typeof answer === "object" && answer.generator && Object.keys(answer).length === 1) {
    const { items, return: final, raise: error } = answer.generator;
    return (async function* stream() {
      for (const item of items) yield item;
      if (error) throw new DeclaredError(error.type, error.message);
      return final;
    })();
  }
  return answer;
}

async function defineTool({ definition }, ctx) {
  if (definition.strict !== null) throw new Refusal("Strands tools have no strict setting", { scope: "check" });
  if (definition.input_schema === null) throw new Refusal("this harness defines tools from a raw JSON Schema only");
  const handle = `tool-${tools.size + 1}`;
  const callback = (input, toolContext) => {
    const args = definition.context ? [input, contextJson(toolContext, definition)] : [input];
    // The kit answers while the pending call (invoke_tool / call_tool) waits: route through it.
    return current.ctx.callback(definition.callback, args).then(fromKit, (error) => { throw error; });
  };
  const made = tool({ name: definition.name, description: definition.description, inputSchema: definition.input_schema,
                      callback: async function* (input, toolContext) {
                        const outcome = await callback(input, toolContext);
                        if (outcome && typeof outcome === "object" && Symbol.asyncIterator in outcome) {
                          return yield* outcome;
                        }
                        return outcome;
                      } });
  tools.set(handle, { tool: made, definition });
  return { tool: handle };
}

// The ctx of the call in progress (calls are served one at a time).
const current = { ctx: null };

function entry(handle) {
  const found = tools.get(handle);
  if (!found) throw new Error(`unknown tool handle ${handle}`);
  return found;
}

async function describeTool({ tool: handle }) {
  const { tool: made } = entry(handle);
  return { name: made.toolSpec.name, description: made.toolSpec.description ?? "", input_schema: made.toolSpec.inputSchema, strict: null };
}

function resultJson(block) {
  const texts = [];
  let value = null;
  for (const item of block.content ?? []) {
    if (item.type === "textBlock" || typeof item.text === "string") texts.push(item.text);
    else if (item.type === "jsonBlock" || item.json !== undefined) { value = item.json; texts.push(JSON.stringify(item.json)); }
  }
  const content = texts.join("");
  if (block.status === "success") return { kind: "result", tool_use_id: block.toolUseId, status: "success", content, value: value ?? content };
  const error = block.error;
  return { kind: "result", tool_use_id: block.toolUseId, status: "error", content, value: null,
           error_type: error?.name ?? null, error_message: error?.message ?? content, error_field: null };
}

async function invokeTool({ tool: handle, tool_use_id, tool_input, invocation_state }, ctx) {
  const { tool: made, definition } = entry(handle);
  current.ctx = ctx;
  const toolContext = { toolUse: { name: definition.name, toolUseId: tool_use_id, input: tool_input }, invocationState: invocation_state };
  const outputs = [];
  const stream = made.stream(toolContext);
  let step = await stream.next();
  let index = 0;
  while (!step.done) {
    outputs.push({ kind: "event", tool_use_id, index, data: step.value?.data ?? null });
    index += 1;
    step = await stream.next();
  }
  if (step.value) outputs.push(resultJson(step.value));
  return { outputs };
}

async function callTool({ tool: handle, tool_input, context }, ctx) {
  const { tool: made, definition } = entry(handle);
  current.ctx = ctx;
  const toolContext = context ? { toolUse: { name: definition.name, toolUseId: context.tool_use_id, input: tool_input }, invocationState: context.invocation_state } : undefined;
  try {
    return (await made.invoke(tool_input, toolContext)) ?? null;
  } catch (error) {
    throw new DeclaredError(error?.name ?? "Error", String(error?.message ?? error));
  }
}

serve({
  implementation: { name: "strands-agents-ts", version, homepage: "https://strandsagents.com", sdk: { "@strands-agents/sdk": version } },
  declarations: {
    tool_layer_traits: { sources: ["json_schema"], strict_convention: "boolean", final_value: "tool_return" },
  },
  notCovered: {
    strict: "Strands tools have no strict setting: definitions that set one are refused (TL-7), and the SDK sends none",
    sources: "tools from type hints or Python models cannot cross the process boundary; Zod schemas (ZodTool) are not driven by this harness",
    "build_request/check_response": "not implemented in this harness",
  },
  capabilities: { define_tool: defineTool, describe_tool: describeTool, invoke_tool: invokeTool, call_tool: callTool },
});
