#!/usr/bin/env bash
# Install the Node harnesses (npm ci from the committed lockfile) and run the suite against each.
#   scripts/node-harnesses.sh                # every harness, every rule
#   scripts/node-harnesses.sh --sc-rule RES  # extra pytest arguments go to every run
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python}
folder=$("$python" -c 'import strictconformance.process as p; print(p.node_folder())')
(cd "$folder" && npm ci --no-audit --no-fund)
status=0
for harness in vercel-ai effect-ai strands; do
  echo "== $harness"
  (cd "$folder" && "$python" -m strictconformance.process check "node harnesses/$harness.mjs") || status=1
  (cd "$folder" && "$python" -m pytest -p strictconformance -p no:cacheprovider --sc-adapter-cmd "node harnesses/$harness.mjs" \
     --sc-report "$OLDPWD/node-$harness-report.json" "$@") || status=1
done
exit $status
