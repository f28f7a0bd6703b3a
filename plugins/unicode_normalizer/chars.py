"""What the ``unicode-normalizer`` knows about characters: the invisible ones, emoji
sequences, the scripts that spell with joiners, and where a text can be cut without
changing what it normalizes to (``glues``, ``INERT``: what a stream of deltas needs).
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["BLACK_FLAG", "CANCEL_TAG", "INERT", "INVISIBLE", "KEYCAP", "RGI_SUBDIVISIONS", "VS15",
           "VS16", "ZWJ", "ZWNJ", "emoji_end", "glues", "is_emoji", "is_skin_tone", "is_tag",
           "is_variation_selector", "joining_letter"]

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
def _in(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_emoji(ch: str) -> bool:
    """True for characters of the emoji blocks (pictographs, symbols, dingbats,
    regional indicators, skin tones) and the few emoji outside them (©, ®, ™, ...)."""
    return ch in _EMOJI_SINGLES or _in(ord(ch), _EMOJI_RANGES)


def is_skin_tone(ch: str) -> bool:
    return 0x1F3FB <= ord(ch) <= 0x1F3FF


def _is_regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def is_tag(ch: str) -> bool:
    return 0xE0000 <= ord(ch) <= 0xE007F


def is_variation_selector(ch: str) -> bool:
    cp = ord(ch)
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def joining_letter(ch: str) -> bool:
    return _in(ord(ch), _JOINING_SCRIPTS) and unicodedata.category(ch)[0] in "LM"


def emoji_end(text: str, i: int) -> int:
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
        if j < n and is_skin_tone(text[j]):
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


#: The tag letters of the subdivision flags Unicode recommends for general interchange
#: (the RGI set): exactly England, Scotland and Wales. Unicode's emoji-sequences.txt
#: (UTS #51) lists three RGI_Emoji_Tag_Sequence entries, all added in Emoji 5.0 and
#: still the only ones ("Total elements: 3"): 1F3F4 E0067 E0062 E0065 E006E E0067 E007F
#: (gbeng), 1F3F4 E0067 E0062 E0073 E0063 E0074 E007F (gbsct) and 1F3F4 E0067 E0062
#: E0077 E006C E0073 E007F (gbwls). Any other tag run after a black flag (other letters,
#: flags chained one after another) can spell hidden text: it is smuggling, not a flag.
RGI_SUBDIVISIONS = frozenset({"gbeng", "gbsct", "gbwls"})
_SUBDIVISION_TAGS = frozenset(
    "".join(chr(0xE0000 + ord(c)) for c in code) + CANCEL_TAG for code in RGI_SUBDIVISIONS)
_SUBDIVISION_LENGTH = 6  # five tag letters and CANCEL TAG, for each of them


def _subdivision_flag_end(text: str, j: int) -> int:
    """After a black flag at ``j - 1``: the end of an RGI subdivision flag's tags
    (``RGI_SUBDIVISIONS``: 🏴󠁧󠁢󠁳󠁣󠁴󠁿 is the black flag, the tag letters ``gbsct`` and
    CANCEL TAG), else ``j``: other tag runs are hidden text, and are stripped."""
    if text[j:j + _SUBDIVISION_LENGTH] in _SUBDIVISION_TAGS:
        return j + _SUBDIVISION_LENGTH
    return j


#: ASCII characters nothing that follows can change: no combining mark composes with
#: them, no emoji sequence starts with them, a joiner after them goes either way. A
#: stream need not hold one back.
INERT = frozenset(" \t\n!\"$%&'()+,-./:;?@[\\]^_`{|}~")
_HANGUL_V_T = ((0x1161, 0x1175), (0x11A8, 0x11C2))  # jamo that compose with the one before


@functools.lru_cache(maxsize=4096)
def glues(ch: str) -> bool:
    """Whether ``ch`` may change what the character before it normalizes to, or be kept
    or dropped depending on it, so a text must not be cut just before it: combining
    marks (and characters that decompose to one), Hangul vowel and final jamo,
    joiners, variation selectors, tags, skin tones, and every character that is
    stripped (control, format and invisible characters: with them gone, their
    neighbours meet)."""
    if ch.isascii():
        return unicodedata.category(ch) == "Cc" and ch not in "\t\n"
    category = unicodedata.category(ch)
    if category[0] == "M" or category in ("Cc", "Cf"):
        return True
    if ch in INVISIBLE or is_tag(ch) or is_variation_selector(ch) or is_skin_tone(ch):
        return True
    first = unicodedata.normalize("NFKD", ch)[:1]
    return bool(first) and (unicodedata.combining(first) > 0
                            or unicodedata.category(first)[0] == "M"
                            or _in(ord(first), _HANGUL_V_T))
