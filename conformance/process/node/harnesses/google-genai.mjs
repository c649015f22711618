// strictconformance harness for the Google Gen AI TypeScript SDK (@google/genai): the function the
// client runs on a caller's JSON Schema before it sends it. Calls only the SDK's own code.
//
// * strictify (google-schema dialect, output context): what `ai.models.generateContent({model,
//   contents, config: {responseMimeType: "application/json", responseSchema: schema}})` sends as
//   `generationConfig.responseSchema`, captured from the request on a mocked `fetch` (Gemini
//   Developer API mode, an API key; no network). The client runs `tSchema`, i.e.
//   `processJsonSchema` (dist/node/index.mjs, not exported): a two-branch `anyOf` with a `null`
//   branch or a `null` in a type list becomes `nullable`, a type list becomes an `anyOf` of types,
//   types are written in capitals (an unknown one as TYPE_UNSPECIFIED), `additionalProperties` is
//   dropped, and it recurses into `items`, `anyOf` and `properties` only: every other keyword is
//   copied as written (`$defs`, `$ref`, `const`, `oneOf`, ... and the subschemas under them, left
//   unprocessed). The wire form is read back as the JSON Schema it means, mechanically, as the
//   Python google-genai adapter reads its Schema (`STRING` is `string`, `nullable: true` a `null`
//   type or a `null` branch beside `anyOf`, or beside no type an `anyOf` of the node and `null`,
//   `defs`/`ref` `$defs`/`$ref`, `example` `examples`). processJsonSchema copies a caller's `$defs`
//   and `$ref` as they are: read as `$defs`/`$ref` too (the google-schema dialect has no rule for a
//   key the Schema object lacks, so that copy is not judged here).
//   Declared refusals (`strictify_refusals`): processJsonSchema's two deliberate `Error`s, "type
//   and anyOf cannot be both populated." and "type: null can not be the only possible type for
//   the field.", answered as `ProcessJsonSchemaRefusal`. A schema with `$schema` at its root is
//   moved to `responseJsonSchema` untouched (`maybeMoveToResponseJsonSchema`): the JSON-Schema
//   mode, not this path, so such an input is refused (the example is discarded). The answer reaches
//   the caller as `response.text` (the SDK parses nothing): no codec, RT-4..RT-6 judge the identity.
//
// Audit of @google/genai 3.3.0's functions that choose strict, rewrite a schema, encode or decode
// values, parse responses or define tools:
// * `tSchema` / `processJsonSchema` (and `flattenTypeArrayToAnyOf`): strictify, above, reached
//   through `responseSchema`. The same function runs on a function declaration's `parameters` and
//   `response` (`tTool`, for `tools: [{functionDeclarations}]` without `$schema`): the same code,
//   not a second column (its tool-input context would judge the same transform).
// * `tJsonSchema` (`responseJsonSchema`, `parametersJsonSchema`, `responseJsonSchema` of a function
//   declaration, an MCP tool's `inputSchema`/`outputSchema` in `mcpToTool`): returns its input, so
//   there is no SDK processing to judge: not covered.
// * The SDK has no strict setting (Gemini has none) and no tool layer with validation (`CallableTool`
//   / `mcpToTool` call the caller's or the MCP server's function with the model's arguments as
//   given): define_tool and the TL rules are not covered. Response reading (`GenerateContentResponse`,
//   `.text`, `.functionCalls`) copies the JSON it receives (no schema validation): check_response
//   and check_stream are not driven by this harness.
// * plan_request and strict_support: no such concepts.

import { GoogleGenAI } from "@google/genai";
import { serve, Refusal, DeclaredError, packageVersion, stringifyDeep } from "../harness-kit.mjs";

const SDK = await packageVersion("@google/genai");
const MODEL = "gemini-2.5-flash";
const ANSWER = { candidates: [{ content: { role: "model", parts: [{ text: "{}" }] }, finishReason: "STOP" }] };

// processJsonSchema's deliberate refusals, by their message
const REFUSALS = ["type and anyOf cannot be both populated.", "type: null can not be the only possible type for the field."];

const sent = [];
globalThis.fetch = async (url, init) => {
  sent.push(JSON.parse(init.body));
  return new Response(JSON.stringify(ANSWER), { status: 200, headers: { "content-type": "application/json" } });
};
const client = new GoogleGenAI({ apiKey: "not-a-key" });

// One node of the OpenAPI-subset Schema as the wire carries it, read as JSON Schema (the Python
// google-genai adapter's reading, conformance/sdks/google_genai.py _openapi_node).
function openapiNode(node) {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "type") out.type = typeof value === "string" ? value.toLowerCase() : value;
    else if ((key === "properties" || key === "defs") && value && typeof value === "object" && !Array.isArray(value)) {
      out[key === "defs" ? "$defs" : key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, openapiNode(sub)]));
    } else if (key === "items" || key === "additionalProperties") out[key] = openapiNode(value);
    else if (key === "anyOf" && Array.isArray(value)) out.anyOf = value.map(openapiNode);
    else if (key === "ref") out.$ref = typeof value === "string" ? value.replace("#/defs/", "#/$defs/") : value;
    else if (key === "example") out.examples = [value];
    else if (key !== "nullable") out[key] = value;
  }
  if (node.nullable === true) {
    if (typeof out.type === "string" && out.type !== "null") out.type = [out.type, "null"];
    else if ("anyOf" in out && !("type" in out)) out.anyOf = [...out.anyOf, { type: "null" }];
    // nullable beside no type (processJsonSchema folds a null branch beside a $ref into it): null or the node
    else if (!("type" in out)) return { anyOf: [out, { type: "null" }] };
  }
  return out;
}

async function strictify({ schema, dialect }) {
  if (dialect !== "google-schema") throw new Refusal(`responseSchema is Gemini's OpenAPI-subset Schema, not ${dialect}`, { scope: "check" });
  if (schema && typeof schema === "object" && Object.keys(schema).includes("$schema")) {
    throw new Refusal("a schema with $schema is sent as responseJsonSchema untouched (maybeMoveToResponseJsonSchema): the JSON-Schema mode, not this path");
  }
  sent.length = 0;
  try {
    await client.models.generateContent({ model: MODEL, contents: "hi", config: { responseMimeType: "application/json", responseSchema: schema } });
  } catch (error) {
    if (error?.constructor === Error && REFUSALS.includes(error.message)) throw new DeclaredError("ProcessJsonSchemaRefusal", error.message);
    throw error;
  }
  if (sent.length !== 1) throw new Error(`generateContent sent ${sent.length} requests, not 1`);
  return { schema: openapiNode(sent[0].generationConfig.responseSchema), losses: [] };
}

function reproduceStrictify({ schema }) {
  return `// npm install @google/genai@${SDK}
import { GoogleGenAI } from "@google/genai";
// no network: print the response schema the SDK sends, answer with a stub
globalThis.fetch = async (url, init) => {
  console.log(JSON.stringify(JSON.parse(init.body).generationConfig.responseSchema, null, 1));
  return new Response(JSON.stringify(${JSON.stringify(ANSWER)}), { headers: { "content-type": "application/json" } });
};
const ai = new GoogleGenAI({ apiKey: "not-a-key" });
const schema = ${stringifyDeep(schema)};
await ai.models.generateContent({ model: "${MODEL}", contents: "hi", config: { responseMimeType: "application/json", responseSchema: schema } });
`;
}

serve({
  implementation: { name: "google-genai-ts (generateContent responseSchema)", version: SDK,
                    homepage: "https://github.com/googleapis/js-genai", sdk: { "@google/genai": SDK } },
  declarations: {
    strictify_dialects: ["google-schema"],
    strictify_context: "output",
    strictify_refusals: ["ProcessJsonSchemaRefusal"],
  },
  notCovered: {
    "encode/decode": "the answer reaches the caller as response.text (the SDK parses nothing): the identity codec",
    "responseJsonSchema/parametersJsonSchema": "tJsonSchema returns the caller's schema as it is: no SDK processing to judge",
    "tool layer": "no strict setting and no validating tool layer (CallableTool / mcpToTool call the function with the model's arguments as given)",
    "build_request/check_response/check_stream": "not driven by this harness: the client copies the response JSON it receives",
    "plan_request/strict_support": "no model selection and no strict-support lookup",
  },
  capabilities: { strictify },
  reproducers: { strictify: reproduceStrictify },
});
