"""`writegate classify --input`: one output line per input line, ids echoed, errors numbered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from writegate.cli.main import main

PAIR = {
    "existing": {"text": "User works in EST", "observed_at": "2026-01-01"},
    "new": {"text": "User moved to London", "observed_at": "2026-03-01"},
}


# each input line, and the row it must get: None for a pair's label (checked below), else its error
LINES: list[tuple[str, dict[str, object] | None]] = [
    (json.dumps({"id": "p1", **PAIR}), None),
    ("", {"error": "line 2: line: is blank", "line": 2}),
    (
        json.dumps({"id": "p2", "existing": PAIR["existing"]}),
        {"error": "line 3: new: is missing", "line": 3, "id": "p2"},
    ),
    (json.dumps({"id": 3, **PAIR}), {"error": "line 4: id: must be a string, got int", "line": 4}),
    ("[" * 3000 + "]" * 3000, {"error": "line 5: line: is nested too deeply to parse", "line": 5}),
    (
        '{"id": "p6", "existing": {"text": "x}',
        {"error": "line 6: line: is not valid JSON: Unterminated string starting at column 35", "line": 6},
    ),
    ("  ", {"error": "line 7: line: is blank", "line": 7}),
    (json.dumps(PAIR), None),
]


def test_every_input_line_gets_one_output_line(
    tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(line for line, _ in LINES) + "\n", encoding="utf-8")
    code = main(["classify", "--input", str(path), "--model", str(tiny_model_dir)])
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert code == 1
    assert len(rows) == len(LINES)
    assert list(rows[0]) == ["id", "label", "scores"] and rows[0]["id"] == "p1"
    assert rows[1:7] == [row for _, row in LINES[1:7]]
    assert list(rows[7]) == ["label", "scores"]
    assert {k: v for k, v in rows[0].items() if k != "id"} == rows[7]  # same pair, same answer
    assert "writegate classify: line 2: line: is blank" in captured.err
    assert "6 line(s) failed" in captured.err
