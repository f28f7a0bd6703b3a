"""``batch-parts``: merge streamed text deltas into fewer, larger chunks.

Models stream text a token or a word at a time; a client that renders or forwards
each chunk (a websocket, a server-sent-event relay, a slow terminal) pays per event.
This output processor holds ``text-delta`` chunks back and releases them merged into
one ``text-delta`` that keeps the first delta's id. The text the client receives,
and the text stored, is exactly the same; only the number of chunks changes.

A batch is released when it holds ``batch_size`` deltas; when a delta arrives
``max_wait_ms`` or more after the batch's first delta (time is checked as chunks
arrive: there is no timer, so a stalled model delays the batch); when a delta with
another id arrives; and before any other chunk (reasoning, tool call, data chunk,
``step-finish``, ``finish``), which follows the released text in the same list, so
order is preserved. A stream cut by a tripwire ends without releasing what was held:
text a guardrail stopped the run over is not sent on.
"""

from __future__ import annotations

import time
from typing import Any

from tripwire import hookimpl
from tripwire.chunks import Chunk
from tripwire.option_checks import NonNegativeInt, PositiveInt, check
from tripwire.processor import Processor


class BatchParts(Processor):
    """Batch streamed text deltas into larger chunks.

    Options:

    ``batch_size`` = ``5``
        Deltas merged into one chunk (``1`` passes every delta through as it is).
    ``max_wait_ms`` = ``None``
        When set, a batch is also released when a delta arrives this many
        milliseconds or more after the batch's first delta. ``None``: no time limit.

    Place it last among the output processors that inspect text, so they still see
    the model's own deltas (a guardrail before it sees every delta at once; one after
    it sees merged chunks).
    """

    id = "batch-parts"
    name = "Batch Parts"
    description = "Merges streamed text deltas into fewer, larger chunks."
    # Data chunks come through too, so one written mid-batch cannot overtake the text.
    process_data_parts = True

    def __init__(
        self, batch_size: PositiveInt = 5, *, max_wait_ms: NonNegativeInt | None = None
    ) -> None:
        check("batch_size", batch_size, PositiveInt, owner=self.id)
        check("max_wait_ms", max_wait_ms, NonNegativeInt | None, owner=self.id)
        self.batch_size = batch_size
        self.max_wait_ms = max_wait_ms

    def __repr__(self) -> str:
        return f"<BatchParts batch_size={self.batch_size} max_wait_ms={self.max_wait_ms}>"

    @hookimpl
    def process_output_stream(
        self, part: Chunk, state: dict[str, Any]
    ) -> Chunk | list[Chunk] | None:
        batch: _Batch | None = state.get("batch")
        if part.type != "text-delta":
            if batch is None:
                return part
            state["batch"] = None
            return [batch.merged(), part]
        if self.batch_size == 1:
            return part
        out: list[Chunk] = []
        if batch is not None and batch.id != part.payload.get("id"):
            out.append(batch.merged())
            batch = None
        now = time.monotonic()
        if batch is None:
            batch = state["batch"] = _Batch(part, now)
        else:
            batch.add(part)
        due = self.max_wait_ms is not None and (now - batch.started) * 1000 >= self.max_wait_ms
        if len(batch.chunks) >= self.batch_size or due:
            state["batch"] = None
            out.append(batch.merged())
        else:
            state["batch"] = batch
        if not out:
            return None
        return out[0] if len(out) == 1 else out


class _Batch:
    """Text deltas held back, all with one id."""

    __slots__ = ("chunks", "id", "started")

    def __init__(self, first: Chunk, started: float) -> None:
        self.chunks = [first]
        self.id = first.payload.get("id")
        self.started = started

    def add(self, chunk: Chunk) -> None:
        self.chunks.append(chunk)

    def merged(self) -> Chunk:
        first = self.chunks[0]
        if len(self.chunks) == 1:
            return first
        text = "".join(c.payload.get("text", "") for c in self.chunks)
        return first.evolve(payload={**first.payload, "text": text})
