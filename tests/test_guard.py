"""Guards: content-free text and another subject's memory never make a memory historical or in conflict."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import grpc
import numpy as np
import pytest
from server_fakes import memory, running_server

from writegate.classifier import columnar, features
from writegate.classifier.guard import GUARD_NONE, is_content_free
from writegate.classifier.labels import LABEL2ID
from writegate.classifier.model import Classifier
from writegate.classifier.review import ReviewPolicy
from writegate.classifier.types import Evidence, Pair, Side
from writegate.errors import InputError
from writegate.normalizer.api import validate_text
from writegate.server.app import load_classifier
from writegate.server.config import ServerConfig
from writegate.training.evaluate import decode_all
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

SHIPPED = Path(__file__).resolve().parents[1] / "models" / "default"
T0 = datetime(2026, 3, 1, tzinfo=UTC)
T1 = datetime(2026, 5, 2, tzinfo=UTC)

CONTENT_FREE = [
    ".",
    "null",
    "None",
    "test",
    "Testing 1 2 3",
    "lorem ipsum dolor sit amet…",
    "{}",
    "[1, 2, 3]",
    "fact number 1",
    "N/A",
    "ok thanks!",
    "🙂🙂",
    "asdfgh",
    "sdfgh jkl",
    "aaaa",
    "x",
    "???",
    "TODO: tbd",
    "It is.",
    "The user.",
    "hello world",
    "<p></p>",
    "42",
]
CONTENT = [
    "I prefer concise answers.",
    "I live in Berlin.",
    "Michelle owns the Acme account",
    "Ich wohne in Berlin",
    "The user's dog is named Biscuit",
    "prefers email",
    "NYC",
    "我住在柏林",
    "No meetings before 10am",
    "Test results came back negative",
    "My favourite number is 7",
]


@pytest.mark.parametrize("text", CONTENT_FREE, ids=CONTENT_FREE)
def test_content_free_texts(text: str) -> None:
    assert is_content_free(text)


@pytest.mark.parametrize("text", CONTENT, ids=CONTENT)
def test_texts_with_content(text: str) -> None:
    assert not is_content_free(text)


def _pair(existing: str, new: str, *, e_subject: str = "user:alice", n_subject: str = "user:alice") -> Pair:
    return Pair(
        existing=Side(text=existing, observed_at=T0, subject=e_subject),
        new=Side(text=new, observed_at=T1, subject=n_subject),
    )


@pytest.mark.parametrize(
    ("pair", "guard"),
    [
        (_pair("I live in Berlin.", "I moved to London last month."), None),
        (_pair("I live in Berlin.", "I moved to London last month.", e_subject="user:bob"), Evidence.OTHER_SUBJECT),
        (_pair("I live in Berlin.", "."), Evidence.CONTENT_FREE),
        (_pair("test", "I moved to London last month."), Evidence.CONTENT_FREE),
        (_pair("test", ".", e_subject="user:bob"), Evidence.OTHER_SUBJECT),
    ],
    ids=["same-subject-content", "other-subject", "content-free-new", "content-free-existing", "both"],
)
def test_guard_of_a_pair(tiny_model_dir: Path, pair: Pair, guard: Evidence | None) -> None:
    encoder = features.PairEncoder.from_file(tiny_model_dir / "tokenizer.json", 128)
    memories = [columnar.WindowMemory(s.text, s.observed_at, s.subject, None) for s in (pair.existing, pair.new)]
    encoded = columnar.encode_window(encoder, columnar.PairWindow(0, memories, [(0, 1)], [None]))
    assert encoded.guard.tolist() == [GUARD_NONE if guard is None else columnar.EVIDENCE.index(guard)]


@pytest.mark.parametrize(
    "text",
    ["\u200b\u200b", "\u200d \u2060", "\u3164", "\u2800\u2800", " \ufeff "],
    ids=["zero-width-space", "joiners", "hangul-filler", "braille-blank", "bom"],
)
def test_text_without_visible_content_is_refused(text: str) -> None:
    with pytest.raises(InputError) as err:
        validate_text(text, "memory.text")
    assert (
        str(err.value)
        == "memory.text: has no visible content (only whitespace, zero-width or other invisible characters)"
    )


def test_a_guard_overrides_the_model_and_fusion_in_label_and_eval() -> None:
    guards = np.array([columnar.EVIDENCE.index(Evidence.CONTENT_FREE), GUARD_NONE], dtype=np.int8)
    encoded = columnar.EncodedWindow(0, [[101, 102]] * 2, [2, 2], np.zeros(2, np.int8), guards, np.zeros(2, bool))
    prepared = columnar.batch_window(encoded, 2)
    logits = np.array([[0.0, 0, 0, 0, 9.0], [0.0, 0, 0, 0, 9.0]])  # the model says supersedes for both
    clf = Classifier.__new__(Classifier)  # label needs only these three attributes
    clf.fusion, clf.temperature, clf.review = True, 1.0, ReviewPolicy()
    guarded, plain = clf.label(prepared, [logits]).predictions()
    assert (guarded.label.value, guarded.evidence, guarded.probabilities["unrelated"]) == (
        "unrelated",
        Evidence.CONTENT_FREE,
        1.0,
    )
    assert (plain.label.value, plain.evidence) == ("supersedes", Evidence.MODEL)
    _, served, evidence = decode_all(logits, prepared, 1.0, fusion=True)
    assert served.tolist() == [LABEL2ID["unrelated"], LABEL2ID["supersedes"]]
    assert evidence == ["content_free", "model"]
    _, model_only, _ = decode_all(logits, prepared, 1.0, fusion=False, guards=False)
    assert model_only.tolist() == [LABEL2ID["supersedes"]] * 2


needs_shipped = pytest.mark.skipif(not (SHIPPED / "writegate.json").is_file(), reason="models/default is not present")
JUNK = [".", "null", "test", "lorem ipsum dolor sit amet", "{}", "fact number 1"]


@pytest.mark.slow
@needs_shipped
async def test_shipped_model_junk_and_other_subjects_change_no_role() -> None:
    config = ServerConfig(port=0, model=SHIPPED, max_wait_ms=0)
    real = [memory("c0", "I prefer concise answers.", at=T0), memory("c1", "I live in Berlin.", at=T0)]
    async with (
        running_server(loader=lambda: load_classifier(config), model=SHIPPED) as (_app, target),
        grpc.aio.insecure_channel(target) as channel,
    ):
        stub = pb_grpc.WriteGateStub(channel)
        for junk in JUNK:
            resp = await stub.PrepareWrite(
                pb.PrepareWriteRequest(memory=memory("n", junk, at=T1), candidates=real), timeout=30
            )
            assert [s.role for s in resp.candidate_states] == [pb.STATE_ROLE_CURRENT] * 2, junk
            assert [(r.label, r.evidence) for r in resp.relations] == [
                (pb.LABEL_UNRELATED, pb.EVIDENCE_CONTENT_FREE)
            ] * 2, junk
            assert (resp.new_role, list(resp.edges)) == (pb.STATE_ROLE_CURRENT, []), junk

        many = [memory(f"c{i}", f"fact number {i}", at=T0) for i in range(256)]
        resp = await stub.Classify(
            pb.ClassifyRequest(memory=memory("n", "I moved to London last month.", at=T1), candidates=many), timeout=60
        )
        assert {r.label for r in resp.relations} == {pb.LABEL_UNRELATED}

        bob = memory("b", "I live in Berlin.", subject="user:bob", at=T0)
        same = memory("a", "I live in Berlin.", at=T0)
        resp = await stub.PrepareWrite(
            pb.PrepareWriteRequest(memory=memory("n", "I moved to London last month.", at=T1), candidates=[bob, same]),
            timeout=30,
        )
        assert [s.role for s in resp.candidate_states] == [pb.STATE_ROLE_CURRENT, pb.STATE_ROLE_HISTORICAL]
        assert (resp.relations[0].label, resp.relations[0].evidence) == (pb.LABEL_UNRELATED, pb.EVIDENCE_OTHER_SUBJECT)

        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.PrepareWrite(
                pb.PrepareWriteRequest(memory=memory("n", "\u200b\u200b", at=T1), candidates=real), timeout=30
            )
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert (
            err.value.details()
            == "memory.text: has no visible content (only whitespace, zero-width or other invisible characters)"
        )
