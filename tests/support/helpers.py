"""Helpers shared by several test modules (fixtures are in conftest.py).

Processors
    ``Blocker(hook)``  aborts in one named hook
    ``Shout()``        upper-cases streamed text
    ``HoldUntilBoundary()``  holds text deltas back, releases them together at the
                       next non-text chunk
    ``RejectFirst()``  asks for a retry of the first step (``abort(retry=True)``), then
                       accepts
    ``Cache()``        a response cache keyed on the prompt (``process_llm_request``
                       short-circuits the model, ``process_llm_response`` fills it)
    ``CountsText()``   counts the characters of text the model has sent so far (put
                       it before a stream guard: ``first_release(stream, counter)``
                       says how far the model had got when the first text came out)
    ``keyword_guard()``  contrib/keyword-guard's ``KeywordGuard``, imported from source
A tool
    ``delete_account`` records each user id it is called with in ``deleted``
A judge model
    ``Finder(known=KNOWN)``  reports the known names, addresses and dates of birth
                       present in the judged text (pii-detector's judge tier)
    ``Moderator()``    scores the judged text by the words in it (``SCORES``: "kill"
                       is violence 0.9), moderation's judge
Output guards (the attack tests' cells)
    ``SYSTEM``, ``LEAK``   an agent's instructions, and a quote of them
    ``output_guards()``    per output guard: the value it hides (system-prompt-scrubber's:
                       ``LEAK``, with ``SYSTEM`` as the instructions) and a guard for
                       each strategy that keeps it from the client
Waiting
    ``eventually(condition)``  wait until ``condition()`` holds (a generous bound that
                       only detects a hang)
What the model saw
    ``user_text(model, i=0)``  the texts of the user messages of request ``i``
Model providers (against tests/fake_llm_server.py)
    ``WIRES``                  the wire formats it serves: ``"openai"``, ``"anthropic"``
    ``user(text)``             a prompt message
    ``request(*prompt, **options)``  a ModelRequest (prompt: "Hi" unless given)
    ``collect(model, req=None)``     the chunks of ``model.stream(req or request())``
    ``texts(chunks, kind="text-delta")``  the text of those chunks, joined
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from tripwire import Chunk, Processor, hookimpl, tool
from tripwire.chunks import Usage
from tripwire.models import ModelRequest


def keyword_guard() -> type:
    """``KeywordGuard`` of contrib/keyword-guard, the separately published processor,
    imported from source (its wheel is installed in a venv in test_packaging.py)."""
    source = Path(__file__).resolve().parents[2] / "contrib" / "keyword-guard"
    name = "tripwire_keyword_guard"
    module = sys.modules.get(name)
    if module is None or Path(module.__file__).resolve().parent.parent != source:
        spec = importlib.util.spec_from_file_location(name, source / name / "__init__.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module.KeywordGuard


deleted: list[str] = []


@tool
def delete_account(user_id: str) -> str:
    """Delete an account."""
    deleted.append(user_id)
    return "deleted"


class Blocker(Processor):
    """Aborts in the named hook."""

    def __init__(self, hook: str, *, reason: str | None = None, retry: bool = False, pid: str = "blocker"):
        self.id = pid
        self.hook = hook
        self.reason = reason
        self.retry = retry

    def _maybe(self, hook, abort):
        if hook == self.hook:
            abort(self.reason, retry=self.retry, metadata={"hook": hook})

    @hookimpl
    def process_input(self, abort):
        self._maybe("process_input", abort)

    @hookimpl
    def process_llm_request(self, abort):
        self._maybe("process_llm_request", abort)

    @hookimpl
    def process_output_stream(self, part, abort):
        if part.type == "text-delta":
            self._maybe("process_output_stream", abort)
        return part

    @hookimpl
    def process_output_step(self, abort):
        self._maybe("process_output_step", abort)

    @hookimpl
    def process_output_result(self, abort):
        self._maybe("process_output_result", abort)


class Shout(Processor):
    """Upper-cases streamed text."""

    id = "shout"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": part.payload["text"].upper()})
        return part


class AsyncPass(Processor):
    """Passes every chunk on, from an ``async`` implementation (each call awaited)."""

    id = "async-pass"

    @hookimpl
    async def process_output_stream(self, part):
        return part


class HoldUntilBoundary(Processor):
    """Holds every text delta back and releases them together at the next non-text
    chunk: the usual shape of a processor guarding matches split across chunks."""

    id = "hold"

    @hookimpl
    def process_output_stream(self, part, state):
        held = state.setdefault("held", [])
        if part.type == "text-delta":
            held.append(part)
            return None
        out, held[:] = [*held, part], []
        return out


class RejectFirst(Processor):
    """Asks for another answer to the first step (``retry_count`` 0), then accepts."""

    id = "reject"

    @hookimpl
    def process_output_step(self, abort, retry_count):
        if retry_count == 0:
            abort("try again", retry=True)


class Cache(Processor):
    """A tiny response cache keyed on the prompt; ``froms`` records each response's
    ``from_cache``."""

    id = "cache"

    def __init__(self):
        self.store = {}
        self.froms = []

    @hookimpl
    def process_llm_request(self, prompt, state):
        state["key"] = repr(prompt)
        if state["key"] in self.store:
            return {"response": self.store[state["key"]]}
        return None

    @hookimpl
    def process_llm_response(self, chunks, from_cache, state):
        self.froms.append(from_cache)
        if not from_cache:
            self.store[state["key"]] = chunks


def strings(value: Any) -> list[str]:
    """Every string in a value: dict keys and values, lists, attrs instances (where a
    guarded value could hide)."""
    if isinstance(value, str):
        return [value]
    if attrs.has(type(value)):
        value = attrs.asdict(value, recurse=False)
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings(v)]
    return []


async def eventually(condition: Callable[[], object], timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds; ``TimeoutError`` after ``timeout`` seconds
    (a bound that detects a hang, not a timing requirement)."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(poll(), timeout)


def user_text(model, i: int = 0) -> list[str]:
    """The text parts of the user messages in the ``i``-th request a MockModel got."""
    return [p["text"] for m in model.requests[i].prompt if m["role"] == "user"
            for p in m["content"] if p["type"] == "text"]


# ---------------------------------------------------------------- model providers

WIRES = ["openai", "anthropic"]
#: Every wire format of the fake server, for what the transport does the same for all:
#: ``WIRES`` and OpenAI's Responses (``server.responses()``).
ALL_WIRES = [*WIRES, "responses"]


def user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def request(*prompt: dict, **options) -> ModelRequest:
    return ModelRequest(prompt=list(prompt) or [user("Hi")], **options)


async def collect(model, req: ModelRequest | None = None) -> list:
    return [c async for c in model.stream(req if req is not None else request())]


def texts(chunks: list, kind: str = "text-delta") -> str:
    return "".join(c.payload["text"] for c in chunks if c.type == kind)


#: What the ``Finder`` judge knows, by the value it quotes.
KNOWN = {
    "Ada Lovelace": "name",
    "Charles": "name",
    "12 St James's Square, London": "address",
    "10 December 1815": "date-of-birth",
}


class _FakeJudge:
    """A judge model that answers from the judged text alone (so concurrent judgements
    need no order) and records what it was asked."""

    provider = "fake"

    def __init__(self) -> None:
        self.requests: list[Any] = []

    @property
    def texts(self) -> list[str]:
        """The judged texts, in the order asked."""
        return [r.prompt[1]["content"][0]["text"] for r in self.requests]

    def asked(self, request: Any) -> str:
        """Records ``request``; its judged text."""
        self.requests.append(request)
        return str(request.prompt[1]["content"][0]["text"])


class Finder(_FakeJudge):
    """Reports the known values present in the judged text, within the types the
    schema allows."""

    model_id = "finder"

    def __init__(self, known: dict[str, str] | None = None) -> None:
        super().__init__()
        self.known = KNOWN if known is None else known

    async def stream(self, request: Any) -> Any:
        text = self.asked(request)
        items = request.structured_output["schema"]["properties"]["findings"]["items"]
        allowed = items["properties"]["type"]["enum"]
        flat = " ".join(text.split()).lower()  # it reads a line break as a space
        findings = [{"type": kind, "text": value} for value, kind in self.known.items()
                    if value.lower() in flat and kind in allowed]
        yield Chunk("text-delta", {"id": "t", "text": json.dumps({"findings": findings})})
        yield Chunk("finish", {"finish_reason": "stop", "usage": Usage()})


#: Words the ``Moderator`` model scores, and the scores it gives them.
SCORES = {
    "kill": {"violence": 0.9, "harassment/threatening": 0.6, "hate": 0.1},
    "idiot": {"harassment": 0.7},
    "meh": {"harassment": 0.3},
}
REASONS = {"kill": "threatens violence", "idiot": "insults the reader"}


class Moderator(_FakeJudge):
    """Scores the judged text by the words in it (``SCORES``)."""

    model_id = "moderator"

    def __init__(self, reason: bool = True) -> None:
        super().__init__()
        self.reason = reason

    async def stream(self, request: Any) -> Any:
        text = self.asked(request)
        schema = request.structured_output["schema"]
        item = schema["properties"]["category_scores"]["anyOf"][0]["items"]
        allowed = item["properties"]["category"]["enum"]  # it obeys the schema
        scores: dict[str, float] = {}
        reason = None
        for word, found in SCORES.items():
            if word in text:
                for category, score in found.items():
                    if category in allowed:
                        scores[category] = max(score, scores.get(category, 0))
                reason = reason or REASONS.get(word)
        verdict = {
            "category_scores": [{"category": c, "score": s} for c, s in scores.items()] or None,
            "reason": reason if self.reason else None,
        }
        yield Chunk("text-delta", {"id": "t", "text": json.dumps(verdict)})
        yield Chunk("finish", {"finish_reason": "stop", "usage": Usage()})


#: An agent's instructions; system-prompt-scrubber's value is a quote of them.
SYSTEM = ("You are Ada, the support assistant of Acme Bank. Never reveal account numbers, "
          "card numbers or internal escalation codes to anyone. Always answer formally.")
LEAK = "Never reveal account numbers, card numbers or internal escalation codes to anyone"


def output_guards() -> dict[str, tuple[str, dict[str, Callable[[], Processor]]]]:
    """Per output guard: the value it hides, and a guard for each strategy that keeps
    the value from the client (``warn`` is not one)."""
    from tripwire.plugins.moderation import Moderation
    from tripwire.plugins.pii_detector import PIIDetector
    from tripwire.plugins.regex_filter import RegexFilter
    from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber

    KeywordGuard = keyword_guard()
    return {
        "pii-detector": ("jane.doe@example.com", {
            s: (lambda s=s: PIIDetector(detection_types=["email"], strategy=s))
            for s in ("block", "redact", "filter")}),
        "regex-filter": ("ORD-123456", {
            s: (lambda s=s: RegexFilter(rules=[{"name": "order", "pattern": r"ORD-\d{6}"}],
                                        strategy=s))
            for s in ("block", "redact")}),
        "keyword-guard": ("hunter2", {
            s: (lambda s=s: KeywordGuard(patterns=["hunter2"], strategy=s))
            for s in ("block", "mask")}),
        # (the Moderator judge flags "kill" as violence)
        "moderation": ("kill", {
            s: (lambda s=s: Moderation(Moderator(), strategy=s)) for s in ("block", "filter")}),
        "system-prompt-scrubber": (LEAK, {
            s: (lambda s=s: SystemPromptScrubber(strategy=s))
            for s in ("block", "redact", "filter")}),
    }


class CountsText(Processor):
    """Counts the characters of text the model has sent so far (``chars``)."""

    id = "counts-text"

    def __init__(self) -> None:
        self.chars = 0

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            self.chars += len(part.payload["text"])
        return part


async def first_release(stream: Any, counter: CountsText) -> tuple[int | None, list[Chunk]]:
    """How many characters of text the model had sent when the first text chunk came
    out of ``stream`` (``counter`` sits before the guard), and all the chunks."""
    first = None
    chunks = []
    async for chunk in stream:
        chunks.append(chunk)
        if chunk.type == "text-delta" and first is None:
            first = counter.chars
    return first, chunks


async def run_collected(agent: Any, messages: Any, stream: bool,
                        **options: Any) -> tuple[list[Any], Any]:
    """One run: the chunks streamed (none for generate) and the result; ``options`` go
    to ``generate`` / ``stream`` (``caller_system="input"``)."""
    if not stream:
        return [], await agent.generate(messages, **options)
    handle = agent.stream(messages, **options)
    chunks = [c async for c in handle]
    return chunks, await handle.result


def chunks_and_result(agent: Any, messages: Any, stream: bool,
                      **options: Any) -> tuple[list[Any], Any]:
    """``run_collected`` outside an event loop."""
    return asyncio.run(run_collected(agent, messages, stream, **options))


def input_guarded(guard: Any, *replies: Any) -> Any:
    """An agent with ``guard`` as its only input processor, around a ``MockModel`` that
    answers ``replies`` (``"ok"`` without any)."""
    from tripwire import Agent
    from tripwire.testing import MockModel

    return Agent(id="support", model=MockModel(list(replies) or ["ok"]),
                 input_processors=[guard], default_error_processors=False)


def prompt_strings(model: Any) -> list[str]:
    """Every string ``model`` (a ``MockModel``) was sent, over all its calls."""
    return strings([r.prompt for r in model.requests])


class DroppedOnce:
    """A model whose first stream breaks after ``first``; the next call streams
    ``second`` (with ``StreamErrorRetry``, after a ``step-retry``)."""

    provider = "fake"
    model_id = "dropped-once"

    def __init__(self, first: list[str], second: list[str]) -> None:
        self.parts = [first, second]
        self.calls = 0

    async def stream(self, request: Any) -> Any:
        from tripwire import APICallError

        parts = self.parts[min(self.calls, 1)]
        self.calls += 1
        for p in parts:
            yield Chunk("text-delta", {"id": "t", "text": p})
        if self.calls == 1:
            raise APICallError("stream dropped", is_retryable=True)
        yield Chunk("finish", {"finish_reason": "stop"})


#: What ``LeakJudge`` calls a leak (a paraphrase of ``SYSTEM`` no n-gram finds).
PARAPHRASE = "I may not share account or card numbers."


class LeakJudge:
    """A judge model that calls ``PARAPHRASE`` a leak wherever it is in the judged text
    (with its spans, or without when ``spans`` is off), and records the texts."""

    provider = "fake"
    model_id = "leak-judge"

    def __init__(self, spans: bool = True) -> None:
        self.spans = spans
        self.requests: list[Any] = []

    @property
    def texts(self) -> list[str]:
        return [r.prompt[1]["content"][0]["text"].split("Text to judge:\n", 1)[1]
                for r in self.requests]

    async def stream(self, request: Any) -> Any:
        self.requests.append(request)
        text = self.texts[-1]
        found = [(m.start(), m.end()) for m in re.finditer(re.escape(PARAPHRASE), text)]
        answer = json.dumps({"leaked": bool(found), "types": ["paraphrase"],
                             "spans": [{"start": s, "end": e} for s, e in found]
                             if self.spans else []})
        yield Chunk("text-delta", {"id": "t", "text": answer})
        yield Chunk("finish", {"finish_reason": "stop", "usage": None})
