"""The ``writer`` hooks and tools are given.

``writer.custom`` emits a ``data-*`` chunk to the client, ``writer.report`` records a
guard's verdict. The chunks wait in the output pipeline's ``pending`` until it sends
them through the output processors (all but the writer's own)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk

if TYPE_CHECKING:
    from tripwire.stream._pipeline import OutputPipeline


class Writer:
    """Lets a hook (or a tool) emit ``data-*`` chunks to the client."""

    __slots__ = ("_pipeline", "_emitter")

    def __init__(self, pipeline: OutputPipeline, emitter: str | None) -> None:
        self._pipeline = pipeline
        self._emitter = emitter

    async def custom(self, chunk: Mapping[str, Any] | Chunk) -> None:
        """Emit ``{"type": "data-...", "data": ..., "transient": bool}``.

        Transient chunks reach the client but are not stored with the message.
        """
        if isinstance(chunk, Chunk):
            out = chunk
        elif isinstance(chunk, Mapping):
            kind = chunk.get("type")
            if not isinstance(kind, str) or not kind.startswith("data-"):
                raise ValueError(
                    f"writer.custom() needs a chunk whose type starts with 'data-', got {kind!r}"
                )
            unknown = set(chunk) - {"type", "data", "transient", "id"}
            if unknown:
                raise ValueError(
                    f"writer.custom(): unknown key(s) {sorted(unknown)}; valid: type, data, "
                    f"transient, id"
                )
            payload = {"data": chunk.get("data")}
            if "id" in chunk:
                payload["id"] = chunk["id"]
            out = Chunk(kind, payload, run_id=self._pipeline.run_id,
                        transient=bool(chunk.get("transient", False)))
        else:
            raise TypeError(f"writer.custom() takes a mapping, got {type(chunk).__name__}")
        if not out.type.startswith("data-"):
            raise ValueError(f"writer.custom() only emits data-* chunks, got {out.type!r}")
        self._pipeline.pending.append((out, self._emitter))

    def report(self, verdict: Any) -> None:
        """Record a guard's ``tripwire.guards.verdicts.Verdict`` on the run's result
        (``result.verdicts``): how a guard that warns, redacts or rewrites says what it
        did (one that blocks puts ``verdict.to_metadata()`` on its tripwire instead)."""
        from tripwire.guards.verdicts import Verdict

        if not isinstance(verdict, Verdict):
            raise TypeError(f"writer.report() takes a tripwire.guards.verdicts.Verdict, got "
                            f"{type(verdict).__name__}")
        self._pipeline.verdicts.append(verdict)
