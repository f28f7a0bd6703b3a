"""Cache backends (tripwire.caches): one suite run against every backend, in-process
(memory://), an SQLite file and a real redis-server on loopback; then what only some
of them promise (a size bound, surviving a restart, several processes, a Redis restart),
the stored chunk format, URLs and discovery."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tripwire import Chunk, ConfigurationError, Usage
from tripwire.caches import (
    FORMAT_VERSION,
    CacheBackend,
    decode_chunks,
    encode_chunks,
    open_cache,
    schemes,
)
from tripwire.caches.memory import MemoryCache
from tripwire.caches.sqlite import SQLiteCache

BACKENDS = ["memory", "sqlite", "redis"]


@pytest.fixture(params=BACKENDS)
async def backend(request, tmp_path):
    """Each backend, opened from its URL, closed after the test."""
    if request.param == "memory":
        url = "memory://"
    elif request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/cache.db"
    else:
        url = request.getfixturevalue("redis_server").url
    cache = open_cache(url)
    yield cache
    await cache.close()


# ------------------------------------------------------------------ the protocol


async def test_backend_implements_the_protocol(backend):
    assert isinstance(backend, CacheBackend)


async def test_a_missing_key_is_none(backend):
    assert await backend.get("never-set") is None


async def test_set_then_get_returns_the_same_bytes(backend):
    value = bytes(range(256)) * 4
    await backend.set("k", value, 60)
    assert await backend.get("k") == value


async def test_set_replaces_the_old_value(backend):
    await backend.set("k", b"one", 60)
    await backend.set("k", b"two", None)
    assert await backend.get("k") == b"two"


async def test_delete_removes_a_key_and_ignores_a_missing_one(backend):
    await backend.set("k", b"v", 60)
    await backend.delete("k")
    await backend.delete("never-set")
    assert await backend.get("k") is None


async def test_an_entry_expires_after_its_ttl(backend):
    await backend.set("short", b"v", 0.2)
    await backend.set("long", b"v", 60)
    await backend.set("forever", b"v", None)
    await asyncio.sleep(0.5)
    assert await backend.get("short") is None
    assert await backend.get("long") == b"v"
    assert await backend.get("forever") == b"v"


async def test_incr_starts_at_the_amount_and_adds(backend):
    assert await backend.incr("n", 5, None) == 5
    assert await backend.incr("n", 3, None) == 8
    assert await backend.incr("n", -10, None) == -2
    assert await backend.get("n") == b"-2"


async def test_concurrent_increments_are_never_lost(backend):
    results = await asyncio.gather(*(backend.incr("n", 1, 60) for _ in range(200)))
    assert sorted(results) == list(range(1, 201))
    assert await backend.get("n") == b"200"


async def test_a_counter_keeps_the_expiry_it_was_created_with(backend):
    await backend.incr("window", 1, 0.3)
    await backend.incr("window", 1, 600)  # does not extend the window
    await asyncio.sleep(0.6)
    assert await backend.get("window") is None
    assert await backend.incr("window", 1, 600) == 1  # a new window


async def test_incr_on_a_value_that_is_not_a_counter_is_an_error(backend):
    await backend.set("text", b"hello", 60)
    with pytest.raises(ValueError, match="not a counter"):
        await backend.incr("text", 1, None)


async def test_a_counter_set_as_digits_can_be_incremented(backend):
    await backend.set("n", b"41", 60)
    assert await backend.incr("n", 1, None) == 42


@pytest.mark.parametrize("ttl", [0, -1, "60", True, float("inf"), float("nan")])
async def test_a_bad_ttl_is_an_error(backend, ttl):
    with pytest.raises(ValueError, match="ttl_seconds"):
        await backend.set("k", b"v", ttl)
    with pytest.raises(ValueError, match="ttl_seconds"):
        await backend.incr("n", 1, ttl)


async def test_a_value_that_is_not_bytes_is_an_error(backend):
    with pytest.raises(TypeError, match="bytes"):
        await backend.set("k", "text", 60)


async def test_keys_are_exact_strings(backend):
    await backend.set("a:b c/é", b"1", 60)
    await backend.set("a:b c/e", b"2", 60)
    assert await backend.get("a:b c/é") == b"1"
    assert await backend.get("a:b c/e") == b"2"


async def test_chunks_round_trip_through_the_backend(backend):
    chunks = [
        Chunk("text-delta", {"id": "t", "text": "héllo"}),
        Chunk("tool-call", {"tool_call_id": "c1", "tool_name": "f", "args": {"x": [1, 2]}}),
        Chunk("finish", {"finish_reason": "stop", "usage": Usage(3, 4, 7)}),
    ]
    await backend.set("chunks", encode_chunks(chunks), 60)
    assert decode_chunks(await backend.get("chunks")) == chunks


# ------------------------------------------------------------------ per backend


async def test_memory_cache_drops_the_least_recently_used_entry_past_its_bound():
    cache = open_cache("memory://?max_entries=2")
    await cache.set("a", b"1", None)
    await cache.set("b", b"2", None)
    await cache.get("a")  # a is now more recent than b
    await cache.set("c", b"3", None)
    assert [await cache.get(k) for k in "abc"] == [b"1", None, b"3"]
    assert len(cache) == 2


async def test_each_memory_url_is_a_cache_of_its_own():
    one, two = open_cache("memory://"), open_cache("memory://")
    await one.set("k", b"v", None)
    assert await two.get("k") is None


async def test_sqlite_cache_survives_a_restart(tmp_path):
    url = f"sqlite:///{tmp_path}/cache.db"
    first = open_cache(url)
    await first.set("k", b"kept", 60)
    await first.incr("n", 7, None)
    await first.close()
    second = open_cache(url)
    assert await second.get("k") == b"kept"
    assert await second.incr("n", 1, None) == 8
    await second.close()


_WORKER = textwrap.dedent("""
    import asyncio, sys
    from tripwire.caches import open_cache

    async def main():
        cache = open_cache(sys.argv[1])
        print("ready", flush=True)
        sys.stdin.readline()  # start together
        for _ in range(int(sys.argv[2])):
            await cache.incr("shared", 1, 600)
        await cache.set("from-" + sys.argv[3], b"hello", 600)
        print(await cache.get("from-parent"))
        await cache.close()

    asyncio.run(main())
""")


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
async def test_processes_sharing_a_cache_lose_no_increment(kind, tmp_path, request):
    url = (
        f"sqlite:///{tmp_path}/shared.db"
        if kind == "sqlite"
        else request.getfixturevalue("redis_server").url
    )
    parent = open_cache(url)
    await parent.set("from-parent", b"hi", 600)
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, url, "300", str(i)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    try:
        for w in workers:
            assert w.stdout.readline().strip() == "ready"
        for w in workers:
            w.stdin.write("go\n")
            w.stdin.flush()
        for _ in range(300):
            await parent.incr("shared", 1, 600)
        outputs = [w.communicate(timeout=120)[0] for w in workers]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
    assert [w.returncode for w in workers] == [0, 0]
    assert outputs == ["b'hi'\n", "b'hi'\n"]  # each process read what the parent wrote
    assert await parent.get("shared") == b"900"
    assert await parent.get("from-0") == await parent.get("from-1") == b"hello"
    await parent.close()


async def test_redis_cache_fails_while_the_server_is_down_and_recovers_after(redis_server):
    cache = open_cache(redis_server.url)
    await cache.set("k", b"before", 60)
    redis_server.stop()
    with pytest.raises(Exception) as raised:  # the client's ConnectionError
        await cache.get("k")
    assert (
        "connect" in type(raised.value).__name__.lower() or "connect" in str(raised.value).lower()
    )
    redis_server.start()  # same port, empty (no persistence)
    assert await cache.get("k") is None
    await cache.set("k", b"after", 60)
    assert await cache.get("k") == b"after"
    await cache.close()


async def test_redis_backend_serves_several_event_loops(redis_server):
    cache = open_cache(redis_server.url)

    async def use(value):
        await cache.set("k", value, 60)
        return await cache.get("k")

    assert await use(b"here") == b"here"
    other = await asyncio.to_thread(lambda: asyncio.run(_in_new_loop(cache)))
    assert other == b"there"
    await cache.close()


async def _in_new_loop(cache):
    await cache.set("k", b"there", 60)
    try:
        return await cache.get("k")
    finally:
        await cache.close()


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("/0?ttl=abc", r"unknown option\(s\) ttl; valid: .*db.*socket_timeout"),
        ("/0?prefix=", r"unknown option\(s\) prefix; valid: "),
        ("/0?db=x", r"\?db= must be a database number >= 0, got 'x'"),
        ("?db=-1", r"\?db= must be a database number >= 0, got '-1'"),
        ("/x", r"database in the URL's path must be a number >= 0 .*got 'x'"),
        ("/1?db=2", r"give the database once"),
        ("/0?socket_timeout=soon", r"\?socket_timeout= must be a number of seconds > 0"),
        ("/0?max_connections=0", r"\?max_connections= must be a whole number >= 1"),
        ("/0?socket_keepalive=maybe", r"\?socket_keepalive= must be true or false"),
        ("/0?ssl_cert_reqs=none", r"\?ssl_cert_reqs= is for rediss:// \(TLS\) URLs"),
    ],
)
def test_a_bad_redis_url_is_an_error_when_the_backend_is_built(redis_server, tail, message):
    # redis-py reads these at the first command (or drops them without a word); with a
    # server up, building the backend is where a bad URL must fail
    url = f"redis://127.0.0.1:{redis_server.port}{tail}"
    with pytest.raises(ConfigurationError, match=message):
        open_cache(url)


def test_a_bad_redis_url_error_hides_the_password(redis_server):
    url = f"redis://:hunter2-secret@127.0.0.1:{redis_server.port}/0?db=x"
    with pytest.raises(ConfigurationError, match=r"redis://:\*\*\*@127") as raised:
        open_cache(url)
    assert "hunter2-secret" not in str(raised.value)


async def test_redis_url_options_reach_the_client(redis_server):
    import redis.asyncio as aioredis

    cache = open_cache(
        f"redis://127.0.0.1:{redis_server.port}?db=3&client_name=tw-test&socket_timeout=5"
    )
    await cache.set("k", b"in db 3", 60)
    raw = aioredis.Redis(host="127.0.0.1", port=redis_server.port, db=3)
    try:
        assert await raw.get("k") == b"in db 3"
        assert "tw-test" in [c["name"] for c in await raw.client_list()]
    finally:
        await raw.aclose()
        await cache.close()
    assert open_cache("rediss://127.0.0.1:1/0?ssl_cert_reqs=none")  # built, not connected


# ------------------------------------------------------------------ the stored format


def test_an_entry_of_another_format_version_is_a_miss():
    chunks = [Chunk("text-delta", {"id": "t", "text": "hi"})]
    data = encode_chunks(chunks)
    assert data.startswith(b"tripwire-chunks/%d\n" % FORMAT_VERSION)
    future = data.replace(b"/%d\n" % FORMAT_VERSION, b"/%d\n" % (FORMAT_VERSION + 1), 1)
    assert decode_chunks(data) == chunks
    assert decode_chunks(future) is None


@pytest.mark.parametrize(
    "data",
    [
        None,
        b"",
        b"hello",
        b"tripwire-chunks/1\n",
        b"tripwire-chunks/1\n{not json",
        b"tripwire-chunks/1\n{}",
        b"tripwire-chunks/1\n[1, 2]",
        b"tripwire-chunks/1\n[{}]",
        json.dumps([{"type": "text-delta", "payload": {}}]).encode(),  # no header
    ],
)
def test_bytes_that_are_not_an_entry_are_a_miss(data):
    assert decode_chunks(data) is None


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(
    st.lists(
        st.builds(
            Chunk,
            st.sampled_from(["text-delta", "tool-call", "reasoning-delta", "data-x"]),
            st.dictionaries(st.text(min_size=1), _json, max_size=4),
            st.none() | st.text(),
            st.sampled_from(["AGENT", "USER"]),
            st.booleans(),
        ),
        max_size=6,
    )
)
@example([Chunk("text-delta", {"usage": {}})])  # a usage key of another chunk's payload
def test_any_json_chunks_round_trip(chunks):
    assert decode_chunks(encode_chunks(chunks)) == chunks


def test_a_payload_that_is_not_json_cannot_be_encoded():
    with pytest.raises(TypeError):
        encode_chunks([Chunk("data-x", {"data": object()})])


# ------------------------------------------------------------------ URLs and discovery


def test_tripwire_and_tripwire_redis_publish_their_backends():
    assert {"memory", "sqlite", "redis", "rediss"} <= set(schemes())


def test_open_cache_returns_a_backend_object_as_it_is():
    cache = MemoryCache()
    assert open_cache(cache) is cache


@pytest.mark.parametrize(
    ("cache", "message"),
    [
        ("nope://x", "unknown cache backend 'nope'; available: .*memory.*sqlite"),
        ("cache.db", "has no scheme; valid schemes: .*memory"),
        ("memory://?max_entrys=3", "unknown option.*max_entrys.*valid: max_entries"),
        ("memory://?max_entries=0", "max_entries must be an int >= 1"),
        ("sqlite://", "names a file"),
        ("sqlite://host/x.db", "has no host"),
        ("sqlite:////no/such/dir/x.db", "does not exist"),
        ("sqlite:///x.db?busy_timeout=soon", "busy_timeout must be a number"),
        (object(), "lacks get, set, delete, incr"),
    ],
)
def test_a_bad_cache_is_a_clear_error(cache, message):
    with pytest.raises(ConfigurationError, match=message):
        open_cache(cache)


def test_a_third_party_backend_is_found_by_its_scheme(fake_distributions):
    fake_distributions.add("tripwire-acme-cache", "2.0").entry_point(
        "acme", lambda url: MemoryCache(), group="tripwire.caches"
    )
    assert isinstance(open_cache("acme://anything"), MemoryCache)


def test_a_broken_backend_is_reported_when_used(fake_distributions):
    fake_distributions.add("tripwire-broken", "0.1").entry_point(
        "broken", ImportError("no module named acme_cache"), group="tripwire.caches"
    )
    with pytest.raises(
        ConfigurationError,
        match="cache backend 'broken' from distribution tripwire-broken 0.1.*failed to load",
    ):
        open_cache("broken://x")


def test_a_factory_that_returns_no_backend_is_an_error(fake_distributions):
    fake_distributions.add("tripwire-odd").entry_point(
        "odd", lambda url: 42, group="tripwire.caches"
    )
    with pytest.raises(ConfigurationError, match="int lacks get"):
        open_cache("odd://x")


def test_tripwire_plugins_lists_the_cache_backends(cli):
    code, out, _ = cli("plugins")
    assert code == 0
    section = out.split("Cache backends (by URL scheme):\n", 1)[1]
    assert "memory://" in section and "sqlite://" in section
    assert "redis://" in section and "tripwire-redis" in section
    code, out, _ = cli("plugins", "--json")
    caches = {c["scheme"]: c for c in json.loads(out)["caches"]}
    assert caches["redis"]["distribution"] == "tripwire-redis"
    assert caches["sqlite"]["status"] == "ok"


def test_sqlite_backend_from_url_paths():
    assert SQLiteCache.from_url("sqlite:///rel.db").path == "rel.db"
    assert SQLiteCache.from_url("sqlite:////tmp/abs.db").path == "/tmp/abs.db"


async def test_sqlite_cache_is_in_wal_mode(tmp_path):
    import sqlite3

    cache = open_cache(f"sqlite:///{tmp_path}/wal.db")
    await cache.set("k", b"v", None)
    with sqlite3.connect(tmp_path / "wal.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    await cache.close()
