"""Observing a run: audit records and, when OpenTelemetry is set up, spans.

A ``Recorder`` exists for a run when its audit is on or a tracer provider is
configured (``opentelemetry-api`` installed and an SDK provider set); otherwise the
runner never calls into this module. OpenTelemetry is imported on first use, never
when it is not installed. Span attributes carry ids, names, counts and token numbers,
never message text or a processor's reason (GenAI semantic conventions for the agent
and model-call spans).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from typing import Any

from tripwire.observe.audit import AuditRecord

_otel: Any = None  # the opentelemetry.trace module, once looked for
_looked = False


def _trace_module() -> Any:
    global _otel, _looked
    if not _looked:
        _looked = True
        if importlib.util.find_spec("opentelemetry") is not None:
            from opentelemetry import trace

            _otel = trace
    return _otel


def tracer() -> Any:
    """A tracer when OpenTelemetry is installed and a tracer provider is configured.

    Setting a provider up means importing ``opentelemetry.trace``: until a program
    has, no run looks further (and tripwire imports nothing of OpenTelemetry)."""
    if "opentelemetry.trace" not in sys.modules:
        return None
    trace = _trace_module()
    if trace is None:
        return None
    if isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        return None  # the API alone: every span would be a no-op
    from importlib.metadata import PackageNotFoundError, version

    try:
        tripwire_version = version("tripwire")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        tripwire_version = None
    return trace.get_tracer("tripwire", tripwire_version)


class Recorder:
    """The audit records (and spans) of one run."""

    # (spans only with a tracer: class defaults, so a run with the audit alone sets none)
    _run_span: Any = None
    _step_span: Any = None
    _model_span: Any = None
    _run_ended = False
    step: int | None = None

    def __init__(self, run_id: str, agent_id: str, *, keep: bool, tracer: Any) -> None:
        self._raw: list[tuple[Any, ...]] = []  # made into AuditRecords when read
        #: where the hot paths append a record themselves, as the tuple ``record``
        #: makes: ``(processor_id, hook, step, outcome, duration_ns, calls, dropped,
        #: modified, emitted, mode)``, for one hook call ``(bound_hook, step, outcome,
        #: duration_ns)``, for a step whose chunks all passed every output stage
        #: unchanged ``(stage_ids, step, chunks, the run's timings)``; None when
        #: ``record`` must be called (spans are on, or the run has ended)
        self.sink: list[tuple[Any, ...]] | None = self._raw if tracer is None else None
        self._records: list[AuditRecord] = []
        self.keep = keep
        self.tracer = tracer
        if tracer is not None:
            self._run_span = tracer.start_span(f"invoke_agent {agent_id}", attributes={
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.id": agent_id,
                "gen_ai.agent.name": agent_id,
                "tripwire.run_id": run_id,
            })

    @property
    def records(self) -> list[AuditRecord]:
        """The audit records so far (the same list, growing, as checks beside the run
        report later)."""
        raw = self._raw
        records = self._records
        if raw:
            for entry in raw:
                if len(entry) == 10:
                    pid, hook, step, outcome, ns, calls, dropped, modified, emitted, mode = entry
                    records.append(AuditRecord(pid, hook, step, outcome, ns / 1e6, calls,
                                               dropped, modified, emitted, mode))
                elif type(entry[0]) is tuple:
                    # a step whose chunks all passed every output stage unchanged:
                    # (stage ids, step, chunks, the run's timings: each stage's average
                    # time per chunk over the run, times the step's chunks)
                    ids, step, count, timings = entry
                    for i, pid in enumerate(ids):
                        timed = timings[2 * i + 1]
                        ns = timings[2 * i] * count // timed if timed else 0
                        records.append(AuditRecord(pid, "process_output_stream", step,
                                                   "passed", ns / 1e6, count, 0, 0, count,
                                                   "blocking"))
                else:  # one hook call: (bound hook, step, outcome, ns)
                    bound, step, outcome, ns = entry
                    cp = bound.cp
                    records.append(AuditRecord(cp.id, bound.hook, step, outcome, ns / 1e6,
                                               1, 0, 0, 0, cp.mode))
            raw.clear()  # the same list: ``sink`` is it
        return records

    # -- spans of the run's structure
    @property
    def span(self) -> Any:
        """The innermost open span (the step's, else the run's): processors hang their
        own spans on it through ``tracing_context.span``."""
        return self._step_span or self._run_span

    def _context(self) -> Any:
        return _otel.set_span_in_context(self.span) if self.span is not None else None

    def start_step(self, step: int | None) -> None:
        self.end_step()
        self.step = step
        if self.tracer is not None and step is not None:
            self._step_span = self.tracer.start_span(
                f"step {step}", context=_otel.set_span_in_context(self._run_span),
                attributes={"tripwire.step": step})

    def end_step(self) -> None:
        if self._step_span is not None:
            self._step_span.end()
            self._step_span = None

    def start_model_call(self, model: Any) -> None:
        if self.tracer is None:
            return
        model_id = str(getattr(model, "model_id", "?"))
        self._model_span = self.tracer.start_span(f"chat {model_id}", context=self._context(),
                                                  attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": str(getattr(model, "provider", "?")),
            "gen_ai.request.model": model_id,
        })

    def end_model_call(self, finish: dict[str, Any] | None, *, from_cache: bool,
                       error: BaseException | None = None) -> None:
        span, self._model_span = self._model_span, None
        if span is None:
            return
        span.set_attribute("tripwire.from_cache", from_cache)
        if finish:
            usage = finish.get("usage")
            if usage is not None:
                span.set_attribute("gen_ai.usage.input_tokens", int(usage.input_tokens))
                span.set_attribute("gen_ai.usage.output_tokens", int(usage.output_tokens))
            if finish.get("finish_reason"):
                span.set_attribute("gen_ai.response.finish_reasons", [finish["finish_reason"]])
        if error is not None:
            _set_error(span, error)
        span.end()

    def end_run(self, *, finish_reason: str, tripwire_by: str | None,
                error: BaseException | None) -> None:
        self._run_ended = True
        self.sink = None
        if self.tracer is None:
            return  # no spans
        self.end_step()
        if self._model_span is not None:
            self.end_model_call(None, from_cache=False, error=error)
        span, self._run_span = self._run_span, None
        if span is None:
            return
        span.set_attribute("tripwire.finish_reason", finish_reason)
        if tripwire_by is not None:
            span.set_attribute("tripwire.tripwire.processor_id", tripwire_by)
        if error is not None:
            _set_error(span, error)
        span.end()

    # -- processor invocations
    def record(self, processor_id: str, hook: str, start_ns: int, duration_ns: int,
               outcome: str, mode: str = "blocking", step: Any = ..., calls: int = 1,
               dropped: int = 0, modified: int = 0, emitted: int = 0) -> None:
        step = self.step if step is ... else step
        if self.keep:
            self._raw.append((processor_id, hook, step, outcome, duration_ns, calls, dropped,
                              modified, emitted, mode))
            if self._run_ended:  # a check beside the run, reporting after it: the result
                self.records  # holds the list, so it grows there  # noqa: B018
        if self.tracer is not None:
            attributes: dict[str, Any] = {"tripwire.processor.id": processor_id,
                                          "tripwire.hook": hook, "tripwire.outcome": outcome,
                                          "tripwire.mode": mode}
            if step is not None:
                attributes["tripwire.step"] = step
            if hook == "process_output_stream":
                attributes.update({"tripwire.calls": calls, "tripwire.chunks.dropped": dropped,
                                   "tripwire.chunks.modified": modified,
                                   "tripwire.chunks.emitted": emitted})
            span = self.tracer.start_span(f"{hook} {processor_id}", context=self._context(),
                                          start_time=start_ns, attributes=attributes)
            span.end(end_time=start_ns + duration_ns)


def wall_ns() -> int:
    """The wall clock in ns (span times are wall-clock; durations use perf_counter)."""
    return time.time_ns()


def _set_error(span: Any, error: BaseException) -> None:
    span.set_attribute("error.type", type(error).__name__)
    span.set_status(_otel.Status(_otel.StatusCode.ERROR))
