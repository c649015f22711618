// A deliberately broken harness for the kit's self-tests: `node broken.mjs MODE` answers its
// build_request calls wrongly in one way (malformed, wrong-type, crash, hang, huge, stdout-junk),
// or correctly with no MODE. Built on the harness kit, like a real harness.
import { serve } from "../harness-kit.mjs";

const mode = process.argv[2] ?? "";
const raw = (text) => process.stdout.write(text);

serve({
  implementation: { name: "broken-node-harness", version: "1", sdk: {} },
  declarations: { strict_defaults: { openai: true }, providers: ["openai"] },
  notCovered: { everything: "a self-test harness" },
  capabilities: {
    async build_request({ request }, ctx) {
      const fault = request.model.startsWith("fault:") ? request.model.slice(6) : mode;
      if (fault === "malformed") raw(`{"type":"result","id":${ctx.id},"value":\n`);
      else if (fault === "wrong-type") raw(JSON.stringify({ type: "callback", id: ctx.id }) + "\n");
      else if (fault === "crash") { console.error("broken.mjs: crashing on purpose"); process.exit(7); }
      else if (fault === "hang") await new Promise(() => setInterval(() => {}, 1000));
      else if (fault === "huge") return { tools: [], junk: "x".repeat(3 * 1024 * 1024) };
      else if (fault === "stdout-junk") raw("stray output from the SDK\n");
      else if (fault === "throw") throw new TypeError("the SDK threw");
      if (["malformed", "wrong-type"].includes(fault)) await new Promise(() => setInterval(() => {}, 1000));
      const tools = request.tools.map((t) => ({ type: "function", function: { name: t.name, parameters: t.input_schema, strict: t.strict ?? request.config_strict ?? true } }));
      return { api: "openai.chat", body: { model: request.model, messages: [], ...(tools.length ? { tools } : {}) } };
    },
  },
});
