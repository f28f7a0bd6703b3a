"""``unicode-normalizer``: one canonical form for text, invisible characters out, on the
way in and on the way out.

Look-alike and invisible characters let text read one way to a person (or a keyword
filter) and another to the model: fullwidth ``ｉｇｎｏｒｅ``, a zero-width space inside
``ig\u200bnore``, a right-to-left override that reverses what a reviewer sees, or
Unicode tag characters carrying a whole hidden ASCII instruction ("ASCII smuggling").
The same tricks hide a value from the output guards: a model asked to write
``AKIA\u200bIOSFODNN7EXAMPLE`` or a key in fullwidth letters gets it past a pattern
that looks for ``AKIA[0-9A-Z]{16}``.

In ``input_processors`` this processor edits the text parts of the input messages in
place, before any other processor or the model sees them, and every string in their
tool calls' arguments and tool results (a caller's history, such as a ``tripwire
serve`` client's ``tool`` messages and assistant ``tool_calls``, carries text there
too). In ``output_processors`` it normalizes what the model writes before the guards
after it see it: text and reasoning deltas (through a ``tripwire.HoldBack`` window, so
a letter and the accent of the next delta become one character), tool-call arguments,
the structured object, every string of ``data-*``, ``source`` and other content
chunks, tool results, and the final response messages. Per text:

1. control characters go (``\\n`` and ``\\t`` stay; ``\\r\\n`` and a lone ``\\r``
   become ``\\n``);
2. zero-width, bidirectional-control, tag and surplus variation-selector characters
   go (``strip_invisible``);
3. the text is normalized (NFKC by default);
4. with ``fold_lookalikes``, Cyrillic, Greek and Armenian look-alike letters in a word
   that has Latin letters are read as Latin (``HOMOGLYPHS``);
5. on input only, whitespace is collapsed and trimmed (on output a delta's spaces are
   part of the text the client joins, and a tool's arguments are what it runs with).

Emoji survive every step (``preserve_emoji``): a zero-width joiner inside an emoji
ZWJ sequence (👨‍👩‍👧), skin-tone modifiers, keycaps, variation selector 16 and the
tag characters of the RGI subdivision flags (England, Scotland 🏴󠁧󠁢󠁳󠁣󠁴󠁿, Wales; any other
tag run after a black flag is hidden text, and goes) are kept, and emoji are not NFKC-folded
(``ℹ️`` stays ``ℹ️`` instead of becoming ``i``). Zero-width (non-)joiners between two
letters of a script that spells with them (Arabic, Persian, Syriac, the Indic
scripts) are kept too; between Latin letters they are the smuggling case and go.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final, Literal

from tripwire import hookimpl
from tripwire.chunks import Chunk, carries_other_content, extra_keys
from tripwire.guards.values import map_strings
from tripwire.guards.window import CHANNELS
from tripwire.messages import (
    Message,
    MessageList,
    ReasoningPart,
    TextPart,
    ToolInvocationPart,
)
from tripwire.option_checks import check
from tripwire.plugins.unicode_normalizer.chars import (
    INVISIBLE,
    ZWJ,
    ZWNJ,
    emoji_end,
    is_emoji,
    is_tag,
    is_variation_selector,
    joining_letter,
)
from tripwire.plugins.unicode_normalizer.stream import Stream
from tripwire.processor import Processor
from tripwire.types import ToolResultChange

__all__ = ["HOMOGLYPHS", "INVISIBLE", "Form", "UnicodeNormalizer", "is_emoji"]

Form = Literal["NFC", "NFD", "NFKC", "NFKD"]

_HSPACE = re.compile(r"(?<=\S)[^\S\n]+(?=\S)")  # a run of spaces inside a line
_TRAILING = re.compile(r"[^\S\n]+(?=\n|\Z)")
_BLANK_LINES = re.compile(r"\n{3,}")
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_WORD = re.compile(r"\w+")

#: Look-alike letters read as the Latin letter they imitate. The lower-case entries are
#: what prompt-injection-detector reads after lower-casing any text; the upper-case
#: ones (Cyrillic, Greek) are for ``fold_lookalikes``, which keeps case.
HOMOGLYPHS: Final = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "к": "k", "м": "m", "н": "h",
    "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ь": "b",
    "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ӏ": "l", "ү": "y", "ҳ": "x", "ѵ": "v", "ѡ": "w", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "З": "3", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S",
    "Һ": "H", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I", "Ү": "Y",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
    "ϳ": "j", "ϵ": "e", "ϱ": "p",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
    # Armenian
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "զ": "q", "ց": "g", "Օ": "O", "Ս": "U",
    # Latin variants and small capitals
    "ı": "i", "ȷ": "j", "ł": "l", "ɩ": "i", "ɪ": "i", "ʟ": "l", "ɑ": "a", "ɢ": "g",
    "ʜ": "h", "ɴ": "n", "ʀ": "r", "ꜱ": "s", "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d",
    "ᴇ": "e", "ꜰ": "f", "ᴊ": "j", "ᴋ": "k", "ᴍ": "m", "ᴏ": "o", "ᴘ": "p", "ǫ": "q",
    "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z", "ø": "o",
})
#: The entries of ``HOMOGLYPHS`` that ``fold_lookalikes`` reads: letters of another
#: script (a Latin variant such as Polish ``ł`` is a letter of its word, not a disguise).
_LOOKALIKES: Final = {k: v for k, v in HOMOGLYPHS.items()
                      if unicodedata.name(chr(k)).split()[0] in ("CYRILLIC", "GREEK", "ARMENIAN")}


def _latin(ch: str) -> bool:
    return ch.isalpha() and (ch.isascii() or unicodedata.name(ch, "").startswith("LATIN "))


def _read_word(match: re.Match[str]) -> str:
    word = match.group()
    if word.isascii() or not any(_latin(ch) for ch in word):
        return word  # all Latin, or a word of another script: as written
    return word.translate(_LOOKALIKES)


def read_lookalikes(text: str) -> str:
    """``text`` with the Cyrillic, Greek and Armenian look-alike letters of each word
    that also has Latin letters read as Latin (``\u0410KIA`` becomes ``AKIA``); words
    entirely in one script stay as they are."""
    return text if text.isascii() else _WORD.sub(_read_word, text)


class UnicodeNormalizer(Processor):
    """Normalize text and remove invisible characters: the input messages, and what the
    model writes before the output guards after it see it.

    Options:

    ``form`` = ``"NFKC"``
        Unicode normalization form: ``"NFC"``, ``"NFD"``, ``"NFKC"`` or ``"NFKD"``.
        The K forms fold look-alikes (fullwidth letters, ligatures, superscripts).
    ``strip_control_chars`` = ``True``
        Remove control characters except ``\\n`` and ``\\t``; ``\\r\\n`` and ``\\r``
        become ``\\n``.
    ``strip_invisible`` = ``True``
        Remove zero-width characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM, soft hyphen,
        ...), bidirectional controls (LRM/RLM, embeddings, overrides, isolates), Unicode
        tag characters and variation selectors - except inside emoji and between
        letters of scripts that use joiners (see the module docs).
    ``collapse_whitespace`` = ``True``
        Runs of spaces and tabs inside a line become one space (indentation at the
        start of a line is kept, so code survives), trailing spaces go, and more than
        one blank line in a row becomes one. Input only.
    ``trim`` = ``True``
        Strip leading and trailing whitespace of each text. Input only.
    ``preserve_emoji`` = ``True``
        Keep emoji sequences intact (ZWJ sequences, skin tones, flags, keycaps) and out
        of NFKC folding.
    ``fold_lookalikes`` = ``False``
        In a word that mixes Latin letters with Cyrillic, Greek or Armenian look-alikes
        (``\\u0410KIA`` with a Cyrillic A), read the look-alikes as Latin. Off by
        default: it changes what the user or the model wrote.

    Input: text parts of user, assistant and tool messages are edited in place (so are
    ``content.content`` strings of messages without text parts), and every string of
    their tool calls and results; files and data parts are left alone. Output: see the
    module docs.
    """

    id = "unicode-normalizer"
    name = "Unicode Normalizer"
    description = (
        "Normalizes input and output text (NFKC), strips control, zero-width and "
        "bidi-override characters, collapses input whitespace; keeps emoji intact."
    )
    #: ``data-*`` chunks (what tools, other processors and the model write) are
    #: normalized too, for the guards after this processor.
    process_data_parts = True

    def __init__(
        self,
        *,
        form: Form = "NFKC",
        strip_control_chars: bool = True,
        strip_invisible: bool = True,
        collapse_whitespace: bool = True,
        trim: bool = True,
        preserve_emoji: bool = True,
        fold_lookalikes: bool = False,
    ) -> None:
        check("form", form, Form, owner=self.id)
        flags = {
            "strip_control_chars": strip_control_chars,
            "strip_invisible": strip_invisible,
            "collapse_whitespace": collapse_whitespace,
            "trim": trim,
            "preserve_emoji": preserve_emoji,
            "fold_lookalikes": fold_lookalikes,
        }
        for option, value in flags.items():
            check(option, value, bool, owner=self.id)
        self.form = form
        self.strip_control_chars = strip_control_chars
        self.strip_invisible = strip_invisible
        self.collapse_whitespace = collapse_whitespace
        self.trim = trim
        self.preserve_emoji = preserve_emoji
        self.fold_lookalikes = fold_lookalikes

    def __repr__(self) -> str:
        return f"<UnicodeNormalizer form={self.form!r}>"

    # ------------------------------------------------------------ input

    @hookimpl
    def process_input(self, messages: list[Message]) -> list[Message]:
        for message in messages:  # (the agent's instructions are not among them)
            has_text = False
            for part in message.content.parts:
                if type(part) is TextPart:
                    has_text = True
                    part.text = self.normalize(part.text)
                elif type(part) is ToolInvocationPart:
                    invocation = part.tool_invocation
                    invocation.args = map_strings(invocation.args, self.normalize)
                    invocation.result = map_strings(invocation.result, self.normalize)
            if not has_text and isinstance(message.content.content, str):
                message.content.content = self.normalize(message.content.content)
        return messages

    # ------------------------------------------------------------ output

    @hookimpl
    def process_output_stream(self, part: Chunk, state: dict[str, Any],
                              message_list: MessageList) -> Chunk | list[Chunk]:
        kind = part.type
        stream: Stream | None = state.get("stream")
        if kind == "tripwire":
            if stream is not None:
                stream.hold.discard()
            return part
        if part.is_data:
            # Normalized whole, not through the window (as the guards check it).
            return self._payload(part, tuple(part.payload))
        extra = extra_keys(part)
        if extra:  # a provider's provider_metadata, a key a plugin added
            part = self._payload(part, extra)
        if kind == "tool-call":  # before the tool runs: it runs with these arguments
            part = self._payload(part, ("args", "raw_args"))
        elif kind == "object-result":
            part = self._payload(part, ("object",))
        elif kind == "tool-error":
            # process_tool_result does not run for a tool that failed: its error text is
            # normalized here, for the client and for the stored result the model sees.
            normalized = self._payload(part, ("error",))
            if normalized is not part:
                message_list.store_tool_result(part.payload["tool_call_id"],
                                               normalized.payload["error"])
            part = normalized
        elif carries_other_content(kind):  # a source, a provider's own chunk type
            part = self._payload(part, tuple(part.payload))
        if stream is None:
            if kind not in CHANNELS:
                return part  # nothing is held
            stream = state["stream"] = Stream(self)
        return stream.hold.push(part).chunks

    def _payload(self, part: Chunk, keys: tuple[str, ...]) -> Chunk:
        """``part`` with every string under ``keys`` normalized; ``part`` itself when
        nothing changed."""
        payload = part.payload
        changed = {}
        for key in keys:
            if key in payload:
                value = map_strings(payload[key], self.characters)
                if value is not payload[key]:
                    changed[key] = value
        return part.evolve(payload={**payload, **changed}) if changed else part

    @hookimpl
    def process_tool_result(self, result: Any) -> ToolResultChange | None:
        normalized = map_strings(result, self.characters)
        return None if normalized is result else {"result": normalized}

    @hookimpl
    def process_output_result(self, messages: list[Message]) -> list[Message] | None:
        """The response messages as the client got them (what other processors added
        after the stream too), so the stored history holds no disguised value."""
        changed = False

        def normalized(text: str) -> str:
            nonlocal changed
            new = self.characters(text)
            changed = changed or new != text
            return new

        for message in messages:
            for part in message.content.parts:
                if type(part) is TextPart or type(part) is ReasoningPart:
                    part.text = normalized(part.text)
                elif type(part) is ToolInvocationPart:
                    invocation = part.tool_invocation
                    invocation.args = map_strings(invocation.args, normalized)
                    invocation.result = map_strings(invocation.result, normalized)
            if isinstance(message.content.content, str):
                message.content.content = normalized(message.content.content)
        return messages if changed else None

    # ------------------------------------------------------------ text

    def normalize(self, text: str) -> str:
        """The normalized form of one text (every step, as on input)."""
        text = self.characters(text)
        if self.collapse_whitespace:
            text = _HSPACE.sub(" ", text)
            text = _TRAILING.sub("", text)
            text = _BLANK_LINES.sub("\n\n", text)
        if self.trim:
            text = text.strip()
        return text

    def characters(self, text: str) -> str:
        """``text`` with control and invisible characters stripped, normalized and (with
        ``fold_lookalikes``) look-alikes read as Latin: every step but the whitespace
        ones, which is what the output side applies."""
        if not text:
            return text
        if self.strip_control_chars and "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text.isascii():
            # No emoji, nothing invisible, and every form leaves ASCII as it is.
            if self.strip_control_chars:
                text = _ASCII_CONTROL.sub("", text)
            return text
        return self._clean(text)

    def _clean(self, text: str) -> str:
        """Strip and normalize, emoji sequences excepted."""
        out: list[str] = []
        plain: list[str] = []  # characters since the last emoji, not yet normalized
        i, n = 0, len(text)
        while i < n:
            if self.preserve_emoji:
                end = emoji_end(text, i)
                if end > i:
                    out.append(self._fold("".join(plain)))
                    plain = []
                    out.append(text[i:end])
                    i = end
                    continue
            ch = text[i]
            if self._keep(text, i, ch):
                plain.append(ch)
            i += 1
        out.append(self._fold("".join(plain)))
        return "".join(out)

    def _fold(self, text: str) -> str:
        """Normalize text outside emoji, and read look-alikes (normalized again where
        one changed: a Latin ``A`` now composes with the accent that follows it)."""
        if not text:
            return text
        text = unicodedata.normalize(self.form, text)
        if self.fold_lookalikes:
            folded = read_lookalikes(text)
            if folded != text:
                text = unicodedata.normalize(self.form, folded)
        return text

    def _keep(self, text: str, i: int, ch: str) -> bool:
        if ch == "\n" or ch == "\t":
            return True
        if unicodedata.category(ch) == "Cc":
            return not self.strip_control_chars
        if not self.strip_invisible:
            return True
        if ch in (ZWJ, ZWNJ):
            return 0 < i < len(text) - 1 and joining_letter(text[i - 1]) and joining_letter(
                text[i + 1]
            )
        if ch in INVISIBLE or is_tag(ch) or is_variation_selector(ch):
            return False
        return True
