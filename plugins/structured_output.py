"""``structured-output``: make the final answer a validated JSON value.

The schema goes to the model twice: as ``structured_output`` on the model request
(``{"schema": ..., "name": ...}``, which providers with a native JSON mode use) and,
unless turned off, as a short system instruction for models without one. The final
answer (the last step that called no tools) is parsed - JSON in ``` fences or after
leading prose is found - and validated; the parsed value becomes ``result.object``
(and an ``object-result`` chunk, ``await stream.object``).

Validation happens in the output hooks, the schema reaches the model from
``process_input_step``, an input hook. The simplest use is the call option, which
puts one instance in both lists for that call::

    result = await agent.generate("...", structured_output=Invoice, max_processor_retries=2)

or put the same instance in both lists yourself (it keeps one ``state``, its id being
the same)::

    so = StructuredOutput(Invoice)
    Agent(..., input_processors=[so], output_processors=[so], max_processor_retries=2)

In ``output_processors`` alone it still validates and sets ``result.object``, but the
model is not told the schema.

JSON Schema validation uses the ``jsonschema`` package, an optional dependency:
``pip install 'tripwire[structured]'``. It is imported when a ``StructuredOutput`` is
built, so tripwire itself does not need it.
"""

from __future__ import annotations

import copy
import importlib
import json
import logging
import re
from collections.abc import Mapping
from typing import Any

import attrs
import cattrs
from cattrs.v import format_exception

from tripwire import Processor, ProcessorViolation, hookimpl, notify_violation
from tripwire.agent import OutputResult, StepResult
from tripwire.errors import ConfigurationError
from tripwire.guards.json_text import NoJSONFound, extract_json
from tripwire.guards.values import strings
from tripwire.messages import MessageList
from tripwire.messages.serde import structure
from tripwire.option_checks import check
from tripwire.results import response_text
from tripwire.tools import json_schema

__all__ = ["StructuredOutput", "extract_json", "NoJSONFound"]

log = logging.getLogger("tripwire.plugins.structured_output")

STRATEGIES = ("retry", "warn", "fallback")
_MAX_ERRORS = 10
#: a key jsonschema's json_path writes as ``.key``
_PLAIN_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


class StructuredOutput(Processor):
    """Validate the final output against a JSON Schema or an attrs class.

    Options:
        schema (dict | str | type, required): a JSON Schema (a mapping), an attrs class
            (its JSON Schema is derived; the parsed value is converted to an instance
            with cattrs), or ``"package.module:ClassName"`` naming such a class (for
            TOML).
        strategy (str, default ``"retry"``): what happens when the answer does not
            validate:

            - ``"retry"``: the step is rejected with ``abort(reason, retry=True)`` and
              the model is asked again, the validation errors as feedback. This needs
              ``max_processor_retries`` on the agent or the call; when it is unset or
              used up the run ends as a tripwire from ``structured-output``.
            - ``"warn"``: log a warning and call ``on_violation``; the text is kept and
              ``result.object`` is ``None``.
            - ``"fallback"``: like ``"warn"``, but ``result.object`` is ``fallback``.
        fallback (any, default ``None``): the object used by ``"fallback"`` (required
            for it, and it must itself match the schema; for an attrs class a mapping
            is converted to an instance).
        schema_name (str, default ``"output"``): the schema's name in the model request
            (1-64 letters, digits, ``_`` or ``-``, as providers require).
        instructions (bool, default ``True``): add a system message asking for JSON
            matching the schema at every step, for models without a native JSON mode.

    A run that ends with tool calls still pending (``max_steps`` reached) has no final
    answer: that is a validation failure too (a tripwire under ``"retry"``, since a
    retry can no longer be performed there).

    Put the same instance in ``input_processors`` (to send the schema to the model:
    ``process_input_step``) and ``output_processors`` (to validate).

    Example::

        so = StructuredOutput(Invoice)
        agent = Agent(..., input_processors=[so], output_processors=[so],
                      max_processor_retries=2)
        result = await agent.generate("Extract the invoice")
        result.object  # an Invoice
    """

    id = "structured-output"
    description = "Validates the final answer against a JSON Schema or attrs class"

    def __init__(
        self,
        schema: dict[str, Any] | str | type,
        strategy: str = "retry",
        fallback: Any = None,
        schema_name: str = "output",
        instructions: bool = True,
    ) -> None:
        jsonschema = _import_jsonschema()
        if isinstance(schema, str):
            schema = _import_class(schema)
        if isinstance(schema, type):
            if not attrs.has(schema):
                raise ConfigurationError(
                    f"structured-output: schema class {schema.__name__} is not an attrs class; "
                    f"pass an @attrs.define class or a JSON Schema mapping"
                )
            self.cls: type | None = schema
            try:
                self.schema: dict[str, Any] = json_schema(schema)
            except TypeError as e:
                raise ConfigurationError(
                    f"structured-output: cannot derive a JSON Schema from {schema.__name__}: {e}"
                ) from e
        elif isinstance(schema, Mapping):
            self.cls = None
            self.schema = copy.deepcopy(dict(schema))
        else:
            raise ConfigurationError(
                f"structured-output: schema must be a JSON Schema mapping, an attrs class or "
                f"'module:Class', got {type(schema).__name__}"
            )
        validator_cls = jsonschema.validators.validator_for(
            self.schema, default=jsonschema.Draft202012Validator
        )
        try:
            validator_cls.check_schema(self.schema)
        except jsonschema.SchemaError as e:
            raise ConfigurationError(
                f"structured-output: the schema is not a valid JSON Schema at {e.json_path}: "
                f"{e.message}"
            ) from None
        self._validator = validator_cls(self.schema)
        if strategy not in STRATEGIES:
            raise ConfigurationError(
                f"structured-output: unknown strategy {strategy!r}; valid: {', '.join(STRATEGIES)}"
            )
        if not isinstance(schema_name, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", schema_name):
            raise ConfigurationError(
                f"structured-output: schema_name must be 1-64 letters, digits, '_' or '-', "
                f"got {schema_name!r}"
            )
        check("instructions", instructions, bool, owner=self.id)
        self.strategy = strategy
        if strategy != "fallback" and fallback is not None:
            raise ConfigurationError(
                f"structured-output: fallback is only used with strategy 'fallback' (strategy "
                f"is {strategy!r})"
            )
        self.schema_name = schema_name
        self.instructions = instructions
        self.fallback = self._check_fallback(fallback) if strategy == "fallback" else None

    def __repr__(self) -> str:
        target = self.cls.__name__ if self.cls is not None else "JSON Schema"
        return f"StructuredOutput({target}, strategy={self.strategy!r})"

    def _check_fallback(self, fallback: Any) -> Any:
        if fallback is None:
            raise ConfigurationError(
                "structured-output: strategy 'fallback' needs a fallback value "
                "(the object result.object gets when the answer does not validate)"
            )
        if self.cls is not None and isinstance(fallback, self.cls):
            return fallback
        value, errors = self.validate(fallback)
        if errors:
            raise ConfigurationError(
                f"structured-output: the fallback value does not match the schema: "
                f"{'; '.join(errors)}"
            )
        return value

    # -- checking

    def validate(self, value: Any, *, hidden: frozenset[str] = frozenset()) -> tuple[Any, list[str]]:
        """``(object, [])`` when ``value`` (parsed JSON) matches, else ``(None, errors)``.
        The errors quote none of the strings in ``hidden`` (keys or values: each is
        ``'…'`` instead)."""
        errors = sorted(self._validator.iter_errors(value), key=lambda e: list(map(str, e.path)))
        if errors:
            lines = [f"{_json_path(e.absolute_path, hidden)}: {e.message}"
                     for e in errors[:_MAX_ERRORS]]
            if len(errors) > _MAX_ERRORS:
                lines.append(f"(and {len(errors) - _MAX_ERRORS} more errors)")
            return None, _without(lines, hidden)
        if self.cls is None:
            return value, []
        try:
            return structure(value, self.cls), []
        except Exception as e:  # cattrs wraps what the class's validators raise
            if isinstance(e, cattrs.BaseValidationError):
                lines = list(cattrs.transform_error(e, path="$", format_exception=_why))
            else:
                lines = [f"$: {type(e).__name__}: {e}"]
            return None, _without(lines, hidden)

    def check_text(self, text: str, shown: str | None = None) -> tuple[Any, list[str]]:
        """Extract JSON from a model's text and validate it. The errors (the model's
        feedback, the step-retry chunk, the tripwire's reason) quote no string of the
        answer that ``text`` does not show as written: one spelled with JSON escapes
        (``"\\u0040"``) was never seen by the guards that checked the streamed text.
        Nor one that ``shown``, the response as the conversation now holds it, does not
        show: a guard listed before this processor redacted or removed it there
        (``pii-detector`` with ``phases=["step"]``), and the reason is not to bring it
        back to the client."""
        try:
            value = extract_json(text)
        except NoJSONFound as e:
            return None, [str(e)]
        hidden = _unseen(value, text)
        if shown is not None and shown != text:
            hidden |= _unseen(value, shown)
        return self.validate(value, hidden=hidden)

    def _feedback(self, errors: list[str]) -> str:
        return (
            "Your answer is not valid structured output: " + "; ".join(errors)
            + ". Reply again with only a JSON value that matches the required JSON Schema."
        )

    # -- hooks

    @hookimpl
    def process_input_step(self, system_messages: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {"structured_output": {"schema": self.schema, "name": self.schema_name}}
        if self.instructions:
            out["system_messages"] = [*system_messages, {
                "role": "system",
                "content": "Reply with only a JSON value (no prose) that matches this JSON "
                           "Schema:\n" + json.dumps(self.schema, separators=(",", ":")),
            }]
        return out

    @hookimpl
    def process_output_step(
        self, text: str, tool_calls: list[Any], message_list: MessageList,
        state: dict[str, Any], abort: Any,
    ) -> None:
        if self.strategy != "retry" or tool_calls:
            return None
        value, errors = self.check_text(text, response_text(message_list))
        state["checked"] = (text, value, errors)
        if errors:
            abort(self._feedback(errors), retry=True, metadata={"errors": errors})
        return None

    @hookimpl
    async def process_output_result(
        self, result: OutputResult, state: dict[str, Any], abort: Any
    ) -> None:
        final = _final_step(result.steps)
        if final is None or final.tool_calls:
            value, errors = None, [
                "the run ended before a final answer (tool calls were still pending; "
                "raise max_steps)" if final is not None else "the run produced no answer"
            ]
        elif state.get("checked", (None,))[0] == final.text:
            _, value, errors = state["checked"]
        else:
            value, errors = self.check_text(final.text, result.text)
        if not errors:
            result.object = value
            return
        message = "The final answer is not valid structured output: " + "; ".join(errors)
        if self.strategy == "retry":  # too late to retry here: the run ends as a tripwire
            abort(message, metadata={"errors": errors})
        if self.strategy == "fallback":
            result.object = copy.deepcopy(self.fallback)
            log.warning("%s (using the fallback value)", message)
        else:
            log.warning("%s", message)
        await notify_violation(self, ProcessorViolation(self.id, message, {
            "errors": errors, "strategy": self.strategy, "text": final.text if final else "",
        }))


def _why(error: BaseException, type_: Any) -> str:
    # A class-level error (an attrs validator) carries its own message; cattrs' generic
    # "invalid value" would hide it from the model.
    if type_ is None and str(error):
        return str(error)
    return format_exception(error, type_)


def _unseen(value: Any, text: str) -> frozenset[str]:
    """The strings of ``value`` (keys too) that ``text`` does not hold as plain JSON."""
    return frozenset(s for s in strings(value)
                     if json.dumps(s, ensure_ascii=False)[1:-1] not in text)


def _json_path(path: Any, hidden: frozenset[str]) -> str:
    """jsonschema's ``json_path``, with a key in ``hidden`` shown as ``['…']``."""
    out = "$"
    for elem in path:
        if isinstance(elem, int):
            out += f"[{elem}]"
        elif elem in hidden:
            out += "['…']"
        elif _PLAIN_KEY.fullmatch(elem):
            out += "." + elem
        else:
            out += "['" + elem.replace("\\", "\\\\").replace("'", "\\'") + "']"
    return out


def _without(lines: list[str], hidden: frozenset[str]) -> list[str]:
    """``lines`` with each string of ``hidden`` quoted in them (``repr``, as jsonschema
    and cattrs quote a value or key) shown as ``'…'``, the longest first."""
    for s in sorted(hidden, key=len, reverse=True):
        quoted = repr(s)
        lines = [line.replace(quoted, "'…'") for line in lines]
    return lines


def _final_step(steps: list[StepResult]) -> StepResult | None:
    accepted = [s for s in steps if s.tripwire is None]
    return accepted[-1] if accepted else None


# ---------------------------------------------------------------- imports


def _import_jsonschema() -> Any:
    try:
        import jsonschema
    except ImportError as e:
        raise ConfigurationError(
            "structured-output validates with the jsonschema package, which is not "
            "installed: pip install 'tripwire[structured]'"
        ) from e
    return jsonschema


def _import_class(path: str) -> type:
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise ConfigurationError(
            f"structured-output: schema {path!r} must be 'package.module:ClassName' "
            f"(or a JSON Schema table)"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ConfigurationError(
            f"structured-output: cannot import module {module_name!r} for schema {path!r}: {e}"
        ) from e
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ConfigurationError(
                f"structured-output: module {module_name!r} has no {attr!r} (schema {path!r})"
            ) from None
    if not isinstance(obj, type):
        raise ConfigurationError(
            f"structured-output: schema {path!r} names a {type(obj).__name__}, not a class"
        )
    return obj
