"""How ``tripwire run`` shows a run's chunks: as text or as NDJSON.

How ``tripwire run`` shows a run's chunks: as text on a terminal (``Renderer``) or as
one JSON object per chunk (``JSONRenderer``, NDJSON; ``chunk_json`` makes any chunk
JSON-ready)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
from collections.abc import Mapping
from typing import IO, Any

import attrs


class Renderer:
    """Writes a run's chunks to a terminal as they arrive."""

    def __init__(self, out: IO[str], err: IO[str], *, color: bool | None = None) -> None:
        self.out = out
        self.err = err
        if color is None:
            color = _isatty(out) and "NO_COLOR" not in os.environ
        self.color = color
        self.mid_line = False
        self.errors = 0
        self.last_delta: str | None = None  # text or reasoning: a switch starts a new line

    def _dim(self, text: str) -> str:
        return f"\x1b[2m{text}\x1b[0m" if self.color else text

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        if text:
            self.mid_line = not text.endswith("\n")

    def _line(self, text: str, *, to_err: bool = False) -> None:
        if self.mid_line:
            self._write("\n")
        if to_err:
            self.out.flush()
            self.err.write(text + "\n")
            self.err.flush()
        else:
            self._write(text + "\n")

    def __call__(self, chunk: Any) -> None:
        kind, p = chunk.type, chunk.payload
        if kind in ("text-delta", "reasoning-delta"):
            if self.last_delta not in (None, kind) and self.mid_line:
                self._write("\n")
            self.last_delta = kind
        if kind == "text-delta":
            self._write(p.get("text", ""))
        elif kind == "reasoning-delta":
            self._write(self._dim(p.get("text", "")))
        elif kind == "tool-call":
            self._line(f"[tool-call] {p.get('tool_name')} {_compact(p.get('args'))}")
        elif kind == "tool-result":
            self._line(f"[tool-result] {p.get('tool_name')}: {_compact(p.get('result'))}")
        elif kind == "tool-error":
            self._line(f"[tool-error] {p.get('tool_name')}: {_error_message(p.get('error'))}")
        elif kind == "tripwire":
            retry = " (retry requested)" if p.get("retry") else ""
            self._line(f"[tripwire] {p.get('processor_id')}: {p.get('reason')}{retry}", to_err=True)
        elif kind == "error":
            self.errors += 1
            self._line(f"[error] {_error_message(p.get('error'))}", to_err=True)
        elif kind == "step-retry":
            self._line(self._dim(
                f"[retry] {p.get('processor_id')}: {p.get('reason')} "
                f"(retry {p.get('retry_count')})"
            ))
        elif kind == "object-result":
            self._line(f"[object] {_compact(p.get('object'), limit=2000)}")
        elif kind.startswith("data-"):
            self._line(self._dim(f"[{kind}] {_compact(p)}"))

    def end(self) -> None:
        if self.mid_line:
            self._write("\n")


class JSONRenderer:
    """Writes each chunk as one JSON object on its own line (NDJSON):
    ``{"type", "payload", "run_id", "source", "transient"}``."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.errors = 0

    def __call__(self, chunk: Any) -> None:
        if chunk.type == "error":
            self.errors += 1
        self.out.write(json.dumps(chunk_json(chunk), ensure_ascii=False) + "\n")
        self.out.flush()

    def end(self) -> None:
        pass


def chunk_json(chunk: Any) -> dict[str, Any]:
    """A chunk as a JSON-ready dict, whatever its payload holds: attrs objects through
    tripwire's cattrs converter, exceptions as ``"Type: message"``, dataclasses and
    pydantic models as their fields, sets and tuples as lists, anything else as text."""
    from tripwire.messages.serde import chunk_to_dict

    return _jsonable(chunk_to_dict(chunk))  # type: ignore[no-any-return]


def _jsonable(value: Any) -> Any:
    from tripwire.messages.serde import converter

    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, BaseException):
        return _error_message(value)
    if attrs.has(type(value)):
        return _jsonable(converter.unstructure(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    dump = getattr(value, "model_dump", None)  # pydantic
    if callable(dump):
        with contextlib.suppress(Exception):
            return _jsonable(dump(mode="json"))
    if isinstance(value, bytes | bytearray):
        return _jsonable(converter.unstructure(bytes(value)))
    return str(value)


def _error_message(error: Any) -> str:
    if isinstance(error, BaseException):
        return f"{type(error).__name__}: {error}"
    return str(error)


def _compact(value: Any, limit: int = 200) -> str:
    text = json.dumps(_jsonable(value), ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
