// strictconformance harness for the OpenAI Node SDK (`openai`): the functions that make a caller's
// schema strict for Structured Outputs, and what reads the model's answer back. One column per path,
// chosen by the argument:
//
//   (default)  `toStrictJsonSchema` (openai/lib/transform.mjs): the JSON-Schema transform every strict
//              helper runs (zodResponseFormat / zodTextFormat / zodFunction / zodResponsesFunction on a
//              Zod 4 schema, standardResponseFormat / standardTextFormat / standardFunction /
//              standardResponsesFunction on a Standard Schema's JSON Schema) -> strictify. A raw
//              `{type: "json_schema"}` response format's answer reaches the caller through
//              parseResponseFormatContent as JSON.parse gives it: the identity codec (no encode/decode
//              of the harness's own), so RT-4..RT-6 judge the strict schema against the answer as it
//              comes back.
//   --zod      `zodResponseFormat(schema, name)` (openai/helpers/zod) on a Zod 4 schema made by zod's
//              own z.fromJSONSchema of the kit's JSON Schema -> strictify (`json_schema.schema`), and its
//              answer path -> decode: the format's parser (`$parseRaw`, what chat.completions.parse()
//              and responses.parse() call on the message content: JSON.parse then the Zod schema's
//              parse). zodTextFormat, zodFunction and zodResponsesFunction run the same conversion
//              (zodV4ToJsonSchema) and the same parser (parseZodObject); they are this column too.
//
// Refusals: toStrictJsonSchema throws a plain `Error` naming what it will not make strict (a root
// that is not an object, `allOf` it cannot merge, `oneOf`, a keyword outside the Structured Outputs
// subset...), and a `TypeError` of its own for some shapes (tuple-form `items`, a boolean schema where it
// needs an object): both declared (`strictify_refusals`, RT-10 judges them). A TypeError the engine
// throws (not from a `throw new TypeError(` line of the SDK) is answered as `EngineTypeError`: a crash. With --zod, a JSON Schema z.fromJSONSchema cannot convert is not
// expressible as a Zod schema: refused for that input (the example is discarded, never judged).
//
// Not covered (declared in not_covered, never faked): requests and response parsing of the client
// (build_request / check_response: chat.completions.parse() on a served response would re-run the same
// parser), `encode` (the SDK has no encoder: the answer's wire shape is the model's), the Zod 3 path
// (zod-to-json-schema, vendored: the installed zod is 4), zodRealtimeFunction (no strict), the tool
// layer (zodFunction's `$callback` is the caller's function; runTools() needs a model), plan_request,
// strict_support.

import { toStrictJsonSchema } from "openai/lib/transform.mjs";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serve, Refusal, DeclaredError, packageVersion, stringifyDeep } from "../harness-kit.mjs";

const ZOD = process.argv.includes("--zod");
const versions = { openai: await packageVersion("openai"), ...(ZOD ? { zod: await packageVersion("zod") } : {}) };

// Whether `error` was thrown on purpose by a `throw new <Type>(` statement of the SDK's own code (its
// innermost frame), not by the engine (a TypeError such as "Cannot read properties of undefined").
const thrownOnPurpose = (() => {
  const sources = new Map();
  return (error) => {
    const frame = /\((file:\/\/[^)]*?):(\d+):\d+\)/.exec(String(error?.stack ?? "").split("\n").slice(1).join("\n"));
    if (!frame || !frame[1].includes("/node_modules/openai/")) return false;
    const file = fileURLToPath(frame[1]);
    if (!sources.has(file)) sources.set(file, readFileSync(file, "utf8").split("\n"));
    return (sources.get(file)[Number(frame[2]) - 1] ?? "").includes(`throw new ${error.constructor.name}(`);
  };
})();

function sdkError(error) {
  // toStrictJsonSchema's deliberate refusals: plain Errors, and TypeErrors it throws itself with a reason
  // (tuple-form `items`, a boolean where an object schema is needed); an engine TypeError stays a crash
  if (error instanceof TypeError && !thrownOnPurpose(error)) return new DeclaredError("EngineTypeError", error.message);
  if (error instanceof Error) return new DeclaredError(error.constructor === Error ? "Error" : error.name, error.message);
  return new DeclaredError("Error", String(error));
}

function checkDialect(dialect) {
  if (dialect !== "openai") throw new Refusal(`the OpenAI SDK makes schemas strict for OpenAI only, not ${dialect}`, { scope: "check" });
}

// --zod: the format zodResponseFormat builds for a JSON Schema (cached: decode reuses the strictify's)
const formats = new Map();

function zodFormat(schema) {
  const key = stringifyDeep(schema);
  if (formats.has(key)) return formats.get(key);
  let zodSchema;
  try {
    zodSchema = z.fromJSONSchema(structuredClone(schema));
  } catch (error) {
    throw new Refusal(`zod's z.fromJSONSchema cannot express this schema as a Zod schema (${String(error?.message ?? error).slice(0, 200)})`);
  }
  let format;
  try {
    format = zodResponseFormat(zodSchema, "answer");
  } catch (error) {
    throw sdkError(error);
  }
  if (formats.size > 200) formats.clear();
  formats.set(key, format);
  return format;
}

function strictify({ schema, dialect }) {
  checkDialect(dialect);
  if (ZOD) return { schema: zodFormat(schema).json_schema.schema, losses: [] };
  try {
    return { schema: toStrictJsonSchema(schema), losses: [] };
  } catch (error) {
    throw sdkError(error);
  }
}

function decode({ schema, dialect, value }) {
  checkDialect(dialect);
  const format = zodFormat(schema);
  try {
    return format.$parseRaw(JSON.stringify(value)) ?? null;
  } catch (error) {
    throw sdkError(error);
  }
}

function reproduceStrictify({ schema }) {
  if (ZOD) {
    return `// npm install openai@${versions.openai} zod@${versions.zod}
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
const schema = ${stringifyDeep(schema)};
const format = zodResponseFormat(z.fromJSONSchema(schema), "answer");
console.log(JSON.stringify(format.json_schema.schema, null, 2));
`;
  }
  return `// npm install openai@${versions.openai}
import { toStrictJsonSchema } from "openai/lib/transform.mjs";
const schema = ${stringifyDeep(schema)};
console.log(JSON.stringify(toStrictJsonSchema(schema), null, 2));
`;
}

function reproduceDecode({ schema, value }) {
  return `// npm install openai@${versions.openai} zod@${versions.zod}
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
const format = zodResponseFormat(z.fromJSONSchema(${stringifyDeep(schema)}), "answer");
// the model's answer, as chat.completions.parse() hands it to the format's parser
const content = ${JSON.stringify(stringifyDeep(value))};
console.log(JSON.stringify(format.$parseRaw(content)));
`;
}

const NOT_COVERED = {
  "build_request/check_response/check_stream": "the client's requests and its parse() of a served response run this same strict schema and parser; not driven by this harness",
  encode: "the SDK has no encoder: the answer's wire shape is the model's own",
  ...(ZOD ? {} : { "encode/decode": "a raw json_schema response format's answer reaches the caller as JSON.parse gives it (parseResponseFormatContent): the identity codec" }),
  "zod 3": "the Zod 3 path (vendored zod-to-json-schema) needs zod 3; the installed zod is 4",
  "tool layer": "zodFunction's callback is the caller's own function, run by runTools() against a model",
  "plan_request/strict_support": "the SDK has no model selection and no strict-support lookup",
};

serve({
  implementation: { name: ZOD ? "openai-node (zodResponseFormat)" : "openai-node (toStrictJsonSchema)", version: versions.openai,
                    homepage: "https://github.com/openai/openai-node", sdk: versions },
  declarations: {
    strictify_dialects: ["openai"],
    strictify_context: "output",
    strictify_refusals: ["Error", "TypeError"],
  },
  notCovered: NOT_COVERED,
  capabilities: { strictify, ...(ZOD ? { decode } : {}) },
  reproducers: { strictify: reproduceStrictify, ...(ZOD ? { decode: reproduceDecode } : {}) },
});
