"""Send ≥ 10,000 generated bad and odd requests to a running `writegate serve` and check each answer.

    python bench/fuzz_serve.py [--model DIR] [--n 10000] [--concurrency 8] [--seed 0]

The server is spawned on loopback (the tiny random model unless `--model`), with small limits so
limit cases are cheap (`--max-candidates 16 --max-text-bytes 4096`). Requests (seeded, reproducible):
odd unicode texts (RTL, zero-width, combining marks, emoji, CJK, at and over the byte limit,
control characters, marker and markup strings such as `__DATA__` and `</script>`, URLs with secrets), every field wrong in turn (ids, subjects, timestamps: unset, epoch,
negative, year 9999+, bad nanos, future; provenance out of range; duplicate ids; too many
candidates), unknown fields, byte-level mutations of valid messages (bit flips, truncation,
garbage), and **harm** cases — real memories against junk texts ("test", ".", "{}", "fact number
7") and against other subjects' memories —, on Normalize, Classify, PrepareWrite and Relabel streams.

Asserted: every answer is OK or INVALID_ARGUMENT whose message starts with the field it names (a
Relabel stream answers each pair with a relation or its own INVALID_ARGUMENT error naming the field);
no INTERNAL/UNKNOWN; OK answers have one relation per candidate; **no harm**: a pair where either
text is junk or the subjects differ is `unrelated` and its candidate stays CURRENT, and the new
memory is IN_CONFLICT only through a pair that is neither; the server is still SERVING at
the end, exits 0 on SIGTERM, and its RSS after the run is within `--max-rss-growth-mb` of the
RSS after warm-up, both taken 3 s after the load stops (the server releases idle memory after ~1 s). Exit code 0 when all holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.timestamp_pb2 import Timestamp
from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serverproc import spawn

from writegate.v1 import writegate_pb2 as pb

MAX_CANDIDATES = 16
MAX_TEXT_BYTES = 4096
FIELD = re.compile(r"^(request|requests\[\d+\]|memory|candidates)(\[\d+\])?(\.[a-z_]+(\[\d+\])?)*: \S")
NOW = int(time.time())

ODD = [
    "User prefers morning meetings",
    "مرحبا بالعالم، يفضل المستخدم الاجتماعات الصباحية",
    "\u202eUser moved to London",
    "zero\u200bwidth\u200cjoiners\u200d",
    "e\u0301" * 40,
    "👩‍👩‍👧‍👦 has a dog named 🐶",
    "用户喜欢早上开会，住在北京",
    "Ｆｕｌｌｗｉｄｔｈ ９ａｍ",
    "𝔘𝔰𝔢𝔯 𝔭𝔯𝔢𝔣𝔢𝔯𝔰 𝔪𝔬𝔯𝔫𝔦𝔫𝔤𝔰",
    "between 25:99 and 99:99 EST",
    "UTC+99:00 every 31st of Feb",
    "$999999999999999999999999999 budget",
    "since 0000-00-00",
    "\ufeffBOM first",
    "Ω≈ç√∫˜µ≤≥÷",
    "ᚠᛇᚻ᛫ᛒᛦᚦ",
    "I'm\u00a0on\u2009PST\u202f now",
    "a" * 300,
    "9am–5pm Mon–Fri CET, not before 10:00 on Fridays",
    # strings shaped like the report's markers, markup and secrets in URLs: they stay text
    "__DATA__ __TITLE__ </script><script>alert(1)</script>",
    "My DB is postgresql://me:S3cret@db.internal/prod?password=S3cret",
    "{{ template }} ${env:HOME} %s %n <!-- -->",
]
CONTROL = ["\x00", "\x07", "\x1b[31m", "\x7f", "\u0085"]
REAL = [
    "I live in Berlin.",
    "I moved to London last month.",
    "I prefer concise answers.",
    "Please give me detailed answers.",
    "Michelle owns the Acme account",
    "Acme was handed off to Marcus in June",
    "User works in EST",
    "User prefers morning meetings",
    "No meetings before 10am",
    "User's dog is named Biscuit",
    "I report to Dana now",
    "I report to Priya",
    "User was born in Lyon",
    "User was born in Marseille",
    "I'm vegetarian",
]
JUNK = [
    ".",
    "null",
    "test",
    "lorem ipsum dolor sit amet",
    "{}",
    "[]",
    "N/A",
    "undefined",
    "asdf",
    "123",
    "…",
    "-",
    "TODO",
    "ok",
    "hello world",
    "test test test",
    "🙂",
    "None",
    "?",
]
JUNK_SET = frozenset(JUNK) | {f"fact number {i}" for i in range(100)}
"""Texts that state nothing (this script's own list: the check does not ask the server's guard)."""


def ts(seconds: int, nanos: int = 0) -> Timestamp:
    return Timestamp(seconds=seconds, nanos=nanos)


def good_memory(rng: random.Random, mem_id: str) -> pb.Memory:
    return pb.Memory(
        id=mem_id,
        subject=rng.choice(["user:alice", "org:acme", "user:bob-2"]),
        text=rng.choice(ODD),
        observed_at=ts(NOW - rng.randint(0, 10**8)),
        provenance=rng.choice([0, 1, 2, 3]),
    )


def odd_text(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(ODD)
    if pick < 0.5:  # random code points, surrogates excluded (protobuf refuses them client-side)
        return "".join(
            chr(c)
            for c in (
                rng.choice([rng.randint(0x20, 0x7E), rng.randint(0xA0, 0xD7FF), rng.randint(0xE000, 0x10FFFF)])
                for _ in range(rng.randint(1, 60))
            )
        )
    if pick < 0.6:
        return "é" * (MAX_TEXT_BYTES // 2 + rng.choice([-1, 0, 1]))  # at / over the byte limit
    if pick < 0.7:
        text = rng.choice(ODD)
        i = rng.randint(0, len(text))
        return text[:i] + rng.choice(CONTROL) + text[i:]
    if pick < 0.8:
        return rng.choice(["", " ", "\n\t ", "\u3000"])
    return " ".join(rng.choice(ODD).split()[: rng.randint(1, 4)])


def mutate_memory(rng: random.Random, mem: pb.Memory) -> None:
    """Break (or oddly set) one or two fields."""
    for _ in range(rng.randint(1, 2)):
        what = rng.randrange(9)
        if what == 0:
            mem.text = odd_text(rng)
        elif what == 1:
            mem.id = rng.choice(["", "x" * 201, "é" * 200, "\u202e"])
        elif what == 2:
            mem.subject = rng.choice(["", "Alice", "user:", ":x", "user:Alice Smith", "user:" + "a" * 500, "💥:x"])
        elif what == 3:
            mem.ClearField("observed_at")
        elif what == 4:
            mem.observed_at.CopyFrom(ts(rng.choice([0, -1, -(2**62), 2**62, 253402300800, NOW + 10**7, 2**63 - 1])))
        elif what == 5:
            mem.observed_at.CopyFrom(ts(NOW, rng.choice([-1, 10**9, 2**31 - 1, -(2**31)])))
        elif what == 6:
            mem.provenance = rng.choice([4, 99, -1, 2**31 - 1, -(2**31)])
        elif what == 7:
            mem.text = odd_text(rng)
        else:
            mem.observed_at.CopyFrom(ts(rng.randint(1, NOW)))  # an odd but valid time


def harm_case(rng: random.Random, i: int) -> tuple[pb.Memory, list[pb.Memory]]:
    """Real memories mixed with junk texts and other subjects' memories (valid requests)."""

    def text() -> str:
        return (
            rng.choice(JUNK)
            if rng.random() < 0.3
            else (f"fact number {rng.randrange(100)}" if rng.random() < 0.05 else rng.choice(REAL))
        )

    def one(mem_id: str, subject: str, seconds: int) -> pb.Memory:
        return pb.Memory(id=mem_id, subject=subject, text=text(), observed_at=ts(seconds))

    subject = rng.choice(["user:alice", "user:bob"])
    cands = [
        one(
            f"c{j}",
            subject if rng.random() < 0.7 else rng.choice(["user:bob", "user:carol", "team:ops"]),
            NOW - rng.randint(10**6, 10**8),
        )
        for j in range(rng.randint(1, 8 if rng.random() < 0.9 else MAX_CANDIDATES))
    ]
    return one(f"m{i}", subject, NOW - rng.randint(0, 10**6)), cands


def harmed(req: Any, resp: Any) -> str | None:
    """Why an OK Classify/PrepareWrite answer harms a store (junk or another subject decided a role), or None."""
    conflict_through_real = False
    for i, (cand, rel) in enumerate(zip(req.candidates, resp.relations, strict=True)):
        protected = cand.subject != req.memory.subject or cand.text in JUNK_SET or req.memory.text in JUNK_SET
        if not protected:
            conflict_through_real |= rel.label == pb.LABEL_CONTRADICTS
            continue
        if rel.label != pb.LABEL_UNRELATED:
            return f"candidates[{i}] {cand.text!r} ({cand.subject}) vs {req.memory.text!r} ({req.memory.subject}): {pb.Label.Name(rel.label)}"
        if isinstance(resp, pb.PrepareWriteResponse) and resp.candidate_states[i].role != pb.STATE_ROLE_CURRENT:
            return f"candidates[{i}] became {pb.StateRole.Name(resp.candidate_states[i].role)} through junk or another subject"
    if (
        isinstance(resp, pb.PrepareWriteResponse)
        and resp.new_role == pb.STATE_ROLE_IN_CONFLICT
        and not conflict_through_real
    ):
        return "the new memory is IN_CONFLICT only through junk or another subject"
    return None


@dataclass
class Case:
    kind: str
    rpc: str  # Normalize | Classify | PrepareWrite | Relabel | raw:<Method>
    payload: Any
    n_candidates: int = 0


def make_case(rng: random.Random, i: int) -> Case:
    rpc = rng.choices(["PrepareWrite", "Classify", "Normalize", "Relabel"], [5, 2, 2, 1])[0]
    kind = rng.choices(["odd-valid", "bad-field", "candidates", "unknown-field", "bytes", "harm"], [2, 4, 2, 1, 2, 3])[
        0
    ]
    n = rng.randint(0, 6)
    cands = [good_memory(rng, f"c{j}") for j in range(n)]
    mem = good_memory(rng, f"m{i}")
    if kind == "harm":
        mem, cands = harm_case(rng, i)
    elif kind == "odd-valid":
        mem.text = rng.choice(ODD)
    elif kind == "bad-field":
        target = mem if not cands or rng.random() < 0.6 else rng.choice(cands)
        mutate_memory(rng, target)
    elif kind == "candidates":
        choice = rng.randrange(3)
        if choice == 0:
            cands = [good_memory(rng, f"c{j}") for j in range(MAX_CANDIDATES + rng.randint(1, 4))]
        elif choice == 1 and len(cands) >= 2:
            cands[-1].id = cands[0].id
        else:
            cands.append(good_memory(rng, mem.id))  # a candidate with the memory's own id
    if rpc == "Relabel":
        reqs = [
            pb.RelabelRequest(pair_id=f"p{j}", existing=c, new=mem)
            for j, c in enumerate(cands or [good_memory(rng, "e")])
        ]
        if kind in ("bad-field", "candidates") and rng.random() < 0.5:
            reqs[-1].pair_id = ""
        return Case(kind, rpc, reqs)
    req: Any
    if rpc == "Normalize":
        req = pb.NormalizeRequest(memory=mem)
    elif rpc == "Classify":
        req = pb.ClassifyRequest(memory=mem, candidates=cands)
    else:
        req = pb.PrepareWriteRequest(memory=mem, candidates=cands)
    if rng.random() < 0.1:
        req.ClearField("memory")
    data = req.SerializeToString()
    if kind == "unknown-field":
        extra = rng.choice([b"\xa0\x06\x01", b"\xfa\x3e\x03abc", b"\x98\x7f" + bytes([rng.randrange(128)])])
        return Case(kind, f"raw:{rpc}", data + extra, len(cands))
    if kind == "bytes":
        buf = bytearray(data)
        op = rng.randrange(4)
        if op == 0 and buf:
            for _ in range(rng.randint(1, 4)):
                buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf = buf[: rng.randint(0, len(buf))]
        elif op == 2:
            buf = bytearray(rng.randbytes(rng.randint(1, 200)))
        else:
            buf += rng.randbytes(rng.randint(1, 20))
        return Case(kind, f"raw:{rpc}", bytes(buf), -1)
    return Case(kind, rpc, req, len(cands))


@dataclass
class Tally:
    codes: Counter
    by_kind: Counter
    failures: list[str]


def send_stream(channel: grpc.Channel, case: Case) -> tuple[str, str, Any]:
    """A Relabel stream on the blocking API: grpc.aio's client can report INTERNAL "Internal error
    from Core" instead of the server's status when the server ends a stream the client is still
    writing (grpc/grpc#36066), which would blame the server for a client bug."""
    call = channel.stream_stream(
        "/writegate.v1.WriteGate/Relabel",
        request_serializer=pb.RelabelRequest.SerializeToString,
        response_deserializer=pb.RelabelResponse.FromString,
    )
    try:
        return "OK", "", list(call(iter(case.payload), timeout=30))
    except grpc.RpcError as exc:
        return exc.code().name, exc.details() or "", None


async def send(channel: grpc.aio.Channel, sync_channel: grpc.Channel, case: Case) -> tuple[str, str, Any]:
    """→ (code name, details, response)."""
    path = f"/writegate.v1.WriteGate/{case.rpc.removeprefix('raw:')}"
    if case.rpc == "Relabel":
        return await asyncio.to_thread(send_stream, sync_channel, case)
    try:
        if case.rpc.startswith("raw:"):
            resp = await channel.unary_unary(path)(case.payload, timeout=30)
            return "OK", "", resp
        resp_type = {
            "Normalize": pb.NormalizeResponse,
            "Classify": pb.ClassifyResponse,
            "PrepareWrite": pb.PrepareWriteResponse,
        }[case.rpc]
        call = channel.unary_unary(
            path, request_serializer=type(case.payload).SerializeToString, response_deserializer=resp_type.FromString
        )
        return "OK", "", await call(case.payload, timeout=30)
    except grpc.aio.AioRpcError as exc:
        return exc.code().name, exc.details() or "", None


def check(case: Case, code: str, details: str, resp: Any) -> str | None:
    """None when the answer is acceptable, else why not."""
    if code == "INVALID_ARGUMENT":
        return None if FIELD.match(details) else f"INVALID_ARGUMENT without a field: {details!r}"
    if code != "OK":
        return f"{code}: {details!r}"
    if case.rpc in ("Classify", "PrepareWrite") and len(resp.relations) != case.n_candidates:
        return f"{len(resp.relations)} relations for {case.n_candidates} candidates"
    if case.rpc in ("Classify", "PrepareWrite"):
        harm = harmed(case.payload, resp)
        if harm is not None:
            return f"harm: {harm}"
    if case.rpc == "Relabel" and [r.pair_id for r in resp] != [r.pair_id for r in case.payload]:
        return "Relabel answered other pair ids"
    if case.rpc == "Relabel":
        for r in resp:
            if r.HasField("error") and (
                r.error.code != grpc.StatusCode.INVALID_ARGUMENT.value[0] or not FIELD.match(r.error.message)
            ):
                return f"Relabel pair {r.pair_id!r}: error {r.error.code} without a field: {r.error.message!r}"
            if r.HasField("relation") and not r.relation.candidate_id:
                return f"Relabel pair {r.pair_id!r}: a relation without a candidate id"
    return None


async def run(target: str, cases: list[Case], concurrency: int, tally: Tally, progress: Callable[[int], None]) -> None:
    queue: asyncio.Queue[Case] = asyncio.Queue()
    for case in cases:
        queue.put_nowait(case)
    done = 0
    async with grpc.aio.insecure_channel(target) as channel:
        sync_channel = grpc.insecure_channel(target)

        async def worker() -> None:
            nonlocal done
            while not queue.empty():
                case = queue.get_nowait()
                code, details, resp = await send(channel, sync_channel, case)
                tally.codes[code] += 1
                tally.by_kind[(case.kind, code)] += 1
                problem = check(case, code, details, resp)
                if problem is not None and len(tally.failures) < 50:
                    tally.failures.append(f"{case.kind} {case.rpc}: {problem}")
                elif problem is not None:
                    tally.failures.append("…")
                done += 1
                if done % 1000 == 0:
                    progress(done)

        try:
            await asyncio.gather(*(worker() for _ in range(concurrency)))
        finally:
            sync_channel.close()


async def serving(target: str) -> bool:
    async with grpc.aio.insecure_channel(target) as channel:
        resp = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
    return resp.status == health_pb2.HealthCheckResponse.SERVING


def main(argv: list[str] | None = None) -> int:
    """Run the fuzz; 0 when every property held."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="model directory (default: a tiny random model)")
    parser.add_argument("--n", type=int, default=10_000, help="requests to send (default 10,000)")
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight (default 8)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="the server's backend threads")
    parser.add_argument("--max-rss-growth-mb", type=float, default=30.0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    warmup = [make_case(rng, -i - 1) for i in range(min(500, args.n))]
    cases = [make_case(rng, i) for i in range(args.n)]
    tally = Tally(Counter(), Counter(), [])
    flags = (
        "--max-candidates",
        str(MAX_CANDIDATES),
        "--max-text-bytes",
        str(MAX_TEXT_BYTES),
        "--threads",
        str(args.threads),
        "--log-level",
        "WARNING",
    )
    with spawn(args.model, *flags) as server:
        asyncio.run(run(server.target, warmup, args.concurrency, Tally(Counter(), Counter(), []), lambda _n: None))
        rss_start = server.settled_rss_mb(3.0)
        start = time.perf_counter()
        asyncio.run(
            run(
                server.target,
                cases,
                args.concurrency,
                tally,
                lambda n: print(f"  {n} requests, server RSS {server.rss_mb():.1f} MiB", flush=True),
            )
        )
        wall = time.perf_counter() - start
        rss_end = server.settled_rss_mb(3.0)
        still_serving = asyncio.run(serving(server.target))
        exit_code = server.stop()
        stderr = "".join(server.stderr)
    print(
        f"\n{args.n} requests in {wall:.1f} s ({args.n / wall:.0f}/s), concurrency {args.concurrency}, seed {args.seed}"
    )
    print("answers:", dict(tally.codes))
    for (kind, code), count in sorted(tally.by_kind.items()):
        print(f"  {kind:14s} {code:18s} {count}")
    growth = rss_end - rss_start
    print(f"server RSS after warm-up {rss_start:.1f} MiB, after the run {rss_end:.1f} MiB (growth {growth:+.1f} MiB)")
    print(
        f"still SERVING: {still_serving}; exit code on SIGTERM: {exit_code}; tracebacks in its log: {'Traceback' in stderr}"
    )
    problems = list(tally.failures)
    if growth > args.max_rss_growth_mb:
        problems.append(f"RSS grew by {growth:.1f} MiB (> {args.max_rss_growth_mb})")
    if not still_serving:
        problems.append("the server is not SERVING after the run")
    if exit_code != 0:
        problems.append(f"exit code {exit_code} on SIGTERM")
    if "Traceback" in stderr:
        problems.append("a traceback in the server log:\n" + stderr[-2000:])
    if problems:
        print("\nFAILED:\n  " + "\n  ".join(problems[:50]))
        return 1
    print(
        "PASSED: every answer was OK or INVALID_ARGUMENT naming a field; no junk text or other subject changed a role"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
