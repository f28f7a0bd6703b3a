"""The memory store protocol, one suite for every store (tests/memory_stores.py):
messages round-trip losslessly, threads, deletion, working memory under concurrency,
exact vector search."""

from __future__ import annotations

import asyncio
import json
import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripwire import (
    DataPart,
    FilePart,
    Message,
    MessageContent,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
)
from tripwire.memory import VectorRow
from tripwire.memory.store import cosine
from tripwire.messages import new_id

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
json_objects = st.dictionaries(st.text(), json_values, max_size=3)
parts = st.one_of(
    st.builds(TextPart, st.text()),
    st.builds(ReasoningPart, st.text(), st.none() | json_objects),
    st.builds(ToolInvocationPart, st.builds(
        ToolInvocation, st.sampled_from(["call", "result"]), st.text(min_size=1),
        st.text(min_size=1), json_objects, json_values, st.booleans())),
    st.builds(FilePart, st.text(), st.sampled_from(["image/png", "text/plain"])),
    st.builds(StepStartPart),
    st.builds(DataPart, st.text().map(lambda s: "data-" + s), json_values),
)
times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                     timezones=st.just(UTC))
messages = st.builds(
    lambda role, ps, content, metadata, when: Message(
        id=new_id(), role=role, content=MessageContent(parts=ps, content=content,
                                                       metadata=metadata),
        created_at=when),
    st.sampled_from(["user", "assistant", "tool"]), st.lists(parts, max_size=5),
    st.none() | st.text(), st.none() | json_objects, times)


def _stamp(ms: list[Message], thread: str, resource: str | None) -> list[Message]:
    for m in ms:
        m.thread_id, m.resource_id = thread, resource
    return ms


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(messages, min_size=1, max_size=6))
async def test_every_part_type_round_trips_losslessly(make_store, batch):
    thread = new_id()
    async with make_store() as store:
        await store.save_messages(thread, "user-1", batch)
        loaded = await store.last_messages(thread, len(batch) + 5)
    assert loaded == _stamp(list(batch), thread, "user-1")


async def test_last_messages_are_the_latest_oldest_first(store):
    ms = [Message.user(f"m{i}") for i in range(7)]
    await store.save_messages("t", "r", ms[:4])
    await store.save_messages("t", "r", ms[4:])
    await store.save_messages("other", "r", [Message.user("elsewhere")])
    assert [m.text for m in await store.last_messages("t", 3)] == ["m4", "m5", "m6"]
    assert [m.text for m in await store.last_messages("t", 100)] == [f"m{i}" for i in range(7)]
    assert await store.last_messages("t", 0) == []
    assert await store.last_messages("nope", 5) == []


async def test_a_message_saved_again_is_replaced_not_duplicated(store):
    m = Message.user("draft")
    await store.save_messages("t", None, [m])
    m.content.parts = [TextPart("final")]
    await store.save_messages("t", None, [m])
    assert [x.text for x in await store.last_messages("t", 10)] == ["final"]


def _with_id(message_id: str, text: str) -> Message:
    m = Message.user(text)
    m.id = message_id  # ids come from callers: two tenants may pick the same one
    return m


async def _texts(store, thread: str) -> list[tuple[str, str, str | None, str | None]]:
    return [(m.id, m.text, m.thread_id, m.resource_id)
            for m in await store.last_messages(thread, 10)]


@pytest.mark.parametrize("alice, bob", [("alice", "bob"), ("ann", "ann"), (None, None)])
async def test_a_message_id_is_scoped_to_its_thread(store, alice, bob):
    """Saving a message (and its vector) with an id another thread holds already stores
    a message of its own: the other thread's message and vector stay as they were."""
    await store.save_messages("ta", alice, [_with_id("m1", "alice's secret")])
    await store.save_vectors("ix", [VectorRow("m1", "ta", alice, [1.0, 0.0])])
    await store.save_messages("tb", bob, [_with_id("m1", "bob's text")])
    await store.save_vectors("ix", [VectorRow("m1", "tb", bob, [0.0, 1.0])])
    assert await _texts(store, "ta") == [("m1", "alice's secret", "ta", alice)]
    assert await _texts(store, "tb") == [("m1", "bob's text", "tb", bob)]
    assert (await store.get_thread("ta")).message_count == 1
    assert [m.text for m in await store.messages_around("ta", ["m1"], 1, 1)] == \
        ["alice's secret"]
    hits = await store.query_vectors("ix", [1.0, 0.0], 5, thread_id="ta")
    assert [(h.message_id, h.thread_id, round(h.score, 6)) for h in hits] == \
        [("m1", "ta", 1.0)]
    if alice != bob:
        hits = await store.query_vectors("ix", [1.0, 0.0], 5, resource_id=alice)
        assert [(h.thread_id, round(h.score, 6)) for h in hits] == [("ta", 1.0)]
    # saved again in its own thread, a message is still replaced there only
    await store.save_messages("tb", bob, [_with_id("m1", "bob's edit")])
    await store.save_vectors("ix", [VectorRow("m1", "tb", bob, [0.0, -1.0])])
    assert await _texts(store, "tb") == [("m1", "bob's edit", "tb", bob)]
    assert await _texts(store, "ta") == [("m1", "alice's secret", "ta", alice)]
    hits = await store.query_vectors("ix", [1.0, 0.0], 5)
    assert sorted((h.thread_id, round(h.score, 6)) for h in hits) == \
        [("ta", 1.0), ("tb", 0.0)]
    # deleting one thread leaves the other's message and vector
    assert await store.delete_thread("tb") == 1
    assert await _texts(store, "ta") == [("m1", "alice's secret", "ta", alice)]
    assert [h.thread_id for h in await store.query_vectors("ix", [1.0, 0.0], 5)] == ["ta"]


async def test_a_save_into_a_thread_of_another_resource_is_refused_and_changes_nothing(store):
    from tripwire.memory import ThreadOwnerError

    await store.save_messages("t", "alice", [_with_id("m1", "alice's secret")])
    await store.save_vectors("ix", [VectorRow("m1", "t", "alice", [1.0, 0.0])])
    before = await store.get_thread("t")
    with pytest.raises(ThreadOwnerError, match="'t' belongs to another resource than 'bob'"):
        await store.save_messages("t", "bob", [_with_id("m1", "bob's text"),
                                               _with_id("m2", "more")])
    with pytest.raises(ThreadOwnerError, match="'t' belongs to another resource than 'bob'"):
        await store.save_vectors("ix", [VectorRow("m1", "t", "bob", [0.0, 1.0])])
    assert await _texts(store, "t") == [("m1", "alice's secret", "t", "alice")]
    assert await store.get_thread("t") == before
    hits = await store.query_vectors("ix", [1.0, 0.0], 5)
    assert [(h.message_id, h.thread_id, round(h.score, 6)) for h in hits] == \
        [("m1", "t", 1.0)]
    assert await store.query_vectors("ix", [1.0, 0.0], 5, resource_id="bob") == []
    # a vector indexed for another resource, in a thread not saved yet, is kept too
    await store.save_vectors("ix", [VectorRow("m9", "new", "alice", [1.0, 0.0])])
    with pytest.raises(ThreadOwnerError, match="'m9' of thread 'new'"):
        await store.save_vectors("ix", [VectorRow("m9", "new", "bob", [0.0, 1.0])])
    hits = await store.query_vectors("ix", [1.0, 0.0], 5, thread_id="new")
    assert [(h.message_id, round(h.score, 6)) for h in hits] == [("m9", 1.0)]
    # the owner (and a call with no resource, as check_owner allows) still saves there
    await store.save_messages("t", "alice", [_with_id("m2", "alice again")])
    await store.save_messages("t", None, [_with_id("m3", "no resource")])
    assert [m.text for m in await store.last_messages("t", 10)] == \
        ["alice's secret", "alice again", "no resource"]


async def test_threads_are_listed_touched_and_counted(store):
    await store.save_messages("a", "alice", [Message.user("1")])
    await store.save_messages("b", "bob", [Message.user("2"), Message.user("3")])
    first = await store.get_thread("a")
    await asyncio.sleep(0.01)
    await store.save_messages("a", "alice", [Message.user("4")])
    touched = await store.get_thread("a")
    assert touched.updated_at > first.updated_at and touched.created_at == first.created_at
    assert (touched.resource_id, touched.message_count) == ("alice", 2)
    assert [t.id for t in await store.list_threads()] == ["a", "b"]
    assert [t.id for t in await store.list_threads("bob")] == ["b"]
    assert await store.get_thread("zzz") is None


async def test_delete_thread_takes_its_messages_vectors_and_working_memory(store):
    await store.save_messages("a", "alice", [Message.user("1"), Message.user("2")])
    await store.save_messages("b", "alice", [Message.user("3")])
    await store.update_working_memory("thread:a", lambda old: "notes")
    a_id = (await store.last_messages("a", 1))[0].id
    await store.save_vectors("ix", [VectorRow(a_id, "a", "alice", [1.0, 0.0])])
    assert await store.delete_thread("a") == 2
    assert await store.get_thread("a") is None
    assert await store.last_messages("a", 10) == []
    assert await store.get_working_memory("thread:a") is None
    assert await store.query_vectors("ix", [1.0, 0.0], 4, resource_id="alice") == []
    assert [m.text for m in await store.last_messages("b", 10)] == ["3"]


async def test_delete_resource_forgets_everything_of_that_user(store):
    await store.save_messages("a", "alice", [Message.user("1")])
    await store.save_messages("b", "alice", [Message.user("2")])
    await store.save_messages("c", "bob", [Message.user("3")])
    await store.update_working_memory("resource:alice", lambda old: "alice notes")
    await store.update_working_memory("thread:a", lambda old: "thread notes")
    await store.update_working_memory("resource:bob", lambda old: "bob notes")
    bob_msg = (await store.last_messages("c", 1))[0]
    alice_msg = (await store.last_messages("a", 1))[0]
    await store.save_vectors("ix", [VectorRow(alice_msg.id, "a", "alice", [1.0, 0.0]),
                                    VectorRow(bob_msg.id, "c", "bob", [1.0, 0.0])])
    assert await store.delete_resource("alice") == 2
    assert [t.id for t in await store.list_threads()] == ["c"]
    assert await store.get_working_memory("resource:alice") is None
    assert await store.get_working_memory("thread:a") is None
    assert await store.get_working_memory("resource:bob") == "bob notes"
    assert await store.query_vectors("ix", [1.0, 0.0], 4) == \
        await store.query_vectors("ix", [1.0, 0.0], 4, resource_id="bob")
    assert len(await store.query_vectors("ix", [1.0, 0.0], 4)) == 1


async def test_concurrent_working_memory_updates_never_lose_a_write(store):
    def add(i):
        def update(old):
            data = json.loads(old) if old else {}
            data[str(i)] = i
            return json.dumps(data)
        return update

    await asyncio.gather(*(store.update_working_memory("resource:r", add(i)) for i in range(40)))
    assert json.loads(await store.get_working_memory("resource:r")) == \
        {str(i): i for i in range(40)}


async def test_a_failing_update_leaves_working_memory_as_it_was(store):
    await store.update_working_memory("k", lambda old: "kept")

    def boom(old):
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        await store.update_working_memory("k", boom)
    assert await store.get_working_memory("k") == "kept"
    await store.update_working_memory("k", lambda old: old + "!")
    assert await store.get_working_memory("k") == "kept!"


async def test_messages_around_gives_neighbours_once_in_order(store):
    ms = [Message.user(f"m{i}") for i in range(10)]
    await store.save_messages("t", None, ms)
    await store.save_messages("u", None, [Message.user("x")])
    got = await store.messages_around("t", [ms[3].id, ms[4].id, ms[9].id], 1, 1)
    assert [m.text for m in got] == ["m2", "m3", "m4", "m5", "m8", "m9"]
    assert [m.text for m in await store.messages_around("t", [ms[0].id], 2, 0)] == ["m0"]
    assert await store.messages_around("t", [], 1, 1) == []


vectors = st.lists(st.floats(-1, 1, allow_nan=False, width=32), min_size=3, max_size=3)


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(vectors, min_size=1, max_size=25), query=vectors,
       top_k=st.integers(1, 6))
async def test_vector_search_is_exact(make_store, rows, query, top_k):
    index = "ix_" + new_id()
    saved = [VectorRow(new_id(), "t1" if i % 2 else "t2", "r" if i % 3 else "s", v)
             for i, v in enumerate(rows)]
    async with make_store() as store:
        await store.save_vectors(index, saved)
        hits = await store.query_vectors(index, query, top_k, resource_id="r")
        by_thread = await store.query_vectors(index, query, 50, thread_id="t1")
    mine = [r for r in saved if r.resource_id == "r"]
    expected = sorted((cosine(query, r.vector) for r in mine), reverse=True)[:top_k]
    assert len(hits) == len(expected)
    for hit, score in zip(hits, expected, strict=True):
        assert math.isclose(hit.score, score, abs_tol=1e-4)
    assert all(h.message_id in {r.message_id for r in mine} for h in hits)
    assert {h.message_id for h in by_thread} == {r.message_id for r in saved
                                                 if r.thread_id == "t1"}


async def test_created_at_keeps_its_time_zone_and_microseconds(store):
    m = Message.user("x")
    m.created_at = datetime(2024, 2, 29, 23, 59, 59, 123456, tzinfo=UTC) + timedelta(0)
    await store.save_messages("t", None, [m])
    assert (await store.last_messages("t", 1))[0].created_at == m.created_at


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(vectors, min_size=1, max_size=30), query=vectors, top_k=st.integers(1, 8))
def test_plain_python_ranking_agrees_with_numpy(rows, query, top_k):
    import sys

    from tripwire.memory.store import pack, rank

    candidates = [(str(i), "t", pack(v)) for i, v in enumerate(rows)]
    fast = rank(query, candidates, top_k)
    numpy = sys.modules.pop("numpy")
    sys.modules["numpy"] = None  # type: ignore[assignment]  # import numpy fails
    try:
        slow = rank(query, candidates, top_k)
    finally:
        sys.modules["numpy"] = numpy
    assert len(fast) == len(slow) == min(top_k, len(rows))
    for a, b in zip(fast, slow, strict=True):
        assert math.isclose(a.score, b.score, abs_tol=1e-4)
