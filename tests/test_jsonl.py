"""JSON Lines output: one record per line for every line splitter."""

from __future__ import annotations

import json

import pytest
from writegate.server.jsonl import json_line


@pytest.mark.parametrize(
    "text",
    ["plain", "Zürich ☕", "next\x85line", "line\u2028separator", "para\u2029separator", "tab\tand\nnewline\x1c"],
    ids=["ascii", "utf8-kept", "nel", "line-separator", "paragraph-separator", "c0-controls"],
)
def test_json_line_is_one_line_that_round_trips(text: str) -> None:
    line = json_line({"error": text})
    assert line.endswith("\n") and len(line.splitlines()) == 1
    assert json.loads(line) == {"error": text}


def test_json_line_keeps_utf8_readable() -> None:
    assert json_line({"t": "Zürich"}) == '{"t": "Zürich"}\n'


def test_normalize_cli_error_naming_a_nel_key_stays_one_line(tmp_path, capsys) -> None:  # noqa: ANN001
    from writegate.server.cli import main

    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"\\u0085": null}\n')
    code = main(["normalize", "--input", str(path)])
    out = capsys.readouterr().out
    assert code == 1 and len(out.splitlines()) == 1
    assert json.loads(out)["error"].startswith("line 1: ")
