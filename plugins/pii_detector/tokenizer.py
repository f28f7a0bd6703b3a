"""The ``tokenize`` strategy: a call's ``Vault`` (each value found and its placeholder
``<EMAIL_1>``), and the ``Tokenizer`` that puts placeholders in what the model sees
and the values back in what the client receives.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tripwire.chunks import Chunk
from tripwire.errors import ConfigurationError
from tripwire.guards.verdicts import Detection, merge
from tripwire.guards.window import Match
from tripwire.messages import Message, MessageList
from tripwire.plugins.pii_detector.redaction import label, splice
from tripwire.plugins.pii_detector.walk import (
    edit_message,
    message_strings,
    prompt_content,
    prompt_strings,
    walk,
)
from tripwire.plugins.pii_detector.window import Hit, StreamWindow
from tripwire.results import response_text
from tripwire.tools import Tool

#: ``find(text, state)``: the detections in a text, in the call whose ``state`` it is.
Find = Callable[[str, dict[str, Any]], list[Detection]]

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
#: The call's state key: the names of the tools that store their arguments.
_STORING = "stores_arguments"


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

    def note_tools(self, tools: Mapping[str, Tool], state: dict[str, Any]) -> None:
        """Note (for the call) the tools that store their arguments
        (``Tool.stores_arguments``): with ``store="placeholders"`` their calls keep
        placeholders (``stream``)."""
        if self.store != "placeholders":
            return
        storing = [name for name, t in tools.items() if t.stores_arguments]
        if storing:
            state.setdefault(_STORING, set()).update(storing)

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
        (and, with ``store="placeholders"``, replaced in the stored messages; always in
        a caller's tool definitions and settings, which reach the model call from
        there: ``tripwire.run._caller_texts``)."""
        self.vault(state, (s for m in messages for s in message_strings(m)))
        found: list[Detection] = []
        if "input" in self.phases:
            for message in messages:
                if self.store == "placeholders" or message.is_caller_text:
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
        values), tool results and errors, the parsed object.

        With ``store="placeholders"`` a call of a tool that stores its arguments
        (``note_tools``) is not restored: the tool, its store, the client and the
        history get placeholders, and any value the model wrote there itself is
        replaced by one (phase ``step``)."""
        vault = self.need(state)
        storing = part.type == "tool-call" and part.payload.get("tool_name") in state.get(
            _STORING, ())
        if "output" not in self.phases or part.is_data:
            # (A data chunk: nothing of the caller's was replaced in it; it does not go
            # through the window.)
            return self._tokenized_call(part, state) if storing else part
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
        if storing:
            chunks[-1] = self._tokenized_call(part, state)
            return chunks
        payload = {k: walk(v, vault.restore) if k in keys else v
                   for k, v in part.payload.items()}
        if any(payload[k] is not part.payload[k] for k in payload):
            chunks[-1] = part.evolve(payload=payload)
        return chunks

    def _tokenized_call(self, part: Chunk, state: dict[str, Any]) -> Chunk:
        """A storing tool's ``tool-call`` with its placeholders kept and any value the
        model wrote in it itself replaced by one (phase ``step``)."""
        detect = "step" in self.phases
        payload = {k: walk(v, lambda s: self.tokenize(s, state, detect=detect))
                   if k in _RESTORED_KEYS["tool-call"] else v for k, v in part.payload.items()}
        if all(payload[k] is part.payload[k] for k in payload):
            return part
        return part.evolve(payload=payload)
