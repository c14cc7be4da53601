#!/usr/bin/env bash
# The GPU side-by-side (bench/gpu_bench.py) on a machine with no network: ONE command, ≤ 8 minutes.
#
#     bench/gpu.sh                          # on the lent GPU machine, .whl/ carried (bench/gpu_prepare.sh)
#     bench/gpu.sh --smoke --device cpu     # anywhere: tiny sizes, on the CPU
#
# 1. unpacks .whl/site.tar.xz (made here by bench/gpu_prepare.sh: writegate's dependencies the
#    machine's image lacks, installed for cp312 manylinux x86-64) into $GPU_SITE (/tmp/site); or,
#    without it, installs any .whl/*.whl there (no index, no dependencies resolved);
# 2. makes `writegate` importable without installing it: a tree of symbolic links
#    $GPU_SRC/writegate/<package> → the repository's folders, read from pyproject.toml's
#    package-dir (the same mapping an install makes; modules find their data files through the links);
# 3. checks that writegate's relabel, feeder and torch backend import (not the server: without a
#    grpcio ≥ 1.85.1 there, bench/gpu_bench.py skips the serve row and says why in the table);
# 4. runs bench/gpu_bench.py with the remaining arguments under a time limit, so the whole script
#    ends within 8 minutes; it prints one table and writes gpu_bench.json/.md under $OUT when set.
#    It reads the store and the int8 reference labels from .whl/ when they are there.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
SITE="${GPU_SITE:-/tmp/site}"
SRC="${GPU_SRC:-/tmp/writegate-src}"
BENCH_LIMIT_S="${BENCH_LIMIT_S:-420}"

shopt -s nullglob
wheels=(.whl/*.whl)
if [[ -n "${GPU_SKIP_WHEELS:-}" ]]; then  # GPU_SKIP_WHEELS=1: a venv that has them
    :
elif [[ -f .whl/site.tar.xz ]]; then
    echo "gpu.sh: unpacking .whl/site.tar.xz into $SITE"
    rm -rf "$SITE"
    timeout 120 "$PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="data")' \
        .whl/site.tar.xz "$SITE" || { echo "gpu.sh: unpacking .whl/site.tar.xz failed" >&2; exit 1; }
elif ((${#wheels[@]})); then
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
"$PY" -c "import writegate.relabel.run, writegate.classifier.feeder, writegate.classifier.backends.torch" ||
    { echo "gpu.sh: writegate does not import (missing wheels? run bench/gpu_prepare.sh here and carry .whl)" >&2; exit 1; }

timeout -k 15 "$BENCH_LIMIT_S" "$PY" bench/gpu_bench.py "$@"
rc=$?
((rc == 124)) && echo "gpu.sh: bench/gpu_bench.py ran past ${BENCH_LIMIT_S} s; the rows so far are in \$OUT" >&2
exit $rc
