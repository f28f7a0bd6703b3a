"""The storage protocol memory runs on, and how a store is named.

A store keeps four things, behind one async protocol (``MemoryStore``):

- **threads**: a conversation, owned by a resource (a user); ``updated_at`` is
  touched by every save;
- **messages**: stored in the one serialised form tripwire has
  (``tripwire.messages.serde.message_to_dict``), so a round trip is lossless for every part
  type; ordered by the order they were saved in. A message is identified by its thread
  and its id: ids come from callers, so two threads may hold the same id, each its own
  message. A thread belongs to the resource it was first saved with, and a save naming
  another resource is refused (``ThreadOwnerError``), so a stored message is, in
  effect, keyed by (resource, thread, id): one resource never changes another's;
- **working memory**: one document per key (``resource:<id>`` or ``thread:<id>``),
  changed only through ``update_working_memory(key, update)``, which applies
  ``update`` to the current text inside one transaction: concurrent updates never
  lose a write;
- **vectors**: an embedding per message (thread and id) and index, searched exactly
  (cosine) within a resource or a thread; a vector saved for one resource is never
  replaced for another.

``tripwire.memory.urls.open_store`` builds a store from its URL.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import attrs

from tripwire.messages import Message


class ThreadOwnerError(PermissionError):
    """A call or a save named a thread (or a message's vector) that belongs to another
    resource."""


def check_thread_owner(
    thread_id: str, owner: str | None, resource_id: str | None, message_id: str | None = None,
) -> None:
    """Refuse ``resource_id`` when what it would read or change belongs to ``owner``,
    another resource: the thread ``thread_id`` or, with ``message_id``, that message's
    stored vector. Nothing is refused when either is None (a call with no resource, a
    thread saved with none)."""
    if resource_id is None or owner is None or owner == resource_id:
        return
    if message_id is None:
        raise ThreadOwnerError(
            f"thread {thread_id!r} belongs to another resource than {resource_id!r}; use "
            f"a thread id of this resource")
    raise ThreadOwnerError(
        f"the vector of message {message_id!r} of thread {thread_id!r} is stored for "
        f"another resource than {resource_id!r}; use a thread id of this resource")


@attrs.frozen
class Thread:
    """One conversation: its id, its owner (``resource_id``) and when it was last saved to."""

    id: str
    resource_id: str | None
    created_at: datetime
    updated_at: datetime
    message_count: int = 0


@attrs.frozen
class VectorRow:
    """The embedding of one stored message."""

    message_id: str
    thread_id: str
    resource_id: str | None
    vector: Sequence[float]


@attrs.frozen
class VectorHit:
    """A search result: the message, its thread and its cosine similarity to the query."""

    message_id: str
    thread_id: str
    score: float


@runtime_checkable
class MemoryStore(Protocol):
    """What memory processors and the ``tripwire memory`` command need from storage."""

    url: str

    async def save_messages(
        self, thread_id: str, resource_id: str | None, messages: Sequence[Message]
    ) -> None:
        """Store ``messages`` in ``thread_id`` (created when new; a message whose id is
        stored in this thread already is replaced, one of another thread is never
        touched) and touch the thread, in one transaction. ``ThreadOwnerError``, and
        nothing saved, when the thread belongs to another resource than ``resource_id``
        (``check_thread_owner``)."""

    async def last_messages(self, thread_id: str, limit: int) -> list[Message]:
        """The last ``limit`` messages of a thread, oldest first."""

    async def messages_around(
        self, thread_id: str, message_ids: Sequence[str], before: int, after: int
    ) -> list[Message]:
        """The messages with these ids and ``before`` / ``after`` neighbours of each,
        oldest first, each once."""

    async def get_thread(self, thread_id: str) -> Thread | None: ...

    async def list_threads(self, resource_id: str | None = None) -> list[Thread]:
        """Threads, most recently updated first (only the resource's when given)."""

    async def delete_thread(self, thread_id: str) -> int:
        """Delete a thread with its messages, vectors and working memory; the number of
        messages deleted."""

    async def delete_resource(self, resource_id: str) -> int:
        """Delete every thread of a resource and the resource's working memory (the
        right to be forgotten); the number of messages deleted."""

    async def get_working_memory(self, key: str) -> str | None: ...

    async def update_working_memory(self, key: str, update: Callable[[str | None], str]) -> str:
        """Apply ``update`` to the stored text (None when there is none) and store what
        it returns, in one transaction; the stored text."""

    async def save_vectors(self, index: str, rows: Sequence[VectorRow]) -> None:
        """Store the rows in ``index``, in one transaction; a row replaces the vector of
        the same message (thread and id) only. ``ThreadOwnerError``, and nothing saved,
        when a row's thread, or the vector it would replace, belongs to another resource
        than the row's."""

    async def query_vectors(
        self, index: str, vector: Sequence[float], top_k: int, *,
        resource_id: str | None = None, thread_id: str | None = None,
    ) -> list[VectorHit]:
        """The ``top_k`` stored vectors of ``index`` most similar to ``vector`` (cosine),
        within the resource or the thread given, best first."""

    async def close(self) -> None: ...


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def rank(
    query: Sequence[float], candidates: Sequence[tuple[str, str, bytes | Sequence[float]]],
    top_k: int,
) -> list[VectorHit]:
    """Exact search: the ``top_k`` candidates ``(message_id, thread_id, vector)`` most
    similar to ``query``. Uses numpy when it is installed (float32 blobs are read
    without a copy), plain Python otherwise; both give the same order."""
    if not candidates or top_k <= 0:
        return []
    try:
        import numpy as np
    except ImportError:
        scored = [(cosine(query, _floats(v)), mid, tid) for mid, tid, v in candidates]
        scored.sort(key=lambda s: -s[0])
        return [VectorHit(mid, tid, score) for score, mid, tid in scored[:top_k]]
    dim = len(query)
    blobs = [v for _, _, v in candidates]
    if all(isinstance(v, bytes) for v in blobs):
        flat = np.frombuffer(b"".join(blobs), dtype=np.float32)  # type: ignore[arg-type]
        if flat.shape[0] != dim * len(blobs):
            raise ValueError(f"stored vectors do not all have the query's {dim} dimensions")
        matrix = flat.reshape(len(blobs), dim)
    else:
        matrix = np.asarray([_floats(v) for v in blobs], dtype=np.float32)
        if matrix.shape != (len(blobs), dim):
            raise ValueError(f"stored vectors do not all have the query's {dim} dimensions")
    return top(candidates, cosine_scores(query, matrix), top_k)


def cosine_scores(query: Sequence[float], matrix: Any) -> Any:
    """The cosine similarity of ``query`` to each row of a float32 numpy ``matrix``,
    as float64 (0 for an all-zero row or query). float32 arithmetic, except where it
    would underflow (tiny vectors), which is redone in float64."""
    import numpy as np

    q64 = np.asarray(query, dtype=np.float64)
    q_norm = float(np.sqrt(q64 @ q64))
    unit = q64 / q_norm if q_norm else q64
    dots = (matrix @ unit.astype(np.float32)).astype(np.float64)  # a tiny query stays exact
    squares = np.einsum("ij,ij->i", matrix, matrix).astype(np.float64)
    tiny = np.flatnonzero(squares < 1e-30)
    if tiny.size:
        exact = matrix[tiny].astype(np.float64)
        squares[tiny] = np.einsum("ij,ij->i", exact, exact)
        dots[tiny] = exact @ unit
    norms = np.sqrt(squares)
    return np.divide(dots, norms, out=np.zeros(len(norms), dtype=np.float64), where=norms > 0)


def top(candidates: Sequence[tuple[str, str, Any]], scores: Any, top_k: int) -> list[VectorHit]:
    """The ``top_k`` candidates by their numpy ``scores``, best first."""
    import numpy as np

    k = min(top_k, len(candidates))
    if k <= 0:
        return []
    best = np.argpartition(-scores, k - 1)[:k]
    best = best[np.argsort(-scores[best], kind="stable")]
    return [VectorHit(candidates[i][0], candidates[i][1], float(scores[i])) for i in best]


def pack(vector: Sequence[float]) -> bytes:
    """A vector as float32 bytes (how the SQLite store keeps it)."""
    import array

    return array.array("f", [float(x) for x in vector]).tobytes()


def _floats(value: bytes | Sequence[float]) -> list[float]:
    import array

    if isinstance(value, bytes | bytearray | memoryview):
        out = array.array("f")
        out.frombytes(bytes(value))
        return list(out)
    return [float(x) for x in value]


def check_vector(vector: Any, where: str) -> list[float]:
    """A vector as a list of finite floats, or a ValueError naming ``where``."""
    if isinstance(vector, str | bytes) or not isinstance(vector, Sequence) or not vector:
        raise ValueError(f"{where}: expected a non-empty list of numbers, got {vector!r:.80}")
    out = []
    for x in vector:
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            raise ValueError(f"{where}: expected finite numbers, got {x!r}")
        out.append(float(x))
    return out
