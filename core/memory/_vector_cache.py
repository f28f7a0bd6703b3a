"""The SQLite store's in-process copy of stored vectors.

The SQLite store's in-process copy of stored vectors, so a recall does not read every
vector of a resource out of the file again (at 100k vectors that read is most of a
recall's time).

One entry per search filter (index, dimensions, thread, resource), least recently used
dropped first, at most ``MAX_ROWS`` vectors in all. An entry is brought up to date on
each query by reading only the rows saved since (``seq`` grows and is never reused:
``AUTOINCREMENT``). Anything that removes or replaces vectors (deleting a thread or a
resource, saving a message's vector again) bumps ``vector_generation`` in the same
transaction, and an entry of an older generation is read again whole. Other processes
writing to the file are seen the same way.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import attrs

from tripwire.memory.store import VectorHit, cosine_scores, rank, top

#: Vectors kept in memory at most, over all entries (float32: 256 dims -> 1 KiB each).
MAX_ROWS = 300_000

Key = tuple[str, int, str | None, str | None]


@attrs.define
class _Entry:
    generation: int
    last_seq: int = 0
    rows: list[tuple[str, str, bytes]] = attrs.field(factory=list)
    #: the rows as numpy matrices, in order, covering a prefix of ``rows`` (rows added
    #: since become one more matrix on the next ranking; many are merged into one)
    chunks: tuple[Any, ...] = ()


class VectorCache:
    """What ``SQLiteStore.query_vectors`` keeps between queries."""

    def __init__(self, max_rows: int = MAX_ROWS) -> None:
        self.max_rows = max_rows
        self._entries: OrderedDict[Key, _Entry] = OrderedDict()

    def since(self, key: Key, generation: int) -> int:
        """The ``seq`` after which rows must be read for ``key`` (0: all of them)."""
        entry = self._entries.get(key)
        if entry is None or entry.generation != generation:
            return 0
        return entry.last_seq

    def update(
        self, key: Key, generation: int, new: Sequence[tuple[int, str, str, bytes]]
    ) -> _Entry:
        """Add the rows read (``(seq, message_id, thread_id, vector)``, in ``seq``
        order) to the entry and return it. An entry past ``max_rows`` is returned but
        not kept."""
        entry = self._entries.get(key)
        if entry is None or entry.generation != generation:
            entry = _Entry(generation)
        if new:
            # a new list, never extended in place: a ranking running in a worker thread
            # keeps the rows (and matrix) it started with
            entry.rows = entry.rows + [(mid, tid, vec) for _, mid, tid, vec in new]
            entry.last_seq = new[-1][0]
        self._entries[key] = entry
        self._entries.move_to_end(key)
        total = sum(len(e.rows) for e in self._entries.values())
        while total > self.max_rows and self._entries:
            _, dropped = self._entries.popitem(last=False)
            total -= len(dropped.rows)
        return entry

    @staticmethod
    def rank(entry: _Entry, query: Sequence[float], top_k: int) -> list[VectorHit]:
        """``rank`` over the entry's rows, reusing the matrices built before."""
        rows, chunks = entry.rows, entry.chunks  # one consistent pair
        try:
            import numpy as np
        except ImportError:
            return rank(query, rows, top_k)
        if not rows:
            return []
        covered = sum(c.shape[0] for c in chunks)
        if covered < len(rows):
            flat = np.frombuffer(b"".join(v for _, _, v in rows[covered:]), dtype=np.float32)
            if flat.shape[0] != (len(rows) - covered) * len(query):
                raise ValueError(
                    f"stored vectors do not all have the query's {len(query)} dimensions")
            chunks = (*chunks, flat.reshape(len(rows) - covered, len(query)))
            if len(chunks) > 16:
                chunks = (np.concatenate(chunks),)
            if entry.rows is rows:
                entry.chunks = chunks
        if chunks[0].shape[1] != len(query):
            raise ValueError(f"stored vectors do not all have the query's {len(query)} dimensions")
        scores = np.concatenate([cosine_scores(query, c) for c in chunks])
        return top(rows, scores, top_k)

    def clear(self) -> None:
        self._entries.clear()
