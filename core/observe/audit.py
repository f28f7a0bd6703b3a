"""The audit trail: what every processor decided in a run.

Turn it on with ``Agent(..., audit=True)`` or per call (``generate(..., audit=True)``);
``result.audit`` (``await stream.audit``) is then a list of ``AuditRecord``: one per
processor per hook invocation, and for the per-chunk hook (``process_output_stream``)
one per processor per step, with its counts; and one per MCP server whose tools the run
offered. ``format_audit(records)`` renders them as a table (``tripwire run --explain``
prints it).

Records hold ids, hooks, steps, timings, outcomes and counts, never message text or a
processor's reason: they are safe to log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

__all__ = ["OUTCOMES", "AuditRecord", "format_audit"]

#: What a processor's invocation came to.
OUTCOMES = (
    "passed",           # returned nothing, or what it was given (equal by value)
    "modified",         # returned a change: differs by value from what it was given
    "dropped",          # per-chunk: dropped chunks and changed none
    "aborted",          # called abort()
    "retry-requested",  # abort(..., retry=True), or {"retry": True} from process_api_error
    "error",            # raised: the run ended with ProcessorError
    "fail-open",        # raised, and fail_open let the input through
    "skipped-by-mode",  # process_input of a parallel/monitor processor, run beside the chain
    "cancelled",        # cancelled: the run ended, or a parallel group member aborted first
    "listed",           # an MCP server's tools the run offered (hook "tools/list")
)


@attrs.frozen
class AuditRecord:
    """One processor's invocation of one hook (per-chunk hooks: per step).

    ``step`` is None for the once-per-run hooks (``process_input``,
    ``process_output_result``) and for checks in ``parallel``/``monitor`` mode.
    ``duration_ms`` is the time spent in the processor (a wrapper's includes what it
    wraps; for ``process_output_stream`` it is estimated from one call in 32 over
    the run, so the audit stays cheap on the per-chunk path). The chunk counts are for
    ``process_output_stream``, exact.
    """

    processor_id: str
    hook: str
    step: int | None
    outcome: str
    duration_ms: float
    calls: int = 1
    chunks_dropped: int = 0
    chunks_modified: int = 0
    chunks_emitted: int = 0
    mode: str = "blocking"
    #: for an MCP listing (processor id ``"mcp:NAME"``, hook ``"tools/list"``): the
    #: names and digests of the definitions offered, refused and withheld
    #: (``tripwire.mcp``); None for a processor's record
    detail: Mapping[str, Any] | None = None


def format_audit(records: Iterable[AuditRecord]) -> str:
    """The records as a plain-text table, one line each."""
    rows = [("step", "processor", "hook", "outcome", "ms", "calls", "chunks d/m/e")]
    for r in records:
        chunks = (f"{r.chunks_dropped}/{r.chunks_modified}/{r.chunks_emitted}"
                  if r.hook == "process_output_stream" else "")
        step = "-" if r.step is None else str(r.step)
        pid = r.processor_id if r.mode == "blocking" else f"{r.processor_id} ({r.mode})"
        rows.append((step, pid, r.hook, r.outcome, f"{r.duration_ms:.3f}", str(r.calls), chunks))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
                     for row in rows)
