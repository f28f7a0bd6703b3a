"""Processor groups: sequence, parallel and branch, through real agent runs."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.helpers import user_text
from tripwire import (
    Agent,
    Processor,
    ProcessorError,
    ProcessorValidationError,
    TextPart,
    branch,
    hookimpl,
    parallel,
    sequence,
)


class Append(Processor):
    """Appends a suffix to the last user message in process_input."""

    def __init__(self, pid: str, suffix: str, log: list | None = None):
        self.id = pid
        self.suffix = suffix
        self.log = log if log is not None else []

    @hookimpl
    async def process_input(self, messages):
        self.log.append(("start", self.id))
        await asyncio.sleep(0)
        last = messages[-1]
        last.content.parts = [TextPart(last.text + self.suffix)]
        self.log.append(("end", self.id))
        return messages


class Guard(Processor):
    def __init__(self, pid: str, word: str, *, delay: float = 0, log: list | None = None):
        self.id = pid
        self.word = word
        self.delay = delay
        self.log = log if log is not None else []

    @hookimpl
    async def process_input(self, messages, abort):
        try:
            await asyncio.sleep(self.delay)
            if any(self.word in m.text for m in messages):
                abort(f"{self.id} found {self.word}")
        except asyncio.CancelledError:
            self.log.append(("cancelled", self.id))
            raise


class Rendezvous(Processor):
    """Two of these only finish when both run at the same time."""

    def __init__(self, pid: str, mine: asyncio.Event, other: asyncio.Event):
        self.id = pid
        self.mine = mine
        self.other = other

    @hookimpl
    async def process_input(self):
        self.mine.set()
        await self.other.wait()


# ---------------------------------------------------------------- sequence


async def test_a_sequence_runs_its_members_in_order_like_listing_them(make_bare_agent):
    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[
        sequence(Append("a", "-a", log), Append("b", "-b", log), id="chain")])
    await agent.generate("hi")
    assert user_text(agent.model) == ["hi-a-b"]
    assert log == [("start", "a"), ("end", "a"), ("start", "b"), ("end", "b")]


async def test_a_tripwire_inside_a_group_keeps_the_members_id(make_bare_agent):
    agent = make_bare_agent(["ok"], input_processors=[
        sequence(Append("a", "!"), Guard("guard", "hi"), id="chain")])
    result = await agent.generate("hi")
    assert result.tripwire.processor_id == "guard"


# ---------------------------------------------------------------- parallel


async def test_parallel_members_run_concurrently(make_bare_agent):
    a, b = asyncio.Event(), asyncio.Event()
    agent = make_bare_agent(["ok"], input_processors=[
        parallel(Rendezvous("a", a, b), Rendezvous("b", b, a), id="both")])
    # In sequence the first would wait for the second forever; the timeout only turns
    # that deadlock into a failure.
    result = await asyncio.wait_for(agent.generate("hi"), timeout=10)
    assert result.text == "ok"


async def test_parallel_changes_are_applied_in_list_order_once_all_have_passed(make_bare_agent):
    class SetSystem(Processor):
        id = "system"

        @hookimpl
        def process_input(self, system_messages):
            return {"system_messages": [*system_messages, "Be brief."]}

    agent = make_bare_agent(["ok"],
                            input_processors=[parallel(Append("a", "-a"), SetSystem(), id="g")])
    await agent.generate("hi")
    prompt = agent.model.requests[0].prompt
    assert prompt[0] == {"role": "system", "content": "Be brief."}
    assert user_text(agent.model) == ["hi-a"]


async def test_two_members_changing_the_same_message_is_an_error_naming_both(make_bare_agent):
    agent = make_bare_agent(["ok"], input_processors=[
        parallel(Append("a", "-a"), Append("b", "-b"), id="g")])
    with pytest.raises(ProcessorError, match=r"members 'a' and 'b' of parallel group 'g' both "
                                             r"changed message") as info:
        await agent.generate("hi")
    assert info.value.processor_id == "g"


async def test_select_applies_only_the_chosen_members_changes(make_bare_agent):
    agent = make_bare_agent(["ok"], input_processors=[
        parallel(Append("a", "-a"), Append("b", "-b"), id="g", select="b")])
    await agent.generate("hi")
    assert user_text(agent.model) == ["hi-b"]


class Gated(Processor):
    """Waits for ``gate`` (if given), lets the loop turn a few times (so whatever the
    group does about an abort elsewhere has happened), then aborts when ``aborts``,
    else passes; sets ``done`` when it finished, logs a cancellation."""

    def __init__(self, pid: str, *, aborts: bool, gate: asyncio.Event | None = None,
                 log: list | None = None):
        self.id = pid
        self.aborts = aborts
        self.gate = gate
        self.done = asyncio.Event()
        self.log = log if log is not None else []

    @hookimpl
    async def process_input(self, abort):
        try:
            if self.gate is not None:
                await self.gate.wait()
                for _ in range(20):
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            self.log.append(("cancelled", self.id))
            raise
        self.done.set()
        if self.aborts:
            abort(f"{self.id} aborted")


async def test_the_first_member_in_list_order_that_aborted_wins_whatever_the_timing(
    make_bare_agent,
):
    # "second" aborts first in time; "first" aborts only after it (it waits for that):
    # the earlier member in the list ends the run all the same.
    second = Gated("second", aborts=True)
    first = Gated("first", aborts=True, gate=second.done)
    agent = make_bare_agent(["ok"], input_processors=[parallel(first, second, id="g")])
    result = await asyncio.wait_for(agent.generate("hi", audit=True), timeout=10)
    assert result.tripwire.processor_id == "first"
    assert result.tripwire.reason == "first aborted"
    assert agent.model.requests == []
    outcomes = {r.processor_id: r.outcome for r in result.audit}
    assert outcomes == {"first": "aborted", "second": "aborted"}


async def test_a_later_abort_waits_for_the_earlier_members_and_cancels_the_rest(
    make_bare_agent,
):
    log: list = []
    release, never = asyncio.Event(), asyncio.Event()
    first = Gated("first", aborts=False, gate=release, log=log)
    second = Gated("second", aborts=True, log=log)
    third = Gated("third", aborts=True, gate=never, log=log)
    agent = make_bare_agent(["ok"], input_processors=[
        parallel(first, second, third, id="g")])
    run = asyncio.ensure_future(agent.generate("hi", audit=True))
    await asyncio.wait_for(second.done.wait(), timeout=10)
    for _ in range(20):
        await asyncio.sleep(0)
    # "second" has aborted: "third" (after it) can change nothing and is cancelled,
    # "first" (before it) might still abort and is waited for
    assert ("cancelled", "third") in log
    assert ("cancelled", "first") not in log and not run.done()
    release.set()
    result = await asyncio.wait_for(run, timeout=10)
    assert result.tripwire.processor_id == "second"  # "first" passed
    assert first.done.is_set()
    outcomes = {r.processor_id: r.outcome for r in result.audit}
    assert outcomes == {"first": "passed", "second": "aborted", "third": "cancelled"}


async def test_an_abort_cancels_the_later_members_still_running(make_bare_agent):
    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[
        parallel(Guard("fast", "hi"), Guard("slow", "nothing", delay=30, log=log), id="g")])
    result = await asyncio.wait_for(agent.generate("hi"), timeout=10)
    assert result.tripwire.processor_id == "fast"
    assert ("cancelled", "slow") in log
    assert agent.model.requests == []


async def test_a_cancelled_run_leaves_no_member_running(make_bare_agent):
    log: list = []
    never = asyncio.Event()
    members = [Gated(pid, aborts=False, gate=never, log=log) for pid in ("a", "b")]
    agent = make_bare_agent(["ok"], input_processors=[parallel(*members, id="g")])
    run = asyncio.ensure_future(agent.generate("hi"))
    for _ in range(20):
        await asyncio.sleep(0)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert sorted(log) == [("cancelled", "a"), ("cancelled", "b")]


async def test_parallel_members_each_see_the_same_input(make_bare_agent):
    seen = []

    class See(Processor):
        def __init__(self, pid):
            self.id = pid

        @hookimpl
        async def process_input(self, messages):
            await asyncio.sleep(0)
            seen.append((self.id, messages[-1].text))

    agent = make_bare_agent(["ok"], input_processors=[
        parallel(Append("a", "-a"), See("look"), id="g")])
    await agent.generate("hi")
    assert seen == [("look", "hi")]  # not "hi-a": members work on the same input


async def test_parallel_output_stream_members_run_in_list_order(make_bare_agent):
    order = []

    class Tag(Processor):
        def __init__(self, pid):
            self.id = pid

        @hookimpl
        def process_output_stream(self, part):
            if part.type == "text-delta":
                order.append(self.id)
                return part.evolve(payload={**part.payload,
                                            "text": part.payload["text"] + self.id})
            return part

    agent = make_bare_agent(["x"], output_processors=[parallel(Tag("1"), Tag("2"), id="g")])
    assert (await agent.generate("hi")).text == "x12"
    assert order == ["1", "2"]


async def test_a_sequence_inside_a_parallel_group_is_one_member(make_bare_agent):
    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[parallel(
        sequence(Append("a", "-a", log), Append("b", "-b", log), id="chain"),
        Guard("guard", "nothing"), id="g")])
    await agent.generate("hi")
    assert user_text(agent.model) == ["hi-a-b"]


async def test_parallel_process_llm_request_prompt_rewrites_conflict_unless_selected(
    make_bare_agent,
):
    class Rewrite(Processor):
        def __init__(self, pid, text):
            self.id = pid
            self.text = text

        @hookimpl
        def process_llm_request(self, prompt):
            return {"prompt": [*prompt, {"role": "user",
                                         "content": [{"type": "text", "text": self.text}]}]}

    agent = make_bare_agent(["ok"], input_processors=[
        parallel(Rewrite("x", "X"), Rewrite("y", "Y"), id="g")])
    with pytest.raises(ProcessorError, match="both changed the prompt"):
        await agent.generate("hi")
    agent = make_bare_agent(["ok"], input_processors=[
        parallel(Rewrite("x", "X"), Rewrite("y", "Y"), id="g", select="y")])
    await agent.generate("hi")
    assert user_text(agent.model) == ["hi", "Y"]


# ---------------------------------------------------------------- branch


async def test_branch_picks_a_processor_per_call_from_the_request_context(make_bare_agent):
    agent = make_bare_agent(["ok"] * 2, input_processors=[branch(
        lambda ctx: ctx.get("tier") == "free", Append("strict", "-strict"),
        Append("lenient", "-lenient"))])
    await agent.generate("hi", request_context={"tier": "free"})
    await agent.generate("hi", request_context={"tier": "pro"})
    assert user_text(agent.model, 0) == ["hi-strict"]
    assert user_text(agent.model, 1) == ["hi-lenient"]


async def test_branch_without_otherwise_runs_nothing_when_false(make_bare_agent):
    agent = make_bare_agent(["ok"],
                            input_processors=[branch(lambda ctx: False, Append("a", "-a"))])
    await agent.generate("hi")
    assert user_text(agent.model) == ["hi"]


# ---------------------------------------------------------------- anywhere a processor goes


async def test_groups_in_per_call_lists(make_bare_agent):
    agent = make_bare_agent(["ok"])
    await agent.generate("hi", input_processors=[
        sequence(Append("a", "-a"), id="chain"), parallel(Guard("g", "nothing"), id="p")])
    assert user_text(agent.model) == ["hi-a"]


def test_ids_are_unique_across_groups_and_their_members(make_bare_agent):
    with pytest.raises(ProcessorValidationError, match="have the id 'a'"):
        make_bare_agent(input_processors=[sequence(Append("a", "!"), id="chain"),
                                          Append("a", "?")])
    with pytest.raises(ProcessorValidationError, match="have the id 'chain'"):
        make_bare_agent(input_processors=[sequence(Append("chain", "!"), id="chain")])


def test_group_members_are_validated_like_listed_processors(make_bare_agent):
    class OutputOnly(Processor):
        id = "out"

        @hookimpl
        def process_output_result(self):
            pass

    with pytest.raises(ProcessorValidationError, match="'out' is in input_processors > g"):
        make_bare_agent(input_processors=[parallel(OutputOnly(), id="g")])


@pytest.mark.parametrize(("call", "message"), [
    (lambda: parallel(id="g"), "needs at least one processor"),
    (lambda: parallel(Append("a", ""), id=""), "needs id="),
    (lambda: sequence("unicode-normalizer", id="s"),
     r"^sequence\(id='s'\): members must be processors or groups, got the plugin name "
     r"'unicode-normalizer'; pass tripwire.plugins.create\('unicode-normalizer'\) "
     r"\(options as keywords: tripwire.plugins.create\('unicode-normalizer', strategy=...\)\)\. "
     r"Plugin names are taken by a plain processor list and by a TOML group, not by sequence\(\)$"),
    (lambda: parallel(Append("a", ""), "pii-detector", id="p"),
     r"got the plugin name 'pii-detector'; pass tripwire.plugins.create\('pii-detector'\)"),
    (lambda: parallel(Append("a", ""), id="g", select="b"), "select='b' names no member"),
    (lambda: branch("yes", Append("a", "")), "condition must be callable"),
])
def test_bad_groups_are_clear_errors(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_a_parallel_group_is_not_allowed_among_error_processors(make_bare_agent):
    class Retry(Processor):
        id = "retry"

        @hookimpl
        def process_api_error(self):
            return None

    with pytest.raises(ProcessorValidationError, match="first retry request wins"):
        make_bare_agent(error_processors=[parallel(Retry(), id="g")])


async def test_groups_from_toml(tmp_path, only_plugins):
    only_plugins("unicode-normalizer", "batch-parts", "token-limiter")
    path = tmp_path / "tripwire.toml"
    path.write_text("""
[models.demo]
use = "mock"
responses = ["ok"]

[agents.support]
model = "models.demo"
input_processors = [
    { parallel = [ "unicode-normalizer", { use = "token-limiter", limit = 1000 } ], id = "input-guards", select = "unicode-normalizer" },
]
output_processors = [{ sequence = [{ use = "batch-parts", batch_size = 2 }], id = "out" }]
""")
    agent = Agent.from_config(str(path), "support")
    result = await agent.generate("ｈｉ")
    assert result.text == "ok"
    assert user_text(agent.model) == ["hi"]


def test_toml_group_tables_are_checked(tmp_path):
    from tripwire import ConfigurationError
    from tripwire.config import load_config

    path = tmp_path / "tripwire.toml"
    path.write_text('[agents.a]\nmodel = "openai/x"\n'
                    'input_processors = [{ parallel = ["unicode-normalizer"] }]\n')
    with pytest.raises(ConfigurationError, match="a parallel group needs id"):
        load_config(path)
    path.write_text('[agents.a]\nmodel = "openai/x"\n'
                    'input_processors = [{ sequence = [], id = "s", mode = "x" }]\n')
    with pytest.raises(ConfigurationError, match=r"unknown key\(s\) \['mode'\] in a sequence"):
        load_config(path)


async def test_parallel_members_may_set_the_callers_text(make_bare_agent):
    class Caller(Processor):
        id = "caller"

        @hookimpl
        def process_output_result(self, result):
            result.caller_text = "shown to the caller"

    class Looks(Processor):
        id = "looks"

        @hookimpl
        def process_output_result(self, result):
            assert result.text == "stored"

    agent = make_bare_agent(["stored"], output_processors=[
        parallel(Caller(), Looks(), id="g")])
    result = await agent.generate("hi")
    assert result.text == "shown to the caller"
    assert result.messages[-1].text == "stored"
