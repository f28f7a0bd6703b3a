"""The machinery behind ``pii-detector`` (``tripwire.plugins.pii_detector``): the
reference's redaction formats, walks over messages, prompts and nested tool values,
the stream's hold-back window, and the ``tokenize`` strategy (``Vault``,
``Tokenizer``).

Private; the behaviour is documented in ``docs/processors/pii-detector.md``.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import attrs

from tripwire.chunks import Chunk
from tripwire.errors import ConfigurationError
from tripwire.guardrails import Detection, Detector, merge
from tripwire.holdback import HoldBack, Match, joint_hold_from
from tripwire.messages import Message, MessageList, ReasoningPart, TextPart, ToolInvocationPart
from tripwire.results import response_text

#: ``find(text)``: the detections in a text.
Search = Callable[[str], list[Detection]]
#: ``find(text, state)``: the detections in a text, in the call whose ``state`` it is.
Find = Callable[[str, dict[str, Any]], list[Detection]]

# ------------------------------------------------------------------ formats

#: The redaction methods, as ``redaction_method`` names them.
METHODS = ("mask", "hash", "remove", "placeholder")

_HEX = re.compile(r"[0-9a-fA-F]")


def label(kind: str) -> str:
    """A detection type as placeholders spell it: ``credit-card`` -> ``CREDIT_CARD``."""
    return kind.upper().replace("-", "_")


def mask(kind: str, value: str, preserve_format: bool = True) -> str:
    """``value`` (a detection of type ``kind``) masked the reference's way.

    email: the local part keeps its first and last character (``***`` when it has two
    or fewer), the first domain label becomes ``*``, the rest is kept
    (``test@example.com`` -> ``t**t@*******.com``); phone: every digit before the last
    four characters becomes ``X`` (``(555) 123-4567`` -> ``(XXX) XXX-4567``);
    credit-card and ssn: the same with ``*``; uuid: every hex digit becomes ``*``;
    crypto-wallet: the first and last 4 characters kept; iban: the first 2 and last 4
    kept; anything else: the first and last character kept (``*`` only up to 3
    characters). Without ``preserve_format``: ``*`` times the length, at most 8.
    """
    n = len(value)
    if not preserve_format:
        return "*" * min(n, 8)
    if kind == "email" and "@" in value:
        local, _, domain = value.rpartition("@")
        local = local[0] + "*" * (len(local) - 2) + local[-1] if len(local) > 2 else "***"
        first, dot, rest = domain.partition(".")
        return f"{local}@{'*' * len(first)}{dot}{rest}"
    if kind == "phone":
        return _digits_before_last_four(value, "X")
    if kind in ("credit-card", "ssn"):
        return _digits_before_last_four(value, "*")
    if kind == "uuid":
        return _HEX.sub("*", value)
    if kind == "crypto-wallet" and n > 8:
        return value[:4] + "*" * (n - 8) + value[-4:]
    if kind == "iban" and n > 6:
        return value[:2] + "*" * (n - 6) + value[-4:]
    if n <= 3 or kind in ("crypto-wallet", "iban"):
        return "*" * n
    return value[0] + "*" * (n - 2) + value[-1]


def _digits_before_last_four(value: str, char: str) -> str:
    cut = len(value) - 4
    return "".join(char if i < cut and c.isdigit() else c for i, c in enumerate(value))


def redact(kind: str, value: str, method: str, preserve_format: bool = True) -> str:
    """The replacement of ``value``: ``mask`` (above), ``hash``
    (``[HASH:<first 8 hex digits of its sha256>]``), ``placeholder`` (``[EMAIL]``,
    ``[CREDIT_CARD]``) or ``remove`` (nothing)."""
    if method == "mask":
        return mask(kind, value, preserve_format)
    if method == "hash":
        return f"[HASH:{hashlib.sha256(value.encode()).hexdigest()[:8]}]"
    if method == "placeholder":
        return f"[{label(kind)}]"
    if method == "remove":
        return ""
    raise ValueError(f"unknown redaction method {method!r}; valid: {', '.join(METHODS)}")


def splice(text: str, detections: Iterable[Detection],
           replacement: Callable[[Detection, str], str]) -> str:
    """``text`` with each detection (non-overlapping, in order) replaced by
    ``replacement(detection, the text it covers)``."""
    out: list[str] = []
    pos = 0
    for d in detections:
        out.append(text[pos:d.start])
        out.append(replacement(d, text[d.start:d.end]))
        pos = d.end
    out.append(text[pos:])
    return "".join(out)


# ------------------------------------------------------------------ the judge's findings

#: What separates the words of a quoted value: whitespace, or the escapes a model
#: may copy from a JSON rendering of a tool value (``\\n``).
_GAP = re.compile(r"(?:\s|\\[nrt])+")


@functools.lru_cache(maxsize=4096)
def value_patterns(value: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """How to find a value the judge quoted: its words in order, any whitespace between
    them (a model may put an address on one line), not inside a longer word (``Ann`` is
    not found in ``Annual``); exactly as quoted, then ignoring case. ``None`` for a
    value with fewer than two letters or digits (it would be found everywhere)."""
    words = [w for w in _GAP.split(value) if w]
    if sum(c.isalnum() for w in words for c in w) < 2:
        return None
    body = r"\s+".join(map(re.escape, words))
    before = r"(?<!\w)" if re.match(r"\w", words[0]) else ""
    after = r"(?!\w)" if re.search(r"\w$", words[-1]) else ""
    pattern = before + body + after
    return re.compile(pattern), re.compile(pattern, re.IGNORECASE)


def locate(text: str, findings: Iterable[tuple[str, str]], detector: str) -> list[Detection]:
    """Every occurrence in ``text`` of each ``(type, value)`` the judge found, as a
    detection (score 1.0): where the value is written exactly as quoted, or, when it is
    nowhere written so, where it is written in another case. A value that does not occur
    is not reported (the model may have quoted it wrong, or it is in another text of
    the same message)."""
    out: list[Detection] = []
    for kind, value in findings:
        patterns = value_patterns(value)
        if patterns is None:
            continue
        for pattern in patterns:
            matches = list(pattern.finditer(text))
            if matches:
                out.extend(Detection(kind, m.start(), m.end(), 1.0, detector, m.group())
                           for m in matches)
                break
    return out


def combine(text: str, found: list[Detection], judged: list[Detection]) -> list[Detection]:
    """The deterministic detections ``found`` (merged, non-overlapping) with the judge's
    added where they do not overlap: a judge detection overlapping a deterministic one
    keeps only the parts outside it (each part with letters or digits). So every
    deterministic detection stays, with its type, and whatever the judge found is
    covered too. In text order, each with its value."""
    taken = [(d.start, d.end) for d in found]
    extra: list[Detection] = []
    for d in merge(judged):
        pos = d.start
        pieces: list[tuple[int, int]] = []
        for s, e in taken:
            if e <= pos or s >= d.end:
                continue
            pieces.append((pos, s))
            pos = max(pos, e)
        pieces.append((pos, d.end))
        for s, e in pieces:
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if any(c.isalnum() for c in text[s:e]):
                extra.append(attrs.evolve(d, start=s, end=e, value=text[s:e]))
    return sorted([*found, *extra], key=lambda d: d.start)


# ------------------------------------------------------------------ walks


def walk(value: Any, change: Callable[[str], str]) -> Any:
    """``value`` with ``change`` applied to every string in it, through dicts (keys
    and values), lists and tuples; ``value`` itself (the same object) when no string
    changed, so an unchanged tool argument or result is passed on as it was."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        items = [(walk(k, change), walk(v, change)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, list | tuple):
        new = [walk(v, change) for v in value]
        if all(a is b for a, b in zip(new, value, strict=True)):
            return value
        if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
            return type(value)(*new)
        return type(value)(new)
    return value


def strings(value: Any) -> Iterable[str]:
    """Every string in ``value``, as ``walk`` visits them."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def edit_message(message: Message, change: Callable[[str], str]) -> None:
    """Apply ``change`` to every text of ``message`` in place: text and reasoning
    parts, tool calls' arguments and results (a new ``ToolInvocation``, so the
    arguments a pending call runs with are not touched), ``content.content``."""
    for part in message.content.parts:
        if type(part) is TextPart or type(part) is ReasoningPart:
            new = change(part.text)
            if new is not part.text:
                part.text = new
        elif type(part) is ToolInvocationPart:
            inv = part.tool_invocation
            args, result = walk(inv.args, change), walk(inv.result, change)
            if args is not inv.args or result is not inv.result:
                part.tool_invocation = attrs.evolve(inv, args=args, result=result)
    content = message.content.content
    if isinstance(content, str):
        new = change(content)
        if new is not content:
            message.content.content = new


def message_strings(message: Message) -> Iterable[str]:
    """The texts ``edit_message`` visits."""
    for part in message.content.parts:
        if type(part) is TextPart or type(part) is ReasoningPart:
            yield part.text
        elif type(part) is ToolInvocationPart:
            yield from strings(part.tool_invocation.args)
            yield from strings(part.tool_invocation.result)
    if isinstance(message.content.content, str):
        yield message.content.content


#: Where values sit in a prompt part (the rest, ids, names, file data, is left alone).
_PROMPT_KEYS = {"text": "text", "reasoning": "text", "tool-call": "input",
                "tool-result": "output"}


def prompt_strings(entry: dict[str, Any]) -> Iterable[str]:
    """The texts of one prompt message that ``prompt_content`` visits."""
    content = entry.get("content")
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for part in content:
            key = _PROMPT_KEYS.get(str(part.get("type"))) if isinstance(part, dict) else None
            if key is not None:
                yield from strings(part.get(key))


def prompt_content(content: Any, change: Callable[[str], str]) -> Any:
    """A prompt message's content with ``change`` applied to its texts, tool inputs
    and outputs (new dicts where something changed: the prompt is not the stored
    history); ``content`` itself when nothing changed."""
    if isinstance(content, str):
        return change(content)
    if not isinstance(content, list):
        return content
    out = []
    for part in content:
        key = _PROMPT_KEYS.get(str(part.get("type"))) if isinstance(part, dict) else None
        if key is not None and key in part:
            value = walk(part[key], change)
            part = part if value is part[key] else {**part, key: value}
        out.append(part)
    return content if all(a is b for a, b in zip(out, content, strict=True)) else out


# ------------------------------------------------------------------ the stream

#: The delta chunk types a hold-back window holds, by HoldBack channel.
DELTA_CHANNEL = {"text-delta": "text", "reasoning-delta": "reasoning"}


class Hit(NamedTuple):
    """A detection in the stream, as HoldBack carries it until it is released:
    ``tail`` is how far from the end of the searched text it starts (its place in
    the channel is known once it is released), ``released`` how many of its
    characters had already gone out (a flush cut it: only the rest can be replaced)."""

    detection: Detection
    tail: int
    released: int


class StreamWindow:
    """One call's hold-back window and where each channel of the stream is.

    Searching the whole window again for every chunk costs the window's length each
    time (4k characters with ``api-key``). With ``local`` detectors (the built-in ones:
    a detection depends on at most ``max_length`` characters around it) a chunk costs
    about ``3 * max_length`` per detector instead: a detection with ``max_length``
    characters after it cannot change any more, so it is kept (in the channel's
    offsets) and only the end of the window is searched again. A flush (a tool call,
    a reasoning delta while text is held) ends that: its released text may hold the
    start of a value, so the channel is searched whole for twice the window.
    ``raw(text, detectors)`` finds and filters, ``finish(text, found)`` merges.
    """

    __slots__ = ("hold", "pushed", "sent", "_marks", "_find", "_local", "_others", "_raw",
                 "_finish", "_known", "_whole_until", "_plan", "_last")

    def __init__(
        self, max_length: int, find: Search, replace: Callable[[Match], str] | None, *,
        local: Iterable[Detector] = (), others: Iterable[Detector] = (),
        raw: Callable[[str, list[Detector]], list[Detection]] | None = None,
        finish: Callable[[str, list[Detection]], list[Detection]] | None = None,
    ) -> None:
        self.hold = HoldBack(max_length, self._hits, replace, hold_from=joint_hold_from(
            (d.max_length, getattr(d, "hold_from", None)) for d in [*local, *others]))
        #: characters the model sent on each channel (detection offsets count these)
        self.pushed = {"text": 0, "reasoning": 0}
        #: characters released on each channel (``filter``: which chunks a match spans)
        self.sent = {"text": 0, "reasoning": 0}
        self._marks = (dict(self.pushed), dict(self.sent))
        self._find = find
        self._local, self._others = list(local), list(others)
        self._raw, self._finish = raw, finish
        # Per channel and local detector: up to where (a channel offset) its detections
        # are known, and those of them still held, as (start, end, detection).
        self._known: dict[str, dict[int, tuple[int, list[tuple[int, int, Detection]]]]] = {
            "text": {}, "reasoning": {}}
        self._whole_until = {"text": 0, "reasoning": 0}
        self._plan: list[tuple[str, bool]] = []  # the searches the next push makes
        self._last: str | None = None  # the channel of the held text

    def push(self, part: Chunk) -> tuple[list[Chunk], list[Match]]:
        channel = DELTA_CHANNEL.get(part.type)
        if channel is not None and isinstance(part.payload.get("text"), str):
            self.pushed[channel] += len(part.payload["text"])
        elif part.type == "step-start":
            self._marks = (dict(self.pushed), dict(self.sent))
        elif part.type == "step-retry":
            # The retried attempt reaches neither the client nor the result: drop what
            # is held of it and count from the step's start again.
            self.hold.discard()
            self.pushed, self.sent = dict(self._marks[0]), dict(self._marks[1])
            self._known = {"text": {}, "reasoning": {}}
        self._plan = []
        if self._last is not None and channel != self._last and self.hold.held:
            self._plan.append((self._last, False))  # a flush: the held text is complete
            self._known[self._last] = {}
            self._whole_until[self._last] = (self.pushed[self._last]
                                             + 2 * self.hold.max_match_length)
        if channel is not None:
            self._plan.append((channel, True))
            self._last = channel
        return self.hold.push(part)

    def _hits(self, text: str) -> list[tuple[int, int, Hit]]:
        base = len(text) - len(self.hold.held)  # the held text ends ``text``
        channel, partly = self._plan.pop(0) if self._plan else ("text", False)
        if partly and self._local and self.pushed[channel] >= self._whole_until[channel]:
            found = self._search_end(text, base, channel)
        else:
            found = self._find(text)
        return [(d.start, d.end, Hit(d, len(text) - d.start, max(0, base - d.start)))
                for d in found]

    def _search_end(self, text: str, base: int, channel: str) -> list[Detection]:
        assert self._raw is not None and self._finish is not None
        end = self.pushed[channel]
        held_at = end - (len(text) - base)  # the channel offset of ``text[base]``
        known = self._known[channel]
        found = self._raw(text, self._others)
        for i, detector in enumerate(self._local):
            upto, kept = known.get(i, (held_at, []))
            kept = [k for k in kept if k[0] >= held_at]  # the released ones are done
            found.extend(attrs.evolve(d, start=s - held_at + base, end=e - held_at + base)
                         for s, e, d in kept)
            # New detections end after ``upto``: search from where one could start,
            # with as much before it again as the detector may look at.
            t0 = max(0, base + upto - 2 * detector.max_length - held_at)
            done = max(upto, end - detector.max_length)
            for d in self._raw(text[t0:], [detector]):
                s, e = d.start + t0, d.end + t0
                if held_at + e - base > upto:
                    found.append(attrs.evolve(d, start=s, end=e))
                    if held_at + e - base <= done and s >= base:
                        kept.append((held_at + s - base, held_at + e - base, d))
            known[i] = (done, kept)
        return self._finish(text, found)

    def locate(self, match: Match) -> Detection:
        """A released match as a detection with its offsets in the channel's text."""
        hit: Hit = match.rule
        d = hit.detection
        start = self.pushed[match.channel] - hit.tail
        return attrs.evolve(d, start=start, end=start + d.end - d.start)

    def drop_matched(self, chunks: list[Chunk], located: dict[str, list[Detection]]
                     ) -> list[Chunk]:
        """``filter``: the released chunks without the deltas a match touches (the
        window kept their text, so each one's place in its channel is known)."""
        out = []
        for c in chunks:
            channel = DELTA_CHANNEL.get(c.type)
            if channel is None:
                out.append(c)
                continue
            start = self.sent[channel]
            end = self.sent[channel] = start + len(c.payload["text"])
            if not any(d.start < end and d.end > start for d in located[channel]):
                out.append(c)
        return out


# ------------------------------------------------------------------ tokenize

#: A placeholder: ``<EMAIL_1>``, ``<CREDIT_CARD_12>``.
PLACEHOLDER = re.compile(r"<([^<>\s]+)_([0-9]+)>")


class Vault:
    """The ``tokenize`` mapping of one call: each value found gets a placeholder
    ``<LABEL_n>`` (numbered per type from 1; the same value always the same one), and
    each placeholder maps back to its value.

    It lives in the run's ``state`` and dies with the call: it is never put in a
    prompt, a message, a log line or a verdict, and its ``repr`` shows a count only.
    """

    __slots__ = ("_values", "_placeholders", "_counts", "_known", "_known_version", "version")

    def __init__(self) -> None:
        self._values: dict[str, str] = {}  # placeholder -> value
        self._placeholders: dict[str, tuple[str, str]] = {}  # value -> (placeholder, type)
        self._counts: dict[str, int] = {}  # label -> the highest number in use
        self._known: re.Pattern[str] | None = None
        self._known_version = -1
        #: grows by one with every new value (caches key on it)
        self.version = 0

    def __repr__(self) -> str:
        return f"<Vault {len(self._values)} value(s)>"

    def __len__(self) -> int:
        return len(self._values)

    def reserve(self, texts: Iterable[str]) -> None:
        """Numbers already used by placeholders in ``texts`` (kept in the history by an
        earlier call) are not handed out again: yesterday's ``<EMAIL_1>`` is not
        today's first email."""
        for text in texts:
            if "<" not in text:
                continue
            for m in PLACEHOLDER.finditer(text):
                n = int(m.group(2))
                if n > self._counts.get(m.group(1), 0):
                    self._counts[m.group(1)] = n

    def placeholder(self, kind: str, value: str) -> str:
        """The placeholder of ``value`` (a new one the first time it is seen)."""
        known = self._placeholders.get(value)
        if known is not None:
            return known[0]
        name = label(kind)
        n = self._counts[name] = self._counts.get(name, 0) + 1
        placeholder = f"<{name}_{n}>"
        self._placeholders[value] = (placeholder, kind)
        self._values[placeholder] = value
        self.version += 1
        return placeholder

    def value(self, placeholder: str) -> str | None:
        return self._values.get(placeholder)

    def occurrences(self, text: str) -> list[Detection]:
        """Where values already in the vault occur in ``text`` (so a value tokenized once
        is replaced wherever it shows up again, even where no detector would find it)."""
        if not self._placeholders:
            return []
        if self._known is None or self._known_version != self.version:
            values = sorted(self._placeholders, key=len, reverse=True)
            self._known = re.compile("|".join(map(re.escape, values)))
            self._known_version = self.version
        return [Detection(self._placeholders[m.group()][1], m.start(), m.end(), 1.0, "tokenize",
                          m.group())
                for m in self._known.finditer(text)]

    def find_placeholders(self, text: str) -> list[Detection]:
        """This vault's placeholders in ``text``."""
        if "<" not in text or not self._values:
            return []
        return [Detection("placeholder", m.start(), m.end(), 1.0, None, m.group())
                for m in PLACEHOLDER.finditer(text) if m.group() in self._values]

    def restore(self, text: str) -> str:
        """``text`` with this vault's placeholders replaced by their values."""
        if "<" not in text or not self._values:
            return text
        out = PLACEHOLDER.sub(lambda m: self._values.get(m.group(), m.group()), text)
        return text if out == text else out


#: Which phase decides whether new values are looked for in a prompt message.
_PHASE_OF_ROLE = {"user": "input", "assistant": "step", "tool": "tool-results"}
#: Chunks whose payload holds values the client gets restored.
_RESTORED_KEYS = {"tool-call": ("args", "raw_args"), "tool-result": ("result",),
                  "tool-error": ("error",), "object-result": ("object",)}


class Tokenizer:
    """``strategy="tokenize"``: values replaced by placeholders before the model sees
    them (input messages, tool results, every prompt), restored in what the client
    receives (the stream, tool-call arguments, tool results, the final text).

    One per processor; what a call owns (its ``Vault``, its stream window, a cache of
    tokenized texts) lives in that call's ``state``.
    """

    def __init__(self, owner: str, find: Find, phases: frozenset[str], store: str,
                 types: Iterable[str]) -> None:
        self.owner = owner
        self.find = find
        self.phases = phases
        self.store = store
        # The longest placeholder (``<CREDIT_CARD_123456789>``): what the stream holds
        # back while it restores placeholders.
        self.placeholder_length = max(len(label(t)) for t in types) + 12
        # Keys in the call's state for what depends on this instance's options (the
        # vault is shared by every instance of the processor id).
        self._cache_key = f"tokenized:{id(self)}"
        self._stream_key = f"stream:{id(self)}"

    def vault(self, state: dict[str, Any], history: Iterable[str] = ()) -> Vault:
        """The call's vault (made on the input side, numbers in ``history`` reserved)."""
        vault: Vault | None = state.get("vault")
        if vault is None:
            vault = state["vault"] = Vault()
            vault.reserve(history)
        return vault

    def need(self, state: dict[str, Any]) -> Vault:
        """The call's vault, on the output side: made by the input side, or an error."""
        vault: Vault | None = state.get("vault")
        if vault is None:
            raise ConfigurationError(
                f"{self.owner}: strategy='tokenize' needs the same instance in "
                f"input_processors and in output_processors: the input side replaces values "
                f"with placeholders before the model sees them, the output side restores them")
        return vault

    def tokenize(self, text: str, state: dict[str, Any], found: list[Detection] | None = None,
                 *, detect: bool = True) -> str:
        """``text`` with values replaced by their placeholders: the ones detected (when
        ``detect``) and any already in the vault. Each replaced value goes to ``found``
        (``None``: not reported; the result is then cached for the call)."""
        vault: Vault = state["vault"]
        cache: dict[tuple[str, bool], tuple[int, str]] = state.setdefault(
            self._cache_key, {})
        cached = cache.get((text, detect))
        if found is None and cached is not None and cached[0] == vault.version:
            return text if cached[1] == text else cached[1]
        spans = merge([*(self.find(text, state) if detect else []), *vault.occurrences(text)])
        out = text
        if spans:
            def replacement(d: Detection, value: str) -> str:
                if found is not None:
                    found.append(d)
                return vault.placeholder(d.type, value)

            out = splice(text, spans, replacement)
            if out == text:
                out = text
        cache[(text, detect)] = (vault.version, out)
        return out

    def input(self, messages: list[Message], state: dict[str, Any]) -> list[Detection]:
        """``process_input``: the vault made; the values in the input messages found
        (and, with ``store="placeholders"``, replaced in the stored messages)."""
        self.vault(state, (s for m in messages for s in message_strings(m)))
        found: list[Detection] = []
        if "input" in self.phases:
            for message in messages:
                if self.store == "placeholders":
                    edit_message(message, lambda s: self.tokenize(s, state, found))
                else:
                    for s in message_strings(message):
                        self.tokenize(s, state, found)
        return found

    def prompt(self, prompt: list[dict[str, Any]], state: dict[str, Any]
               ) -> list[dict[str, Any]] | None:
        """``process_llm_request``: the prompt of this model call with values replaced
        (the stored history is left as ``store`` says): values already in the vault in
        every message, new ones in the messages of the phases checked. ``None``: no
        change."""
        self.vault(state, (s for e in prompt for s in prompt_strings(e)))
        out: list[dict[str, Any]] = []
        for entry in prompt:
            role = str(entry.get("role"))
            # (system messages are not checked for new values, only for ones the vault
            # has: a caller's system message sent as input was checked there)
            detect = _PHASE_OF_ROLE.get(role) in self.phases

            def tokenize(text: str, detect: bool = detect) -> str:
                return self.tokenize(text, state, detect=detect)

            content = entry.get("content")
            new = prompt_content(content, tokenize)
            out.append(entry if new is content else {**entry, "content": new})
        return None if all(a is b for a, b in zip(out, prompt, strict=True)) else out

    def tool_result(self, result: Any, tool_call_id: str, message_list: MessageList,
                    state: dict[str, Any]) -> tuple[Any, list[Detection]]:
        """``process_tool_result``: the result to store (``result`` itself with
        ``store="values"``: the prompt is tokenized on its way) and the values found."""
        self.need(state)
        found: list[Detection] = []
        tokenized = walk(result, lambda s: self.tokenize(s, state, found))
        if self.store != "placeholders":
            return result, found
        # The stored call got the tool's real arguments back when the tool ran.
        inv = message_list.find_tool_invocation(tool_call_id)
        if inv is not None:
            inv.args = walk(inv.args, lambda s: self.tokenize(s, state))
        return tokenized, found

    def sweep(self, messages: list[Message], state: dict[str, Any]) -> None:
        """``store="placeholders"``: the stored messages with placeholders again where
        the stream restored values into them."""
        self.need(state)
        for message in messages:
            edit_message(message, lambda s: self.tokenize(s, state))

    def finish(self, messages: list[Message], message_list: MessageList, result: Any,
               state: dict[str, Any]) -> None:
        """``process_output_result``: the stored response swept (``result`` phase), and
        the caller given the values: ``result.text`` (the stored messages keep their
        placeholders with ``store="placeholders"``) and ``result.object``."""
        vault = self.need(state)
        if self.store == "placeholders" and "result" in self.phases:
            self.sweep(messages, state)
        if "output" not in self.phases:
            return
        text = response_text(message_list)
        restored = vault.restore(text)
        if restored is not text:
            result.caller_text = restored
        if result.object is not None:
            result.object = walk(result.object, vault.restore)

    def stream(self, part: Chunk, state: dict[str, Any]) -> Chunk | list[Chunk]:
        """``process_output_stream``: placeholders in what the client receives replaced
        by their values: text and reasoning (through a hold-back window, so one split
        across chunks is restored), tool-call arguments (the tool runs with the real
        values), tool results and errors, the parsed object."""
        vault = self.need(state)
        if "output" not in self.phases:
            return part
        window: StreamWindow | None = state.get(self._stream_key)
        if window is None:
            def replace(match: Match) -> str:
                hit: Hit = match.rule
                if hit.released:  # its start is already out: leave the rest as it is
                    return match.text[hit.released:]
                return vault.value(match.text) or match.text

            window = StreamWindow(self.placeholder_length, vault.find_placeholders, replace)
            state[self._stream_key] = window
        chunks, _ = window.push(part)
        keys = _RESTORED_KEYS.get(part.type)
        if keys is None or chunks[-1] is not part:
            return chunks
        payload = {k: walk(v, vault.restore) if k in keys else v for k, v in part.payload.items()}
        if any(payload[k] is not part.payload[k] for k in payload):
            chunks[-1] = part.evolve(payload=payload)
        return chunks
