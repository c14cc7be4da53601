"""JSON Lines: one record per output line for every line splitter; one reader of input lines and its error ladder."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_normalize_cli_error_naming_a_nel_key_stays_one_line(tmp_path, capsys) -> None:
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
        (
            '{"text": "Sam is on PST.", "subject": "user:sam',
            "line: is not valid JSON: Unterminated string starting at column 39",
        ),
        ('{"a": "cut\r\n', "line: is not valid JSON: Unterminated string starting at column 7"),
        ('{"a": "\x01"}', "line: is not valid JSON: Invalid control character at column 8"),
        ('{"a": 1} x', "line: is not valid JSON: Extra data at column 10"),
        ('{"a" 1}', "line: is not valid JSON: Expecting ':' delimiter at column 6"),
        ("[" * 3000 + "]" * 3000, "line: is nested too deeply to parse"),
        ('{"a": ' * 3000 + "1" + "}" * 3000, "line: is nested too deeply to parse"),
        (
            "1" * 5000,
            "line: is not valid JSON: Exceeds the limit (4300 digits) for integer string conversion: "
            "value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit",
        ),
        ("", "line: is blank"),
        ("  \t\r\n", "line: is blank"),
    ],
    ids=[
        "not-json",
        "unterminated-string",
        "unterminated-at-line-end",
        "control-character",
        "extra-data",
        "missing-colon",
        "deep-array",
        "deep-object",
        "long-integer",
        "empty",
        "whitespace",
    ],
)
def test_parse_json_line_errors_name_the_line(raw: str, message: str) -> None:
    from writegate.api.jsonl import parse_json_line
    from writegate.errors import InputError

    with pytest.raises(InputError) as info:
        parse_json_line(raw)
    assert str(info.value) == message
    assert info.value.field == "line"


@pytest.mark.parametrize(
    ("raw", "value"),
    [('{"id": "m1"}\n', {"id": "m1"}), ("[1, 2]", [1, 2]), (" 3 ", 3)],
    ids=["object-with-newline", "array", "number"],
)
def test_parse_json_line_returns_the_value(raw: str, value: object) -> None:
    from writegate.api.jsonl import parse_json_line

    assert parse_json_line(raw) == value


# -- the reader: a JsonLine per line, each bad one with the first rung of the ladder it fails ------

LADDER = [
    "",  # 1 blank
    "   \t",  # 2 blank
    '{"text": "caf\udcc3"}',  # 3 invalid UTF-8 (0xC3 alone, as surrogateescape keeps it)
    "{oops",  # 4 invalid JSON
    "[1, 2]",  # 5 not an object
    "null",  # 6 not an object
    '{"id": "m1"}',  # 7 good
]


def test_reader_reports_each_rung_with_its_line_number() -> None:
    from writegate.api.jsonl import JsonLineError, read_json_lines

    got = list(read_json_lines(LADDER, skip_blank=False))
    assert [(line.number, line.error.kind if line.error else None) for line in got] == [
        (1, "blank"),
        (2, "blank"),
        (3, "utf8"),
        (4, "json"),
        (5, "type"),
        (6, "type"),
        (7, None),
    ]
    assert [str(line.error) for line in got if line.error] == [
        "line: is blank",
        "line: is blank",
        "line: is not valid UTF-8: byte 0xc3 at column 14",
        "line: is not valid JSON: Expecting property name enclosed in double quotes at column 2",
        "line: must be a JSON object, got list",
        "line: must be a JSON object, got null",
    ]
    assert all(
        isinstance(line.error, JsonLineError) and line.error.field == "line" and line.value is None
        for line in got
        if line.error
    )
    assert (got[-1].ok, got[-1].value, got[-1].result()) == (True, {"id": "m1"}, {"id": "m1"})
    with pytest.raises(JsonLineError, match="is blank"):
        got[0].result()


def test_reader_skips_blank_lines_but_counts_them() -> None:
    from writegate.api.jsonl import read_json_lines

    got = list(read_json_lines(['{"a": 1}\n', "\n", "  \r\n", '{"a": 2}\r\n']))
    assert [(line.number, line.raw, line.value) for line in got] == [
        (1, '{"a": 1}', {"a": 1}),
        (4, '{"a": 2}', {"a": 2}),
    ]


def test_reader_can_keep_invalid_utf8_and_take_any_value() -> None:
    from writegate.api.jsonl import read_json_lines

    got = list(read_json_lines(LADDER[2:], objects=False, invalid_utf8="keep"))
    assert [line.value for line in got] == [{"text": "caf\udcc3"}, None, [1, 2], None, {"id": "m1"}]
    assert [line.error.kind if line.error else None for line in got] == [None, "json", None, None, None]


def test_open_lines_splits_at_newline_only_and_keeps_bad_bytes(tmp_path: Path) -> None:
    from writegate.api.jsonl import open_lines, read_json_lines

    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"a": "x\xe2\x80\xa8y"}\r\n{"a": "\xff"}\n\n{"a": 3}')  # U+2028 inside, no final newline
    assert list(open_lines(path)) == ['{"a": "x\u2028y"}', '{"a": "\udcff"}', "", '{"a": 3}']
    got = list(read_json_lines(open_lines(path)))
    assert [(line.number, line.value, str(line.error) if line.error else None) for line in got] == [
        (1, {"a": "x\u2028y"}, None),
        (2, None, "line: is not valid UTF-8: byte 0xff at column 8"),
        (4, {"a": 3}, None),
    ]


def test_open_lines_names_the_field_of_a_file_it_cannot_open(tmp_path: Path) -> None:
    from writegate.api.jsonl import open_lines
    from writegate.errors import InputError

    with pytest.raises(InputError) as info:
        open_lines(tmp_path / "nope.jsonl", field="data")  # at the call, not at the first line
    assert info.value.field == "data"
    assert info.value.message == f"cannot open {str(tmp_path / 'nope.jsonl')!r}: No such file or directory"


def test_json_line_error_survives_pickling() -> None:
    import pickle

    from writegate.api.jsonl import JsonLineError

    error = pickle.loads(pickle.dumps(JsonLineError("type", "must be a JSON object, got list")))
    assert (error.kind, error.field, error.message) == ("type", "line", "must be a JSON object, got list")
