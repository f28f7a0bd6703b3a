"""Request-scoped context handed to every hook and tool."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

import attrs

#: RequestContext key of the memory resource (user) id.
RESOURCE_ID_KEY = "tripwire__resource_id"
#: RequestContext key of the memory thread id.
THREAD_ID_KEY = "tripwire__thread_id"


class RequestContext(MutableMapping[str, Any]):
    """A mutable mapping of per-request values (``get``/``set`` like the reference).

    Pass one to ``agent.generate(..., request_context=...)``; processors and processor
    list callables receive it. A plain dict is accepted too and wrapped.
    """

    def __init__(self, values: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = dict(values or {})

    def set(self, key: str, value: Any) -> None:
        self._data[key] = value

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._data[key] = value

    def __delitem__(self, key: str) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"RequestContext({self._data!r})"

    @classmethod
    def coerce(cls, value: RequestContext | Mapping[str, Any] | None) -> RequestContext:
        if isinstance(value, RequestContext):
            return value
        if value is None or isinstance(value, Mapping):
            return cls(value)
        raise TypeError(
            f"request_context must be a RequestContext or a mapping, got {type(value).__name__}"
        )


@attrs.define
class TracingContext:
    """Identifies one run for observability: integrations hang spans on ``attributes``."""

    run_id: str
    agent_id: str
    attributes: dict[str, Any] = attrs.field(factory=dict)
    #: the current OpenTelemetry span (the step's, else the run's) when tracing is on
    #: (``opentelemetry-api`` installed and a tracer provider set), else None
    span: Any = None
