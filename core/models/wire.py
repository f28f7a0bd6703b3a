"""Helpers the wire formats share: reading what a server sent without trusting its
shape, and mapping tools, tool choice, tool calls and files.

A server can send anything: JSON nested 100,000 levels deep, a list where an object
belongs, a number where text belongs. ``load_json`` and the ``as_*`` readers turn all
of that into ``WireError`` (a ``ValueError`` naming the field, what is valid and what
came), which the transport reports as ``APICallError``; nothing the server sends can
surface as a bare ``RecursionError``, ``KeyError`` or ``TypeError``.

Public: a provider of your own, the gateway and processors that read JSON from a
server use the same readers.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

from tripwire.chunks import MAX_TOKEN_COUNT, TOOL_CALL_ID, Chunk
from tripwire.errors import ConfigurationError

logger = logging.getLogger("tripwire.models")

#: Tool-call arguments may nest at most this deep (objects and arrays). Deeper
#: arguments are reported with ``args_error``: no real tool schema comes near it,
#: and such values break every recursive serialiser later in the run.
MAX_ARGS_DEPTH = 100


class WireError(ValueError):
    """What a server sent does not have the shape of its wire format; ``field``: the
    field that is wrong (``messages[0].content``), where one is named."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class TooLarge(Exception):
    """Something a server sent grew past ``max_event_bytes``: ``what`` it was ("a
    stream event", "tool-call arguments"), ``size`` read of it so far, the ``limit``."""

    def __init__(self, what: str, size: int, limit: int) -> None:
        super().__init__(f"{what} of more than {limit} bytes ({size} bytes read so far)")
        self.what = what
        self.size = size
        self.limit = limit


def grow(size: int, more: int, limit: int, what: str) -> int:
    """``size + more``, or ``TooLarge`` when that passes ``limit``: for things a
    parser assembles from many events (tool-call arguments, a thinking block)."""
    size += more
    if size > limit:
        raise TooLarge(what, size, limit)
    return size


# ---------------------------------------------------------------- reading server data


def load_json(text: str | bytes, *, constants: bool = True, strict: bool = False) -> Any:
    """``json.loads`` whose failures are all ``ValueError`` (too deep nesting too);
    ``constants=False``: ``NaN``, ``Infinity`` and ``-Infinity``, which Python's reader
    takes and JSON does not, are such failures too. ``strict``: so is an object with a
    key twice (Python's reader keeps the last value, other readers the first: what one
    checked need not be what another acts on).

    One decoder per combination of options reads every text (``json.loads`` with
    options builds a new one, scanner and all, each call: about 10 µs, once per
    request the gateway reads); text as ``json.loads`` takes it: bytes in the UTF
    encoding they are in, no byte order mark before a ``str``."""
    decoder = _DECODERS[constants, strict]
    try:
        if isinstance(text, bytes | bytearray):
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        elif not isinstance(text, str) or text.startswith("\ufeff"):
            return json.loads(text)  # (its own error for these)
        return decoder.decode(text)
    except RecursionError:
        raise WireError("JSON nested too deeply to parse") from None


#: A surrogate code point (U+D800-U+DFFF): half of a UTF-16 pair, never a character of
#: its own; text holding one cannot be encoded as UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")
#: How a surrogate can be spelt in UTF-8 JSON text: a ``\\uD800``-``\\uDFFF`` escape, or
#: the three bytes of one encoded as if it were a character (which ``json.loads`` of
#: bytes takes).
_SURROGATE_SPELLING = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")


def unpaired_surrogate(value: Any, raw: bytes | None = None) -> str | None:
    """Where a decoded JSON ``value`` holds a surrogate code point that is no part of a
    character (``json.loads`` joins an escaped pair, ``"\\ud83d\\ude00"``, into its
    emoji; a half alone, ``"\\ud800"``, stays one): the path of the first string or key
    holding one (``messages[0].content``, ``$`` for the value itself), or None. ``raw``:
    the UTF-8 text ``value`` was decoded from, when that cannot spell one, nothing is
    walked."""
    if raw is not None and json.detect_encoding(raw) == "utf-8" \
            and _SURROGATE_SPELLING.search(raw) is None:
        return None
    pending: list[tuple[Any, str]] = [(value, "")]
    while pending:
        node, path = pending.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                return path or "$"
        elif isinstance(node, dict):
            items = []
            for key, item in node.items():
                where = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and _SURROGATE.search(key):
                    return f"a key in {path or '$'}"
                items.append((item, where))
            pending.extend(reversed(items))
        elif isinstance(node, list):
            pending.extend(reversed([(item, f"{path}[{i}]") for i, item in enumerate(node)]))
    return None


def valid_text(text: str) -> str:
    """``text`` with each surrogate pair it holds as the character the pair encodes and
    each surrogate alone as U+FFFD (the replacement character), so that it can be
    encoded as UTF-8: what a server sent (``"\\ud800"`` escapes are JSON) is never
    passed on as text no client can decode."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def valid_value(value: Any) -> Any:
    """``value`` (a JSON-like value: dicts, lists, strings, ...) with every string and key
    as ``valid_text``; the same object when nothing needed changing."""
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, dict | list) and not may_hold_surrogate(value):
        return value
    return _valid_walk(value)


def _valid_walk(value: Any) -> Any:
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, dict):
        changed = {valid_text(k) if isinstance(k, str) else k: _valid_walk(v)
                   for k, v in value.items()}
        same = all(a is b for a, b in zip(changed, value, strict=True)) and all(
            changed[k] is v for k, v in zip(changed, value.values(), strict=True))
        return value if same else changed
    if isinstance(value, list):
        items = [_valid_walk(v) for v in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


def _nothing(value: Any) -> None:
    return None


#: Every string and key of a JSON-like value as one text, in one pass of JSON's C
#: encoder (values of other types as ``null``; a key JSON cannot write raises, and the
#: value is walked instead: skipping it would skip its value too): what
#: ``may_hold_surrogate`` searches.
_ALL_TEXT = json.JSONEncoder(ensure_ascii=False, check_circular=False,
                             default=_nothing).encode


def may_hold_surrogate(value: Any) -> bool:
    """Whether ``value`` (dicts, lists, strings, anything else) may hold a surrogate in a
    string or a key that ``valid_value`` would replace: False only when none of them
    holds one. One C pass over the value instead of a walk in Python (a model call's
    ``finish`` chunk, with the response's headers and the provider's metadata, is read
    in a fifth of the time); a value JSON's encoder cannot read is walked instead."""
    try:
        text = _ALL_TEXT(value)
    except Exception:  # (a cycle, a key or value JSON cannot encode): the walk decides
        return True
    return not text.isascii() and _SURROGATE.search(text) is not None


class ValidUnicode:
    """One model call's chunks as text every client can decode: a server may send an
    emoji as its two surrogate halves in two events (``"\\ud83d"``, then
    ``"\\ude00"``: JSON escapes of code units, which some servers cut text into), or a
    half alone. Halves of one text or reasoning part are joined across chunks; a half
    alone, anywhere in a chunk (tool-call arguments, names, metadata), becomes U+FFFD.
    A text that passes no surrogate costs one ``isascii()`` (or one search) a chunk."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        #: (chunk type, part id) -> the first half of a pair that ended its last delta
        self._held: dict[tuple[str, Any], str] = {}

    def delta(self, chunk: Chunk) -> Chunk | None:
        """A ``text-delta`` or ``reasoning-delta`` as valid text (None: nothing of it is
        whole yet, its only character is the first half of a pair)."""
        payload = chunk.payload
        text = payload["text"]
        if not self._held and (text.isascii() or _SURROGATE.search(text) is None):
            return chunk
        key = (chunk.type, payload.get("id"))
        text = self._held.pop(key, "") + text
        if text and "\ud800" <= text[-1] <= "\udbff":  # its pair may start the next delta
            self._held[key] = text[-1]
            text = text[:-1]
        if not text and payload.keys() <= {"id", "text"}:
            return None
        return Chunk(chunk.type, valid_value({**payload, "text": text}), chunk.run_id)

    def other(self, chunk: Chunk) -> Chunk:
        """Any other chunk with every string in its payload valid (``request``, what
        tripwire sent, aside)."""
        payload = chunk.payload
        if not may_hold_surrogate([v for k, v in payload.items() if k != "request"]):
            return chunk
        fixed = {k: v if k == "request" else valid_value(v) for k, v in payload.items()}
        if all(fixed[k] is v for k, v in payload.items()):
            return chunk
        return Chunk(chunk.type, fixed, chunk.run_id)

    def rest(self, run_id: str | None = None) -> list[Chunk]:
        """A U+FFFD delta for each first half whose pair never came (before ``finish``),
        in run ``run_id``."""
        held, self._held = self._held, {}
        return [Chunk(kind, {"id": part, "text": "\ufffd"}, run_id) for kind, part in held]


def _no_constant(name: str) -> Any:
    raise WireError(f"{name} is not JSON")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise WireError(f"an object has the key {key!r:.60} twice")
            seen.add(key)
    return value


#: ``load_json``'s decoders, by ``(constants, strict)``.
_DECODERS = {
    (constants, strict): json.JSONDecoder(
        parse_constant=None if constants else _no_constant,
        object_pairs_hook=_unique if strict else None)
    for constants in (True, False) for strict in (True, False)
}


#: The C scanner under ``json.loads`` (what ``JSONDecoder.raw_decode`` calls; the
#: stubs do not declare the attribute).
_scan_once: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def event_object(data: str) -> dict[str, Any]:
    """One stream event's data as a JSON object; ``ValueError`` for anything else.

    This runs once per streamed event. The usual event, an object with nothing around
    it, is read by JSON's scanner directly (``json.loads`` reaches it through three
    Python functions and two regular-expression matches); anything else (whitespace
    around it, data after it, a value that is not an object, any error) is read again
    by ``load_json``, whose value or error is the answer: the same either way."""
    try:
        value, end = _scan_once(data, 0)
    except Exception:  # (StopIteration: no value at 0) the slow path raises its error
        pass
    else:
        if end == len(data) and type(value) is dict:
            return value
    value = load_json(data)
    if not isinstance(value, dict):
        raise WireError(f"an event must be a JSON object, got {kind_of(value)}")
    return value


def kind_of(value: Any) -> str:
    """What a JSON value is, for messages: "an object", "a string", "null", ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return _KINDS.get(type(value), type(value).__name__)


_KINDS: dict[type, str] = {dict: "an object", list: "an array", str: "a string"}


# ``where`` names the field in the error, e.g. "choices[%d].delta"; it is formatted
# with ``args`` only on error, so a check costs next to nothing on the hot path.


def as_object(value: Any, where: str, *args: Any) -> dict[str, Any]:
    """``value`` if it is a JSON object, ``{}`` for null; else ``WireError``."""
    if value is None:
        return {}
    if type(value) is not dict:
        raise WireError(f"{where % args} must be an object or null, got {kind_of(value)}", where % args)
    return value


def as_list(value: Any, where: str, *args: Any) -> list[Any]:
    """``value`` if it is a JSON array, ``[]`` for null; else ``WireError``."""
    if value is None:
        return []
    if type(value) is not list:
        raise WireError(f"{where % args} must be an array or null, got {kind_of(value)}", where % args)
    return value


def as_text(value: Any, where: str, *args: Any) -> str | None:
    """``value`` if it is a string, ``None`` for null; else ``WireError``."""
    if value is None or type(value) is str:
        return value
    raise WireError(f"{where % args} must be a string or null, got {kind_of(value)}", where % args)


def as_index(value: Any, where: str, *args: Any) -> int:
    """A non-negative integer position (0 for null); else ``WireError``."""
    if value is None:
        return 0
    if type(value) is not int or value < 0:
        raise WireError(f"{where % args} must be a non-negative integer, got {value!r:.50}", where % args)
    return value


def part_id(server_id: str | None, fallback: str) -> str:
    """The base of the ids of a response's text and reasoning parts (``<base>:text``):
    the id the server gave its response (``chatcmpl-...``, ``msg_...``) when it has the
    shape of one (``tripwire.chunks.TOOL_CALL_ID``), else ``fallback``. A stream
    consumer reads a part's id and no guard checks it, so no free text a server puts
    in its response id (an address, a sentence) reaches one through it."""
    if server_id is not None and TOOL_CALL_ID.fullmatch(server_id):
        return server_id
    return fallback


def token_count(usage: Mapping[str, Any], key: str, where: str = "usage") -> int:
    """A token count from a usage object (0 when absent): the one check of the usage
    figures every provider reads, streamed or not.

    A count is a whole number from 0 to ``MAX_TOKEN_COUNT`` (``12.0`` is 12). Anything
    else - ``1e20``, ``-3``, ``2.5``, ``true``, ``"12"``, NaN - is no count a call can
    have used: it is logged as a warning and read as ``MAX_TOKEN_COUNT``, so a budget
    charges the call at that bound and trips (``tripwire.chunks.out_of_range``) instead
    of overflowing its counters, failing the run after the answer streamed, or letting
    the call go uncharged.
    """
    value = usage.get(key)
    if value is None:
        return 0
    if type(value) is int and 0 <= value <= MAX_TOKEN_COUNT:
        return value
    if type(value) is float and value.is_integer() and 0 <= value <= MAX_TOKEN_COUNT:
        return int(value)
    logger.warning(
        "%s.%s is not a token count (a whole number from 0 to %d): %.50r; counted as %d, "
        "so a budget charges the call at that bound and trips",
        where, key, MAX_TOKEN_COUNT, value, MAX_TOKEN_COUNT,
    )
    return MAX_TOKEN_COUNT


def optional_count(usage: Mapping[str, Any], key: str, where: str = "usage") -> int | None:
    """Like ``token_count`` but ``None`` when absent."""
    return None if usage.get(key) is None else token_count(usage, key, where)


def nesting_depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests objects and arrays, counted up to ``limit + 1``
    (iteratively: no recursion however deep)."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        if not isinstance(node, dict | list):
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        children = node.values() if isinstance(node, dict) else node
        pending.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


# ---------------------------------------------------------------- tool calls


def parse_tool_args(text: str) -> tuple[dict[str, Any], str | None]:
    """A tool call's JSON arguments as a dict, and the parse error (``None`` if fine).

    Empty text means no arguments. Text that is not a JSON object (or nests deeper
    than ``MAX_ARGS_DEPTH``) gives ``{}`` plus the error, so the caller can pass the
    raw text along instead of failing the call.
    """
    if not text.strip():
        return {}, None
    try:
        value = load_json(text)
    except ValueError as e:
        return {}, f"arguments are not valid JSON: {e}"
    if not isinstance(value, dict):
        return {}, f"arguments must be a JSON object, got {kind_of(value)}"
    if nesting_depth(value, MAX_ARGS_DEPTH) > MAX_ARGS_DEPTH:
        return {}, f"arguments nest deeper than {MAX_ARGS_DEPTH} levels"
    return value, None


def tool_call_chunk(tool_call_id: str, tool_name: str, raw_args: str,
                    run_id: str | None = None) -> Chunk:
    """A ``tool-call`` chunk from the model's raw argument text, in run ``run_id``
    (``ModelRequest.run_id``).

    Arguments that are not a JSON object become ``args = {}`` with the model's text
    under ``raw_args`` and the reason under ``args_error``, instead of failing the
    whole call: the agent (or a processor) can hand the error back to the model.
    """
    args, error = parse_tool_args(raw_args)
    payload: dict[str, Any] = {"tool_call_id": tool_call_id, "tool_name": tool_name, "args": args}
    if error is not None:
        payload["raw_args"] = raw_args
        payload["args_error"] = error
    return Chunk("tool-call", payload, run_id)


def args_text(value: Any) -> str:
    """Tool arguments a server sent as a JSON value instead of text, as text
    (``""`` for null). A value too deep to encode gives text that fails to parse,
    so it ends up as an ``args_error``."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (RecursionError, TypeError, ValueError):
        return "<arguments that cannot be encoded as JSON>"


# ---------------------------------------------------------------- request mapping


def structured_output_schema(value: Any) -> tuple[str, dict[str, Any]] | None:
    """``(name, JSON Schema)`` from ``ModelRequest.structured_output``:
    ``{"schema": {...}, "name": "..."}`` (what the structured-output processor sends)
    or a bare JSON Schema mapping; ``None`` when there is none."""
    if value is None:
        return None
    if isinstance(value, Mapping) and isinstance(value.get("schema"), Mapping):
        schema, name = dict(value["schema"]), value.get("name") or "response"
    elif isinstance(value, Mapping) and ("type" in value or "properties" in value):
        schema, name = dict(value), "response"
    else:
        raise ConfigurationError(
            f"structured_output must be {{'schema': <JSON Schema>, 'name': str}} or a JSON "
            f"Schema mapping, got {value!r:.200}"
        )
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(name))[:64] or "response"
    return name, schema


def tool_choice_name(tool_choice: Any, tools: list[Any]) -> str | None:
    """Validate ``tool_choice``; return the forced tool's name for ``{"type": "tool"}``.

    Valid: ``None``, ``"auto"``, ``"none"``, ``"required"``,
    ``{"type": "tool", "tool_name": name}`` where ``name`` is one of ``tools``.
    """
    if tool_choice is None or tool_choice in ("auto", "none", "required"):
        return None
    if isinstance(tool_choice, Mapping) and tool_choice.get("type") == "tool":
        name = tool_choice.get("tool_name")
        names = [t.name for t in tools]
        if name not in names:
            raise ConfigurationError(
                f"tool_choice names tool {name!r}, which is not among this call's tools: "
                f"{names or 'none'}"
            )
        return name
    raise ConfigurationError(
        f"tool_choice must be 'auto', 'none', 'required' or "
        f"{{'type': 'tool', 'tool_name': name}}, got {tool_choice!r}"
    )


def tool_output_text(output: Any) -> str:
    """A tool result as the text a provider expects: strings as they are, else JSON
    (``tripwire.messages.serde.plain_value``: an attrs or dataclass instance as its fields,
    bytes as their UTF-8 text), the same text on the turn the tool ran and on a later
    one that reads it back from memory."""
    from tripwire.messages.serde import plain_value

    if isinstance(output, str):
        return output
    try:
        output = plain_value(output, for_model=True)
        if isinstance(output, str):
            return output
        return json.dumps(output, ensure_ascii=False, default=str)
    except (RecursionError, TypeError, ValueError):
        return str(output)


def tool_input_text(i: int, message: Any, value: Any) -> str:
    """An assistant tool call's input as JSON text, or a ``ConfigurationError``
    naming the prompt message when it cannot be encoded."""
    try:
        return json.dumps(value or {}, ensure_ascii=False)
    except (RecursionError, TypeError, ValueError) as e:
        raise prompt_error(i, message, f"has a tool-call whose input cannot be encoded as JSON ({e})") from None


def file_url(part: Mapping[str, Any]) -> str:
    """An ``http(s):`` or ``data:`` URL for a file part (base64 data becomes a data URL)."""
    data = part.get("data")
    if not isinstance(data, str):
        raise ConfigurationError(
            f"a file part needs 'data' as a base64 string or a URL, got {type(data).__name__}"
        )
    if data.startswith(("http://", "https://", "data:")):
        return data
    return f"data:{part.get('media_type')};base64,{data}"


def prompt_error(i: int, message: Any, why: str) -> ConfigurationError:
    try:
        shown = repr(message)
    except RecursionError:
        shown = f"<{type(message).__name__} too deep to show>"
    if len(shown) > 200:
        shown = shown[:200] + "..."
    return ConfigurationError(f"prompt[{i}] {why}: {shown}")


#: Maps one message's parts (its index, the message, its list of parts) to the items
#: an API sends for it.
PartsMapper = Callable[[int, Mapping[str, Any], list[Any]], list[dict[str, Any]]]


def map_prompt(prompt: Any, *, user: PartsMapper, assistant: PartsMapper,
               tool_result: Callable[[Mapping[str, Any]], dict[str, Any]]
               ) -> list[dict[str, Any]]:
    """The provider-facing prompt (API.md section 6) as an OpenAI API's items, its
    shape checked here once for every API: system messages and string contents become
    ``{"role", "content"}`` items, a user's or an assistant's list of parts goes to
    ``user`` / ``assistant``, each part of a tool message (a tool result) to
    ``tool_result``. Anything else is a ``ConfigurationError`` naming the message."""
    if not isinstance(prompt, list):
        raise ConfigurationError(f"prompt must be a list of messages, got {type(prompt).__name__}")
    out: list[dict[str, Any]] = []
    for i, message in enumerate(prompt):
        if not isinstance(message, Mapping):
            raise prompt_error(i, message, "is not a message mapping")
        role = message.get("role")
        content = message.get("content")
        if role == "system":
            if not isinstance(content, str):
                raise prompt_error(i, message, "is a system message whose content is not a string")
            out.append({"role": "system", "content": content})
            continue
        if isinstance(content, str):
            if role not in ("user", "assistant"):
                raise prompt_error(i, message, f"has role {role!r} with string content")
            out.append({"role": role, "content": content})
            continue
        if not isinstance(content, list):
            raise prompt_error(i, message, "needs 'content' as a list of parts")
        if role == "user":
            out += user(i, message, content)
        elif role == "assistant":
            out += assistant(i, message, content)
        elif role == "tool":
            for part in content:
                if not isinstance(part, Mapping) or part.get("type") != "tool-result":
                    raise prompt_error(i, message, "is a tool message with a part that is not "
                                                   "a tool-result")
                out.append(tool_result(part))
        else:
            raise prompt_error(
                i, message, f"has unknown role {role!r} (valid: system, user, assistant, tool)")
    return out
