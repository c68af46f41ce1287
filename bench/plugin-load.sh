#!/usr/bin/env bash
# Plugin loading cost: `sumi stages` with no plugin folder, with a folder of 50 generated version 2
# C plugins (3 stages each, 150 stages), and with the same folder reached twice (loaded once).
# Prints medians and the cost per library; decides whether a registry cache would matter.
# Usage: bench/plugin-load.sh [path/to/sumi]
set -euo pipefail
cd "$(dirname "$0")/.."
SUMI=$(realpath "${1:-.build/release/sumi}")
WORK=${BENCH_DIR:-/tmp/sumi-bench}/plugin-load
RUNS=${BENCH_RUNS:-20}
mkdir -p "$WORK/plugins"
for i in $(seq -w 1 50); do
  [ -f "$WORK/plugins/libgen$i.so" ] || cc -shared -fPIC -O1 -fvisibility=hidden -ISources/CSumiPlugin/include \
    "-DTEST_NAME_SUFFIX=\"-$i\"" -o "$WORK/plugins/libgen$i.so" Tests/PluginTests/Fixtures/v2_test_plugin.c -lm
done
ln -sfn "$WORK/plugins" "$WORK/again"
hyperfine --style none --warmup 2 --runs "$RUNS" --export-json "$WORK/load.json" \
  "$SUMI stages" "$SUMI stages --plugin-path $WORK/plugins" \
  "$SUMI stages --plugin-path $WORK/plugins --plugin-path $WORK/again" >/dev/null
python3 - "$WORK/load.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
base, fifty, twice = (x["median"] for x in r)
print(f"sumi stages, no plugins:            {base * 1000:7.1f} ms")
print(f"with 50 plugins (150 stages):       {fifty * 1000:7.1f} ms  ({(fifty - base) / 50 * 1000:.2f} ms a library, x{fifty / base:.2f})")
print(f"same folder reached twice:          {twice * 1000:7.1f} ms  (x{twice / fifty:.2f} of once)")
PY
