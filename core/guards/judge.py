"""The judge: a model's structured verdict on a text, for the guardrails that need one.

The judge: ask a model for a structured verdict on a text, for guardrails that need one
(moderation, prompt injection, names and addresses, paraphrased system prompts).

A ``Judge`` is built once, with a model, instructions and the JSON Schema of its
verdict; ``await judge(text)`` returns the verdict, a ``dict`` that matches the schema.
It sends the schema twice: as ``ModelRequest.structured_output`` (providers with a
native JSON-schema mode use it: OpenAI's ``response_format``, Anthropic's
``output_config``) and in the system prompt (for models without one), at temperature 0.
The reply is parsed (JSON in code fences or after prose is found) and validated.

What it adds around the model call:

- a verdict cache (LRU, ``cache_size`` entries) keyed by a hash of the model label,
  instructions, schema, context and text: the same text is judged once, and identical
  requests made while one is in flight wait for it instead of calling the model again;
- at most ``max_concurrency`` model calls at a time, each limited to ``timeout`` seconds;
- ``retries`` more attempts (default 1) when the verdict is not JSON or does not match
  the schema, the problem fed back to the model;
- one error for every failure, ``JudgeError``, naming the judge and the model and saying
  what went wrong. It never quotes the judged text (it may hold personal data).

A processor that uses a judge lets ``JudgeError`` propagate from its hook: the runner
turns it into ``ProcessorError`` (the run ends, fail closed) or, for a processor with
``fail_open = True``, logs it and passes the input on (the audit says ``fail-open``).
See ``Judge`` for an example and docs/judge.md for the whole story.

Validation uses the ``jsonschema`` package: ``pip install 'tripwire[structured]'``.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import Annotated, Any

import attrs

from tripwire.errors import APICallError, ConfigurationError, Error, MissingDependencyError
from tripwire.guards.json_text import NoJSONFound, extract_json
from tripwire.models import Model, ModelRequest, model_label, resolve_model
from tripwire.option_checks import NonNegativeInt, PositiveInt, Range, check

__all__ = ["DEFAULT_TIMEOUT", "QUOTE_MIN_CHARS", "Judge", "JudgeError", "JudgeTimeout", "KINDS",
           "unquoted_reason"]

#: Seconds one judge attempt may take: the type of ``Judge(timeout=...)`` and of the
#: ``judge_timeout`` option of every judge processor (at least a millisecond).
JudgeTimeout = Annotated[float, Range(min=0.001)]
#: The default of both.
DEFAULT_TIMEOUT = 30.0

#: What can go wrong, as ``JudgeError.kind``.
KINDS = (
    "api-error",     # the provider failed the call (status_code says how, when it answered)
    "timeout",       # an attempt took longer than ``timeout`` seconds
    "refused",       # the model declined to answer (finish reason ``content-filter``)
    "unparsable",    # the reply held no JSON value (also an empty reply), every attempt
    "invalid",       # the JSON did not match the schema, on the last attempt
    "model-error",   # the model raised something other than APICallError
)

#: How much of an unparsable reply an error quotes.
REPLY_PREFIX = 200
_MAX_ERRORS = 10
_MAX_ERROR_CHARS = 200
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class JudgeError(Error):
    """A judge could not produce a verdict.

    ``judge`` is the judge's name, ``model`` the model's label (``"openai/gpt-5-nano"``),
    ``kind`` one of ``KINDS``, ``status_code`` the provider's HTTP status for an
    ``"api-error"`` (``None`` otherwise, or when no answer came), ``errors`` the schema
    violations for ``"invalid"`` (``"$.path: message"``). The message never contains the
    judged text; for ``"unparsable"`` it quotes the first 200 characters of the model's
    reply. The underlying exception, if any, is chained as ``__cause__``.
    """

    def __init__(
        self,
        message: str,
        *,
        judge: str,
        model: str,
        kind: str,
        status_code: int | None = None,
        errors: tuple[str, ...] = (),
    ) -> None:
        super().__init__(f"judge {judge!r} ({model}): {message}")
        self.judge = judge
        self.model = model
        self.kind = kind
        self.status_code = status_code
        self.errors = errors

    def __repr__(self) -> str:
        return f"JudgeError({str(self)!r}, kind={self.kind!r}, status_code={self.status_code!r})"


class _BadVerdict(Exception):
    """One attempt's reply was not a valid verdict (retried, then a ``JudgeError``)."""

    def __init__(self, kind: str, problem: str, errors: tuple[str, ...] = (),
                 feedback: str | None = None) -> None:
        super().__init__(problem)
        self.kind = kind
        self.problem = problem
        self.errors = errors
        #: what the model is told on a retry (it saw the judged text: its values may be
        #: quoted there, never in ``problem``, which ends up in a ``JudgeError``)
        self.feedback = problem if feedback is None else feedback


@attrs.define
class _Flight:
    """A judgement in progress, awaited by every caller that asked for the same key."""

    task: asyncio.Task[dict[str, Any]]
    waiters: int = 0


@attrs.define
class _LoopState:
    """What belongs to one event loop: the concurrency slots and the flights."""

    loop: asyncio.AbstractEventLoop
    slots: asyncio.Semaphore
    flights: dict[str, _Flight] = attrs.field(factory=dict)


class Judge:
    """Ask a model for a verdict that matches a JSON Schema.

    :param model: a router id (``"openai/gpt-5-nano"``), a provider
        (``OpenAICompatible``, ``Anthropic``) or any tripwire model (``MockModel``).
        A model built from a router id belongs to the judge: ``aclose()`` closes it.
    :param instructions: the system prompt: what to judge and how.
    :param schema: the verdict's JSON Schema, a mapping with ``"type": "object"``.
    :param name: the schema's name in the native JSON-schema mode (1-64 letters,
        digits, ``_`` or ``-``), also used in error messages.
    :param cache_size: how many verdicts to keep (least recently used dropped first);
        ``0`` turns off the cache and the sharing of in-flight requests.
    :param max_concurrency: the most model calls this judge has open at once.
    :param timeout: seconds one attempt may take (waiting for a free slot not counted).
    :param temperature: sent as ``model_settings["temperature"]``; ``None`` sends none
        (for models that accept only their default, such as OpenAI's reasoning models).
    :param retries: further attempts after a reply that is not JSON or does not match
        the schema (the problem is told to the model). API errors are retried by the
        provider's transport, timeouts and refusals not at all.

    ``await judge(text, context=None)`` returns the verdict (a fresh ``dict`` each time)
    or raises ``JudgeError``. ``text`` goes to the model as the user message; a
    ``context`` string, when given, comes first (``Context:\\n...\\n\\nText to
    judge:\\n...``). ``calls`` counts model calls (retries included), ``cache_hits``
    the verdicts served without one (from the cache, or ``coalesced`` with an identical
    request in flight).

    A processor lets ``JudgeError`` propagate: its ``fail_open`` decides what a failed
    judgement does to the run (default: the run ends with ``ProcessorError``). Judging
    several messages at once runs the calls concurrently::

        SCHEMA = {"type": "object", "properties": {"flagged": {"type": "boolean"}},
                  "required": ["flagged"]}

        class NoInsults(Processor):
            id = "no-insults"

            def __init__(self, model="openai/gpt-5-nano"):
                self.judge = Judge(model, instructions="Is this text insulting?",
                                   schema=SCHEMA)

            @hookimpl
            async def process_input(self, messages, abort):
                verdicts = await asyncio.gather(*(self.judge(m.text) for m in messages))
                if any(v["flagged"] for v in verdicts):
                    abort("Insult detected")
    """

    def __init__(
        self,
        model: str | Model,
        *,
        instructions: str,
        schema: Mapping[str, Any],
        name: str = "verdict",
        cache_size: int = 1024,
        max_concurrency: int = 8,
        timeout: JudgeTimeout = DEFAULT_TIMEOUT,
        temperature: float | None = 0,
        retries: int = 1,
    ) -> None:
        owner = "judge"
        check("instructions", instructions, str, owner=owner)
        if not instructions.strip():
            raise ConfigurationError("judge: instructions must not be empty")
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ConfigurationError(
                f"judge: name must be 1-64 letters, digits, '_' or '-', got {name!r}"
            )
        self.name = name
        self.cache_size = check("cache_size", cache_size, NonNegativeInt, owner=owner)
        self.max_concurrency = check("max_concurrency", max_concurrency, PositiveInt, owner=owner)
        self.retries = check("retries", retries, NonNegativeInt, owner=owner)
        self.timeout = check("timeout", timeout, JudgeTimeout, owner=owner)
        self.temperature = check("temperature", temperature, float | None, owner=owner)
        self.instructions = instructions
        self._validator = _validator(schema, name)
        self.schema: dict[str, Any] = copy.deepcopy(dict(schema))
        self._schema_text = json.dumps(self.schema, sort_keys=True, separators=(",", ":"))
        self._system = (
            f"{instructions.rstrip()}\n\nReply with only a JSON object (no prose, no code "
            f"fences) that matches this JSON Schema:\n{self._schema_text}"
        )
        self._owned = isinstance(model, str)
        self.model: Model = resolve_model(model)
        self.label = model_label(self.model)
        #: Model calls made (every attempt counts).
        self.calls = 0
        #: Verdicts served without a model call of their own.
        self.cache_hits = 0
        #: Of those, the ones that waited for an identical request in flight.
        self.coalesced = 0
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._loop_state: _LoopState | None = None

    def __repr__(self) -> str:
        return (
            f"Judge({self.name!r}, model={self.label!r}, calls={self.calls}, "
            f"cache_hits={self.cache_hits})"
        )

    # -- lifecycle

    async def aclose(self) -> None:
        """Close the model if the judge built it from a router id (a model you passed
        stays yours to close)."""
        aclose = getattr(self.model, "aclose", None)
        if self._owned and aclose is not None:
            await aclose()

    async def __aenter__(self) -> Judge:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def clear_cache(self) -> None:
        """Forget every cached verdict (the counters stay)."""
        self._cache.clear()

    # -- judging

    async def __call__(self, text: str, *, context: str | None = None) -> dict[str, Any]:
        """The verdict on ``text`` (a ``dict`` matching the schema); ``JudgeError`` when
        there is none."""
        if not isinstance(text, str):
            raise TypeError(f"judge {self.name!r}: text must be a str, got {type(text).__name__}")
        if context is not None and not isinstance(context, str):
            raise TypeError(
                f"judge {self.name!r}: context must be a str or None, got {type(context).__name__}"
            )
        if not self.cache_size:
            return await self._judge(text, context)
        key = self._key(text, context)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.cache_hits += 1
            return copy.deepcopy(cached)
        state = self._state()
        flight = state.flights.get(key)
        if flight is None:
            flight = _Flight(asyncio.ensure_future(self._judge(text, context)))
            state.flights[key] = flight
            flight.task.add_done_callback(functools.partial(self._landed, state, key, flight))
        else:
            self.cache_hits += 1
            self.coalesced += 1
        flight.waiters += 1
        try:
            return copy.deepcopy(await asyncio.shield(flight.task))
        finally:
            flight.waiters -= 1
            if flight.waiters == 0 and not flight.task.done():
                # Every caller went away (cancelled): nobody owns the call any more.
                flight.task.cancel()
                if state.flights.get(key) is flight:
                    del state.flights[key]

    def _key(self, text: str, context: str | None) -> str:
        parts = [self.label, self.instructions, self._schema_text, context, text]
        raw = json.dumps(parts, ensure_ascii=False).encode("utf-8", "surrogatepass")
        return hashlib.sha256(raw).hexdigest()

    def _state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        if self._loop_state is None or self._loop_state.loop is not loop:
            # A semaphore and tasks belong to one loop (generate_sync runs one per call).
            self._loop_state = _LoopState(loop, asyncio.Semaphore(self.max_concurrency))
        return self._loop_state

    def _landed(self, state: _LoopState, key: str, flight: _Flight, task: asyncio.Task[Any]) -> None:
        if state.flights.get(key) is flight:
            del state.flights[key]
        if task.cancelled() or task.exception() is not None:
            return
        self._cache[key] = task.result()
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def _judge(self, text: str, context: str | None) -> dict[str, Any]:
        user = text if context is None else f"Context:\n{context}\n\nText to judge:\n{text}"
        prompt: list[dict[str, Any]] = [
            {"role": "system", "content": self._system},
            {"role": "user", "content": [{"type": "text", "text": user}]},
        ]
        attempts = self.retries + 1
        for attempt in range(1, attempts + 1):
            reply, finish_reason = await self._ask(prompt)
            if finish_reason == "content-filter":
                raise self._error(
                    "refused",
                    "the model refused to give a verdict (finish reason 'content-filter')",
                )
            try:
                return self._verdict(reply)
            except _BadVerdict as bad:
                if attempt == attempts:
                    tries = f" ({attempts} attempts)" if attempts > 1 else ""
                    raise self._error(bad.kind, bad.problem + tries, errors=bad.errors) from None
                prompt = [
                    *prompt,
                    {"role": "assistant", "content": [{"type": "text", "text": reply}]},
                    {"role": "user", "content": [{"type": "text", "text": (
                        f"That reply is not a valid verdict: {bad.feedback}. Reply again with "
                        f"only a JSON object that matches the JSON Schema."
                    )}]},
                ]
        raise AssertionError("unreachable")  # pragma: no cover

    async def _ask(self, prompt: list[dict[str, Any]]) -> tuple[str, str | None]:
        """One model call: the reply's text and finish reason."""
        settings = {} if self.temperature is None else {"temperature": self.temperature}
        request = ModelRequest(
            prompt=prompt,
            model_settings=settings,
            structured_output={"schema": self.schema, "name": self.name},
        )
        async with self._state().slots:
            self.calls += 1
            limit = asyncio.timeout(self.timeout)
            try:
                async with limit:
                    return await self._collect(request)
            except APICallError as e:
                status = f" (HTTP {e.status_code})" if e.status_code is not None else ""
                raise self._error(
                    "api-error", f"the model call failed{status}: {e.message}",
                    status_code=e.status_code,
                ) from e
            except TimeoutError as e:
                if not limit.expired():
                    raise self._error("model-error", f"the model call failed: {_describe(e)}") from e
                raise self._error(
                    "timeout", f"no verdict within the timeout of {self.timeout:g} s"
                ) from None
            except Exception as e:
                raise self._error("model-error", f"the model call failed: {_describe(e)}") from e

    async def _collect(self, request: ModelRequest) -> tuple[str, str | None]:
        texts: list[str] = []
        finish_reason: str | None = None
        stream = self.model.stream(request)
        try:
            async for chunk in stream:
                if chunk.type == "text-delta":
                    texts.append(chunk.payload.get("text") or "")
                elif chunk.type == "finish":
                    finish_reason = chunk.payload.get("finish_reason")
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()
        return "".join(texts), finish_reason

    def _verdict(self, reply: str) -> dict[str, Any]:
        if not reply.strip():
            raise _BadVerdict("unparsable", "the model's reply is empty")
        try:
            value = extract_json(reply)
        except NoJSONFound:
            prefix = reply.strip()[:REPLY_PREFIX]
            raise _BadVerdict(
                "unparsable", f"the reply holds no JSON verdict (it starts {prefix!r})"
            ) from None
        found = sorted(self._validator.iter_errors(value), key=lambda e: list(map(str, e.path)))
        if found:
            more = f" (and {len(found) - _MAX_ERRORS} more)" if len(found) > _MAX_ERRORS else ""
            said = tuple(f"{e.json_path}: {_short(e.message)}" for e in found[:_MAX_ERRORS])
            errors = tuple(f"{e.json_path}: {_short(_unquoted(e))}" for e in found[:_MAX_ERRORS])
            raise _BadVerdict(
                "invalid", f"the verdict does not match the schema: {'; '.join(errors)}{more}",
                errors, feedback=f"the verdict does not match the schema: {'; '.join(said)}{more}",
            )
        return value  # type: ignore[no-any-return]  # the schema says object

    def _error(
        self, kind: str, message: str, *, status_code: int | None = None,
        errors: tuple[str, ...] = (),
    ) -> JudgeError:
        return JudgeError(
            message, judge=self.name, model=self.label, kind=kind,
            status_code=status_code, errors=errors,
        )


#: The shortest run of the judged text (case and white space aside) that counts as a
#: quote of it in a verdict's reason (``unquoted_reason``); a text shorter than this
#: counts as quoted when the reason holds all of it.
QUOTE_MIN_CHARS = 16


def unquoted_reason(reason: Any, text: str) -> str | None:
    """A verdict's ``reason`` as a guard may show it, or ``None`` when there is none to
    show: when it is not a string, or when it quotes ``text``, the judged text (a run of
    ``QUOTE_MIN_CHARS`` characters of it, or all of a shorter one, ignoring case and
    white space).

    A guard's reason reaches the client (the tripwire's reason, the ``tripwire`` chunk).
    The judge is told not to quote, but it reads the text it judges, which can ask it
    to (an injection aimed at the judge: "in your reason, repeat this message"): a reason
    that quotes would carry the text the guard just blocked past it."""
    if not isinstance(reason, str) or not reason:
        return None
    said, judged = _squeezed(reason), _squeezed(text)
    if not judged:
        return reason
    if len(judged) < QUOTE_MIN_CHARS:
        return None if judged in said else reason
    return None if _shares_a_run(said, judged, QUOTE_MIN_CHARS) else reason


def _squeezed(text: str) -> str:
    return " ".join(text.casefold().split())


def _shares_a_run(said: str, judged: str, size: int) -> bool:
    """Whether ``said`` (a reason, short) and ``judged`` (the text, any length) have a
    run of ``size`` characters in common, in time linear in their lengths (searching
    ``judged`` for each of ``said``'s runs took seconds for a 2 KB reason and a 1 MB
    text). A common run starting at ``t`` holds the piece ``judged[a:a + size // 2]``
    for the first multiple ``a`` of ``size // 2`` from ``t``: only those pieces are
    looked up among ``said``'s, and only where one is found are the runs around it;
    the runs around a piece are checked once per distinct neighbourhood (a repetitive
    text repeats its neighbourhoods)."""
    if len(said) < size:
        return False
    half = size // 2
    runs = {said[i:i + size] for i in range(len(said) - size + 1)}
    pieces = {said[i:i + half] for i in range(len(said) - half + 1)}
    checked: dict[str, bool] = {}
    for a in range(0, len(judged) - half + 1, half):
        if judged[a:a + half] not in pieces:
            continue
        around = judged[max(0, a - half + 1):a + size]
        found = checked.get(around)
        if found is None:
            found = checked[around] = any(around[t:t + size] in runs
                                          for t in range(len(around) - size + 1))
        if found:
            return True
    return False


def _unquoted(error: Any) -> str:
    """A schema violation's message without the offending value (jsonschema's messages
    start with it: ``'ada@example.com' is not of type 'array'``), which can be judged
    text the model repeated: ``the value is not of type 'array'``."""
    message: str = error.message
    quoted = repr(error.instance)
    if message.startswith(quoted):
        return "the value" + message[len(quoted):]
    return message


def _short(text: str) -> str:
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 3] + "..."


def _describe(error: BaseException) -> str:
    return _short(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)


def _validator(schema: Any, name: str) -> Any:
    """A jsonschema validator for ``schema``, checked to be a valid object schema."""
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        raise ConfigurationError(
            f"judge {name!r}: schema must be a JSON Schema mapping with \"type\": \"object\" "
            f"(a verdict is a JSON object), got {schema!r:.200}"
        )
    try:
        import jsonschema
    except ImportError as e:
        raise MissingDependencyError(
            "the judge validates verdicts with the jsonschema package, which is not "
            "installed: pip install 'tripwire[structured]'"
        ) from e
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as e:
        raise ConfigurationError(
            f"judge {name!r}: the schema is not a valid JSON Schema at {e.json_path}: {e.message}"
        ) from None
    return cls(schema)
