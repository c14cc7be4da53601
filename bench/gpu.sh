#!/usr/bin/env bash
# The GPU side-by-side (bench/gpu_bench.py) on a machine with no network: ONE command, ≤ 8 minutes.
#
#     bench/gpu.sh                          # on the lent GPU machine, the wheels carried in .whl/
#     bench/gpu.sh --smoke --device cpu     # anywhere: tiny sizes, on the CPU
#
# 1. installs the wheels in .whl/ (made here by bench/gpu_wheels.sh: writegate's core dependencies
#    the machine's image lacks, and faker for the store generator) into $GPU_SITE (/tmp/site), no
#    index, no dependencies resolved;
# 2. makes `writegate` importable without installing it: a tree of symbolic links
#    $GPU_SRC/writegate/<package> → the repository's folders, read from pyproject.toml's
#    package-dir (the same mapping an install makes; modules find their data files through the links);
# 3. runs bench/gpu_bench.py with the remaining arguments under a time limit, so the whole script
#    ends within 8 minutes; it prints one table and writes gpu_bench.json/.md under $OUT when set.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
SITE="${GPU_SITE:-/tmp/site}"
SRC="${GPU_SRC:-/tmp/writegate-src}"
BENCH_LIMIT_S="${BENCH_LIMIT_S:-420}"

shopt -s nullglob
wheels=(.whl/*.whl)
if ((${#wheels[@]})) && [[ -z "${GPU_SKIP_WHEELS:-}" ]]; then  # GPU_SKIP_WHEELS=1: a venv that has them
    echo "gpu.sh: installing ${#wheels[@]} carried wheels into $SITE"
    timeout 120 "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target "$SITE" "${wheels[@]}" || { echo "gpu.sh: installing the wheels failed" >&2; exit 1; }
fi

rm -rf "$SRC"
"$PY" - "$SRC" <<'PYEOF' || exit 1
import sys
import tomllib
from pathlib import Path

root, src = Path.cwd(), Path(sys.argv[1])
dirs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
for package, folder in dirs.items():
    parts = package.split(".")
    if len(parts) != 2:  # writegate.classifier.backends etc. are folders inside their parent
        continue
    link = src / parts[0] / parts[1]
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(root / folder, target_is_directory=True)
print(f"gpu.sh: writegate → {src} ({len(list((src / 'writegate').iterdir()))} packages linked)")
PYEOF
export PYTHONPATH="$SRC:$SITE${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
"$PY" -c "import writegate.server.service, writegate.relabel.engine, writegate.training.data.generate" ||
    { echo "gpu.sh: writegate does not import (missing wheels? run bench/gpu_wheels.sh here and carry .whl)" >&2; exit 1; }

timeout -k 15 "$BENCH_LIMIT_S" "$PY" bench/gpu_bench.py "$@"
rc=$?
((rc == 124)) && echo "gpu.sh: bench/gpu_bench.py ran past ${BENCH_LIMIT_S} s; the rows so far are in \$OUT" >&2
exit $rc
