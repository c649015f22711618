// strictconformance harness kit for Node: speaks strictconformance-process/1 on stdin/stdout.
// No dependencies beyond Node (>= 18). A harness registers functions and calls serve().
// This file is not an npm package: copy it beside your harness
// (cp "$(python -m strictconformance.process kit-path)" .) and import it by a relative path:
//
//   import { serve, DeclaredError, Refusal, packageVersion } from "./harness-kit.mjs";
//   serve({
//     implementation: { name: "my-sdk", version: "1.0.0", sdk: { "my-sdk": "1.0.0" } },
//     declarations: { strict_defaults: { openai: true }, providers: ["openai"] },
//     // declarations travel as they are (docs: harnesses, the started message), e.g.
//     // drift_unread: { "openai.responses": { completed_at: "node_modules/my-sdk/dist/x.js:120" } }
//     notCovered: { plan_request: "my-sdk has no model selection" },
//     capabilities: { build_request: async ({ request }, ctx) => ({ api: "openai.chat", body }) },
//     reproducers: { build_request: ({ request }) => "// a standalone .mjs snippet" },
//   });
//
// A capability returns the result value (docs: harnesses, per method), throws a
// DeclaredError (or any Error: its name is the error type) for the SDK's errors, or a Refusal when
// the SDK cannot express the call. ctx.callback(handle, args) runs a tool callback the kit holds.
// console.log/info/debug/warn go to stderr: stdout carries protocol messages only.

import { createInterface } from "node:readline";

export const PROTOCOL = "strictconformance-process/1";

/** An error of the SDK, answered as an `error` message with this type (match your declarations). */
export class DeclaredError extends Error {
  constructor(type, message, { path = null, field = null } = {}) {
    super(message);
    this.name = type;
    this.path = path;
    this.field = field;
  }
}

/** The SDK cannot express this call: answered as `refusal` (the check is reported not covered). */
export class Refusal extends Error {
  // scope "input": this input cannot be expressed (the example is discarded); "check": the SDK
  // lacks what the whole check exercises (it is reported not covered).
  constructor(reason, { scope = "input" } = {}) {
    super(reason);
    this.name = "Refusal";
    this.scope = scope;
  }
}

const writeOut = process.stdout.write.bind(process.stdout);

function send(message) {
  writeOut(JSON.stringify(message) + "\n");
}

// Where the SDK threw: the innermost stack frame that is neither Node's own nor this kit's, with
// its file relative to node_modules. The kit tells two crashes of one error type apart by it.
function originOf(error) {
  const stack = typeof error?.stack === "string" ? error.stack.split("\n").slice(1) : [];
  for (const line of stack) {
    const frame = /^\s*at (?:(.*?) \()?(.+?):(\d+):\d+\)?$/.exec(line);
    if (!frame) continue;
    let file = frame[2].replace(/^async /, "").replace(/^file:\/\//, "");
    if (file.startsWith("node:") || file.endsWith("harness-kit.mjs") || file === "<anonymous>") continue;
    const inPackages = file.lastIndexOf("node_modules/");
    if (inPackages >= 0) file = file.slice(inPackages + "node_modules/".length);
    const name = (frame[1] || "").replace(/^(async|new) /, "");
    return { file, function: name || null, line: Number(frame[3]) };
  }
  return null;
}

function errorOf(error) {
  if (error instanceof Error) {
    const out = { type: error.name || error.constructor?.name || "Error", message: String(error.message ?? "") };
    if (typeof error.path === "string") out.path = error.path;
    if (typeof error.field === "string") out.field = error.field;
    const origin = originOf(error);
    if (origin) out.origin = origin;
    return out;
  }
  return { type: "NonErrorThrown", message: String(error) };
}

/** Serve the harness described by `spec` until the kit sends stop or closes stdin. */
export function serve(spec) {
  if (spec.protectStdout !== false) {
    for (const name of ["log", "info", "debug", "warn"]) console[name] = console.error;
  }
  const capabilities = spec.capabilities ?? {};
  const reproducers = spec.reproducers ?? {};
  const pending = new Map(); // callback number -> {resolve, reject}
  let callbackCounter = 0;
  let queue = Promise.resolve();

  const started = {
    type: "started",
    protocol: PROTOCOL,
    implementation: { language: "node", ...spec.implementation },
    capabilities: Object.keys(capabilities),
    reproducers: Object.keys(reproducers).filter((name) => name in capabilities),
    declarations: spec.declarations ?? {},
    not_covered: spec.notCovered ?? {},
  };

  async function handleCall(message) {
    const { id, method, args } = message;
    const ctx = {
      id,
      callback(handle, callArgs) {
        callbackCounter += 1;
        const number = callbackCounter;
        send({ type: "callback", id, callback: number, handle, args: callArgs });
        return new Promise((resolve, reject) => pending.set(number, { resolve, reject }));
      },
    };
    try {
      let value;
      if (method === "reproduce") {
        const writer = reproducers[args.method];
        value = writer ? await writer(args.args, ctx) : null;
      } else {
        const fn = capabilities[method];
        if (!fn) throw new Refusal(`this harness does not implement ${method}`);
        value = await fn(args, ctx);
      }
      send({ type: "result", id, value: value === undefined ? null : value });
    } catch (error) {
      if (error instanceof Refusal) send({ type: "refusal", id, reason: error.message || "refused", ...(error.scope === "check" ? { scope: "check" } : {}) });
      else send({ type: "error", id, error: errorOf(error) });
    }
  }

  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      console.error(`harness-kit: the kit sent a line that is not JSON: ${line.slice(0, 200)}`);
      process.exit(2);
    }
    switch (message.type) {
      case "start":
        if (message.protocol !== PROTOCOL) {
          console.error(`harness-kit: the kit speaks ${message.protocol}, this harness ${PROTOCOL}`);
          process.exit(2);
        }
        send(started);
        break;
      case "call":
        queue = queue.then(() => handleCall(message));
        break;
      case "callback_result": {
        const waiter = pending.get(message.callback);
        pending.delete(message.callback);
        if (!waiter) break;
        if (message.ok) waiter.resolve(message.value);
        else waiter.reject(new DeclaredError(message.error?.type ?? "CallbackError", message.error?.message ?? ""));
        break;
      }
      case "stop":
        queue.then(() => process.exit(0));
        break;
      default:
        console.error(`harness-kit: unknown message type ${message.type}`);
    }
  });
  lines.on("close", () => queue.then(() => process.exit(0)));
}

/** The installed version of an npm package, read from its package.json (for implementation.sdk).
 *  The package is looked up as the harness itself would import it: from `options.from` when given
 *  (a path or file URL, e.g. `import.meta.url`), then from the harness's main script, then from the
 *  working directory, then from this kit's folder; "unknown" when none has it. */
export async function packageVersion(name, options = {}) {
  const { createRequire } = await import("node:module");
  const { readFileSync } = await import("node:fs");
  const { dirname, join, resolve } = await import("node:path");
  const bases = [];
  if (options.from) bases.push(String(options.from));
  if (process.argv[1]) bases.push(resolve(process.argv[1]));
  bases.push(join(process.cwd(), "__strictconformance__.mjs"));
  bases.push(import.meta.url);
  for (const base of bases) {
    let require;
    try {
      require = createRequire(base);
    } catch {
      continue;
    }
    try {
      return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version;
    } catch {
      // not here, or its exports hide package.json: walk up from the entry point
    }
    let dir;
    try {
      dir = dirname(require.resolve(name));
    } catch {
      continue;
    }
    for (let i = 0; i < 6; i += 1) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
        if (pkg.name === name) return pkg.version;
      } catch {
        // keep walking
      }
      dir = dirname(dir);
    }
  }
  return "unknown";
}

/** JSON.stringify for values of any depth (JSON.stringify recurses and overflows the stack on
 *  arrays nested thousands deep, which the kit's fuzz sends on purpose). */
export function stringifyDeep(value) {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const parts = [];
  const stack = [value];
  const RAW = Symbol("raw");
  while (stack.length) {
    const node = stack.pop();
    if (node && node[RAW] !== undefined) parts.push(node[RAW]);
    else if (Array.isArray(node)) {
      parts.push("[");
      stack.push({ [RAW]: "]" });
      for (let i = node.length - 1; i >= 0; i -= 1) {
        stack.push(node[i]);
        if (i > 0) stack.push({ [RAW]: "," });
      }
    } else if (node !== null && typeof node === "object") {
      const entries = Object.entries(node);
      parts.push("{");
      stack.push({ [RAW]: "}" });
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        stack.push(entries[i][1]);
        stack.push({ [RAW]: `${i > 0 ? "," : ""}${JSON.stringify(entries[i][0])}:` });
      }
    } else parts.push(JSON.stringify(node) ?? "null");
  }
  return parts.join("");
}
