"""Tests for the human-written source mappings (training/real) on inline rows, not on a copy of the datasets."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from writegate.classifier.labels import Label
from writegate.training.datafile import read_examples
from writegate.training.real import PRESETS, SOURCES, build, msc_persona, nli, prosecco, timeqa
from writegate.training.real.common import Mapped, assign_splits, clean, later, make, split_of, texts_of

S, O, E, C, U = Label.SUPERSEDES, Label.CONTRADICTS, Label.ELABORATES, Label.CORROBORATES, Label.UNRELATED  # noqa: E741
T0 = datetime(2020, 1, 1, tzinfo=UTC)


def run(source: str, rows: list[dict[str, Any]]) -> list[Mapped]:
    return list(SOURCES[source].examples(rows))


def by_id(items: list[Mapped]) -> dict[str, Mapped]:
    return {m.example.id: m for m in items}


def nli_row(rid: str, a: str, b: str, label: str) -> dict[str, Any]:
    return {"source": "snli", "id": rid, "a": a, "b": b, "label": label, "split": "dev"}


def ab_row(rid: str, a: str, b: str, **more: Any) -> dict[str, Any]:
    """A row of a source of (a, b) text pairs: sts (score), climate_fever (label), prosecco."""
    return {"id": rid, "a": a, "b": b, **more}


def prosecco_row(rid: str, a: str, b: str, contradiction: bool, speaker: str) -> dict[str, Any]:
    label = "self-contradiction" if contradiction else "no self-contradiction"
    return ab_row(rid, a, b, label=label, speaker=speaker, corpus="QT30")


def timeqa_row(rid: str, entity: str, relation: str, questions: dict[str, list[str]]) -> dict[str, Any]:
    """A TimeQA row of the train split: its questions, in order, with their answers."""
    qas = [{"question": q, "answers": answers} for q, answers in questions.items()]
    return {"id": rid, "entity": entity, "relation": relation, "split": "train", "questions": qas}


def sgd_row(rid: str, dialogue: str, slot: str, old: str, old_said: str, new: str, new_said: str) -> dict[str, Any]:
    """An SGD slot change of the dev split: the old value and the utterance that gave it, then the new ones."""
    return {
        "id": rid,
        "dialogue_id": dialogue,
        "split": "dev",
        "slot": slot,
        "old_value": old,
        "old_utterance": old_said,
        "new_value": new,
        "new_utterance": new_said,
    }


PREMISE = "A young boy in a red jacket plays guitar on a busy street corner."
NLI_ROWS = [
    nli_row("n-0", PREMISE, "A boy plays guitar.", "entailment"),
    nli_row("n-1", PREMISE, "The boy is sleeping in his bed.", "contradiction"),
    nli_row("n-2", PREMISE, "The boy is busking for money.", "neutral"),
    nli_row("n-3", "A man is cutting wood.", "A man cuts wood.", "entailment"),
]

# TimeQA questions and their answers: owners over spans of time (a change, the same owner again, no answer) and
# memberships at points in time
ACME_HALL_OWNERS = {
    "Who owned Acme Hall from 1811 to 1827?": ["George Peter"],
    "Who owned Acme Hall from 1916 to 1920?": ["Newton D . Baker"],
    "Who owned Acme Hall from Mar 1930 to 1940?": ["Newton D . Baker"],
    "Who owned Acme Hall from 1950 to 1960?": [],
}
ANN_LEE_JOINED = {
    "Which society did Ann Lee join in 1860?": ["Royal Society"],
    "Which society did Ann Lee join in 1869?": ["Linnean Society"],
}

# (source, rows, {example id: (label, family)}) — ids not listed must not appear, except negatives.
CASES: list[tuple[str, list[dict[str, Any]], dict[str, tuple[Label, str]]]] = [
    (
        "snli",
        NLI_ROWS,
        {
            "n-0:corroborates": (C, "snli.entailment"),
            "n-0:reversed": (E, "snli.entailment_reversed"),
            "n-1:contradicts": (O, "snli.contradiction"),
            "n-2:elaborates": (E, "snli.neutral"),
            "n-3:corroborates": (C, "snli.entailment"),
            "n-3:reversed": (C, "snli.paraphrase_reversed"),
        },
    ),
    (
        "oie_nli",
        [dict(r, source="oie_nli") for r in NLI_ROWS[:2]],
        {
            "n-0:corroborates": (C, "oie_nli.entailment"),
            "n-0:reversed": (E, "oie_nli.entailment_reversed"),
            "n-1:contradicts": (O, "oie_nli.contradiction"),
        },
    ),
    (
        "timeqa",
        [timeqa_row("t-0", "Acme Hall", "P127", ACME_HALL_OWNERS)],
        {
            "t-0:0-1:supersedes": (S, "timeqa.change"),
            "t-0:0-1:contradicts": (O, "timeqa.older"),
            # 1916 and 1930 say the same owner: as statements the two texts are one ("Newton D. Baker
            # owned Acme Hall."), and a pair of identical texts is never made.
        },
    ),
    ("timeqa", [timeqa_row("t-1", "Ann Lee", "P463", ANN_LEE_JOINED)], {}),
    (
        "sgd_changes",
        [
            sgd_row(
                "g-0",
                "1_1",
                "restaurant_name",
                "Villa Romano",
                "Can you look at Villa Romano in Napa?",
                "Big 4",
                "Actually, can we change it to Big 4.",
            ),
            sgd_row("g-1", "1_1", "city", "London", "I'm thinking London!", "Phoenix", "What about hotels in Phoenix?"),
            sgd_row("g-2", "1_2", "time", "11:30", "A table at 11:30.", "12 pm", "No, make it at noon."),
        ],
        {"g-0:supersedes": (S, "sgd_changes.change")},
    ),
    (
        "prosecco",
        [
            prosecco_row(
                "p-0",
                "interest rates were not due to go up so suddenly",
                "interest rates were due to go up",
                True,
                "s1",
            ),
            prosecco_row(
                "p-1", "we can do more", "in this country we have done our bit for climate change", True, "s1"
            ),
            *[
                prosecco_row(
                    "p-2",
                    "paying the French to secure their coastline is practical",
                    "Labour never got control over immigration",
                    False,
                    "s2",
                )
                for _ in range(2)  # the same row twice: read once
            ],
            prosecco_row(
                "p-3", "Scotland is now average for education", "Scotland was once a leader in education", False, "s3"
            ),
        ],
        {
            "p-0:contradicts": (O, "prosecco.self_contradiction"),
            "p-2:unrelated": (U, "prosecco.no_contradiction_disjoint"),
        },
    ),
    (
        "sts",
        [
            ab_row(
                "s-0",
                "2 dead in shooting outside Empire State Building",
                "Two reported dead in Empire State shooting",
                score=4.8,
            ),
            ab_row("s-1", "Residents return to Texas blast site", "Israel braces for Arab protests", score=0.4),
            ab_row("s-2", "Obama visits Japan", "Obama speaks about Japan", score=3.0),
            ab_row("s-3", "Europe for all", "Europe for all", score=5.0),
        ],
        {"s-0:corroborates": (C, "sts.same"), "s-1:unrelated": (U, "sts.different")},
    ),
    (
        "climate_fever",
        [
            ab_row(
                "c-0",
                "CO2 increase is natural, not human-caused.",
                "This increase is the result of human activities.",
                label="REFUTES",
            ),
            ab_row(
                "c-1",
                "Sea ice has diminished fast.",
                "Scientists have found that ice is being lost quickly.",
                label="SUPPORTS",
            ),
            ab_row("c-2", "Sea ice has diminished fast.", "Penguins live in the south.", label="NOT_ENOUGH_INFO"),
        ],
        {"c-0:contradicts": (O, "climate_fever.refutes"), "c-1:elaborates": (E, "climate_fever.supports")},
    ),
]


@pytest.fixture
def all_neutral(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nli, "NEUTRAL_PER_MILLE", 1000)


@pytest.mark.parametrize(("source", "rows", "expected"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_source_maps_rows_to_labels(
    all_neutral: None, source: str, rows: list[dict[str, Any]], expected: dict[str, tuple[Label, str]]
) -> None:
    got = {k: v for k, v in by_id(run(source, rows)).items() if not v.example.family.startswith(f"{source}.negative")}
    assert {k: (m.example.label, m.example.family) for k, m in got.items()} == expected


def test_neutral_is_kept_for_a_share_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nli, "NEUTRAL_PER_MILLE", 0)
    assert "n-2:elaborates" not in by_id(run("snli", NLI_ROWS))


@pytest.mark.parametrize("source", ["snli", "oie_nli", "prosecco", "sts", "climate_fever"])
def test_one_moment_sources_give_a_conflict_one_time_and_other_labels_a_later_or_equal_one(source: str) -> None:
    rows = next(c[1] for c in CASES if c[0] == source)
    items = run(source, rows)
    assert items
    for m in items:
        e, n = m.example.pair.existing.observed_at, m.example.pair.new.observed_at
        if m.example.label is Label.CONTRADICTS:
            assert n == e, m.example.id
        else:
            assert timedelta(0) <= n - e <= timedelta(days=401), m.example.id


def test_later_keeps_half_the_keys_at_one_moment() -> None:
    t = datetime(2020, 1, 1, tzinfo=UTC)
    gaps = [later(f"k{i}", t) - t for i in range(400)]
    same = sum(g == timedelta(0) for g in gaps)
    assert 150 < same < 250
    assert all(timedelta(days=1) <= g <= timedelta(days=401) for g in gaps if g)


AS_OF_ROW = timeqa_row(
    "t-2", "Acme Hall", "P127", {**ACME_HALL_OWNERS, "Who was Acme Hall sold to in 1990?": ["Bo Ek"]}
)
"""Acme Hall with a question that is no statement: the row is written as "As of" notes."""


@pytest.mark.parametrize(("label", "newer"), [(S, True), (O, False), (C, True)], ids=["change", "older", "same"])
def test_timeqa_dates_come_from_spans(label: Label, newer: bool) -> None:
    items = [
        m
        for m in run("timeqa", [AS_OF_ROW])
        if m.example.label is label and "1990" not in m.example.pair.new.text + m.example.pair.existing.text
    ]
    assert len(items) == 1
    p = items[0].example.pair
    assert (p.new.observed_at > p.existing.observed_at) is newer
    assert {p.existing.observed_at.year, p.new.observed_at.year} <= {1811, 1916, 1930}
    assert p.existing.observed_at.tzinfo is not None


@pytest.mark.parametrize(
    ("question", "start", "label"),
    [
        ("Who owned X from 1916 to 1920?", datetime(1916, 1, 1, tzinfo=UTC), "1916"),
        ("Who led X from Mar 1964 to Jul 1967", datetime(1964, 3, 1, tzinfo=UTC), "Mar 1964"),
        ("Which society did Y join in 1869?", datetime(1869, 1, 1, tzinfo=UTC), "1869"),
        ("From 2004 to present, who ran X?", datetime(2004, 1, 1, tzinfo=UTC), "2004"),
    ],
    ids=["range", "month", "point", "present"],
)
def test_timeqa_span_parses(question: str, start: datetime, label: str) -> None:
    parsed = timeqa.parse_span(question)
    assert parsed is not None
    assert parsed[:2] == (start, label)
    assert "19" not in parsed[2] and "20" not in parsed[2]


@pytest.mark.parametrize(
    "question",
    ["Who worked in X from 105 to 1708?", "Who owned X from 1990 to 1980?", "Who owned X after the war?"],
    ids=["typo", "backwards", "no-year"],
)
def test_timeqa_bad_span_is_refused(question: str) -> None:
    assert timeqa.parse_span(question) is None


def test_timeqa_renders_statements_with_detokenised_answers() -> None:
    facts = timeqa.parse_facts(CASES[2][1][0])
    assert list(timeqa.renderings(facts).values()) == [
        "George Peter owned Acme Hall.",
        "Newton D. Baker owned Acme Hall.",
        "Newton D. Baker owned Acme Hall.",
    ]


def test_timeqa_row_with_a_question_that_is_no_statement_is_as_of_notes() -> None:
    facts = timeqa.parse_facts(AS_OF_ROW)
    texts = timeqa.renderings(facts)
    assert texts[facts[1].index] == "As of 1916: Who owned Acme Hall? Newton D. Baker"
    assert all(t.startswith("As of ") for t in texts.values())


def test_timeqa_other_entity_negative_shares_the_split() -> None:
    rows = [
        {
            "id": f"t-{i}",
            "entity": f"Club {i}",
            "relation": "P286",
            "questions": [{"question": f"Who coached Club {i} from 2001 to 2003?", "answers": [f"Coach {i}"]}],
        }
        for i in range(8)
    ]
    negs = [m for m in run("timeqa", rows) if m.example.family == "timeqa.other_entity"]
    assert negs
    for m in negs:
        assert m.example.label is U
        other = re.search(r"Club (\d+)", m.example.pair.new.text)
        assert other is not None and other.group(1) != m.group.split()[-1]
        assert split_of(f"club {other.group(1)}") == split_of(m.group)


def coach_rows(coaches: dict[str, str]) -> list[dict[str, Any]]:
    """One P286 (head coach) row per club of the train split, each with one coach."""
    clubs = [c for c in coaches if split_of(c.lower()) == "train"]
    assert len(clubs) >= 3
    return [
        timeqa_row(f"c-{i}", club, "P286", {f"Who coached {club} from 2001 to 2003?": [coaches[club]]})
        for i, club in enumerate(clubs)
    ]


def test_timeqa_another_entity_with_the_same_value_is_unrelated() -> None:
    coaches = {f"Club {i}": "Ann Ek" if i % 2 else f"Coach {i}" for i in range(10)}
    rows = coach_rows(coaches)
    shared = [r["entity"] for r in rows if coaches[r["entity"]] == "Ann Ek"]
    negs = [m for m in run("timeqa", rows) if m.example.family == "timeqa.same_value"]
    assert len(negs) == len(shared) * (len(shared) - 1) // 2  # every pair of clubs that share the coach, once
    for m in negs:
        p = m.example.pair
        assert m.example.label is U
        clubs = [re.search(r"Club \d+", t) for t in (p.existing.text, p.new.text)]
        assert all(c is not None for c in clubs)
        a, b = (c.group(0) for c in clubs if c is not None)
        assert a != b and {a, b} <= set(shared)
        assert "Ann Ek" in p.existing.text and "Ann Ek" in p.new.text


def test_timeqa_another_relation_of_the_same_entity_is_unrelated() -> None:
    rows = [
        timeqa_row(
            "h-0",
            "Helen Ek",
            "P39",
            {
                "What position was held by Helen Ek from 1990 to 1993?": ["Minister of Health"],
                "What position was held by Helen Ek from 1999 to 2008?": ["Prime Minister"],
            },
        ),
        timeqa_row("h-1", "Helen Ek", "P166", {"Helen Ek received which award in 2005?": ["Order of Merit"]}),
        # the same relation in a second row: its facts are changes of one slot, never `unrelated` to h-0's
        timeqa_row(
            "h-2", "Helen Ek", "P39", {"What position was held by Helen Ek from 2009 to 2017?": ["Administrator"]}
        ),
        timeqa_row("a-0", "Acme Hall", "P127", {"Who owned Acme Hall from 1811 to 1827?": ["George Peter"]}),
        timeqa_row("a-1", "Acme Hall", "P466", {"Who lived in Acme Hall from 1811 to 1827?": ["George Peter"]}),
    ]
    relation = {str(r["id"]): r["relation"] for r in rows}
    items = run("timeqa", rows)
    pairs = [m for m in items if m.example.family == "timeqa.other_relation"]
    assert sorted(m.example.id for m in pairs) == [
        "h-0:0:h-1:0:unrelated",
        "h-0:1:h-1:0:unrelated",
        "h-1:0:h-2:0:unrelated",
    ]
    for m in pairs:
        a, _, b, _, _ = m.example.id.split(":")
        assert m.example.label is U and m.group == "helen ek"
        assert relation[a] != relation[b]  # never two facts of one relation: those are changes
        years = {m.example.pair.existing.observed_at.year, m.example.pair.new.observed_at.year}
        assert years in ({1990, 2005}, {1999, 2005}, {2005, 2009})
    # occupant and owner are one slot here (LINKED): no pair, whatever the two relation ids
    assert not [m for m in items if m.example.label is U and m.group == "acme hall"]


def test_sgd_new_is_minutes_later_same_day() -> None:
    (m,) = run("sgd_changes", CASES[4][1])
    p = m.example.pair
    assert timedelta(0) < p.new.observed_at - p.existing.observed_at < timedelta(minutes=10)
    assert m.group == "dev:1_1"


def test_sgd_another_service_of_the_same_dialogue_is_unrelated() -> None:
    rows = [
        {
            **sgd_row(
                "g-0", "9_1", "restaurant_name", "Sipan", "A table at Sipan for 11:30.", "Rosie's", "Actually, Rosie's."
            ),
            "service": "Restaurants_2",
        },
        {
            **sgd_row("g-1", "9_1", "date", "March 2nd", "For March 2nd please.", "the 4th", "No, the 4th."),
            "service": "Restaurants_1",
        },
        {
            **sgd_row(
                "g-2", "9_1", "destination", "Sipan", "Get me a cab to Sipan.", "the station", "Make it the station."
            ),
            "service": "RideSharing_1",
        },
        {
            **sgd_row("g-3", "7_7", "city", "Paris", "A car in Paris.", "Rome", "Actually Rome."),
            "service": "RentalCars_1",
        },
    ]
    negatives = {m.example.id: m for m in run("sgd_changes", rows) if m.example.family == "sgd_changes.other_service"}
    assert sorted(negatives) == ["g-0:g-2:unrelated", "g-1:g-2:unrelated"]  # never across dialogues or within a service
    m = negatives["g-0:g-2:unrelated"]
    assert m.example.label is U and m.group == "dev:9_1"
    assert (m.example.pair.existing.text, m.example.pair.new.text) == (
        "A table at Sipan for 11:30.",
        "Get me a cab to Sipan.",
    )
    assert timedelta(0) < m.example.pair.new.observed_at - m.example.pair.existing.observed_at <= timedelta(minutes=30)


def test_sgd_another_dialogue_of_another_service_is_unrelated_months_later() -> None:
    services = ("Restaurants_1", "RideSharing_2", "Hotels_3")
    rows = [
        {
            **sgd_row(f"g-{i}", f"{i}_{i}", "city", f"Town{i}", f"Something in Town{i}.", "Rome", "Actually Rome."),
            "service": services[i % 3],
        }
        for i in range(300)
    ]
    split = {str(r["id"]): split_of(f"dev:{r['dialogue_id']}") for r in rows}
    service = {str(r["id"]): str(r["service"]).split("_")[0] for r in rows}
    negs = [m for m in run("sgd_changes", rows) if m.example.family == "sgd_changes.other_dialogue"]
    assert 30 < len(negs) < 90  # about one request in OTHER_DIALOGUE_SHARE (5)
    for m in negs:
        first, second, _ = m.example.id.split(":")
        p = m.example.pair
        assert m.example.label is U
        assert service[first] != service[second]  # another kind of service: never the same slot changed
        assert split[first] == split[second] and m.group == f"dev:{first[2:]}_{first[2:]}"
        assert (p.existing.text, p.new.text) == (f"Something in Town{first[2:]}.", f"Something in Town{second[2:]}.")
        assert timedelta(days=1) <= p.new.observed_at - p.existing.observed_at < timedelta(days=402)


def test_nli_negatives_come_from_the_same_split_and_share_no_word() -> None:
    scenes = [
        "A chef slices onions in a kitchen.",
        "Two kids fly a kite on a hill.",
        "A woman paints a fence.",
        "Fishermen haul nets onto a boat.",
        "A cyclist climbs a mountain road.",
        "An old man feeds pigeons.",
    ]
    hyps = [
        "Someone is cooking.",
        "Children are outdoors.",
        "A person is painting.",
        "Men are working.",
        "A rider goes uphill.",
        "Birds are eating.",
    ]
    rows = [nli_row(f"r-{i}", a, b, "entailment") for i, (a, b) in enumerate(zip(scenes, hyps, strict=True))]
    negs = [m for m in run("oie_nli", rows) if m.example.label is U]
    assert negs
    for m in negs:
        assert m.example.family == "oie_nli.negative_easy"
        source = next(r for r in rows if r["b"] == m.example.pair.new.text)
        assert split_of(source["a"].casefold()) == split_of(m.group)
        assert m.example.pair.new.text not in {r["b"] for r in rows if r["a"].casefold() == m.group}


def test_msc_pairs_and_subjects() -> None:
    rows = [
        {"id": f"m-{i}", "utterance": u, "summary": s, "speaker": sp, "episode": "s1-test-0", "session": 1}
        for i, (u, s, sp) in enumerate(
            [
                (
                    "What car do you own? I have a jeep, a red one I restored with my father last summer.",
                    "I have a jeep.",
                    "bot_0",
                ),
                ("I love baking bread on weekends.", "I bake bread.", "bot_0"),
                ("I work as a nurse at night.", "I am a nurse.", "bot_1"),
                (
                    "My sister lives in Ohio.",
                    "My sister lives in Ohio. She is a lawyer with three kids and a farm.",
                    "bot_1",
                ),
            ]
        )
    ]
    items = by_id(run("msc_persona", rows))
    assert items["m-0:corroborates"].example.pair.existing.text.startswith("I have a jeep")
    assert items["m-0:elaborates"].example.label is E
    assert "m-3:corroborates" not in items  # the summary says more than the utterance
    assert {"msc_persona.other_topic", "msc_persona.other_speaker"} <= {m.example.family for m in items.values()}
    for m in items.values():
        pair = m.example.pair
        if m.example.family == "msc_persona.other_speaker":
            assert pair.new.subject == msc_persona.PARTNER != pair.existing.subject
        else:
            assert pair.new.subject == pair.existing.subject == "user:default"


@pytest.mark.parametrize(
    ("text", "ok"),
    [("  a  b ", "a b"), ("", None), ("x " * 60, None), ("bad\x00", None), (None, None)],
    ids=["spaces", "empty", "long", "control", "not-str"],
)
def test_clean(text: object, ok: str | None) -> None:
    assert clean(text) == ok


def test_split_of_is_stable_and_about_five_percent() -> None:
    assert [k for k in (f"group-{i}" for i in range(70)) if split_of(k) == "dev"] == [
        "group-5",
        "group-34",
        "group-66",
        "group-68",
    ]
    share = sum(split_of(str(i)) == "dev" for i in range(20000)) / 20000
    assert 0.04 < share < 0.06


def test_assign_splits_keeps_each_text_in_one_split() -> None:
    dev_g, train_g = "group-5", "group-0"
    items = [
        make(dev_g, "d", C, "x.y", ("shared text", T0), ("dev only", T0)),
        make(train_g, "t1", C, "x.y", ("shared text", T0), ("train only", T0)),
        make(train_g, "t2", C, "x.y", ("train a", T0), ("train b", T0)),
        make(train_g, "t3", C, "x.y", ("train a", T0), ("train b", T0)),
    ]
    train, dev, dropped = assign_splits(m for m in items if m is not None)
    assert [m.example.id for m in dev] == ["d"]
    assert [m.example.id for m in train] == ["t2"]
    assert dropped == 1
    assert not {t for m in train for t in texts_of(m)} & {t for m in dev for t in texts_of(m)}


def test_registry() -> None:
    assert set(SOURCES) == {
        "snli",
        "oie_nli",
        "timeqa",
        "sgd_changes",
        "prosecco",
        "sts",
        "msc_persona",
        "climate_fever",
    }
    assert PRESETS["default"] == ("snli", "oie_nli", "timeqa", "sgd_changes", "prosecco")
    assert set(PRESETS["research"]) == set(SOURCES)
    assert SOURCES["timeqa"].licence == "BSD-3-Clause"
    assert not any(n in name for name in SOURCES for n in ("sick", "situated", "mquake", "counterfact", "locomo"))


def fixture_dir(root: Path) -> Path:
    real = root / "real"
    real.mkdir()
    for source, rows, _ in CASES:
        with (real / f"{source}.jsonl").open("a", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in rows)
    (real / "msc_persona.jsonl").write_text(
        json.dumps(
            {"id": "m-0", "utterance": "I have a jeep.", "summary": "I own a jeep.", "speaker": "bot_0", "episode": "e"}
        )
        + "\n",
        encoding="utf-8",
    )
    return real


def test_builder_is_deterministic_and_readable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = fixture_dir(tmp_path)
    outs = [tmp_path / "a", tmp_path / "b"]
    for out in outs:
        assert build.main(["--real-dir", str(real), "--out", str(out), "--preset", "research"]) == 0
    files = sorted(p.name for p in outs[0].iterdir())
    assert files == sorted(p.name for p in outs[1].iterdir())
    assert len(files) == 2 * len(SOURCES) + 1
    for name in files:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    summary = json.loads((outs[0] / build.SUMMARY).read_text())
    sgd = summary["sources"]["sgd_changes"]
    assert sgd["rows_read"] == 3
    assert sum(sgd["pairs"]["train"].values()) + sum(sgd["pairs"]["dev"].values()) == 1
    timeqa = [outs[0] / f"timeqa.{split}.jsonl" for split in ("train", "dev")]
    old = [ex for path in timeqa if path.stat().st_size for ex in read_examples(path)]
    assert len(old) == 2 and all(ex.pair.existing.observed_at.year < 1970 for ex in old)  # pre-1970 dates load
    assert "sgd_changes" in capsys.readouterr().out
    assert read_examples(outs[0] / "sts.train.jsonl")[0].label in {C, U}


def test_builder_default_preset_builds_shippable_sources_only(tmp_path: Path) -> None:
    real = fixture_dir(tmp_path)
    assert build.main(["--real-dir", str(real), "--out", str(tmp_path / "o")]) == 0
    built = {p.name.split(".")[0] for p in (tmp_path / "o").glob("*.jsonl")}
    assert built == set(PRESETS["default"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--real-dir", "{tmp}/nope"], "is not a directory"),
        (["--sources", "sick"], "unknown source(s) sick; known: snli"),
        (["--sources", "sts"], "sts not in preset 'default'"),
        (["--preset", "everything"], "unknown preset 'everything'"),
        (["--sources", "snli", "--real-dir", "{tmp}"], "missing in"),
        (
            ["--sources", "prosecco", "--real-dir", "{tmp}/bad"],
            "prosecco.jsonl: line 2: is not valid JSON: Expecting property name",
        ),
    ],
    ids=["missing-dir", "unknown-source", "research-only", "unknown-preset", "missing-file", "bad-json"],
)
def test_builder_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "prosecco.jsonl").write_text(
        '{"id": "p", "a": "x", "b": "y", "label": "self-contradiction"}\n{oops\n', encoding="utf-8"
    )
    argv = ["--real-dir", str(fixture_dir(tmp_path)), "--out", str(tmp_path / "o")]
    argv += [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert build.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err


def test_ids_are_unique_per_source(all_neutral: None) -> None:
    for source, rows, _ in CASES:
        ids = [m.example.id for m in run(source, rows)]
        assert len(ids) == len(set(ids)), source


def test_prosecco_reads_a_repeated_row_once() -> None:
    assert [m.example.id for m in prosecco.examples(CASES[5][1])].count("p-2:unrelated") == 1
