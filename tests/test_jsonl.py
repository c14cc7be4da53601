"""JSON Lines output: one record per line for every line splitter."""

from __future__ import annotations

import json

import pytest
from writegate.api.jsonl import json_line


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
    from writegate.cli.main import main

    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"\\u0085": null}\n')
    code = main(["normalize", "--input", str(path)])
    out = capsys.readouterr().out
    assert code == 1 and len(out.splitlines()) == 1
    assert json.loads(out)["error"].startswith("line 1: ")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("not json", "line: is not valid JSON: Expecting value at column 1"),
        ('{"text": "Sam is on PST.", "subject": "user:sam',
         "line: is not valid JSON: Unterminated string starting at column 39"),
        ('{"a": "cut\r\n', "line: is not valid JSON: Unterminated string starting at column 7"),
        ('{"a": "\x01"}', "line: is not valid JSON: Invalid control character at column 8"),
        ('{"a": 1} x', "line: is not valid JSON: Extra data at column 10"),
        ('{"a" 1}', "line: is not valid JSON: Expecting ':' delimiter at column 6"),
        ("[" * 3000 + "]" * 3000, "line: is nested too deeply to parse"),
        ('{"a": ' * 3000 + "1" + "}" * 3000, "line: is nested too deeply to parse"),
        ("1" * 5000, "line: is not valid JSON: Exceeds the limit (4300 digits) for integer string conversion: "
                     "value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit"),
        ("", "line: is blank"),
        ("  \t\r\n", "line: is blank"),
    ],
    ids=["not-json", "unterminated-string", "unterminated-at-line-end", "control-character", "extra-data",
         "missing-colon", "deep-array", "deep-object", "long-integer", "empty", "whitespace"],
)
def test_parse_json_line_errors_name_the_line(raw: str, message: str) -> None:
    from writegate.normalizer.errors import InputError
    from writegate.api.jsonl import parse_json_line

    with pytest.raises(InputError) as info:
        parse_json_line(raw)
    assert str(info.value) == message
    assert info.value.field == "line"


@pytest.mark.parametrize(("raw", "value"), [('{"id": "m1"}\n', {"id": "m1"}), ("[1, 2]", [1, 2]), (" 3 ", 3)],
                         ids=["object-with-newline", "array", "number"])
def test_parse_json_line_returns_the_value(raw: str, value: object) -> None:
    from writegate.api.jsonl import parse_json_line

    assert parse_json_line(raw) == value
