// strictconformance harness for LangChain.js's core package (@langchain/core): the function that
// turns a caller's tool into an OpenAI tool with `strict`. Calls only the SDK's own code.
//
// * strictify (openai dialect, tool input): `convertToOpenAITool({name, description, schema},
//   {strict: true})` (utils/function_calling) on a tool given as `StructuredToolParams` with the
//   caller's JSON Schema, reading `function.parameters` of what it returns: what `bindTools(tools,
//   {strict: true})` of the OpenAI chat models and `ChatModel.withStructuredOutput(...)` build the
//   `tools[]` entry from. For such a tool it runs `convertToOpenAIFunction`, whose `parameters` is
//   `toJsonSchema(tool.schema)` (utils/json_schema): a JSON Schema is returned as it is (nothing is
//   made strict), then `function.strict = true` is set. The answer reaches the caller through
//   `parseToolCall` (output_parsers/openai_tools: `JSON.parse` of the arguments), so there is no
//   codec of the harness's own: RT-4..RT-6 judge the identity codec.
//
// Audit of @langchain/core 1.4.0's functions that choose strict, rewrite a schema, encode or decode
// values, parse responses or define tools:
// * utils/function_calling `convertToOpenAITool(tool, {strict})`: strictify (above). For a tool that
//   is no LangChain tool (an OpenAI `ToolDefinition`, `{type: "function", function: {...}}`) it
//   returns the object itself with `function.strict` set: the same pass-through, not a second
//   column. `convertToOpenAIFunction(tool, {strict})`: the same conversion without the wrapper.
// * utils/json_schema `toJsonSchema(schema)`: the identity for a JSON Schema; for a Zod 4 object it
//   runs `interopZodObjectStrict(schema, true)` (every nested object closed) then zod's
//   `toJSONSchema`; for Zod 3, zod-to-json-schema. Not covered: a column would need Zod schemas
//   made from the kit's JSON Schemas (zod's own `z.fromJSONSchema`), whose findings must be told
//   apart from LangChain's.
// * output_parsers/openai_tools `parseToolCall` / `JsonOutputToolsParser`: `JSON.parse` of the
//   arguments, the identity codec (judged as such). With a Zod schema,
//   `JsonOutputKeyToolsParser` validates with it: not covered (Zod, as above).
// * tools `tool()` / `DynamicStructuredTool` / `StructuredTool`: the tool layer. Not covered by
//   this harness: strict has no place on a LangChain tool (it is given when a chat model binds
//   it, through convertToOpenAITool, judged here), and its invocation validates with the schema's
//   own validator (Zod, or `@cfworker/json-schema` for a JSON Schema).
// * Requests and responses: @langchain/core builds no HTTP request and reads no provider response
//   (the provider packages, e.g. @langchain/openai, do): build_request, check_response and
//   check_stream are not covered, nor plan_request and strict_support (no such concepts).

import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { serve, Refusal, packageVersion, stringifyDeep } from "../harness-kit.mjs";

const SDK = await packageVersion("@langchain/core");

function strictify({ schema, dialect }) {
  if (dialect !== "openai") throw new Refusal(`convertToOpenAITool targets OpenAI only, not ${dialect}`, { scope: "check" });
  const made = convertToOpenAITool({ name: "answer", description: "the answer", schema }, { strict: true });
  return { schema: made.function.parameters, losses: [] };
}

function reproduceStrictify({ schema }) {
  return `// npm install @langchain/core@${SDK}
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
const schema = ${stringifyDeep(schema)};
const tool = convertToOpenAITool({ name: "answer", description: "the answer", schema }, { strict: true });
console.log(JSON.stringify(tool, null, 2));
`;
}

serve({
  implementation: { name: "langchain-core-ts (convertToOpenAITool strict)", version: SDK,
                    homepage: "https://github.com/langchain-ai/langchainjs", sdk: { "@langchain/core": SDK } },
  declarations: {
    strictify_dialects: ["openai"],
    strictify_context: "tool_input",
  },
  notCovered: {
    "encode/decode": "the tool call's arguments reach the caller through parseToolCall (JSON.parse): the identity codec",
    zod: "Zod schemas (toJsonSchema's interopZodObjectStrict) would need zod's own z.fromJSONSchema of the kit's schemas",
    "tool layer": "strict is given when a chat model binds a tool (convertToOpenAITool, judged here); invocation validates with the schema's own validator",
    "build_request/check_response/check_stream": "@langchain/core builds no HTTP request and reads no provider response (the provider packages do)",
    "plan_request/strict_support": "no model selection and no strict-support lookup",
  },
  capabilities: { strictify },
  reproducers: { strictify: reproduceStrictify },
});
