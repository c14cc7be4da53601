"""Human renderings of records (`writegate normalize --explain`)."""

from __future__ import annotations

from functools import lru_cache

from cron_descriptor import ExpressionDescriptor, Options

from writegate.normalizer.schema import Record, RecordKind


@lru_cache(maxsize=1024)
def describe_cron(cron: str) -> str:
    """`0 9 * * 1-5` → `At 09:00, Monday through Friday` (24-hour clock)."""
    options = Options()
    options.use_24hour_time_format = True
    return ExpressionDescriptor(cron, options).get_description()


def explain(record: Record) -> str:
    """One line saying what the record means, e.g.
    `prefer: At 09:00, Monday through Friday, for 60 minutes, America/New_York`."""
    if record.kind is RecordKind.TIME_WINDOW and record.time_window is not None:
        tw = record.time_window
        zone = tw.timezone or "timezone unknown"
        return f"{tw.polarity.value}: {describe_cron(tw.cron)}, for {tw.duration_minutes} minutes, {zone}"
    if record.kind is RecordKind.TIMEZONE and record.timezone is not None:
        return f"timezone {record.timezone.timezone} ({record.provenance.kind.value})"
    if record.kind is RecordKind.ENUM and record.enum is not None:
        return f"{record.enum.attribute.value} = {record.enum.value}"
    if record.kind is RecordKind.EDGE and record.edge is not None:
        e = record.edge
        attrs = ", ".join(f"{k}={v}" for k, v in sorted(e.attributes.items()))
        return f"{e.source} --{e.type.value}--> {e.target}" + (f" ({attrs})" if attrs else "")
    return "free text (no schema matched)"
