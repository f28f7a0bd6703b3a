"""What the gateway reports about itself: Prometheus metrics and the access log.

What the gateway reports about itself: Prometheus metrics (text exposition format 0.0.4,
written here: six metric families need no client library) and the access log, one JSON
line per request on the ``tripwire.serve.access`` logger, both read from the request's
``AccessRecord``.

Neither ever holds message text or a key: requests are labelled by agent, key name
and status, tripwires by processor id, failures by the error's type name.
"""

from __future__ import annotations

import bisect
import json
import logging
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import attrs

access_log = logging.getLogger("tripwire.serve.access")

#: Upper bounds (seconds) of the latency histogram's buckets.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
           30.0, 60.0)


@attrs.define
class AccessRecord:
    """What the gateway reports of one request: its access-log line (``fields``) and,
    for a chat completion, what ``Metrics.observe`` counts. Each field is written by
    the module named beside it: the request's by ``tripwire.serve._app`` (the
    middleware and the chat handler), the run's outcome by ``tripwire.serve._answer``."""

    #: when the request came (seconds since the epoch, 3 decimals), its method and
    #: path (``_app``)
    time: float
    method: str
    path: str
    #: the client API of the path (``Codec.api``: ``chat``, ``responses``, ...), None for
    #: a path of none (``_app``)
    api: str | None = None
    #: the agent asked for, once it is one of the gateway's (``_app``)
    agent: str | None = None
    #: the API key's tenant and name (``_app``)
    tenant: str | None = None
    key: str | None = None
    #: a streamed chat completion (``_app``)
    stream: bool = False
    #: a processor stopped the run; ``tripwire`` is its id (``_answer``)
    tripped: bool = False
    tripwire: str | None = None
    #: the run's usage: prompt and completion tokens (``_answer``)
    tokens: tuple[int, int] | None = None
    #: why the answer failed: the run's error's type name, ``write_timeout`` for a
    #: client that stopped reading (``_answer``)
    error: str | None = None
    #: the type name of an exception no handler caught (``_app``): the line's
    #: ``error`` when set
    unexpected: str | None = None
    #: a failed model call's upstream status, 0 when it sent none (``_answer``)
    upstream_status: int | None = None
    #: the HTTP status, 499 for a client that went away (``_app``)
    status: int | None = None
    #: the time from the request to the last byte of its response (``_app``)
    latency_ms: float = 0.0

    def failure(self) -> str | None:
        """The line's ``error``: an exception no handler caught, else the answer's."""
        return self.unexpected if self.unexpected is not None else self.error

    def fields(self) -> dict[str, Any]:
        """The access-log line's fields, in order: those of an outcome the request did
        not have are left out."""
        out: dict[str, Any] = {"time": self.time, "method": self.method, "path": self.path,
                               "api": self.api, "agent": self.agent, "tenant": self.tenant, "key": self.key,
                               "stream": self.stream}
        if self.tripped:
            out["tripwire"] = self.tripwire
        if self.tokens is not None:
            out["prompt_tokens"], out["completion_tokens"] = self.tokens
        failure = self.failure()
        if failure is not None:
            out["error"] = failure
        if self.upstream_status is not None:
            out["upstream_status"] = self.upstream_status
        out["status"] = self.status
        out["latency_ms"] = self.latency_ms
        return out


def _labels(names: tuple[str, ...], values: tuple[str, ...]) -> str:
    def escape(v: str) -> str:
        return v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')

    return ",".join(f'{n}="{escape(v)}"' for n, v in zip(names, values, strict=True))


class Metrics:
    """The gateway's counters and latency histogram."""

    def __init__(self) -> None:
        self.requests: dict[tuple[str, str, str, str], int] = defaultdict(int)
        self.tripwires: dict[tuple[str, str, str], int] = defaultdict(int)
        self.upstream_errors: dict[tuple[str, str, str], int] = defaultdict(int)
        self.errors: dict[tuple[str, str, str], int] = defaultdict(int)
        #: the latency histogram's bucket counts and sum, by ``(api, agent)``
        self.latency: dict[tuple[str, str], list[int]] = {}
        self.latency_sum: dict[tuple[str, str], float] = defaultdict(float)
        self.in_flight = 0

    def observe(self, record: AccessRecord) -> None:
        """Count one finished request from its access-log record."""
        api, agent = record.api or "", record.agent or ""
        self.requests[(api, agent, record.key or "", str(record.status))] += 1
        if record.tripwire:
            self.tripwires[(api, agent, record.tripwire)] += 1
        if record.upstream_status is not None:
            self.upstream_errors[(api, agent, str(record.upstream_status))] += 1
        failure = record.failure()
        if failure:
            self.errors[(api, agent, failure)] += 1
        seconds = record.latency_ms / 1000
        counts = self.latency.setdefault((api, agent), [0] * (len(BUCKETS) + 1))
        counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.latency_sum[(api, agent)] += seconds

    def state(self) -> dict[str, Any]:
        """Everything counted, as JSON values (what a worker tells its peers)."""
        return {
            "requests": [[*labels, n] for labels, n in self.requests.items()],
            "tripwires": [[*labels, n] for labels, n in self.tripwires.items()],
            "upstream_errors": [[*labels, n] for labels, n in self.upstream_errors.items()],
            "errors": [[*labels, n] for labels, n in self.errors.items()],
            "latency": [[*labels, counts] for labels, counts in self.latency.items()],
            "latency_sum": [[*labels, s] for labels, s in self.latency_sum.items()],
            "in_flight": self.in_flight,
        }

    def merge(self, state: dict[str, Any]) -> None:
        """Add another worker's counts (``state()``) to these."""
        for name in ("requests", "tripwires", "upstream_errors", "errors"):
            counts = getattr(self, name)
            for *labels, n in state[name]:
                counts[tuple(labels)] += n
        for api, agent, counts in state["latency"]:
            mine = self.latency.setdefault((api, agent), [0] * (len(BUCKETS) + 1))
            for i, n in enumerate(counts):
                mine[i] += n
        for api, agent, seconds in state["latency_sum"]:
            self.latency_sum[(api, agent)] += seconds
        self.in_flight += state["in_flight"]

    def render(self) -> str:
        """All metrics in the Prometheus text format."""
        lines = _counter("tripwire_serve_requests_total",
                         "Requests of the client APIs, by API, agent, key name and HTTP "
                         "status.", ("api", "agent", "key", "status"), self.requests)
        lines += [
            "# HELP tripwire_serve_request_duration_seconds Time from request to the last "
            "byte of the response.",
            "# TYPE tripwire_serve_request_duration_seconds histogram",
        ]
        for labels, counts in sorted(self.latency.items()):
            cumulative = 0.0
            label = _labels(("api", "agent"), labels)
            for bound, n in zip((*BUCKETS, float("inf")), counts, strict=True):
                cumulative += n
                le = "+Inf" if bound == float("inf") else repr(bound)
                lines.append(f'tripwire_serve_request_duration_seconds_bucket{{{label},'
                             f'le="{le}"}} {int(cumulative)}')
            lines.append(f"tripwire_serve_request_duration_seconds_sum{{{label}}} "
                         f"{self.latency_sum[labels]!r}")
            lines.append(f"tripwire_serve_request_duration_seconds_count{{{label}}} "
                         f"{int(cumulative)}")
        lines += _counter("tripwire_serve_tripwires_total",
                          "Requests a processor stopped, by API, agent and processor id.",
                          ("api", "agent", "processor"), self.tripwires)
        lines += _counter("tripwire_serve_upstream_errors_total",
                          "Failed model calls, by API, agent and upstream HTTP status (0: "
                          "no response).", ("api", "agent", "status"), self.upstream_errors)
        lines += _counter("tripwire_serve_errors_total",
                          "Requests that failed, by API, agent and error (the exception's "
                          "type name; write_timeout: a client that stopped reading), "
                          "streams that failed after they began included.",
                          ("api", "agent", "error"), self.errors)
        lines += [
            "# HELP tripwire_serve_in_flight Requests of the client APIs being served now.",
            "# TYPE tripwire_serve_in_flight gauge",
            f"tripwire_serve_in_flight {self.in_flight}",
        ]
        return "\n".join(lines) + "\n"


def _counter(name: str, help_text: str, names: tuple[str, ...],
             values: Mapping[tuple[Any, ...], int]) -> list[str]:
    """A counter's HELP and TYPE lines and one sample per label set, sorted."""
    return [f"# HELP {name} {help_text}", f"# TYPE {name} counter",
            *(f"{name}{{{_labels(names, labels)}}} {n}" for labels, n in sorted(values.items()))]


def log_access(record: AccessRecord) -> None:
    """Write one access-log line (JSON) when the logger is enabled for INFO."""
    if access_log.isEnabledFor(logging.INFO):
        access_log.info(json.dumps(record.fields(), ensure_ascii=False, separators=(",", ":")))
