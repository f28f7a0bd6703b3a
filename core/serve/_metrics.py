"""What the gateway reports about itself: Prometheus metrics (text exposition
format 0.0.4, written here: six metric families need no client library) and the
access log, one JSON line per request on the ``tripwire.serve.access`` logger.

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

access_log = logging.getLogger("tripwire.serve.access")

#: Upper bounds (seconds) of the latency histogram's buckets.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
           30.0, 60.0)


def _labels(names: tuple[str, ...], values: tuple[str, ...]) -> str:
    def escape(v: str) -> str:
        return v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')

    return ",".join(f'{n}="{escape(v)}"' for n, v in zip(names, values, strict=True))


class Metrics:
    """The gateway's counters and latency histogram."""

    def __init__(self) -> None:
        self.requests: dict[tuple[str, str, str], int] = defaultdict(int)
        self.tripwires: dict[tuple[str, str], int] = defaultdict(int)
        self.upstream_errors: dict[tuple[str, str], int] = defaultdict(int)
        self.errors: dict[tuple[str, str], int] = defaultdict(int)
        self.latency: dict[str, list[int]] = {}
        self.latency_sum: dict[str, float] = defaultdict(float)
        self.in_flight = 0

    def observe(self, record: dict[str, Any]) -> None:
        """Count one finished request from its access-log record."""
        agent = record.get("agent") or ""
        self.requests[(agent, record.get("key") or "", str(record["status"]))] += 1
        if record.get("tripwire"):
            self.tripwires[(agent, record["tripwire"])] += 1
        if record.get("upstream_status") is not None:
            self.upstream_errors[(agent, str(record["upstream_status"]))] += 1
        if record.get("error"):
            self.errors[(agent, record["error"])] += 1
        seconds = record["latency_ms"] / 1000
        counts = self.latency.setdefault(agent, [0] * (len(BUCKETS) + 1))
        counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.latency_sum[agent] += seconds

    def state(self) -> dict[str, Any]:
        """Everything counted, as JSON values (what a worker tells its peers)."""
        return {
            "requests": [[*labels, n] for labels, n in self.requests.items()],
            "tripwires": [[*labels, n] for labels, n in self.tripwires.items()],
            "upstream_errors": [[*labels, n] for labels, n in self.upstream_errors.items()],
            "errors": [[*labels, n] for labels, n in self.errors.items()],
            "latency": self.latency,
            "latency_sum": dict(self.latency_sum),
            "in_flight": self.in_flight,
        }

    def merge(self, state: dict[str, Any]) -> None:
        """Add another worker's counts (``state()``) to these."""
        for name in ("requests", "tripwires", "upstream_errors", "errors"):
            counts = getattr(self, name)
            for *labels, n in state[name]:
                counts[tuple(labels)] += n
        for agent, counts in state["latency"].items():
            mine = self.latency.setdefault(agent, [0] * (len(BUCKETS) + 1))
            for i, n in enumerate(counts):
                mine[i] += n
        for agent, seconds in state["latency_sum"].items():
            self.latency_sum[agent] += seconds
        self.in_flight += state["in_flight"]

    def render(self) -> str:
        """All metrics in the Prometheus text format."""
        lines = _counter("tripwire_serve_requests_total",
                         "Chat completion requests, by agent, key name and HTTP status.",
                         ("agent", "key", "status"), self.requests)
        lines += [
            "# HELP tripwire_serve_request_duration_seconds Time from request to the last "
            "byte of the response.",
            "# TYPE tripwire_serve_request_duration_seconds histogram",
        ]
        for agent, counts in sorted(self.latency.items()):
            cumulative = 0.0
            label = _labels(("agent",), (agent,))
            for bound, n in zip((*BUCKETS, float("inf")), counts, strict=True):
                cumulative += n
                le = "+Inf" if bound == float("inf") else repr(bound)
                lines.append(f'tripwire_serve_request_duration_seconds_bucket{{{label},'
                             f'le="{le}"}} {int(cumulative)}')
            lines.append(f"tripwire_serve_request_duration_seconds_sum{{{label}}} "
                         f"{self.latency_sum[agent]!r}")
            lines.append(f"tripwire_serve_request_duration_seconds_count{{{label}}} "
                         f"{int(cumulative)}")
        lines += _counter("tripwire_serve_tripwires_total",
                          "Requests a processor stopped, by agent and processor id.",
                          ("agent", "processor"), self.tripwires)
        lines += _counter("tripwire_serve_upstream_errors_total",
                          "Failed model calls, by agent and upstream HTTP status (0: no "
                          "response).", ("agent", "status"), self.upstream_errors)
        lines += _counter("tripwire_serve_errors_total",
                          "Requests that failed, by agent and error (the exception's type "
                          "name; write_timeout: a client that stopped reading), streams "
                          "that failed after they began included.", ("agent", "error"),
                          self.errors)
        lines += [
            "# HELP tripwire_serve_in_flight Chat completion requests being served now.",
            "# TYPE tripwire_serve_in_flight gauge",
            f"tripwire_serve_in_flight {self.in_flight}",
        ]
        return "\n".join(lines) + "\n"


def _counter(name: str, help_text: str, names: tuple[str, ...],
             values: Mapping[tuple[Any, ...], int]) -> list[str]:
    """A counter's HELP and TYPE lines and one sample per label set, sorted."""
    return [f"# HELP {name} {help_text}", f"# TYPE {name} counter",
            *(f"{name}{{{_labels(names, labels)}}} {n}" for labels, n in sorted(values.items()))]


def log_access(record: dict[str, Any]) -> None:
    """Write one access-log line (JSON) when the logger is enabled for INFO."""
    if access_log.isEnabledFor(logging.INFO):
        access_log.info(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
