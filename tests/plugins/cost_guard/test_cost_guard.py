"""cost-guard: token, step and dollar budgets per run, thread or resource; shared
budgets in a cache backend (memory, an SQLite file, a real redis-server) hold under
100 concurrent runs and across processes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import uuid

import pytest

from tripwire import (
    RESOURCE_ID_KEY,
    THREAD_ID_KEY,
    Agent,
    ConfigurationError,
    Processor,
    ProcessorError,
    hookimpl,
    tool,
)
from tripwire.caches import open_cache
from tripwire.plugins.cost_guard import CostGuard
from tripwire.testing import MockModel, MockResponse

USAGE = {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}


@tool
def lookup(q: str) -> str:
    """Look something up."""
    return "found"


def _tool_step(n: int = 0) -> MockResponse:
    return MockResponse(
        tool_calls=[{"tool_name": "lookup", "args": {"q": "x"}, "tool_call_id": f"c{n}"}],
        usage=USAGE,
    )


def _agent(guard: CostGuard, responses, *, max_steps: int = 10, **options) -> Agent:
    return Agent(
        id="budgeted",
        model=responses if isinstance(responses, MockModel) else MockModel(responses),
        tools=[lookup],
        input_processors=[guard],
        output_processors=[guard],
        max_steps=max_steps,
        default_error_processors=False,
        **options,
    )


def _ctx(resource: str | None = None, thread: str | None = None) -> dict:
    ctx = {}
    if resource:
        ctx[RESOURCE_ID_KEY] = resource
    if thread:
        ctx[THREAD_ID_KEY] = thread
    return ctx


# ------------------------------------------------------------ one run


async def test_a_run_is_stopped_before_the_step_that_would_pass_the_limit():
    guard = CostGuard(limits={"max_total_tokens": 30})
    agent = _agent(guard, [_tool_step(i) for i in range(5)])
    result = await agent.generate("go")
    assert len(agent.model.requests) == 2
    assert result.finish_reason == "other"
    assert result.tripwire.processor_id == "cost-guard"
    assert result.tripwire.reason == "Cost guard: max_total_tokens limit exceeded (30/30)"
    assert result.tripwire.retry is False
    assert result.tripwire.metadata == {
        "processor_id": "cost-guard",
        "usage": {"input_tokens": 20, "output_tokens": 10, "total_tokens": 30},
        "limit": {"max_total_tokens": 30},
        "scope": "run",
        "scope_key": None,
    }


@pytest.mark.parametrize(
    ("limits", "calls", "reason"),
    [
        ({"max_input_tokens": 25}, 3, "max_input_tokens limit exceeded (30/25)"),
        ({"max_output_tokens": 10}, 2, "max_output_tokens limit exceeded (10/10)"),
        ({"max_steps": 3}, 3, "max_steps limit exceeded (3/3)"),
        # checked in the reference's order: total first
        ({"max_steps": 1, "max_total_tokens": 15}, 1, "max_total_tokens limit exceeded (15/15)"),
    ],
)
async def test_each_limit(limits, calls, reason):
    agent = _agent(CostGuard(limits=limits), [_tool_step(i) for i in range(6)])
    result = await agent.generate("go")
    assert len(agent.model.requests) == calls
    assert result.tripwire.reason == "Cost guard: " + reason


async def test_a_custom_message_template():
    guard = CostGuard(
        limits={"max_steps": 1},
        message="Budget of {scope} spent: {usage} of {limit} ({limit_type})",
    )
    result = await _agent(guard, [_tool_step(0), _tool_step(1)]).generate("go")
    assert result.tripwire.reason == "Budget of run spent: 1 of 1 (max_steps)"


async def test_max_cost_usd_from_the_price_table():
    # 10 input tokens at $1000/M + 5 output at $2000/M = $0.02 a step
    guard = CostGuard(
        limits={"max_cost_usd": 0.03},
        prices={"mock/mock-model": {"input": 1000, "output": 2000}},
    )
    agent = _agent(guard, [_tool_step(i) for i in range(5)])
    result = await agent.generate("go")
    assert len(agent.model.requests) == 2
    assert result.tripwire.reason == "Cost guard: max_cost_usd limit exceeded (0.04/0.03)"


async def test_a_model_without_a_price_is_an_error_when_dollars_are_limited():
    guard = CostGuard(
        limits={"max_cost_usd": 1}, prices={"openai/gpt-x": {"input": 1, "output": 1}}
    )
    with pytest.raises(ProcessorError, match="no price for model 'mock/mock-model'"):
        await _agent(guard, [_tool_step(0), "done"]).generate("go")


async def test_a_wildcard_price_applies_to_every_model():
    guard = CostGuard(limits={"max_cost_usd": 0.00001}, prices={"*": {"input": 1, "output": 1}})
    result = await _agent(guard, [_tool_step(0), _tool_step(1)]).generate("go")
    assert result.tripwire.reason == "Cost guard: max_cost_usd limit exceeded (0.000015/0.00001)"


async def test_warn_lets_the_run_go_on_and_tells_on_violation_and_the_stream():
    seen = []
    guard = CostGuard(limits={"max_total_tokens": 15}, strategy="warn")
    guard.on_violation = seen.append
    agent = _agent(guard, [_tool_step(0), _tool_step(1), "done"])
    stream = agent.stream("go")
    chunks = [c async for c in stream]
    result = await stream.result
    assert result.tripwire is None and result.text == "done"
    assert [v.message for v in seen] == [
        "Cost guard: max_total_tokens limit exceeded (15/15)",
        "Cost guard: max_total_tokens limit exceeded (30/15)",
    ]
    assert seen[0].detail["usage"]["total_tokens"] == 15
    warnings = [c for c in chunks if c.type == "data-cost-guard"]
    assert len(warnings) == 1 and warnings[0].transient
    assert warnings[0].payload["data"]["limit_type"] == "max_total_tokens"


# ------------------------------------------------------------ across runs


async def test_a_resource_budget_spans_runs_and_other_resources_are_separate():
    guard = CostGuard(
        limits={"max_total_tokens": 40}, scope="resource", cache=open_cache("memory://")
    )
    user, other = f"user-{uuid.uuid4()}", f"user-{uuid.uuid4()}"
    agent = _agent(guard, MockModel([MockResponse("ok", usage=USAGE)] * 10))
    results = [await agent.generate("go", request_context=_ctx(user)) for _ in range(4)]
    assert [r.tripwire is None for r in results] == [True, True, True, False]
    assert results[3].tripwire.reason == "Cost guard: max_total_tokens limit exceeded (45/40)"
    assert results[3].tripwire.metadata["scope_key"] == f"cost-guard:resource:{user}"
    assert results[3].tripwire.metadata["usage"] == {
        "input_tokens": 30,
        "output_tokens": 15,
        "total_tokens": 45,
    }
    assert (await agent.generate("go", request_context=_ctx(other))).tripwire is None


async def test_a_thread_budget_is_per_thread():
    guard = CostGuard(limits={"max_steps": 2}, scope="thread", cache=open_cache("memory://"))
    agent = _agent(guard, MockModel([MockResponse("ok", usage=USAGE)] * 10))
    t1, t2 = str(uuid.uuid4()), str(uuid.uuid4())
    outcomes = [
        (await agent.generate("go", request_context=_ctx("u", t))).tripwire is None
        for t in (t1, t1, t1, t2)
    ]
    assert outcomes == [True, True, False, True]


async def test_a_run_without_the_scope_id_is_counted_on_its_own():
    guard = CostGuard(limits={"max_steps": 1}, scope="resource", cache=open_cache("memory://"))
    agent = _agent(guard, MockModel([MockResponse("ok", usage=USAGE)] * 4))
    assert (await agent.generate("go")).tripwire is None
    assert (await agent.generate("go")).tripwire is None


async def test_two_instances_with_the_same_memory_url_share_the_budget():
    url = "memory://?max_entries=4321"
    check_only = CostGuard(limits={"max_total_tokens": 20}, scope="resource", cache=url)
    record_only = CostGuard(limits={"max_total_tokens": 20}, scope="resource", cache=url)
    assert check_only.cache is record_only.cache


async def test_steps_are_recorded_even_when_not_in_the_output_list():
    guard = CostGuard(
        limits={"max_total_tokens": 20}, scope="resource", cache=open_cache("memory://")
    )
    agent = Agent(
        id="a",
        model=MockModel([_tool_step(0), _tool_step(1), _tool_step(2)]),
        tools=[lookup],
        input_processors=[guard],
        default_error_processors=False,
    )
    result = await agent.generate("go", request_context=_ctx("solo"))
    assert result.tripwire.reason == "Cost guard: max_total_tokens limit exceeded (30/20)"


class _RejectsEveryStep(Processor):
    id = "rejects-every-step"

    @hookimpl
    def process_output_step(self, abort):
        abort("rejected")


@pytest.mark.parametrize("streamed", [False, True])
async def test_a_step_an_earlier_output_processor_rejects_is_still_charged(streamed):
    # The model answered (and the provider billed it); an output processor before the
    # guard ended the run in process_output_step, so the guard's own never ran. A client
    # that can make the run end that way must not get answers for free.
    cache = open_cache("memory://")
    guard = CostGuard(limits={"max_total_tokens": 100}, scope="resource", cache=cache)
    agent = Agent(
        id="a",
        model=MockModel([MockResponse("an answer", usage=USAGE)]),
        input_processors=[guard],
        output_processors=[_RejectsEveryStep(), guard],
        default_error_processors=False,
    )
    ctx = _ctx(f"user-{uuid.uuid4()}")
    if streamed:
        run = agent.stream("go", request_context=ctx)
        async for _ in run:
            pass
        tripwire = run.tripwire
    else:
        tripwire = (await agent.generate("go", request_context=ctx)).tripwire
    assert tripwire.processor_id == "rejects-every-step"
    prefix = f"cost-guard:resource:{ctx[RESOURCE_ID_KEY]}"
    assert await cache.get(f"{prefix}:total_tokens") == b"15"
    assert await cache.get(f"{prefix}:steps") == b"1"


@pytest.mark.parametrize("scope", ["run", "resource"])
async def test_a_model_that_reports_no_usage_is_logged_not_silently_free(scope, caplog):
    # An OpenAI-compatible server that ignores stream_options.include_usage sends no
    # usage: every step then counts 0 tokens and a token budget is never reached. The
    # guard cannot know the spend, but it says so (once per model), instead of nothing.
    guard = CostGuard(limits={"max_total_tokens": 10}, scope=scope)
    call = {"tool_name": "lookup", "args": {"q": "x"}, "tool_call_id": "c0"}
    no_usage = MockResponse(
        tool_calls=[call], usage={"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    )
    agent = _agent(guard, [no_usage, "a", no_usage, "b"])
    with caplog.at_level("WARNING", logger="tripwire.plugins.cost_guard"):
        for _ in range(2):
            await agent.generate("go", request_context=_ctx(f"user-{uuid.uuid4()}"))
    warnings = [r.getMessage() for r in caplog.records if "reported no token usage" in r.message]
    assert len(warnings) == 1
    assert "mock" in warnings[0] and "max_total_tokens" in warnings[0]


async def test_an_answer_replayed_by_response_cache_spends_nothing():
    from tripwire.plugins.response_cache import ResponseCache

    guard = CostGuard(
        limits={"max_total_tokens": 20}, scope="resource", cache=open_cache("memory://")
    )
    model = MockModel([MockResponse("ok", usage=USAGE)] * 3)
    agent = Agent(
        id="cached",
        model=model,
        input_processors=[ResponseCache(), guard],
        output_processors=[guard],
        default_error_processors=False,
    )
    ctx = _ctx(f"user-{uuid.uuid4()}")
    results = [await agent.generate("same question", request_context=ctx) for _ in range(3)]
    assert len(model.requests) == 1
    assert [r.steps[0].from_cache for r in results] == [False, True, True]
    assert all(r.tripwire is None for r in results)  # 15 of 20: the replays were free
    assert await guard.cache.get(f"cost-guard:resource:{ctx[RESOURCE_ID_KEY]}:steps") == b"3"


async def test_a_run_scope_does_not_count_replayed_steps():
    from tripwire.plugins.response_cache import ResponseCache

    guard = CostGuard(limits={"max_total_tokens": 15})
    model = MockModel([_tool_step(0), "done"])
    agent = Agent(
        id=f"replay-{uuid.uuid4()}",
        model=model,
        tools=[lookup],
        input_processors=[ResponseCache(cache=open_cache("memory://")), guard],
        output_processors=[guard],
        default_error_processors=False,
    )
    first = await agent.generate("go")
    assert first.tripwire.reason == "Cost guard: max_total_tokens limit exceeded (15/15)"
    second = await agent.generate("go")  # the tool step is replayed: 0 tokens so far
    assert second.steps[0].from_cache and second.tripwire is None
    assert second.text == "done"


# ------------------------------------------------------------ shared budgets under load

BACKENDS = ["memory", "sqlite", "redis"]


@pytest.fixture(params=BACKENDS)
async def cache(request, tmp_path):
    if request.param == "memory":
        yield open_cache("memory://")  # a backend object: this test's own
    elif request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/budget.db"
    else:
        # generous timeouts: 100 concurrent runs on a loaded 2-core machine can wait
        # longer than the default 2 s for a connection, or for one of the pool (timeout):
        # the budget is what is tested
        url = request.getfixturevalue("redis_server").url
        yield f"{url}?socket_timeout=30&socket_connect_timeout=30&timeout=30"


async def _concurrent_runs(guard: CostGuard, runs: int, steps_each: int) -> list:
    model = MockModel([_tool_step(i) for i in range(runs * steps_each)], chunk_delay=0.0005)
    agent = _agent(guard, model, max_steps=steps_each)
    ctx = _ctx("shared-user")
    return await asyncio.gather(*(agent.generate("go", request_context=ctx) for _ in range(runs)))


async def test_100_concurrent_runs_never_take_more_steps_than_the_budget(cache):
    guard = CostGuard(limits={"max_steps": 120}, scope="resource", cache=cache)
    results = await _concurrent_runs(guard, runs=100, steps_each=3)
    assert sum(len(r.steps) for r in results) == 120  # exact: steps are reserved
    assert await guard.cache.get("cost-guard:resource:shared-user:steps") == b"120"
    # every run wanted 3 steps: the 180 beyond the budget were refused before the model
    assert all(r.tripwire.processor_id == "cost-guard" for r in results)
    await guard.cache.close()


async def test_100_concurrent_runs_overspend_tokens_by_at_most_the_steps_in_flight(cache):
    limit = 600
    guard = CostGuard(limits={"max_total_tokens": limit}, scope="resource", cache=cache)
    results = await _concurrent_runs(guard, runs=100, steps_each=3)
    spent = sum(r.usage.total_tokens for r in results)
    stored = int(await guard.cache.get("cost-guard:resource:shared-user:total_tokens"))
    assert stored == spent  # no increment lost
    assert spent >= limit
    # a run passes the check at most once after the limit is reached (its step in
    # flight then), so the overspend is at most one step per run
    assert spent - limit <= 100 * USAGE["total_tokens"]
    assert all(r.tripwire is None or r.tripwire.processor_id == "cost-guard" for r in results)
    # once the counter is past the limit, every new run is refused before its model call
    late = await _agent(guard, [_tool_step(0)]).generate("go", request_context=_ctx("shared-user"))
    assert late.tripwire is not None and not late.steps
    await guard.cache.close()


@pytest.mark.parametrize("reserve", [15, 20])
async def test_reserved_tokens_keep_100_concurrent_runs_within_the_budget(cache, reserve):
    limit = 600
    guard = CostGuard(
        limits={"max_total_tokens": limit}, scope="resource", cache=cache, reserve_tokens=reserve
    )
    results = await _concurrent_runs(guard, runs=100, steps_each=3)
    spent = sum(r.usage.total_tokens for r in results)
    assert spent <= limit  # steps are 15 tokens: a reservation of 15 or more never overruns
    # and it refused steps only when the rest of the budget was below a reservation
    assert spent > limit - reserve
    # every reservation was settled to what the steps really used
    assert (
        await guard.cache.get("cost-guard:resource:shared-user:total_tokens") == str(spent).encode()
    )
    await guard.cache.close()


_PROCESS = textwrap.dedent("""
    import asyncio, sys
    from tripwire import RESOURCE_ID_KEY, Agent
    from tripwire.plugins.cost_guard import CostGuard
    from tripwire.testing import MockModel, MockResponse

    async def main():
        guard = CostGuard(limits={"max_total_tokens": 100}, scope="resource", cache=sys.argv[1])
        model = MockModel([MockResponse("ok", usage={"input_tokens": 20, "output_tokens": 10,
                                                     "total_tokens": 30})] * 4)
        agent = Agent(id="p", model=model, input_processors=[guard], output_processors=[guard],
                      default_error_processors=False)
        for _ in range(int(sys.argv[2])):
            result = await agent.generate("go", request_context={RESOURCE_ID_KEY: "team"})
            print("blocked" if result.tripwire else "ran")
        await guard.cache.close()

    asyncio.run(main())
""")


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
async def test_two_processes_share_one_budget(kind, tmp_path, request):
    url = (
        f"sqlite:///{tmp_path}/budget.db"
        if kind == "sqlite"
        else request.getfixturevalue("redis_server").url
    )

    def run(times: int) -> list[str]:
        out = subprocess.run(
            [sys.executable, "-c", _PROCESS, url, str(times)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return out.stdout.split()

    assert run(3) == ["ran", "ran", "ran"]  # 90 of 100 tokens
    # 30 tokens of its own, and blocked: the first process's 90 count here
    assert run(2) == ["ran", "blocked"]
    assert run(1) == ["blocked"]
    cache = open_cache(url)
    assert await cache.get("cost-guard:resource:team:total_tokens") == b"120"
    await cache.close()


# ------------------------------------------------------------ options and TOML


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"limits": {}}, "at least one of max_total_tokens"),
        ({"limits": None}, "limits must be a table"),
        ({"limits": {"max_tokens": 5}}, r"unknown limit\(s\) \['max_tokens'\]"),
        ({"limits": {"max_total_tokens": 0}}, "max_total_tokens must be an integer >= 1"),
        ({"limits": {"max_steps": 2.5}}, "max_steps must be an integer >= 1"),
        ({"limits": {"max_cost_usd": 1}}, "max_cost_usd needs prices"),
        (
            {"limits": {"max_cost_usd": -1}, "prices": {"*": {"input": 1, "output": 1}}},
            "max_cost_usd must be a number",
        ),
        ({"limits": {"max_steps": 1}, "prices": {"m": {"input": 1}}}, r"prices\['m'\] must be"),
        ({"limits": {"max_steps": 1}, "scope": "user"}, "scope"),
        ({"limits": {"max_steps": 1}, "strategy": "abort"}, "strategy"),
        (
            {"limits": {"max_steps": 1}, "message": "over {budget}"},
            r"unknown placeholder\(s\) \['budget'\]",
        ),
        ({"limits": {"max_steps": 1}, "message": "over {"}, "not a valid template"),
        # accepted by the placeholder check, but they fail when formatted: at
        # construction, not mid-run (where a fail_open guard would let the step through)
        ({"limits": {"max_steps": 1}, "message": "over {limit:d}"}, "not a valid template"),
        ({"limits": {"max_steps": 1}, "message": "{usage:{bad}}"}, "not a valid template"),
        ({"limits": {"max_steps": 1}, "message": "{usage!z}"}, "not a valid template"),
        ({"limits": {"max_steps": 1}, "scope": "resource", "cache": "ftp://x"}, "ftp"),
        (
            {"limits": {"max_steps": 1}, "scope": "resource", "cache": object()},
            "lacks get, set, delete, incr",
        ),
        ({"limits": {"max_steps": 1}, "window_seconds": 0}, "window_seconds"),
        (
            {"limits": {"max_total_tokens": 9}, "scope": "resource", "reserve_tokens": -1},
            "reserve_tokens must be an integer >= 0",
        ),
        (
            {"limits": {"max_total_tokens": 9}, "reserve_tokens": 5},
            "needs limits.max_total_tokens and a thread",
        ),
        (
            {"limits": {"max_steps": 9}, "scope": "thread", "reserve_tokens": 5},
            "needs limits.max_total_tokens",
        ),
        (
            {"limits": {"max_total_tokens": 9}, "scope": "thread", "reserve_tokens": 10},
            "reserve_tokens 10 is more than limits.max_total_tokens 9",
        ),
    ],
)
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        CostGuard(**options)


async def test_built_from_toml_by_name_in_both_lists(tmp_path, only_plugins):
    only_plugins("cost-guard")
    db = tmp_path / "budget.db"
    path = tmp_path / "tripwire.toml"
    path.write_text(
        textwrap.dedent(f"""
        [agents.budgeted]
        model = "models.m"
        default_error_processors = false
        input_processors = [
          {{ use = "cost-guard", limits = {{ max_total_tokens = 40 }}, scope = "resource", cache = "sqlite:///{db}" }},
        ]
        output_processors = [
          {{ use = "cost-guard", limits = {{ max_total_tokens = 40 }}, scope = "resource", cache = "sqlite:///{db}" }},
        ]

        [models.m]
        use = "mock"
        responses = [
          {{ text = "a", usage = {{ input_tokens = 20, output_tokens = 5 }} }},
          {{ text = "b", usage = {{ input_tokens = 20, output_tokens = 5 }} }},
          {{ text = "c", usage = {{ input_tokens = 20, output_tokens = 5 }} }},
        ]
    """)
    )
    async with Agent.from_config(str(path), "budgeted") as agent:
        ctx = {RESOURCE_ID_KEY: "acme"}
        outcomes = [(await agent.generate("go", request_context=ctx)).tripwire for _ in range(3)]
    assert [t is None for t in outcomes] == [True, True, False]
    assert outcomes[2].reason == "Cost guard: max_total_tokens limit exceeded (50/40)"
