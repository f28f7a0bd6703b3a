"""``unicode-normalizer``: one canonical form for input text, invisible characters out.

Look-alike and invisible characters let text read one way to a person (or a keyword
filter) and another to the model: fullwidth ``ｉｇｎｏｒｅ``, a zero-width space inside
``ig\u200bnore``, a right-to-left override that reverses what a reviewer sees, or
Unicode tag characters carrying a whole hidden ASCII instruction ("ASCII smuggling").
This processor edits the text parts of the input messages in place, before any
other processor or the model sees them, and every string in their tool calls'
arguments and tool results (a caller's history, such as a ``tripwire serve``
client's ``tool`` messages and assistant ``tool_calls``, carries text there too):

1. control characters go (``\\n`` and ``\\t`` stay; ``\\r\\n`` and a lone ``\\r``
   become ``\\n``);
2. zero-width, bidirectional-control, tag and surplus variation-selector characters
   go (``strip_invisible``);
3. the text is normalized (NFKC by default);
4. whitespace is collapsed and trimmed.

Emoji survive every step (``preserve_emoji``): a zero-width joiner inside an emoji
ZWJ sequence (👨‍👩‍👧), skin-tone modifiers, keycaps, variation selector 16 and the
tag characters of subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿) are kept, and emoji are not NFKC-folded
(``ℹ️`` stays ``ℹ️`` instead of becoming ``i``). Zero-width (non-)joiners between two
letters of a script that spells with them (Arabic, Persian, Syriac, the Indic
scripts) are kept too; between Latin letters they are the smuggling case and go.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from tripwire._markers import hookimpl
from tripwire.messages import Message, TextPart, ToolInvocationPart
from tripwire.options import check
from tripwire.processor import Processor
from tripwire.values import map_strings

Form = Literal["NFC", "NFD", "NFKC", "NFKD"]

ZWNJ, ZWJ = "\u200c", "\u200d"
VS15, VS16 = "\ufe0e", "\ufe0f"
KEYCAP = "\u20e3"
BLACK_FLAG = "\U0001f3f4"
CANCEL_TAG = "\U000e007f"

#: Invisible characters removed by ``strip_invisible`` (ZWJ/ZWNJ and variation
#: selectors are handled separately: they have legitimate uses).
INVISIBLE = frozenset(
    [
        "\u00ad",  # soft hyphen
        "\u034f",  # combining grapheme joiner
        "\u061c",  # Arabic letter mark
        "\u115f", "\u1160", "\u3164", "\uffa0",  # Hangul fillers
        "\u17b4", "\u17b5",  # Khmer inherent vowels
        "\u180b", "\u180c", "\u180d", "\u180e", "\u180f",  # Mongolian selectors, separator
        "\u200b",  # zero width space
        "\u200e", "\u200f",  # left-to-right / right-to-left mark
        "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",  # bidi embeddings and overrides
        "\u2060", "\u2061", "\u2062", "\u2063", "\u2064",  # word joiner, invisible operators
        "\u2066", "\u2067", "\u2068", "\u2069",  # bidi isolates
        "\u206a", "\u206b", "\u206c", "\u206d", "\u206e", "\u206f",  # deprecated format
        "\ufeff",  # zero width no-break space (byte order mark)
        "\ufff9", "\ufffa", "\ufffb",  # interlinear annotation
    ]
)

_EMOJI_RANGES = (
    (0x2190, 0x21FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x27BF),
    (0x2900, 0x297F), (0x2B00, 0x2BFF), (0x3030, 0x3030), (0x303D, 0x303D),
    (0x3297, 0x3297), (0x3299, 0x3299), (0x1F000, 0x1FAFF),
)
_EMOJI_SINGLES = frozenset("\u00a9\u00ae\u203c\u2049\u2122\u2139")
_JOINING_SCRIPTS = (
    (0x0600, 0x08FF),  # Arabic, Syriac, Thaana, N'Ko, Arabic supplements
    (0x0900, 0x0DFF),  # Devanagari ... Sinhala
    (0xFB50, 0xFDFF), (0xFE70, 0xFEFF),  # Arabic presentation forms
)
_HSPACE = re.compile(r"(?<=\S)[^\S\n]+(?=\S)")  # a run of spaces inside a line
_TRAILING = re.compile(r"[^\S\n]+(?=\n|\Z)")
_BLANK_LINES = re.compile(r"\n{3,}")
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _in(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_emoji(ch: str) -> bool:
    """True for characters of the emoji blocks (pictographs, symbols, dingbats,
    regional indicators, skin tones) and the few emoji outside them (©, ®, ™, ...)."""
    return ch in _EMOJI_SINGLES or _in(ord(ch), _EMOJI_RANGES)


def _is_skin_tone(ch: str) -> bool:
    return 0x1F3FB <= ord(ch) <= 0x1F3FF


def _is_regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _is_tag(ch: str) -> bool:
    return 0xE0000 <= ord(ch) <= 0xE007F


def _is_variation_selector(ch: str) -> bool:
    cp = ord(ch)
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def _joining_letter(ch: str) -> bool:
    return _in(ord(ch), _JOINING_SCRIPTS) and unicodedata.category(ch)[0] in "LM"


def _emoji_end(text: str, i: int) -> int:
    """If an emoji sequence starts at ``i``, the index just after it; else ``i``."""
    n = len(text)
    ch = text[i]
    keycap = ch in "0123456789#*" and (
        text.startswith(KEYCAP, i + 1) or text.startswith(VS16 + KEYCAP, i + 1)
    )
    if not (keycap or is_emoji(ch)):
        return i
    if unicodedata.decomposition(ch) and not text.startswith(VS16, i + 1):
        # A symbol NFKC would fold (ℹ, ™, Ⓜ, 🄸) is an emoji only when VS16 asks for
        # emoji presentation; alone it is text, and look-alike letters must fold.
        return i
    j = i + 1
    if _is_regional(ch) and j < n and _is_regional(text[j]):
        return j + 1  # a flag: two regional indicators
    while True:
        if j < n and text[j] in (VS15, VS16):
            j += 1
        if j < n and _is_skin_tone(text[j]):
            j += 1
        if j < n and text[j] == KEYCAP:
            j += 1
        if ch == BLACK_FLAG:
            j = _subdivision_flag_end(text, j)
        if j + 1 < n and text[j] == ZWJ and is_emoji(text[j + 1]):
            ch = text[j + 1]
            j += 2
            continue
        return j


def _subdivision_flag_end(text: str, j: int) -> int:
    """After a black flag at ``j - 1``: the end of a subdivision flag's tag letters
    (3 to 6 tag letters or digits, then CANCEL TAG, as in 🏴󠁧󠁢󠁳󠁣󠁴󠁿), else ``j``.
    Longer tag runs are not flags but hidden text, and are stripped."""
    k = j
    while k < len(text) and k - j <= 6 and (
        0xE0061 <= ord(text[k]) <= 0xE007A or 0xE0030 <= ord(text[k]) <= 0xE0039
    ):
        k += 1
    if 3 <= k - j <= 6 and k < len(text) and text[k] == CANCEL_TAG:
        return k + 1
    return j


class UnicodeNormalizer(Processor):
    """Normalize the text of input messages and remove invisible characters.

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
        one blank line in a row becomes one.
    ``trim`` = ``True``
        Strip leading and trailing whitespace of each text.
    ``preserve_emoji`` = ``True``
        Keep emoji sequences intact (ZWJ sequences, skin tones, flags, keycaps) and out
        of NFKC folding.

    Text parts of user, assistant and tool messages are edited in place (so are
    ``content.content`` strings of messages without text parts); system messages,
    tool calls and results, files and data parts are left alone.
    """

    id = "unicode-normalizer"
    name = "Unicode Normalizer"
    description = (
        "Normalizes input text (NFKC), strips control, zero-width and bidi-override "
        "characters, collapses whitespace; keeps emoji intact."
    )

    def __init__(
        self,
        *,
        form: Form = "NFKC",
        strip_control_chars: bool = True,
        strip_invisible: bool = True,
        collapse_whitespace: bool = True,
        trim: bool = True,
        preserve_emoji: bool = True,
    ) -> None:
        check("form", form, Form, owner=self.id)
        flags = {
            "strip_control_chars": strip_control_chars,
            "strip_invisible": strip_invisible,
            "collapse_whitespace": collapse_whitespace,
            "trim": trim,
            "preserve_emoji": preserve_emoji,
        }
        for option, value in flags.items():
            check(option, value, bool, owner=self.id)
        self.form = form
        self.strip_control_chars = strip_control_chars
        self.strip_invisible = strip_invisible
        self.collapse_whitespace = collapse_whitespace
        self.trim = trim
        self.preserve_emoji = preserve_emoji

    def __repr__(self) -> str:
        return f"<UnicodeNormalizer form={self.form!r}>"

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

    def normalize(self, text: str) -> str:
        """The normalized form of one text."""
        if not text:
            return text
        if self.strip_control_chars:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text.isascii():
            # No emoji, nothing invisible, and every form leaves ASCII as it is.
            if self.strip_control_chars:
                text = _ASCII_CONTROL.sub("", text)
        else:
            text = self._clean(text)
        if self.collapse_whitespace:
            text = _HSPACE.sub(" ", text)
            text = _TRAILING.sub("", text)
            text = _BLANK_LINES.sub("\n\n", text)
        if self.trim:
            text = text.strip()
        return text

    def _clean(self, text: str) -> str:
        """Strip and normalize, emoji sequences excepted."""
        out: list[str] = []
        plain: list[str] = []  # characters since the last emoji, not yet normalized
        i, n = 0, len(text)
        while i < n:
            if self.preserve_emoji:
                end = _emoji_end(text, i)
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
        return unicodedata.normalize(self.form, text) if text else text

    def _keep(self, text: str, i: int, ch: str) -> bool:
        if ch == "\n" or ch == "\t":
            return True
        if unicodedata.category(ch) == "Cc":
            return not self.strip_control_chars
        if not self.strip_invisible:
            return True
        if ch in (ZWJ, ZWNJ):
            return 0 < i < len(text) - 1 and _joining_letter(text[i - 1]) and _joining_letter(
                text[i + 1]
            )
        if ch in INVISIBLE or _is_tag(ch) or _is_variation_selector(ch):
            return False
        return True
