"""The soak's tables: per fault kind, and the end checks."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence

from bench.chaos.clients import Stream
from bench.chaos.faults import KINDS, Fault
from bench.chaos.verdict import Verdict

ENDINGS = ("SUCCESS", "FALLBACK", "FAILED", "CANCELLED", "cut", "refused")


def ending(stream: Stream) -> str:
    if stream.refused is not None:
        return "refused"
    if stream.cut:
        return "cut"
    return stream.outcome or "no done"


def affected(fault: Fault, streams: Sequence[Stream]) -> list[Stream]:
    """The streams in flight between the injection and the recovery that did not end SUCCESS."""
    end = fault.recovered if fault.recovered is not None else fault.at
    return [s for s in streams if s.overlaps(fault.at, end) and ending(s) != "SUCCESS"]


def fault_rows(faults: Sequence[Fault], streams: Sequence[Stream]) -> list[dict[str, object]]:
    rows = []
    for kind in KINDS:
        of_kind = [f for f in faults if f.kind == kind]
        hit = {id(s): s for f in of_kind for s in affected(f, streams)}
        endings = Counter(f"{ending(s)} {s.code}" if s.code else ending(s) for s in hit.values())
        times = [f.recovery_s for f in of_kind if f.recovery_s is not None]
        rows.append(
            {
                "kind": kind,
                "injected": len(of_kind),
                "affected": len(hit),
                "ended": dict(endings),
                "recovery_p50_s": round(statistics.median(times), 1) if times else None,
                "recovery_max_s": round(max(times), 1) if times else None,
                "unrecovered": len(of_kind) - len(times),
            }
        )
    return rows


def _by_ending(item: tuple[str, int]) -> tuple[int, str]:
    name = item[0].split(" ")[0]
    return (ENDINGS.index(name) if name in ENDINGS else len(ENDINGS), item[0])


def _seconds(value: object) -> str:
    return "-" if value is None else f"{value:.1f} s"


def print_faults(rows: Sequence[dict[str, object]]) -> None:
    print(f"\n{'fault':<18} {'injected':>8} {'affected':>8}  {'how the affected runs ended':<60} {'recovery p50':>12} "
          f"{'max':>8}")  # fmt: skip
    for row in rows:
        ended = row["ended"]
        assert isinstance(ended, dict)
        how = ", ".join(f"{count} {e}" for e, count in sorted(ended.items(), key=_by_ending)) or "-"
        print(
            f"{row['kind']:<18} {row['injected']:>8} {row['affected']:>8}  {how:<60} "
            f"{_seconds(row['recovery_p50_s']):>12} {_seconds(row['recovery_max_s']):>8}"
        )


def print_verdict(verdict: Verdict, streams: Sequence[Stream]) -> None:
    endings = Counter(ending(s) for s in streams)
    print(
        f"\n{verdict.streams} requests: " + ", ".join(f"{endings[e]} {e}" for e in (*ENDINGS, "no done") if endings[e])
    )
    for name, count in verdict.failures().items():
        print(f"  {name:<34} {count}")
    print(f"  {'(tool rows a killed supervisor took)':<34} {len(verdict.lost_with_supervisor)}")
    for title, (count, worst, late) in sorted(verdict.memory.items()):
        print(
            f"  memory {title:<27} {count} process(es) alive warm-up → end, worst growth {worst:+.1f} MB "
            f"({late:+.1f} MB in the second half)"
        )
    details = [
        *verdict.without_done, *verdict.malformed, *verdict.lost_runs, *verdict.not_terminal, *verdict.mismatched,
        *verdict.lost_tool_rows, *verdict.doubled_rows, *verdict.leaks, *verdict.memory_grew, *verdict.unrecovered,
    ]  # fmt: skip
    for line in details[:40]:
        print(f"    {line}")
    print("\nPASS" if verdict.ok else "\nFAIL")
