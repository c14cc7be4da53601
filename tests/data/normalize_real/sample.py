"""Reproduce the text selection of the real-text normalizer set (not its labels).

    python tests/data/normalize_real/sample.py --real-dir DIR [--out tests/data/normalize_real]

DIR is a local copy of the public datasets listed in docs/training.md ("The human-written
sources"): `msc_persona.jsonl`, `sgd_changes.jsonl`, `timeqa.jsonl`, `prosecco.jsonl`.

Draws the texts with a fixed seed (SEED) from four human-written sources and writes
`msc.jsonl`, `sgd.jsonl` and `other.jsonl`. Labels (`expect`) are hand-written: when an output
file already exists, the `expect` of a case with the same source and text is kept; a new text
gets `expect: null` and must be labelled by reading it (see README.md), never by copying the
normalizer's output.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Any

SEED = 33
SUBJECT = "user:sam"
OBSERVED_AT = "2026-03-02T10:00:00Z"
HERE = Path(__file__).resolve().parent

_STATES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|"
    "Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|"
    "Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|"
    "North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|"
    "Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming"
)
_PLACES = (
    _STATES + "|London|Paris|Berlin|Tokyo|Chicago|Boston|Seattle|Denver|Miami|Dallas|Houston|Austin|Atlanta|"
    "Los Angeles|San Francisco|Phoenix|Vegas|Portland|Toronto|Vancouver|Sydney|Melbourne|Dublin|Madrid|Rome|"
    "England|UK|Canada|Mexico|Australia|Germany|France|Italy|Spain|Japan|China|India|Ireland|Scotland|Brazil|"
    "Russia|America|USA|US|Europe|Asia|city|state|country|town|countryside|farm"
)
# Words that look like they could give a typed record: the precision traps and the recall cases.
TRAP_RE = re.compile(
    r"\b(morning|evening|afternoon|night|noon|midnight|o'clock|\d{1,2}(:\d\d)? ?(am|pm|a\.m\.|p\.m\.)|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekends?|weekdays?|daily|every day|schedule|"
    r"shifts?|hours|early|late|"
    r"live[sd]?|living|mov(e|ed|es|ing)|" + _PLACES + r"|"
    r"jobs?|work(s|ed|ing)?|boss|manager|team|role|career|employ\w*|nurse|teacher|engineer|student|"
    r"e-?mail|phone|text(ing)?|call(s|ing)?|video|slack|skype|zoom|"
    r"english|spanish|french|german|italian|chinese|japanese|korean|portuguese|russian|arabic|hindi|language|"
    r"formal|casual|detail(s|ed)?|brief|concise)\b",
    re.IGNORECASE,
)
# Sentences that look like a standing typed fact about the speaker (mostly recall cases).
STRONG_RE = re.compile(
    r"\bI(?: currently)? live in [A-Z]|\bI work as\b|\bI(?: am|'m) an? (nurse|teacher|doctor|lawyer|engineer|"
    r"manager|programmer|developer|accountant|chef|student|mechanic|firefighter|police|cop|librarian|"
    r"writer|designer|pilot|farmer|dentist|vet|cashier|waitress|waiter|electrician|plumber|scientist)\b|"
    r"\bI(?: usually| always)? (wake up|get up|work out|run|go to bed|work) (at|every|in the)\b|"
    r"\b(my boss|my manager)\b|\bI speak\b|\bI(?: am|'m) from [A-Z]|\bI moved to [A-Z]",
)
# A recurring time ("every morning", "on Sundays", "5 pm", "night shift"): time_window recall cases and traps.
TIME_RE = re.compile(
    r"\b(every (morning|day|night|evening|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"on (weekends|weekdays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|"
    r"\d{1,2}(:\d\d)? ?(am|pm)|night shift|morning shift|9 to 5)\b",
    re.IGNORECASE,
)
# A communication channel or manner ("prefer to text", "in person", "video chat"): enum recall cases and traps.
COMM_RE = re.compile(
    r"\b(prefer (to )?(text|call|email)|rather (text|call|email)|(text|call|email)ing is|"
    r"I don't like (talking on the phone|phone calls)|video chat|in person)\b",
    re.IGNORECASE,
)
SGD_TIME_SLOTS = {
    "appointment_time",
    "time",
    "pickup_time",
    "new_alarm_time",
    "show_time",
    "leaving_time",
    "departure_time",
    "event_time",
    "start_time",
    "alarm_time",
}
SGD_PLACE_SLOTS = {
    "city",
    "location",
    "city_of_event",
    "pickup_city",
    "area",
    "destination",
    "origin",
    "from_location",
    "to_location",
    "origin_city",
    "destination_city",
    "where_to",
    "from_city",
    "to_city",
    "pickup_location",
    "dropoff_location",
}
TIMEQA_TEMPLATES = {
    "P54": "{e} played for {a} {span}.",
    "P108": "{e} worked for {a} {span}.",
    "P39": "{e} held the position of {a} {span}.",
    "P551": "{e} lived in {a} {span}.",
    "P937": "{e} worked in {a} {span}.",
    "P69": "{e} studied at {a} {span}.",
    "P102": "{e} was a member of the {a} {span}.",
    "P26": "{e} was married to {a} {span}.",
}
SPAN_RE = re.compile(r"\b(from (?:[A-Z][a-z]{2} )?\d{4} to (?:[A-Z][a-z]{2} )?\d{4})\b")


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _clean(s: str) -> str:
    """Wikidata-style tokenized names back to text: 'C.D . Montijo' -> 'C.D. Montijo', drop '( … )'."""
    s = re.sub(r"\s*\([^)]*\)", "", s)
    s = re.sub(r"\s+([.,])", r"\1", s)
    return re.sub(r"\s+", " ", s).strip()


def _ok_text(t: str) -> bool:
    return 8 <= len(t) <= 400 and bool(t.strip())


def _pick(rng: random.Random, pool: list[Any], n: int, used: set[str], key) -> list[Any]:
    out = []
    order = list(range(len(pool)))
    rng.shuffle(order)
    for i in order:
        if len(out) == n:
            break
        k = key(pool[i])
        if k in used:
            continue
        used.add(k)
        out.append(pool[i])
    return out


def sample_msc(rows: list[dict[str, Any]], rng: random.Random) -> list[tuple[str, str, str]]:
    """110 summaries and 90 utterances, from distinct rows and distinct texts.

    Per field: sentences that look like a standing typed fact (STRONG_RE), then any trap word
    (TRAP_RE), then a plain random draw; after both fields, recurring times (TIME_RE) and
    communication words (COMM_RE), so the set holds time_window and enum cases too.
    """
    used_rows: set[str] = set()
    used_text: set[str] = set()
    picked: list[tuple[str, str, str]] = []
    items = {f: [(r["id"], f, r[f].strip()) for r in rows if _ok_text(r[f])] for f in ("summary", "utterance")}

    def take(pool: list[tuple[str, str, str]], n: int) -> None:
        got = 0
        order = list(range(len(pool)))
        rng.shuffle(order)
        for i in order:
            if got == n:
                break
            rid, f, text = pool[i]
            if rid in used_rows or text.lower() in used_text:
                continue
            used_rows.add(rid)
            used_text.add(text.lower())
            picked.append((f"msc_persona:{rid}", f, text))
            got += 1

    for field, (n_strong, n_trap, n_random) in (("summary", (25, 35, 35)), ("utterance", (15, 30, 35))):
        pool = items[field]
        take([x for x in pool if STRONG_RE.search(x[2])], n_strong)
        take([x for x in pool if TRAP_RE.search(x[2])], n_trap)
        take(pool, n_random)
    take([x for x in items["summary"] if TIME_RE.search(x[2])], 12)
    take([x for x in items["summary"] if COMM_RE.search(x[2])], 3)
    take([x for x in items["utterance"] if TIME_RE.search(x[2])], 10)
    return picked


def sample_sgd(rows: list[dict[str, Any]], rng: random.Random) -> list[tuple[str, str, str]]:
    """120 user turns: 50 with a time slot, 25 corrections starting 'No', 25 with a place slot, 20 random."""
    turns = []
    for r in rows:
        for field, value in (("old_utterance", r["old_value"]), ("new_utterance", r["new_value"])):
            t = r[field].strip()
            if _ok_text(t):
                turns.append((r["id"], field, t, r["slot"], value))
    times = [x for x in turns if x[3] in SGD_TIME_SLOTS and x[4].lower() in x[2].lower()]
    noes = [x for x in turns if re.match(r"no\b", x[2], re.IGNORECASE)]
    places = [x for x in turns if x[3] in SGD_PLACE_SLOTS and x[4].lower() in x[2].lower()]
    used: set[str] = set()
    picked = []
    for pool, n in ((times, 50), (noes, 25), (places, 25), (turns, 20)):
        for rid, field, text, _, _ in _pick(rng, pool, n, used, key=lambda x: x[2].lower()):
            picked.append((f"sgd_changes:{rid}", field, text))
    return picked


def sample_timeqa(entities: list[dict[str, Any]], rng: random.Random) -> list[tuple[str, str, str]]:
    """20 statements 'X played for Y from 2004 to 2006.' from questions with an answer and a span."""
    cands = []
    for e in entities:
        tpl = TIMEQA_TEMPLATES.get(e["relation"])
        if not tpl:
            continue
        for qi, q in enumerate(e["questions"]):
            m = SPAN_RE.search(q["question"])
            if not q["answers"] or not m:
                continue
            text = tpl.format(e=_clean(e["entity"]), a=_clean(q["answers"][0]), span=m.group(1))
            cands.append((f"timeqa:{e['id']}#q{qi}", e["id"], text))
    rng.shuffle(cands)
    picked, seen = [], set()
    for src, eid, text in cands:
        if eid in seen:
            continue
        seen.add(eid)
        picked.append((src, "question+answer", text))
        if len(picked) == 20:
            break
    return picked


def sample_prosecco(rows: list[dict[str, Any]], rng: random.Random) -> list[tuple[str, str, str]]:
    """20 debate propositions (`a`/`b`): 10 with a trap word, 10 random."""
    items = [(r["id"], f, r[f].strip()) for r in rows for f in ("a", "b") if _ok_text(r[f])]
    trap = [x for x in items if TRAP_RE.search(x[2])]
    used: set[str] = set()
    picked = []
    for pool, n in ((trap, 10), (items, 10)):
        for rid, f, text in _pick(rng, pool, n, used, key=lambda x: x[2].lower()):
            picked.append((f"prosecco:{rid}", f, text))
    return picked


def _write(path: Path, prefix: str, picked: list[tuple[str, str, str]]) -> None:
    old: dict[tuple[str, str], Any] = {}
    if path.exists():
        for c in _load(path):
            old[(c["source"], c["text"])] = c.get("expect")
    lines = []
    counters: dict[str, int] = {}
    for source, field, text in picked:
        p = prefix if isinstance(prefix, str) else prefix(source)
        counters[p] = counters.get(p, 0) + 1
        case = {
            "id": f"{p}-{counters[p]:04d}",
            "source": source,
            "field": field,
            "text": text,
            "subject": SUBJECT,
            "observed_at": OBSERVED_AT,
            "expect": old.get((source, text)),
        }
        lines.append(json.dumps(case, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real-dir", type=Path, required=True, help="local copy of the public datasets (NAME.jsonl)")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    # One generator per source, so a change to one source's draw leaves the others as they are.
    msc = sample_msc(_load(args.real_dir / "msc_persona.jsonl"), random.Random(SEED))
    sgd = sample_sgd(_load(args.real_dir / "sgd_changes.jsonl"), random.Random(f"{SEED}-sgd"))
    tqa = sample_timeqa(_load(args.real_dir / "timeqa.jsonl"), random.Random(f"{SEED}-timeqa"))
    pro = sample_prosecco(_load(args.real_dir / "prosecco.jsonl"), random.Random(f"{SEED}-prosecco"))
    _write(args.out / "msc.jsonl", "msc", msc)
    _write(args.out / "sgd.jsonl", "sgd", sgd)
    _write(args.out / "other.jsonl", lambda s: "tqa" if s.startswith("timeqa") else "pro", tqa + pro)
    print(f"msc {len(msc)}, sgd {len(sgd)}, other {len(tqa) + len(pro)}")


if __name__ == "__main__":
    main()
