"""`writegate normalize` end to end, through the console entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from writegate.cli.main import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["normalize", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_text_prints_a_json_array(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "Sam is on PST.", "--subject", "user:sam", "--observed-at", "2026-03-02T10:00:00Z")
    assert code == 0
    records = json.loads(out)
    assert records[0]["kind"] == "timezone"
    assert records[0]["timezone"] == {"timezone": "America/Los_Angeles"}
    assert records[0]["observed_at"] == "2026-03-02T10:00:00Z"


def test_explain_renders_cron_windows(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "prefers meetings 9-10am on weekdays (EST)", "--explain", "--observed-at", "2026-03-02")
    assert code == 0
    windows = [r for r in json.loads(out) if r["kind"] == "time_window"]
    assert windows[0]["explain"] == "prefer: At 09:00, Monday through Friday, for 60 minutes, America/New_York"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["x", "--observed-at", "yesterday"], "observed_at: is not an ISO 8601"),
        (["x", "--provenance", "gossip"], "provenance: must be one of stated, inferred, imported"),
        (["x", "--subject", "sam"], "subject: must be an entity id"),
        (["   "], "text: is empty or whitespace only"),
        ([], "text: is missing"),
        (["--input", "/nonexistent/file.jsonl"], "--input: cannot open"),
    ],
    ids=["bad-date", "bad-provenance", "bad-subject", "blank-text", "no-text", "missing-file"],
)
def test_bad_arguments_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_input_file_one_output_line_per_input_line_bad_lines_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.jsonl"
    lines = [
        json.dumps({"text": "Sam reports to Grace Hopper.", "subject": "user:sam", "observed_at": "2026-03-02"}),
        "{not json",
        json.dumps({"text": "", "subject": "user:sam"}),
        json.dumps({"text": "Sam has a cat named Miso.", "observed_at": "2026-03-02"}),
        json.dumps({"text": "ok", "provenance": "gossip"}),
        json.dumps(["a list"]),
        json.dumps({"txt": "typo"}),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "--input", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert len(rows) == 7
    assert rows[0]["records"][0]["edge"]["target"] == "person:grace-hopper"
    assert rows[1]["error"].startswith("line 2: line: is not valid JSON")
    assert rows[2]["error"] == "line 3: text: is empty or whitespace only"
    assert rows[3]["records"][0]["kind"] == "text"
    assert "provenance" in rows[4]["error"] and "line 5" in rows[4]["error"]
    assert "must be a JSON object" in rows[5]["error"]
    assert rows[6]["error"] == "line 7: txt: is not a known field (text, subject, observed_at, provenance, id)"
    for number in (2, 3, 5, 6, 7):
        assert f"line {number}:" in err
    assert "5 line(s) failed" in err


def test_invalid_utf8_in_a_file_is_reported_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"text": "caf\xe9 at 9am"}\n{"text": "Sam is on PST.", "subject": "user:sam"}\n')
    code, out, err = _run(capsys, "--input", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert rows[0]["error"] == "line 1: text: contains invalid UTF-8"
    assert rows[1]["records"][0]["kind"] == "timezone"


def test_console_script_reads_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "writegate.cli.main", "normalize", "--input", "-"],
        input=b'{"text": "ping me on Slack"}\n\xff\n',
        capture_output=True,
        check=False,
        timeout=60,
    )
    rows = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert proc.returncode == 1
    assert rows[0]["records"][0]["enum"] == {"attribute": "channel", "value": "slack"}
    assert "error" in rows[1]
    assert b"line 2:" in proc.stderr


def test_input_file_every_line_answered_blank_lines_included_ids_echoed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.jsonl"
    lines = [
        b'{"id": "a", "text": "I am on PST."}',
        b"",
        b'{"id": "b", "text": ""}',
        b"   \t",
        b'{"id": 7, "text": "I am on PST."}',
        b'{"id": "c", "text": "unterminated}',
        b'{"id": "caf\xe9", "text": "I am on PST."}',
        b'{"text": "I am on PST."}',
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    code, out, err = _run(capsys, "--input", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert len(rows) == len(lines)
    assert list(rows[0]) == ["id", "records"] and rows[0]["id"] == "a"
    assert rows[0]["records"][0]["kind"] == "timezone"
    assert rows[1:7] == [
        {"error": "line 2: line: is blank", "line": 2},
        {"error": "line 3: text: is empty or whitespace only", "line": 3, "id": "b"},
        {"error": "line 4: line: is blank", "line": 4},
        {"error": "line 5: id: must be a string, got int", "line": 5},
        {"error": "line 6: line: is not valid JSON: Unterminated string starting at column 21", "line": 6},
        {"error": "line 7: id: contains invalid UTF-8", "line": 7},
    ]
    assert list(rows[7]) == ["records"]
    for number in range(2, 8):
        assert f"writegate normalize: line {number}: " in err
    assert "6 line(s) failed" in err
