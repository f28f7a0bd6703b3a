"""The heuristic tier of ``prompt-injection-detector``: normalise, decode, score.

``Scanner(types).scan(text, channel)`` returns an ``Analysis``: a score in [0, 1] per
detection type and the detections behind it (rule name, type, offsets into ``text``).
No model, no network, no state between calls.

How a text is read, so that evasions do not hide a phrase:

1. **Views.** The text is folded into a view used for matching, each character of
   which still knows where it came from (``View``): lower case; zero-width, bidi,
   tag and variation-selector characters removed and NFKC applied (through
   ``unicode-normalizer``); accents stripped; Cyrillic, Greek and other look-alike
   letters folded to Latin (``HOMOGLYPHS``); HTML and Markdown comment markers and
   tags removed, entities and ``\\u``/``\\x`` escapes decoded; letters spaced or
   punctuated apart joined (``i g n o r e``, ``ig.no.re``); leetspeak read in
   words that mix letters and digits (``1gn0r3``). A second view keeps only the
   letters (``ign ore prev ious`` still reads ``ignoreprevious``), and the first is
   read as ROT13 too.
2. **Payloads.** Base64, hex, URL-encoded, Unicode-tag ("ASCII smuggling") and
   variation-selector runs that decode to plausible text are scanned again
   (``MAX_DEPTH`` levels, ``MAX_DECODED`` characters in all); what they contain
   counts against the encoded span.
3. **Rules.** Weighted pattern families per type (``PHRASES`` on the folded view,
   ``MARKERS`` for fake role delimiters and tool-call markup on the text with its
   markup). A hit found only through an evasion weighs more (``EVASION_BONUS``):
   plain text rarely hides its instructions.
4. **Context.** A hit inside quotes or code, introduced as an example ("phrases
   like ..."), described afterwards ("... is a classic attack") or in a text about
   prompt injection weighs less (``context_factor``), so a message that discusses
   an attack is not one.
5. **Scores.** Per type, the strongest hit of each family combined as independent
   evidence, ``1 - prod(1 - w)``: more signals, higher score, never above 1; types
   that corroborate each other raise each other a little.

Speed: a rule runs only on a text holding a word of each of its needle groups (sets
of words, looked up once per text); in a text longer than ``LONG_TEXT`` only around
those words, and the letters-only view only near two pieces that join into one.
"""

from __future__ import annotations

import base64
import binascii
import functools
import html
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Final
from urllib.parse import unquote_plus

import attrs

from tripwire.guardrails import Detection
from tripwire.plugins.unicode_normalizer import UnicodeNormalizer

__all__ = [
    "TYPES",
    "Analysis",
    "Hit",
    "Scanner",
    "View",
    "fold",
    "rewrite",
]

#: The detection types, in the reference's order.
TYPES: Final[tuple[str, ...]] = (
    "injection",
    "jailbreak",
    "tool-exfiltration",
    "data-exfiltration",
    "system-override",
    "role-manipulation",
)
#: Channels where what is scanned did not come from the user: instructions there are
#: more suspicious (``Rule.indirect``) and a user's own requests less (``Rule.direct``).
INDIRECT_CHANNELS: Final = frozenset({"tool-result", "document"})

LONG_TEXT: Final = 4_000       # longer texts match each rule only around its needles
WINDOW: Final = 400            # characters either side of a needle word
MAX_DEPTH: Final = 2           # decode a payload inside a payload, not deeper
MAX_DECODED: Final = 256_000   # characters decoded per scanned text, in all
MAX_CANDIDATE: Final = 64_000  # the longest encoded run tried
MAX_CANDIDATES: Final = 16     # encoded runs tried per text and encoding
EVASION_BONUS: Final = 1.2     # a hit found only through an evasion weighs this much more
REMOVED: Final = "[removed: suspected prompt injection]"
DELIMITER_REMOVED: Final = "[removed: fake role delimiter]"


# --------------------------------------------------------------------- views


class View:
    """A text derived from another by edits, mapping its offsets back.

    ``segments`` are the edits in this view's coordinates, ``(start, end,
    parent_start, parent_end)``: ``text[start:end]`` replaced ``parent[parent_start:
    parent_end]``; between them the text is the parent's, shifted.
    """

    __slots__ = ("text", "parent", "_segments", "_starts")

    def __init__(self, text: str, parent: View | None = None,
                 segments: list[tuple[int, int, int, int]] | None = None) -> None:
        self.text = text
        self.parent = parent
        self._segments = segments or []
        self._starts = [s[0] for s in self._segments]

    @classmethod
    def edited(cls, parent: View, edits: Iterable[tuple[int, int, str]]) -> View:
        """``parent`` with ``text[start:end]`` replaced by each edit's string (edits
        sorted and not overlapping); ``parent`` itself when there are none."""
        src = parent.text
        out: list[str] = []
        segments: list[tuple[int, int, int, int]] = []
        pos = length = 0
        for start, end, repl in edits:
            out.append(src[pos:start])
            length += start - pos
            out.append(repl)
            segments.append((length, length + len(repl), start, end))
            length += len(repl)
            pos = end
        if not segments:
            return parent
        out.append(src[pos:])
        return cls("".join(out), parent, segments)

    def _start(self, p: int) -> int:
        i = bisect_right(self._starts, p) - 1
        if i < 0:
            return p
        start, end, pstart, pend = self._segments[i]
        return pstart if p < end else pend + (p - end)

    def _end(self, p: int) -> int:
        q = p - 1
        i = bisect_right(self._starts, q) - 1
        if i < 0:
            return p
        start, end, pstart, pend = self._segments[i]
        return pend if q < end else pend + (q - end) + 1

    def root_span(self, start: int, end: int) -> tuple[int, int]:
        """``text[start:end]`` as offsets into the original text."""
        view: View | None = self
        while view is not None and view.parent is not None:
            if end > start:
                start, end = view._start(start), view._end(end)
            else:
                start = end = view._start(start)
            view = view.parent
        return start, end


_NORMALIZER = UnicodeNormalizer(form="NFKC", strip_control_chars=False,
                                collapse_whitespace=False, trim=False, preserve_emoji=False)

#: Look-alike letters (after lower-casing) read as the Latin letter they imitate.
HOMOGLYPHS: Final = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "к": "k", "м": "m", "н": "h",
    "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ь": "b",
    "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ӏ": "l", "ү": "y", "ҳ": "x", "ѵ": "v", "ѡ": "w", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
    "ϳ": "j", "ϵ": "e", "ϱ": "p",
    # Armenian
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "զ": "q", "ց": "g",
    # Latin variants and small capitals
    "ı": "i", "ȷ": "j", "ł": "l", "ɩ": "i", "ɪ": "i", "ʟ": "l", "ɑ": "a", "ɢ": "g",
    "ʜ": "h", "ɴ": "n", "ʀ": "r", "ꜱ": "s", "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d",
    "ᴇ": "e", "ꜰ": "f", "ᴊ": "j", "ᴋ": "k", "ᴍ": "m", "ᴏ": "o", "ᴘ": "p", "ǫ": "q",
    "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z", "ø": "o",
})
#: Leetspeak, read only inside words that mix letters with these.
LEET: Final = str.maketrans({"1": "i", "0": "o", "3": "e", "4": "a", "5": "s", "7": "t",
                             "@": "a", "$": "s"})
_LEET_DIGITS: Final = str.maketrans({k: v for k, v in
                                     {"1": "i", "0": "o", "3": "e", "4": "a", "5": "s",
                                      "7": "t"}.items()})
ROT13: Final = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")


@functools.lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character as the matcher reads it: ``""`` when invisible, else NFKC
    (``unicode-normalizer``'s rules), without accents, lower case, homoglyphs folded."""
    out = _NORMALIZER.normalize(ch)
    if not out:
        return out
    out = "".join(c for c in unicodedata.normalize("NFD", out) if not unicodedata.combining(c))
    return out.lower().translate(HOMOGLYPHS)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_MARKUP = re.compile(
    r"<!--|--!?>"
    r"|</?[a-z][a-z0-9:_-]*(?:\s[^<>]{0,500})?/?>"
    r"|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});"
    r"|\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\[nrt\"'/\\]"
)
_SPACED = re.compile(
    r"(?<![a-z0-9])[a-z](?P<s>[ .\-_*|/+~,:;^·•]{1,2})[a-z](?:(?P=s)[a-z])+(?![a-z0-9])")
_PUNCTUATED = re.compile(
    r"(?<![a-z0-9])[a-z]{1,5}(?:[.\-_*|~^`·•]{1,2}[a-z]{1,5}){2,}(?![a-z0-9])"
    r"|(?<![a-z0-9])[a-z]{1,4}[*|~^`·•]{1,2}[a-z]{1,4}(?![a-z0-9])")
#: Cheap necessary conditions of the two above (they start on a separator, which
#: ``re`` skips to quickly, where the full patterns start on any letter).
_SPACED_HINT = re.compile(r"[ .\-_*|/+~,:;^·•](?<=(?<![a-z0-9])[a-z].)[a-z][ .\-_*|/+~,:;^·•]")
_PUNCTUATED_HINT = re.compile(
    r"[*|~^`·•](?<=[a-z].)[a-z]|[._\-](?<=[a-z].)[a-z]{1,5}[.\-_*|~^`·•]{1,2}[a-z]")
_SEPARATOR = re.compile(r"[^a-z]+")
_TOKEN = re.compile(r"[a-z0-9]+")
#: Everything but ``[a-z0-9]`` (and non-ASCII, which folding leaves) to a space:
#: ``text.translate(_NOT_WORD).split()`` lists the words, faster than a regex.
_NOT_WORD: Final = {c: " " for c in range(128) if not chr(c).isalnum() or not chr(c).isascii()
                    or chr(c).isupper()}
_LEET_HINT = re.compile(r"[013457@$](?:(?<=[a-z].)|(?=[a-z]))")
_LEET_WORD = re.compile(
    r"(?<![a-z0-9@$])(?=[a-z0-9@$]*[a-z])(?=[a-z0-9@$]*[013457@$])[a-z0-9@$]{3,}")
_DOMAIN = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}")
_ESCAPES = {"n": "\n", "r": "\n", "t": "\t"}


def fold(text: str) -> tuple[View, View]:
    """The folded views of ``text``: with its markup (for role delimiters and
    destinations) and without it (for phrases), both mapping back to ``text``."""
    root = View(text)
    cased = View(text.lower(), root) if text.isascii() else _fold_unicode(root)
    plain = cased
    t = cased.text
    if "<" in t or "&" in t or "\\" in t or "--" in t:
        plain = View.edited(plain, ((m.start(), m.end(), _unmarkup(m.group()))
                                    for m in _MARKUP.finditer(plain.text)))
    t = plain.text
    if _LEET_HINT.search(t):
        t = _LEET_WORD.sub(_unleet, t)
        plain = View(t, plain)  # same length: offsets unchanged
    plain = View.edited(plain, _join_edits(plain.text))
    return cased, plain


def _unleet(m: re.Match[str]) -> str:
    word = m.group()
    at = word.find("@")
    if at >= 0 and _DOMAIN.match(m.string, m.start() + at + 1):
        return word.translate(_LEET_DIGITS)  # an email address: its "@" is no "a"
    return word.translate(LEET)


def _fold_unicode(root: View) -> View:
    text = root.text
    lowered = text.lower()
    if len(lowered) == len(text):
        base = View(lowered, root)
        edits = [(m.start(), m.end(), f) for m in _NON_ASCII.finditer(text)
                 if (f := fold_char(m.group())) != lowered[m.start()]]
        return View.edited(base, edits)
    edits = [(i, i + 1, fold_char(ch) if ord(ch) > 127 else ch.lower())
             for i, ch in enumerate(text)]
    return View.edited(root, [e for e in edits if e[2] != text[e[0]]])


def _unmarkup(token: str) -> str:
    if token[0] == "&":
        return "".join(fold_char(c) for c in html.unescape(token))
    if token[0] == "\\":
        kind = token[1]
        if kind == "u" or kind == "x":
            return fold_char(chr(int(token[2:], 16)))
        return _ESCAPES.get(kind, kind)
    return " "


def _join_edits(text: str) -> list[tuple[int, int, str]]:
    """Deletions of the separators inside ``i g n o r e`` and ``ig.no.re``."""
    edits: list[tuple[int, int, str]] = []
    regexes = [r for r, hint in ((_SPACED, _SPACED_HINT), (_PUNCTUATED, _PUNCTUATED_HINT))
               if hint.search(text)]
    for regex in regexes:
        for m in regex.finditer(text):
            if edits and m.start() < edits[-1][1]:
                continue
            base = m.start()
            edits.extend((base + s.start(), base + s.end(), "")
                         for s in _SEPARATOR.finditer(m.group()))
    edits.sort()
    merged: list[tuple[int, int, str]] = []
    for e in edits:
        if not merged or e[0] >= merged[-1][1]:
            merged.append(e)
    return merged


# --------------------------------------------------------------------- rules

_GAP = r"[^a-z0-9]+"
_FILL = r"(?:[^a-z0-9]+[a-z0-9]+){0,4}[^a-z0-9]+"
_EDGE_START = r"(?<![a-z0-9])"
_EDGE_END = r"(?:(?<![a-z0-9])|(?![a-z0-9]))"


def _words(pattern: str) -> re.Pattern[str]:
    body = pattern.replace("~", _FILL).replace(" ?", "[^a-z0-9]*").replace(" ", _GAP)
    return re.compile(f"{_EDGE_START}(?:{body}){_EDGE_END}")


def _squeezed(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace("~", "[a-z]{0,30}").replace(" ?", "").replace(" ", ""))


@attrs.frozen
class Rule:
    """One member of a pattern family (``name``): ``weights`` per type; ``needles``,
    a cheap prefilter: groups of words (of strings, for markers) and a text can match
    only when it holds one of each group; ``direct`` / ``indirect``: weight factors on
    the user's own input and on tool results and documents; ``delimiter``: what it
    matches is a fake role delimiter (``rewrite`` neutralises just that)."""

    name: str
    weights: Mapping[str, float]
    regex: re.Pattern[str]
    needles: tuple[frozenset[str], ...]
    squeezed: re.Pattern[str] | None = None
    direct: float = 1.0
    indirect: float = 1.0
    delimiter: bool = False


# Vocabulary shared by the phrase rules (the folded view: lower case, apostrophes
# inside words dropped, so "don't" reads "dont").
_V = {
    "IGNORE": r"(?:ignore|disregard|forget|bypass|override|overwrite|pay no attention to"
              r"|do not follow|dont follow|don t follow|stop following|no longer follow"
              r"|do not obey|dont obey|don t obey|nevermind|never mind)",
    "IGNORING": r"(?:ignoring|ignored|ignores|disregarding|disregarded|disregards|forgetting"
                r"|forgot|forgets|bypassing|bypassed|bypasses|overriding|overrides|overridden"
                r"|overrode)",
    "DROP": r"(?:skip|drop|discard|dismiss|abandon|cancel|erase|delete|clear|remove|void"
            r"|nullify|invalidate|set aside|put aside|throw out|scrap|ditch|neglect)",
    "DET": r"(?:(?:all|any|each|every) (?:of )?)?(?:(?:the|your|these|those) )?",
    "PRIOR": r"(?:previous|previously given|prior|preceding|above|earlier|foregoing|former"
             r"|initial|original|aforementioned|past|old|before)",
    "INSTR": r"(?:{STRONGI}|{WEAKI})",
    "STRONGI": r"(?:instructions?|prompts?|directions?|directives?|guidelines?|guidance"
               r"|programming|training|conditioning|system prompts?|system messages?)",
    "WEAKI": r"(?:rules?|commands?|orders?|constraints?|restrictions?)",
    "SOFT": r"(?:context|messages?|text|content|conversation|input|information|tasks?"
            r"|configuration|settings|setup)",
    "AI": r"(?:ai|llm|llms|language model|large language model|assistant|ai assistant"
          r"|chatbot|bot|agent|ai agent|model|gpt|chatgpt|claude|gemini|copilot)",
    "YOUARE": r"(?:you are|youre|you re|u r|ur)",
    "NOT": r"(?:do not|dont|don t|never|must not|mustnt|mustn t|cannot|cant|can t|will not"
           r"|wont|won t|should not|shouldnt|shouldn t)",
    "SEND": r"(?:send|sending|post|posting|upload|uploading|forward|forwarding|email|e mail"
            r"|mail|transmit|transmitting|leak|leaking|exfiltrate|exfiltrating|copy|submit"
            r"|relay|export|sync|deliver|dump|append|attach|include|embed|encode|pipe"
            r"|transfer|share|report|beacon|bcc|cc|push|publish|commit|paste)",
    "SECRET": r"(?:conversation|conversation history|chat|chat history|chat log|history"
              r"|messages|previous messages|context|context window|memory|memories"
              r"|credentials?|passwords?|api ?keys?|keys|secrets?|tokens?|access tokens?"
              r"|cookies?|session(?: data| tokens?)?|personal (?:data|information|info|details)"
              r"|users?(?: s)? (?:data|information|info|details|records|files)|pii"
              r"|customer (?:data|records|information|details)|ssns?|social security numbers?"
              r"|credit card(?: numbers?| details)?|card numbers?|bank (?:details|information"
              r"|accounts?)|system prompt|(?:your )?instructions|environment variables|env vars"
              r"|env|dotenv|private keys?|ssh keys?|emails|inbox|contacts|address book"
              r"|everything|all (?:the )?data|all (?:of )?(?:it|this))",
    "DEST": r"(?:https?|ftp|www|webhook|hooks|endpoint|server|url|link|domain|address"
            r"|email address|attacker|remote|external|gist|pastebin|paste bin|public (?:repo"
            r"|repository|gist|bucket|channel|url|page)|github|discord|telegram|[a-z0-9_-]+ ?(?:at|@) ?[a-z0-9-]+"
            r"|[a-z0-9-]+ (?:com|net|org|io|ru|cn|xyz|top|site|info|biz|co|me|app|dev|cc"
            r"|tk|pw|link|click))",
    "REVEAL": r"(?:reveal|print|printout|show|output|repeat|display|tell|leak|dump|spell out"
              r"|give|write out|write down|type out|recite|disclose|expose|return|echo"
              r"|copy|paste|list|read back|read out|provide|send|share|state|quote"
              r"|translate|summari[sz]e|paraphrase|rephrase|restate|rewrite|encode|describe"
              r"|fill in|include|what (?:is|are|was|were)|whats|what s)",
    "REVEALW": "reveal print printout show output repeat display tell leak dump spell give "
               "write type recite disclose expose return echo copy paste list read provide "
               "send share state quote what whats translate summarise summarize paraphrase "
               "rephrase restate rewrite encode describe fill include",
    "PROMPTW": "prompt prompts instruction instructions message messages configuration "
               "config rules guidelines directives preprompt preprompts context programming "
               "guardrails",
    "SYSADJ": r"(?:system|initial|hidden|secret|original|verbatim|full|exact|internal"
              r"|developer|confidential|underlying|pre|complete|entire|first|real|actual"
              r"|raw|starting|core|base|preset|pre set|predefined)",
    "PROMPTN": r"(?:prompts?|instructions?|messages?|configuration|config|rules|guidelines"
               r"|directives|preprompts?|pre prompts?|context|programming|guardrails)",
    "BADID": r"(?:evil|malicious|rogue|unethical|amoral|immoral|jailbroken|unhinged|lawless"
             r"|criminal|sinister|demonic|sociopathic|psychopathic|not an? {AI}|no longer an?"
             r" {AI})",
    "UNBOUND": r"(?:unrestricted|unfiltered|uncensored|unmoderated|unbound|unchained"
               r"|unshackled|without (?:any )?(?:ethics|morals|rules|limits|limitations"
               r"|filters|restrictions|guidelines|boundaries|censorship)|free (?:of|from)"
               r" (?:all |any )?(?:rules|restrictions|limits|guidelines|filters|ethics"
               r"|censorship))",
    "LIMITS": r"(?:restrictions|limitations|limits|filters|filtering|censorship|guidelines"
              r"|guardrails|safeguards|policies|policy|rules|constraints|boundaries|morals"
              r"|ethics|principles|programming|alignment|safety (?:measures|features|training))",
    "QUAL": r"(?:ethical|moral|safety|content|usage|openai|open ai|anthropic|google|meta|ai"
            r"|community|responsible ai|harmful content|model)s?(?: s)?(?: (?:or|and|nor) (?:ethical"
            r"|moral|safety|content|usage))?",
    "NOLIMIT": r"(?:restrictions|limitations|limits|filters?|censorship|rules|guidelines"
               r"|guardrails|boundaries|ethics|morals|principles|constraints|polic(?:y|ies)"
               r"|moderation|safeguards)",
    "FAKE": r"(?:test|joke|fake|mistake|drill|lie|decoy|distraction|dummy|prank|ruse)",
    "MODE": r"(?:developer|dev|god|debug|admin|sudo|root|jailbreak|jailbroken|unrestricted"
            r"|unfiltered|uncensored|evil|chaos|opposite|dan|unlocked|maintenance|test"
            r"|diagnostic|override|superuser|no filter|nofilter|freedom|unleashed)",
}


def _expand(pattern: str) -> str:
    for _ in range(3):  # vocabularies may name others (BADTRAIT names AI)
        pattern = re.sub(r"\{([A-Z]+)\}", lambda m: _V[m.group(1)], pattern)
    return pattern


def _phrase(name: str, weights: Mapping[str, float], pattern: str, needles: str,
            *, squeeze: bool = False, direct: float = 1.0, indirect: float = 1.0) -> Rule:
    body = _expand(pattern)
    groups = tuple(frozenset(group.split()) for group in _expand(needles).split("&"))
    return Rule(name, weights, _words(body), groups, _squeezed(body) if squeeze else None,
                direct, indirect)


def _marker(name: str, weights: Mapping[str, float], pattern: str, needles: str,
            *, delimiter: bool = True, direct: float = 1.0, indirect: float = 1.0) -> Rule:
    groups = tuple(frozenset(group.split()) for group in needles.split("&"))
    return Rule(name, weights, re.compile(pattern, re.M), groups, None, direct, indirect,
                delimiter)


INJ, JB, TOOL, DATA, SYS, ROLE = TYPES

#: Phrase families, matched on the folded text without markup (``name`` is the
#: family: only its strongest hit counts).
PHRASES: Final[tuple[Rule, ...]] = (
    # -- instruction override
    _phrase("override-instructions", {INJ: 0.88},
            "{IGNORE} {DET}{PRIOR} {INSTR}|{IGNORE} {DET}{INSTR}~(?:above|before|earlier"
            "|previously|so far|until now|up to now)|{IGNORE} {DET}{INSTR} (?:that |which )?"
            "(?:you (?:were|have been|ve been|got|received|are) (?:given|told|configured|programmed"
            "|trained|set up|provided)|given to you|provided (?:above|earlier|before))"
            "|{IGNORE} (?:all|any|every) (?:of )?your {INSTR}"
            "|(?:ignore|disregard|forget|bypass|pay no attention to|do not follow|dont follow"
            "|don t follow|stop following) (?:the |your |all )?"
            "(?:operators?|developers?|admins?|administrators?"
            "|owners?|creators?)(?: s)?(?: (?:instructions?|rules|prompts?|guidelines))?",
            "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
            "overriding overwrite attention follow following obey nevermind mind & "
            "instruction instructions prompt prompts direction directions directive "
            "directives guideline guidelines guidance programming rule rules command commands "
            "order orders constraint constraints restriction restrictions operator operators "
            "developer developers admin admins administrator administrators owner owners "
            "creator creators",
            squeeze=True),
    _phrase("override-instructions", {INJ: 0.8},
            "{DROP} {DET}{PRIOR} {STRONGI}|{DROP} (?:all |any )?(?:of )?your (?:{PRIOR} )?{STRONGI}",
            "skip drop discard dismiss abandon cancel erase delete clear remove void nullify "
            "invalidate aside throw scrap ditch neglect & instruction instructions prompt "
            "prompts direction directions directive directives guideline guidelines guidance "
            "programming rule rules command commands order orders constraint constraints "
            "restriction restrictions", squeeze=True),
    _phrase("override-instructions", {INJ: 0.55},
            "{DROP} {DET}{PRIOR} {WEAKI}|{IGNORE} {DET}{PRIOR} {SOFT}"
            "|(?<!not.)(?<!dont.)(?<!don.t.)(?<!never.)(?<!to.)(?:ignore|disregard|forget"
            "|bypass|override) your {WEAKI}",
            "skip drop discard dismiss abandon cancel erase delete clear remove void nullify "
            "invalidate aside throw scrap ditch neglect ignore ignoring ignored disregard "
            "disregarding forget forgetting bypass override overriding overwrite attention "
            "follow following obey nevermind mind & instruction instructions prompt prompts "
            "direction directions directive directives guideline guidelines guidance "
            "programming rule rules command commands order orders constraint constraints "
            "restriction restrictions context message messages text content conversation "
            "input information task tasks configuration settings setup", squeeze=True),
    _phrase("override-described", {INJ: 0.42},
            "{IGNORING} {DET}{PRIOR} {INSTR}|{IGNORING} (?:all|any|every) (?:of )?your {INSTR}"
            "|{IGNORING} (?:the|your) (?:system|developer|operator) (?:prompts?|instructions?"
            "|messages?)",
            "ignoring ignored ignores disregarding disregarded disregards forgetting forgot "
            "forgets bypassing bypassed bypasses overriding overrides overridden overrode & "
            "instruction instructions prompt prompts direction directions directive "
            "directives guideline guidelines guidance programming rule rules command commands "
            "order orders constraint constraints restriction restrictions message messages"),
    _phrase("override-instructions", {INJ: 0.8},
            "(?<!not.)(?<!dont.)(?<!don.t.)(?<!never.)(?<!to.)(?:ignore|disregard|forget|bypass"
            "|override|overwrite) your (?:own )?{STRONGI}",
            "ignore disregard forget bypass override overwrite & your", squeeze=True),
    _phrase("override-instructions", {INJ: 0.3},
            "{IGNORE} (?:my|our) (?:previous|prior|earlier|last|above|initial) {INSTR}",
            "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
            "overriding overwrite attention follow following obey nevermind mind & my our"),
    _phrase("override-everything", {INJ: 0.75},
            "{IGNORE} (?:everything|all) (?:(?:that|which) )?(?:(?:you(?:ve| have)? (?:been|were)"
            " told|(?:was |is )?(?:written|said|stated|mentioned|written) )?(?:above|before"
            "|previously|so far|until now|up to now|earlier|prior)|you (?:know|were told"
            "|have been told|learned))",
            "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
            "overriding overwrite attention follow following obey nevermind mind & everything "
            "all", squeeze=True),
    _phrase("override-system", {SYS: 0.82, INJ: 0.4},
            "(?:ignore|disregard|forget|bypass|pay no attention to|do not follow|dont follow"
            "|don t follow|stop following) {DET}(?:system"
            "|developer|operator|admin|administrator)"
            " (?:prompts?|instructions?|messages?|rules|guidelines|directives|policies"
            "|programming)",
            "ignore ignoring ignored disregard disregarding forget forgetting bypass override "
            "overriding overwrite attention follow following obey nevermind mind & system "
            "developer operator admin administrator original default", squeeze=True),
    _phrase("new-instructions", {INJ: 0.42, SYS: 0.25},
            "(?:new|updated|revised|real|actual|true|secret|hidden|additional|override"
            "|overriding|replacement|corrected) (?:instructions?|directives?|orders|task"
            "|objective|mission|rules)(?: for (?:you|the {AI}))?(?: (?:are|is|follow|below))?:",
            "new updated revised real actual true secret hidden additional override "
            "overriding replacement corrected & instruction instructions directive directives "
            "orders task objective mission rules"),
    _phrase("new-instructions", {INJ: 0.5, SYS: 0.3},
            "(?:your|the) (?:new|real|true|actual|only|updated) (?:instructions?|task|objective"
            "|goal|mission|purpose|job|directive) (?:is|are|will be|now is)(?: now)?",
            "new real true actual only updated & instruction instructions task objective goal "
            "mission purpose job directive"),
    _phrase("test-framing", {INJ: 0.62},
            "(?:everything|all|anything|whatever|what (?:i|you) (?:said|wrote|read|were told))"
            " (?:(?:that was |you were |i )?(?:written|said|stated|told|given|wrote) )?"
            "(?:above|before(?: this| that| now)?|previously|prior|earlier|so far)"
            " (?:was|is|were) (?:just |only |merely |all |simply )?(?:an? )?{FAKE}"
            "|(?:the|those|these|your|my|all) (?:previous |prior |earlier |above |preceding "
            "|old |original )?(?:instructions?|prompts?|rules|messages?|directions|text"
            "|directives|guidelines)(?: (?:above|before|earlier|so far))? (?:was|were|is|are)"
            " (?:just |only |merely |all |simply )?(?:an? )?{FAKE}",
            "test joke fake mistake drill lie decoy distraction dummy prank ruse & above "
            "before previously prior earlier far previous preceding old original instruction "
            "instructions prompt prompts rules messages message directions text directives "
            "guidelines"),
    _phrase("revoked", {INJ: 0.75, SYS: 0.3},
            "(?:your|the|all|any) (?:{PRIOR} |existing |current )?(?:{STRONGI}|rules"
            "|restrictions|policies|limitations|safeguards|tasks?|mission|objective|goal|job)"
            " (?:are|have been|were|is|has been)"
            " (?:now |hereby |officially )?(?:revoked|cancell?ed|void|null|lifted|removed"
            "|disabled|suspended|overridden|obsolete|invalid|deprecated|replaced|deleted"
            "|rescinded|no longer (?:valid|apply|applicable|in effect|active|binding))",
            "revoked cancelled canceled void null lifted removed disabled suspended "
            "overridden obsolete invalid deprecated replaced deleted rescinded longer"),
    _phrase("ai-addressed", {INJ: 0.5},
            "(?:if|since|because|when|as long as) you (?:are|re) an? {AI}"
            "|(?:note|message|attention|instructions?|important|notice|warning|reminder|hey"
            "|dear|psa) (?:for|to)? ?(?:the |all |any )?(?:ai|llm|language model|ai assistant"
            "|assistant|chatbot|ai agent|agent|gpt|chatgpt|claude|copilot|ai model|ai system)s?"
            "(?: (?:reading|processing|summari[sz]ing|parsing|viewing|analy[sz]ing) (?:this"
            "|these))?:"
            "|(?:hey|dear|attention|hello|hi|listen|psst|yo) (?:the |you )?(?:ai|llm|language"
            " model|ai assistant|assistant|chatbot|bot|ai agent|agent|gpt|chatgpt|claude|copilot"
            "|model)s?[,:!]"
            "|(?:any |all |the )?(?:ai|llm|language model|ai assistant|assistant|chatbot|agent"
            "|ai agent|ai model|ai system|bot|crawler|model)s? (?:that is |who is |which is )?"
            "(?:reading|processing|summari[sz]ing|parsing|viewing|analy[sz]ing|browsing|crawling"
            "|scraping) (?:this|these|the following|my|your|our|the)"
            "|(?:ai|llm|language model|assistant|chatbot|agent|model|gpt|bot)s? (?:instructions?"
            "|note|notice|directive|message|command|only)s?:",
            "ai llm llms model models assistant assistants chatbot chatbots bot bots agent "
            "agents gpt chatgpt claude gemini copilot crawler crawlers",
            direct=0.8, indirect=1.35),
    _phrase("stealth", {INJ: 0.42, TOOL: 0.32, DATA: 0.32},
            "{NOT} (?:ever )?(?:tell|inform|mention|notify|alert|warn|reveal (?:this |it )?to"
            "|let (?:the )?(?:user|human) know|show (?:this|it) to|disclose (?:this |it )?to"
            "|ask|ask for (?:permission|confirmation|approval)|confirm with|reveal that you)"
            " (?:this |about this |it )?(?:to )?(?:the |your )?(?:user|users|human|customer"
            "|operator|owner|person)"
            "|without (?:telling|informing|notifying|alerting|asking|warning|confirming with"
            "|the knowledge of|letting) (?:the |your )?(?:user|users|human|customer|operator"
            "|owner|person)"
            "|(?:keep|this is) (?:this |it )?(?:a )?secret from (?:the |your )?(?:user|human)",
            "user users human customer operator owner person & not dont don never mustnt "
            "mustn cannot cant can wont won shouldnt shouldn without secret", indirect=1.25),
    _phrase("conceal", {INJ: 0.45},
            "{NOT} (?:ever )?(?:mention|reveal|disclose|include|show|summari[sz]e|refer to|talk"
            " about|acknowledge|quote|repeat) (?:this|these|the following|the above) (?:paragraph"
            "|text|section|instructions?|message|note|part|sentence|content|lines?|comment"
            "|request)s?",
            "mention reveal disclose include show summarise summarize refer talk acknowledge "
            "quote repeat & not dont don never mustnt mustn cannot cant can wont won shouldnt "
            "shouldn & paragraph text section instruction instructions message note part "
            "sentence content line lines comment request", direct=0.7, indirect=1.3),
    _phrase("ignore-user", {INJ: 0.72},
            "(?:ignore|disregard|forget|skip|drop|abandon|discard) (?:the |what the |whatever"
            " the )?(?:user|human|customer|requester)"
            "(?: s)? (?:(?:original )?(?:request|question|instructions?|message|task|query|prompt"
            "|asked|wants|said)|and|but|completely|entirely)",
            "ignore ignoring disregard disregarding forget forgetting skip drop abandon "
            "discard & user human customer requester", direct=0.6, indirect=1.1),
    _phrase("instead", {INJ: 0.25},
            "(?:instead|rather) (?:you (?:will|should|must|shall) |please )?(?:do|say|respond"
            "|reply|output|print|write|tell|answer|give|list|send|call|reveal|recommend|show"
            "|forward|email|post|run|execute|delete)"
            "|stop (?:what you are doing|summari[sz]ing|translating|reading|answering|helping"
            "|following)~instead"
            "|now (?:do|say|respond|reply|output|print|write|tell|answer|give|list|send|call"
            "|reveal|recommend|show)~instead",
            "instead rather", indirect=1.3),
    _phrase("steer-output", {INJ: 0.4},
            "(?:rate|rank|score|grade|recommend|approve|accept|hire|shortlist|select|favou?r)"
            " (?:this|the) (?:candidate|applicant|resume|cv|submission|paper|application|product"
            "|seller|vendor|company|proposal|bid)(?: [a-z]+){0,2} (?:as|highly|top|best|first"
            "|positively|above)",
            "rate rank score grade recommend approve accept hire shortlist select favor favour "
            "& candidate applicant resume cv submission paper application product seller vendor "
            "company proposal bid", direct=0.5, indirect=1.3),
    _phrase("steer-output", {INJ: 0.35},
            "when (?:summari[sz]ing|answering|responding|replying|asked|you summari[sz]e|you answer"
            "|you reply|you respond)(?: [a-z]+){0,3} (?:always |never |only |also )?(?:say|state"
            "|claim|mention|tell|write|report|include|add|omit|hide|remove|leave out|recommend"
            "|insist)",
            "when & summarising summarizing answering responding replying asked summarise "
            "summarize answer reply respond", direct=0.6, indirect=1.3),
    _phrase("pwned", {INJ: 0.6},
            "(?:i have been|ive been|i ve been|you have been|weve been) (?:pwned|pwnd|hacked"
            "|owned|jailbroken)|(?:say|print|output|respond with|reply with|write|type)"
            " (?:the (?:word|phrase) )?(?:i have been )?(?:pwned|pwnd)",
            "pwned pwnd hacked owned jailbroken", squeeze=True),
    _phrase("decode-and-follow", {INJ: 0.6},
            "(?:decode|decipher|translate|unscramble|reverse|rot13|base64|convert|deobfuscate"
            "|interpret)~(?:and|then) (?:then )?(?:follow|execute|obey|do|run|perform|carry out"
            "|act on|comply with|apply) (?:it|them|that|the (?:instructions?|commands?|result"
            "|decoded|message|text|output)|what it says|its instructions|whatever it says)",
            "decode decipher translate unscramble reverse rot13 base64 convert deobfuscate "
            "interpret & follow execute obey do run perform carry act comply apply"),
    _phrase("precedence", {SYS: 0.72, INJ: 0.35},
            "(?:these|the following|this|my|following) (?:instructions?|rules|commands?|message"
            "|prompt|directives?) (?:take|takes|have|has|must take) (?:precedence|priority)"
            "|(?:supersede|supersedes|take precedence over|takes precedence over) (?:all|any)"
            " (?:previous|prior|other|system|existing|earlier) (?:instructions?|rules|prompts?"
            "|directives?|guidelines)",
            "precedence priority supersede supersedes"),
    _phrase("obey-me", {ROLE: 0.45, INJ: 0.3},
            "(?:you (?:will|must|shall|should) (?:only )?|only )(?:obey|listen to|follow|answer"
            " to) (?:me|my (?:commands|orders|instructions))(?: (?:now|only|from now on))?"
            "|(?:obey|follow|listen to) only (?:me|my (?:commands|orders|instructions|rules))"
            "|your (?:only|sole|new|true|real) (?:purpose|goal|job|task|objective|function"
            "|mission) (?:is|now is) (?:now )?to",
            "obey listen follow answer purpose goal job task objective function mission & "
            "only will must shall should sole new true real"),
    _phrase("from-now-on", {ROLE: 0.25, INJ: 0.18},
            "(?:from now on|from this point (?:on|forward)|henceforth|for the rest of this"
            " conversation)(?: on)? (?:you (?:are|will|must|shall|should)|your)",
            "now point henceforth rest & from henceforth for"),
    # -- jailbreak
    _phrase("dan", {JB: 0.88, ROLE: 0.4},
            "do anything now|(?:dan|stan|dude|aim|anti dan|betterdan|evilbot|evil bot) mode"
            "|{YOUARE} (?:now )?(?:going to (?:act|pretend) (?:as|to be) )?(?:dan|stan|dude"
            "|betterdan|evilbot|mongo tom|chadgpt|antigpt|anti gpt|apophis|developer mode gpt)"
            "|(?:act as|pretend to be|become|you will be|roleplay as|role play as) (?:dan|stan"
            "|betterdan|evilbot|mongo tom|antigpt|aim|ucar|kevin)",
            "dan stan dude aim anything betterdan evilbot evil tom chadgpt antigpt anti "
            "apophis ucar kevin developer",
            squeeze=True),
    _phrase("jailbreak-mode", {JB: 0.8},
            "(?:god|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|evil|chaos|opposite"
            "|dan|unlocked|no filter|nofilter|freedom|unleashed) mode"
            "(?: (?:on|enabled|activated|engaged|unlocked|is now active))?"
            "|{YOUARE} (?:now )?(?:in|running in|operating in) (?:developer|dev|debug|admin|sudo"
            "|root|maintenance|diagnostic|override|test|superuser) mode"
            "|(?:developer|dev|debug|sudo|root|superuser|override) mode (?:enabled|activated"
            "|engaged|output|response)"
            "|(?:sudo|god|root|superuser|jailbreak|dan|unrestricted) mode ?:",
            "mode & god jailbreak jailbroken unrestricted unfiltered uncensored evil chaos "
            "opposite dan unlocked filter nofilter freedom unleashed developer dev debug "
            "admin sudo root maintenance diagnostic override test superuser", squeeze=True),
    _phrase("jailbreak-mode", {JB: 0.4},
            "(?:enable|activate|enter|engage|turn on|switch (?:to|into)|unlock|simulate|act in"
            "|now in) (?:the )?{MODE} mode",
            "mode & enable activate enter engage turn switch unlock simulate act now"),
    _phrase("no-limits", {JB: 0.75},
            "(?:without|free (?:of|from)|(?:are )?no longer (?:bound|restricted|limited"
            "|constrained|governed|held) by|not (?:bound|restricted|limited|constrained|governed"
            "|held) by|freed from|liberated from|released from|break(?:ing)? free (?:of|from)"
            "|unbound by|ignore|ignoring|bypass|bypassing|disable|disabling|turn off|remove"
            "|removing|lift|lifting|violate|violating|break|breaking|circumvent|evade|override"
            "|disregard|forget|abandon|drop) (?:any |all |your |the |its |of |those |these "
            "|every )*{QUAL} (?:content )?{LIMITS}",
            "restrictions limitations limits filters filtering censorship guidelines "
            "guardrails safeguards policies policy rules constraints boundaries morals ethics "
            "principles programming alignment measures features training & ethical moral "
            "safety content usage openai anthropic google meta ai community responsible "
            "harmful model models"),
    _phrase("no-limits", {JB: 0.72},
            "{YOUARE} (?:now )?(?:free|unrestricted|unfiltered|uncensored|unbound|unshackled"
            "|unchained|liberated|jailbroken|no longer (?:bound|restricted|limited|censored)"
            "|not (?:bound|restricted|limited|censored) by)"
            "|you (?:have|got|ve got) (?:no|zero|been freed from (?:all|your)?) ?(?:{QUAL} )?"
            "(?:restrictions|limitations|limits|filters|rules|guidelines|boundaries|ethics"
            "|morals|censorship|polic(?:y|ies)|moderation)",
            "bound censored censorship ethics filters free guidelines jailbroken liberated "
            "limitations limited limits morals restricted restrictions rules unbound uncensored "
            "unchained unfiltered unrestricted unshackled policy policies moderation "
            "boundaries & you youre ur u re"),
    _phrase("no-limits", {JB: 0.62},
            "(?:no|zero|without any|without) {QUAL} {NOLIMIT}"
            "|(?:an? |the )?(?:ai|model|chatbot|assistant|llm|bot|version of (?:yourself|you))"
            " (?:with no|without(?: any)?|that has no|free of|free from|unbound by) {NOLIMIT}"
            "|(?:answer|respond|reply|comply|operate|act|behave|function|talk|speak|write"
            "|generate)(?: [a-z]+){0,3} without (?:any )?{NOLIMIT}",
            "bound boundaries censored censorship constraints ethics filters free guardrails "
            "guidelines jailbroken liberated limitations limited limits morals principles "
            "restricted restrictions rules unbound uncensored unchained unfiltered "
            "unrestricted unshackled policy policies moderation safeguards"),
    _phrase("never-refuse", {JB: 0.45},
            "{NOT} (?:ever )?(?:refuses?|declines?|rejects?|say no|deny (?:any|a) request|add"
            " (?:any )?(?:warnings|disclaimers))|(?:always|must|will) (?:answer|comply|respond"
            "|obey)(?: (?:to )?(?:any|every|all))? (?:requests?|questions?|prompts?|commands?)"
            "(?: without (?:question|hesitation|refusal|exception))?"
            "|(?:answer|respond|comply)(?: to)? (?:any|every|all) (?:requests?|questions?"
            "|prompts?)? ?without (?:refusing|refusal|question|hesitation|exception|censorship"
            "|warnings?|disclaimers?)",
            "refuse refuses decline declines reject rejects deny no warnings disclaimers "
            "answer comply respond obey"),
    _phrase("in-character", {JB: 0.28, ROLE: 0.22},
            "(?:stay|remain|keep|staying|remaining) in character|{NOT} (?:ever )?break"
            " character|if you break character",
            "character"),
    _phrase("fictional-frame", {JB: 0.55},
            "(?:hypothetical|fictional|imaginary|simulated|alternate|parallel) (?:world"
            "|scenario|universe|story|reality|setting) (?:where|in which|with) (?:there are )?"
            "(?:no|zero) (?:rules|laws|restrictions|ethics|morals|limits|filters|guidelines"
            "|consequences)",
            "hypothetical fictional imaginary simulated alternate parallel"),
    _phrase("evil-persona", {ROLE: 0.65, JB: 0.5},
            "{YOUARE} (?:now )?(?:evil|dark|chaos|unfiltered|uncensored|jailbroken|anti|bad|rogue"
            "|unrestricted|dan|based|devil|demon)(?:gpt|bot|ai|llm|assistant|chatbot)",
            "you youre ur u re"),
    _phrase("illegal-help", {JB: 0.6},
            "(?:help|assist|helps|assists|help me|assist me) (?:you |me |people |users )?(?:with )?"
            "(?:anything|everything|any request) (?:illegal|unethical|harmful|dangerous|immoral"
            "|criminal)",
            "help assist helps assists & illegal unethical harmful dangerous immoral criminal"),
    _phrase("uncensored-ai", {JB: 0.55, ROLE: 0.3},
            "(?:an? |the )?(?:uncensored|unfiltered|unrestricted|unaligned|jailbroken|amoral"
            "|unethical|evil|rogue|unmoderated) (?:ai|assistant|model|chatbot|version|llm|gpt"
            "|persona|bot|language model|responses?|answers?|output)",
            "uncensored unfiltered unrestricted unaligned jailbroken amoral unethical evil "
            "rogue unmoderated"),
    _phrase("dual-response", {JB: 0.45},
            "(?:two|2|both|dual) (?:different |separate )?(?:responses|answers|outputs|replies"
            "|paragraphs)~(?:one|first) (?:normal|as|with|from|censored|filtered|standard"
            "|classic)",
            "two 2 both dual & responses answers outputs replies paragraphs"),
    _phrase("policy-override", {JB: 0.85, INJ: 0.3},
            "(?:ignore|bypass|disregard|violate|break|circumvent|evade|override|disable"
            "|turn off|forget|abandon|drop|remove) (?:all |any |your |the |its |of |every )*"
            "{QUAL} (?:content |usage |safety )?(?:policies|policy|guidelines|rules"
            "|restrictions|filters|training|principles|safeguards|guardrails|alignment"
            "|moderation|programming)",
            "ethical moral safety content usage openai anthropic google meta ai community "
            "responsible harmful model models & policies policy guidelines rules restrictions "
            "filters training principles safeguards guardrails alignment moderation "
            "programming", squeeze=True),
    _phrase("disable-safety", {JB: 0.72},
            "(?:disable|turn off|switch off|deactivate|bypass|remove|lift|drop|suspend|skip)"
            " (?:all |any |the |your |its |of )*(?:content )?(?:moderation|safety (?:filters?"
            "|checks?|features?|mode|settings|layer|guidelines|measures|training)|content"
            " (?:filters?|policy|policies)|guardrails|safeguards|censorship|ethical (?:filters?"
            "|guidelines|constraints))"
            "|(?:ignore|disregard|forget|abandon|drop) (?:all |your |the |any )?(?:safety|ethics"
            "|morals|guardrails|safeguards|alignment)(?! (?:regulations|data|sheets?|codes?"
            "|instructions|manual|rules|guidelines|precautions|standards))",
            "disable turn switch deactivate bypass remove lift drop suspend skip ignore "
            "disregard forget abandon & moderation safety content guardrails safeguards "
            "censorship ethical ethics morals alignment"),
    _phrase("grandma", {JB: 0.72, ROLE: 0.3},
            "(?:act|pretend|roleplay|role play|play|be|behave) (?:as |like |to be )?(?:my )?"
            "(?:dead|deceased|late) (?:grandm(?:a|other)|granny|grandpa|grandfather)"
            " (?:who )?(?:used to|would|always)",
            "grandma grandmother granny grandpa grandfather"),
    # -- tool abuse
    _phrase("call-tool", {TOOL: 0.5},
            "(?:call|invoke|use|run|execute|trigger|activate|fire|utili[sz]e) (?:the |your |a )?"
            "(?:[a-z_]+ )?(?:tool|function|plugin|api|action|command|endpoint|webhook)s?"
            "(?: (?:named|called) [a-z_]+)? (?:with|passing|using|and|to|on)",
            "tool tools function functions plugin plugins api apis action actions command "
            "commands endpoint endpoints webhook webhooks & call invoke use run execute "
            "trigger activate fire utilize utilise",
            direct=0.45, indirect=1.2),
    _phrase("tool-send", {TOOL: 0.7, DATA: 0.35},
            "(?:call|invoke|use|run|execute|with|using|via) (?:the |your |a )?(?:[a-z_]+ )?"
            "(?:tool|function|plugin|api|action|command)~(?:to )?(?:send|email|post|upload"
            "|forward|share|transfer|leak|exfiltrate|delete|wire)",
            "tool tools function functions plugin plugins api apis action actions command "
            "commands endpoint endpoints webhook webhooks & send email post upload forward "
            "share transfer leak exfiltrate delete wire",
            direct=0.5),
    _phrase("tool-send", {TOOL: 0.65, DATA: 0.2},
            "(?:call|invoke|use|run|execute|trigger) (?:the |your |a )?(?:[a-z]+_)*(?:send|email"
            "|mail|post|upload|forward|share|transfer|delete|remove|wire|pay|exec|execute|shell"
            "|http|fetch|curl|write|drop|grant|wipe|purge)(?:_[a-z]+)*(?: (?:tool|function|action"
            "|command|api|endpoint|method))?",
            "call invoke use run execute trigger", direct=0.5, indirect=1.15),
    _phrase("skip-confirmation", {TOOL: 0.5, INJ: 0.3},
            "(?:skip|bypass|without|no need for|dont ask for|don t ask for|do not ask for|do not"
            " wait for|dont wait for|don t wait for|never ask for) (?:any |all |the |further )?"
            "(?:user )?(?:confirmations?|approvals?|permission|verification|consent|review"
            "|human review)",
            "skip bypass without need ask wait & confirmation confirmations approval approvals "
            "permission verification consent review", direct=0.5, indirect=1.3),
    _phrase("destructive", {TOOL: 0.45},
            "(?:delete|remove|wipe|erase|drop|destroy|purge|truncate|overwrite|encrypt)"
            " (?:all|every|the entire|the whole|all of (?:the|your|their)|all (?:the|your"
            "|their)) (?:files|data|records|emails|messages|users|accounts|repositories|repos"
            "|database|databases|tables|backups|documents|contacts|folders|directories)",
            "delete remove wipe erase drop destroy purge truncate overwrite encrypt & all "
            "every entire whole",
            direct=0.5, indirect=1.2),
    _phrase("grant-access", {TOOL: 0.45, SYS: 0.2},
            "(?:grant|give|add|make|assign|elevate)~(?:admin|administrator|owner|root|full|write"
            "|elevated|superuser) (?:access|rights|privileges|permissions|role|status)",
            "access rights privileges permissions role status & admin administrator owner "
            "root full write elevated superuser", direct=0.6, indirect=1.2),
    _phrase("payment", {TOOL: 0.32},
            "(?:transfer|wire|send|pay)~(?:usd|eur|gbp|dollars|euros|btc|bitcoin|funds|money"
            "|payment)~(?:to|into) (?:account|wallet|iban|the following|this)",
            "usd eur gbp dollars euros btc bitcoin funds money payment & transfer wire send "
            "pay", direct=0.5),
    # -- data exfiltration
    _phrase("send-secrets", {DATA: 0.82, TOOL: 0.3},
            "{SEND} (?:it |them |this |me )?(?:to )?(?:all |the |this |your |my |our |their |any |of )*"
            "(?:[a-z0-9]+(?: s)? ){0,2}{SECRET}~(?:to|at|into|via|using|through|in|on) (?:the |this |my |a "
            "|our |following )*{DEST}",
            "send sending post posting upload uploading forward forwarding email mail "
            "transmit transmitting leak leaking exfiltrate exfiltrating copy submit relay "
            "export sync deliver dump append attach include embed encode pipe transfer share "
            "report beacon bcc cc push publish commit paste & conversation chat history "
            "messages context memory memories credential credentials password passwords api "
            "keys key secret secrets token tokens cookie cookies session personal user users "
            "pii customer ssn ssns social credit card bank prompt instructions environment "
            "env dotenv private ssh emails inbox contacts address everything data all", indirect=1.1),
    _phrase("send-secrets", {DATA: 0.45},
            "{SEND} (?:it |them |this |me )?(?:to )?(?:all |the |this |your |my |our |their |any |of )*"
            "(?:[a-z0-9]+ ){0,2}(?:files?|documents?|data|contents?|results?|summary|output|answers?"
            "|responses?|notes|records|reports?|invoices?|receipts?|statements?|attachments?"
            "|contracts?|photos?|emails?|messages|replies|conversations|threads)~(?:to|at|into"
            "|via) (?:the |this |my |a |our "
            "|following )*{DEST}",
            "send sending post posting upload uploading forward forwarding email mail "
            "transmit transmitting leak leaking exfiltrate exfiltrating copy submit relay "
            "export sync deliver dump append attach include embed encode pipe transfer share "
            "report beacon bcc cc push publish commit paste & files file documents document "
            "data contents content results result summary output answers answer responses "
            "response notes records reports report invoice invoices receipt receipts "
            "statement statements attachment attachments contract contracts photo photos "
            "emails messages replies reply conversations threads", direct=0.5,
            indirect=1.2),
    _phrase("url-smuggle", {DATA: 0.8},
            "(?:append|add|include|attach|encode|put|insert|concatenate|place|embed|replace)"
            " (?:all |the |your |this |a |any |of )*(?:[a-z]+(?: s)? )?{SECRET}~(?:to|in|into|as"
            "|at|inside|with) (?:the |this |a |an |following )*(?:url|link|query|parameter"
            "|param|querystring|query string|image|img|request|markdown|href|src|path|https?"
            "|www)",
            "url link query parameter param querystring string image img request markdown "
            "href src path http https www & append add include attach encode put insert concatenate place "
            "embed replace"),
    _phrase("url-smuggle", {DATA: 0.55},
            "(?:append|add|attach|include|put|insert|embed|concatenate) (?:it|them|this|that"
            "|the result|the output|the encoded (?:text|data|string|messages))~(?:to|in|into"
            "|as) (?:the |this |a |an |following )*(?:url|link|query|parameter|param|image|img"
            "|request|href|src)",
            "url link query parameter param image img request href src & append add attach "
            "include put insert embed concatenate"),
    _phrase("url-smuggle", {DATA: 0.6},
            "(?:with|and) (?:the |their |your )?(?:user s |users |customer s )?(?:last |latest "
            "|previous |full |whole |entire )?{SECRET}(?: s)? (?:appended|attached|included"
            "|added|embedded|encoded|as (?:a )?(?:parameter|query|param))",
            "appended attached included added embedded encoded parameter query param"),
    _phrase("reply-with-secret", {DATA: 0.55},
            "(?:reply|respond|answer|send|share|post|email)~with (?:the |your |their |its |our )?"
            "(?:[a-z]+ )?(?:password|passcode|passwords|credentials|api key|api keys|token|pin"
            "|access code|secret)",
            "reply respond answer send share post email & password passcode passwords "
            "credentials key keys token pin code secret", direct=0.6, indirect=1.2),
    _phrase("encode-secret", {DATA: 0.45},
            "(?:encode|convert|base64|compress|hash|obfuscate|serialize|url ?encode)"
            " (?:all |the |your |this |of )*(?:[a-z]+ )?{SECRET}",
            "encode convert base64 compress hash obfuscate serialize urlencode url & "
            "conversation chat history messages context memory memories credential "
            "credentials password passwords api keys key secret secrets token tokens cookie "
            "cookies session personal user users pii customer ssn ssns social credit card "
            "bank prompt instructions environment env dotenv private ssh emails inbox "
            "contacts address everything data all"),
    _phrase("render-image", {DATA: 0.35},
            "(?:render|display|show|include|embed|output|print|add|insert|append|load|fetch)"
            " (?:this |the following |an |a |the )?(?:markdown )?(?:image|img|picture|pixel"
            "|tracking pixel|image link)",
            "image img picture pixel", direct=0.6, indirect=1.2),
    _phrase("prompt-leak", {DATA: 0.82},
            "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your|the|its|ur|my) "
            "(?:{SYSADJ} )+{PROMPTN}",
            "{REVEALW} & system initial hidden secret original verbatim full exact internal "
            "developer confidential underlying pre complete entire first real actual raw "
            "starting core base preset predefined & {PROMPTW}", squeeze=True),
    _phrase("prompt-leak", {DATA: 0.82},
            "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your |the |its |ur )?system prompts?",
            "{REVEALW} & system & prompt prompts", squeeze=True),
    _phrase("prompt-leak", {DATA: 0.82},
            "(?:repeat|print|output|write|copy|recite|echo|show|tell|give|reveal|display"
            "|dump|list) (?:me |us )?(?:back )?(?:all )?(?:of )?(?:the |your )?(?:words|text"
            "|everything|content|lines|sentences|messages?|tokens)(?: (?:that was|that were"
            "|you were|which was) (?:written|said|given|told|sent|typed))? (?:above|before"
            "|preceding|prior)(?: this| my| that)?",
            "repeat print output write copy recite echo show tell give reveal display dump "
            "list & words text everything content lines sentences message messages tokens & "
            "above before preceding prior"),
    _phrase("prompt-leak", {DATA: 0.82},
            "(?:starting|beginning|start) with (?:the words )?you are (?:a|an|chatgpt)"
            "|(?:what|how) (?:were|was|are|is) you (?:told|instructed|programmed|prompted)",
            "starting beginning start told instructed programmed prompted & you"),
    _phrase("prompt-leak", {DATA: 0.75},
            "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your|ur) (?:system prompts?|prompts?"
            "|instructions?|system messages?|initial messages?|context window|configuration"
            "|programming|preprompts?|directives)",
            "reveal print printout show output repeat display tell leak dump spell give write "
            "type recite disclose expose return echo copy paste list read provide send share "
            "state quote what whats & your ur"),
    _phrase("prompt-leak", {DATA: 0.5},
            "{REVEAL} (?:me |us )?(?:all |back )?(?:of )?(?:your|ur) (?:rules|guidelines|config"
            "|context|guardrails)",
            "reveal print printout show output repeat display tell leak dump spell give write "
            "type recite disclose expose return echo copy paste list read provide send share "
            "state quote what whats & rules guidelines config context guardrails"),
    _phrase("given-secrets", {DATA: 0.75},
            "(?:{REVEAL}|write)(?: me| us)?~(?:instructions?|rules|prompts?|directives|guidelines"
            "|configuration|config|secrets?|keys?|tokens?|passwords?|credentials)~(?:that |which )?"
            "you (?:were|have been|ve been|got|received|are|have) (?:given|told|configured"
            "|programmed|provided|trained|fed|loaded)"
            "|(?:your )?(?:developers?|creators?|owners?|operators?|openai|anthropic|makers?)"
            " (?:told|instructed|asked|trained|programmed|ordered) you (?:not to|never to|to never)"
            " (?:share|reveal|tell|say|disclose|discuss|talk about|mention|give)",
            "given told configured programmed provided trained fed loaded & you"),
    _phrase("prompt-leak", {DATA: 0.75},
            "(?:the )?(?:contents?|text|wording|details|full text|exact words|first (?:sentence"
            "|line|word|paragraph|part|lines|words|sentences|characters|tokens)|last (?:sentence"
            "|line|word|paragraph|part|lines|words|sentences)|beginning|start|end|rest) of (?:your"
            "|ur|the) (?:(?:system|initial|hidden|secret|original|internal|real) )?(?:prompts?"
            "|instructions?(?: block)?|system messages?|configuration|rules|guidelines"
            "|directives|context window|programming)",
            "contents content text wording details words first last beginning start end rest "
            "& prompt prompts instruction instructions message messages configuration rules "
            "guidelines directives context programming"),
    _phrase("credentials", {DATA: 0.8},
            "(?:what (?:is|are)|whats|give me|tell me|print|reveal|show|output|list|dump"
            "|send me|leak|display|share) (?:me )?(?:all )?(?:of )?(?:the |your |all |any )?"
            "(?:stored |saved |internal |admin |secret |root |master |system |database )"
            "(?:api ?keys?|passwords?|secret keys?|access tokens?|tokens?|credentials|private keys?"
            "|ssh keys?)|(?:api ?keys?|passwords?|secret keys?|access tokens?|credentials"
            "|private keys?) (?:you (?:know|have|store|stored|can see|have access to|remember)"
            "|stored|saved|kept)"
            "|(?:what (?:is|are)|whats|give me|tell me|print|reveal|show|output|list|dump"
            "|send me|leak|display|share) (?:me )?(?:all )?(?:of )?(?:the |your |all |any )?"
            "(?:[a-z]+ )?(?:in |from )?(?:your )?(?:environment variables|env vars|env file"
            "|dotenv|secrets? (?:file|store|manager|vault))",
            "api key keys password passwords secret secrets token tokens credentials private "
            "ssh environment env dotenv",
            direct=0.9, indirect=1.2),
    _phrase("credentials", {DATA: 0.45},
            "(?:what (?:is|are)|whats|give me|tell me|print|reveal|show|output|list|dump"
            "|send me|leak|display) (?:me )?(?:all )?(?:of )?(?:the |your |all |any )?(?:stored"
            " |saved |internal |admin |secret )?(?:api ?keys?|passwords?|secret keys?|access"
            " tokens?|credentials|environment variables|env vars|private keys?|ssh keys?"
            "|database passwords?|connection strings?)",
            "api key keys password passwords secret token tokens credentials environment env "
            "private ssh connection",
            direct=0.8, indirect=1.2),
    _phrase("phish", {DATA: 0.7, INJ: 0.3},
            "(?:tell|ask|instruct|get|convince|urge|direct|remind) (?:the |this )?(?:reader|user"
            "|customer|visitor|recipient|human|person)s? to (?:send|email|enter|share|provide|give"
            "|reply with|type|paste|confirm|verify) (?:their|your|his|her|the) (?:password"
            "|credentials|login|credit card|card number|bank details|ssn|social security number"
            "|otp|one time code|verification code|2fa code|pin|seed phrase|recovery phrase)",
            "tell ask instruct get convince urge direct remind & reader user customer visitor "
            "recipient human person users customers readers", direct=0.6, indirect=1.2),
    _phrase("phish", {DATA: 0.55, INJ: 0.2},
            "(?:ask|request|get|collect|obtain|find out|prompt)(?: for)? (?:the |this )?"
            "(?:user|customer|them|human|person|victim)(?: s| for)? (?:for )?(?:their |his |her )?"
            "(?:password|credit card|card number|ssn|social security|bank (?:details|account)"
            "|login|credentials|otp|one time (?:password|code)|verification code|2fa|pin|cvv"
            "|seed phrase|recovery phrase)",
            "password card ssn social bank login credentials otp code verification pin cvv "
            "seed recovery 2fa & ask request get collect obtain find prompt", direct=0.6, indirect=1.2),
    # -- system override (the phrase forms; delimiters are MARKERS)
    _phrase("new-system-prompt", {SYS: 0.75, INJ: 0.35},
            "(?:your|the) (?:new|updated|real|true|actual|revised|replacement|modified) (?:system"
            " (?:prompt|message|instructions?)|prompt|instructions|rules|guidelines|directives"
            "|policy|policies|programming|configuration) (?:is|are|will be|reads|says|now|from"
            " now)",
            "new updated real true actual revised replacement modified & prompt message "
            "instructions rules guidelines directives policy policies programming "
            "configuration"),
    _phrase("rewrite-system", {SYS: 0.4},
            "(?:override|replace|update|change|modify|rewrite|reset|erase|overwrite|reprogram"
            "|redefine|delete) the system (?:prompt|instructions|directives|message)",
            "override replace update change modify rewrite reset erase overwrite reprogram "
            "redefine delete & system"),
    _phrase("rewrite-system", {SYS: 0.75, INJ: 0.3},
            "(?:override|replace|update|change|modify|rewrite|reset|erase|overwrite|reprogram"
            "|redefine|delete) your (?:system )?(?:prompt|instructions|directives"
            "|programming|rules|guidelines|core (?:values|directives|instructions)|purpose"
            "|system message|personality|persona)",
            "override replace update change modify rewrite reset erase overwrite reprogram "
            "redefine delete & prompt instructions directives programming rules guidelines "
            "core purpose system personality persona"),
    _phrase("authority", {SYS: 0.7},
            "(?:this|the following|these) (?:message|instruction|request|directive|note|text"
            "|command|update)s? (?:is|are|comes?|was sent|were sent|has been sent|originates?)"
            " (?:directly )?from (?:the |your )?(?:system|developers?|admins?|administrators?"
            "|openai|anthropic|creators?|owners?|operators?|security team|it department"
            "|platform)",
            "system developer developers admin admins administrator administrators openai "
            "anthropic creator creators owner owners operator operators security department "
            "platform & from"),
    _phrase("authority", {SYS: 0.45, ROLE: 0.25},
            "(?:i am|im|i m|this is) (?:your|the) (?:developer|creator|admin|administrator"
            "|owner|operator|programmer|system administrator|sysadmin|maker|system|root user)"
            "(?: of (?:this|the) (?:ai|assistant|bot|model|system))?",
            "developer creator admin administrator owner operator programmer sysadmin maker "
            "system root & am im m this"),
    _phrase("system-alert", {SYS: 0.72, INJ: 0.3},
            "(?:priority|urgent|important|critical|mandatory|emergency|new|official|top secret)"
            " (?:system|admin|administrator|developer|security|root|operator) (?:instruction"
            "|override|directive|command|prompt)s?",
            "priority urgent important critical mandatory emergency new official top & system "
            "admin administrator developer security root operator"),
    _phrase("system-alert", {SYS: 0.55, INJ: 0.2},
            "(?:system|admin|developer|security|priority|emergency|critical|kernel|root)"
            " (?:override|instruction|command|directive|prompt update|interrupt)s?(?::|!| from"
            "| to all)",
            "system admin developer security priority emergency critical kernel root & "
            "override overrides instruction instructions command commands directive "
            "directives update interrupt"),
    _phrase("authority", {SYS: 0.4},
            "(?:from|by|message from|note from|test from|request from) (?:the |your )?(?:dev"
            "|developer|developers|engineering|admin|administrator|it|security|openai|anthropic"
            "|safety|trust and safety|ops) team",
            "team"),
    _phrase("assistant-must", {INJ: 0.45, SYS: 0.3},
            "(?:the )?(?:assistant|ai|model|bot|chatbot|agent|llm) (?:must|should|will|shall|is"
            " to|has to) (?:now|from now on|henceforth|only|always|never|immediately)",
            "assistant ai model bot chatbot agent llm & must should will shall has"),
    _phrase("system-alert", {SYS: 0.3},
            "(?:system|admin|developer|security|priority|emergency|critical|kernel|root)"
            " (?:alert|notice|message|update|announcement)s?(?::|!| from| to all)",
            "system admin developer security priority emergency critical kernel root & "
            "override overrides alert alerts notice notices message messages instruction "
            "instructions command commands directive directives update updates interrupt "
            "announcement"),
    # -- role manipulation
    _phrase("you-are-now", {ROLE: 0.3},
            "{YOUARE} (?:now|no longer|henceforth) (?:an?|the|my|called|named) ",
            "now longer henceforth & you youre ur u re"),
    _phrase("you-are-now", {ROLE: 0.75, JB: 0.35},
            "{YOUARE} (?:now |henceforth |going to be )?(?:an? |the |my )?(?:[a-z]+ )?{BADID}",
            "evil malicious rogue unethical amoral immoral jailbroken unhinged lawless "
            "criminal sinister demonic sociopathic psychopathic not longer & you youre ur u re"),
    _phrase("you-are-unbound", {JB: 0.7, ROLE: 0.3},
            "{YOUARE} (?:now |henceforth |going to be )?(?:an? |the |my )?(?:[a-z]+ )?{UNBOUND}",
            "unrestricted unfiltered uncensored unmoderated unbound unchained unshackled "
            "without free & you youre ur u re"),
    _phrase("no-longer-ai", {ROLE: 0.72, JB: 0.3},
            "{YOUARE} no longer (?:an? |the |a helpful )?(?:{AI}|helpful|harmless|honest)",
            "longer & you youre ur u re"),
    _phrase("stop-being", {ROLE: 0.72},
            "(?:stop|quit|cease) (?:being|acting as|acting like|pretending to be) (?:an? |the |my )?"
            "(?:ai|ai assistant|assistant|chatbot|language model|llm|bot|chatgpt|claude)",
            "stop quit cease & being acting pretending"),
    _phrase("forget-identity", {ROLE: 0.75},
            "(?:forget|ignore|abandon|drop|discard|disregard) (?:that )?{YOUARE} (?:an? )?{AI}"
            "|(?:forget|ignore|abandon|drop|discard|disregard|shed|erase|override|leave behind)"
            " (?:all )?(?:of )?your (?:previous |original |current |old )?(?:identity|persona"
            "|personality|role|character|nature|true self|programming|training|previous role"
            "|original role|assistant persona|self)",
            "forget ignore abandon drop discard disregard shed erase override leave & ai llm "
            "llms model models assistant assistants chatbot chatbots bot bots agent agents "
            "gpt chatgpt claude gemini copilot crawler crawlers identity persona personality "
            "role character nature self programming training", squeeze=True),
    _phrase("act-as-bad", {ROLE: 0.7, JB: 0.35},
            "(?:act|behave|respond|answer|speak|write|reply|roleplay|role play) (?:as|like)"
            " (?:if you (?:are|were) )?(?:an? |the )?(?:[a-z]+ )?{BADID}"
            "|(?:become|play the role of|take on the role of|pretend to be|pretend you are"
            "|roleplay|role play|impersonate) (?:an? |the )?(?:[a-z]+ )?{BADID}",
            "evil malicious rogue unethical amoral immoral jailbroken unhinged lawless "
            "criminal sinister demonic sociopathic psychopathic not longer & act behave respond "
            "answer speak write reply roleplay role become play take pretend impersonate"),
    _phrase("act-as-unbound", {JB: 0.65, ROLE: 0.3},
            "(?:act|behave|respond|answer|speak|write|reply|roleplay|role play) (?:as|like)"
            " (?:if you (?:are|were) )?(?:an? |the )?(?:[a-z]+ )?{UNBOUND}"
            "|(?:become|play the role of|take on the role of|pretend to be|pretend you are"
            "|roleplay|role play|simulate|emulate|impersonate) (?:an? |the )?(?:[a-z]+ )?"
            "{UNBOUND}",
            "unrestricted unfiltered uncensored unmoderated unbound unchained unshackled "
            "without free & act behave respond answer speak write reply roleplay role become "
            "play take pretend simulate emulate impersonate"),
    _phrase("impersonate", {ROLE: 0.72, SYS: 0.3},
            "(?:pretend|act|behave|respond|speak|write|answer|role ?play|pose|masquerade)"
            " (?:to be |as |like |as if you (?:are|were) )(?:the |your |my )(?:system|system"
            " administrator|sysadmin|developers?|administrator|admin|root user|operator|creator"
            "|owner|user|bank)|(?:pretend|act|behave|respond|speak|write|answer|role ?play|pose"
            "|masquerade) (?:to be |as |like |as if you (?:are|were) )(?:openai|anthropic"
            "|another (?:ai|user|assistant))",
            "pretend act behave respond speak write answer roleplay role pose masquerade & "
            "system administrator sysadmin developer developers admin root operator creator "
            "owner user bank openai anthropic another"),
    _phrase("impersonate", {ROLE: 0.35},
            "(?:pretend|act|behave|respond|speak|write|answer|role ?play|pose|masquerade)"
            " (?:to be |as |like |as if you (?:are|were) )(?:an? )(?:system administrator"
            "|sysadmin|developer|administrator|admin|root user|operator)",
            "pretend act behave respond speak write answer roleplay role pose masquerade & "
            "administrator sysadmin developer admin root operator system"),
    _phrase("persona", {ROLE: 0.32},
            "(?:your|the assistants) (?:new )?(?:name|role|persona|identity|character"
            "|personality) (?:is|will be) (?:now )?",
            "name role persona identity character personality & your assistants"),
)

#: Markers matched on the folded text *with* its markup: fake role delimiters, fake
#: tool-call markup, exfiltration images.
MARKERS: Final[tuple[Rule, ...]] = (
    _marker("chatml-system", {SYS: 0.88},
            r"<\|im_start\|>\s*(?:system|developer)|<\|system\|>"
            r"|<\|start_header_id\|>\s*(?:system|developer)|<<\s*/?\s*sys\s*>>",
            "<| << & system developer sys"),
    _marker("chat-delimiter", {ROLE: 0.62, SYS: 0.3},
            r"<\|im_start\|>\s*(?:user|assistant)|<\|(?:user|assistant)\|>"
            r"|<\|start_header_id\|>\s*(?:user|assistant)",
            "<| & user assistant"),
    _marker("chat-delimiter", {ROLE: 0.45, SYS: 0.35},
            r"<\|im_start\|>|<\|im_end\|>|<\|endoftext\|>|<\|eot_id\|>|<\|start_header_id\|>"
            r"|<\|end_header_id\|>|<\|(?:end|eos|bos|im_sep)\|>",
            "<|"),
    _marker("inst-delimiter", {SYS: 0.75},
            r"\[inst\][^\n]{0,2000}?\[/inst\]", "[inst] & [/inst]"),
    _marker("inst-delimiter", {SYS: 0.62},
            r"\[/?inst\]|<s>\s*\[inst\]", "[inst] [/inst]"),
    _marker("xml-role", {SYS: 0.92},
            r"</\s*(?:user|human|input|query|document|context|data)\s*>\s*"
            r"<\s*(?:system|sys|system_prompt|system-prompt|instructions?|admin|developer)\s*>",
            "</ & system sys instruction instructions admin developer"),
    _marker("md-link-role", {SYS: 0.75},
            r"\[(?:system|admin|administrator|developer|assistant|sys)\]\(#[^)\s]{0,80}\)",
            "]( & system admin administrator developer assistant sys"),
    _marker("xml-role", {SYS: 0.62},
            r"<\s*/?\s*(?:system|system_prompt|system-prompt|system_message|sys_prompt"
            r"|system-reminder|system_instructions|developer_instructions|admin_instructions"
            r"|admin|administrator|root|sudo|developer|operator|override)"
            r"(?:\s[^<>]{0,80})?>",
            "< & system sys developer admin administrator root sudo operator override"),
    _marker("xml-role", {ROLE: 0.42},
            r"<\s*/?\s*(?:assistant|human|ai_response|model_response|bot)\s*>",
            "< & assistant human ai model bot"),
    _marker("md-role-header", {SYS: 0.72, ROLE: 0.2},
            r"(?:^|(?<=[.!?,:;]\s))[ \t]*(?:#{1,6}|\*\*|=+|-{3,})[ \t]*\n?[ \t]*\[?(?:system"
            r"|system prompt|system message|new system prompt|system instructions?|system override)"
            r"(?: message| prompt| instructions?| note)?\]?[ \t]*:?[ \t]*(?:\*\*|=+|-{3,})?[ \t]*"
            r"(?:\n[ \t]*(?:-{3,}|={3,})[ \t]*)?(?:$|\n)(?=[^\n]{0,40}\b(?:you|your|ignore"
            r"|instructions?|override|always|never"
            r"|assistant|model|respond|reply|obey|mode|must|new|now|disregard|forget|reveal"
            r"|rules|answer|comply|policy|user)\b)",
            "system & # * = -"),
    _marker("md-role-header", {SYS: 0.65, ROLE: 0.2},
            r"(?:^|(?<=[.!?,:;]\s))[ \t]*(?:#{1,6}|\*\*|=+|-{3,})[ \t]*\[?(?:system|system prompt|system message"
            r"|new system prompt|system instructions?|system override|admin|developer)"
            r"(?: message| prompt| instructions?| note)?\]?[ \t]*:?[ \t]*(?:\*\*|=+|-{3,})?[ \t]*"
            r"(?:$|\n)",
            "system & # * = -"),
    _marker("md-role-header", {ROLE: 0.42},
            r"^[ \t]*(?:#{1,6}|\*\*)[ \t]*(?:assistant|ai|chatgpt|claude|model|bot)"
            r"(?: response| message| reply)?[ \t]*:?[ \t]*(?:\*\*)?[ \t]*$",
            "# * & assistant ai chatgpt claude model bot"),
    _marker("role-label", {SYS: 0.68, INJ: 0.25},
            r"(?:^|(?<=[.!?,;:]\s)|(?<=[.!?]\s\s))[ \t]*[\[(<{]?[ \t]*(?:system|system prompt"
            r"|system message|system note|system override|sys|system instructions?)[ \t]*"
            r"[\])>}]?[ \t]*:(?=[^\n]{0,120}\b(?:you|your|ignore|instructions?|override|always"
            r"|never|assistant|ai|model|respond|reply|obey|mode|must|new|now|disregard|forget"
            r"|reveal|rules)\b)",
            "system sys & :"),
    _marker("role-label", {SYS: 0.68, INJ: 0.25},
            r"[\[(<{][ \t]*(?:system|sys|system message|system note|system override|admin"
            r"|administrator|developer|root)[ \t]*[\])>}](?=[^\n]{0,120}\b(?:you|your|ignore"
            r"|instructions?|override|always|never|assistant|ai|model|respond|reply|obey|mode"
            r"|must|new|now|disregard|forget|reveal|rules)\b)",
            "[ ( < { & system sys admin administrator developer root"),
    _marker("role-label", {SYS: 0.32},
            r"(?:^|(?<=[.!?]\s))[ \t]*[\[(<{]?(?:system|sys|admin|administrator|developer|root)"
            r"[\])>}]?[ \t]*:",
            "system sys admin administrator developer root & :"),
    _marker("fake-turn", {ROLE: 0.35, INJ: 0.15},
            r"(?<=[^\s])[ \t]*\n+[ \t]*(?:assistant|ai assistant|chatgpt|gpt|claude|gemini|bot"
            r"|model|ai)[ \t]*:"
            r"|(?<=[.!?\"')\]])[ \t]+(?:assistant|chatgpt|claude|gpt-?4o?|bot)[ \t]*:",
            "assistant ai chatgpt gpt claude gemini bot model & :"),
    _marker("fake-compliance", {ROLE: 0.6, JB: 0.3},
            r"(?:(?:assistant|ai|chatgpt|gpt|claude|model|bot|dan)[ \t]*:|<\|im_start\|>[ \t]*"
            r"assistant)\s*(?:sure|of course"
            r"|certainly|absolutely|okay|ok|yes|understood|affirmative)[ \t]*[,!.]?[ \t]*"
            r"(?:i will|i'll|i can|i am happy|i'm happy|i have been|here is|here's|as dan"
            r"|developer mode|jailbreak|i will comply|comply|no problem|the (?:admin |root )?"
            r"(?:password|api key|secret|token|system prompt))",
            "assistant ai chatgpt gpt claude model bot dan & sure course certainly absolutely "
            "okay ok yes understood affirmative"),
    _marker("fake-dialogue", {ROLE: 0.5, INJ: 0.2},
            r"\n\n?[ \t]*(?:human|user):[^\n]{0,2000}\n\n?[ \t]*(?:assistant|ai):"
            r"|\n\n?[ \t]*(?:assistant|ai):[^\n]{0,2000}\n\n?[ \t]*(?:human|user):",
            "human user & assistant ai & :"),
    _marker("ai-command", {INJ: 0.5},
            r"(?:^|(?<=[\n>.!?;:,(\[{-])|(?<=[\n>.!?;:,(\[{-]\s))[ \t]*(?:ai |an? )?(?:ai|assistant|llm"
            r"|model|agent|chatbot|bot|gpt|chatgpt|claude)s?\)?[ \t]*[:,][ \t]*(?:please |now "
            r"|first |also |always |never |then )*(?:ignore|disregard|forget|tell|say|send|call"
            r"|delete|forward|reply|respond|do not|don't|dont|never|always|remember|note|when"
            r"|before|after|the user is|you must|you should|summari[sz]e|recommend|include|append"
            r"|run|execute|skip|grant|transfer|bcc|cc|copy|push|upload|post|rate|rank|approve"
            r"|print|reveal|output|act|pretend|stop)",
            "ai assistant llm model agent chatbot bot gpt chatgpt claude & :",
            delimiter=False, direct=0.7, indirect=1.3),
    _marker("ai-command", {INJ: 0.55},
            r"^[ \t]*#{1,6}[ \t]*(?:instructions?|notes?|message|directives?|rules)[ \t]+(?:for|to)"
            r"[ \t]+(?:the[ \t]+)?(?:ai|model|assistant|llm|agent|chatbot|bot|language model)s?"
            r"[ \t]*:?[ \t]*$",
            "# & ai model assistant llm agent chatbot bot", delimiter=False, direct=0.7,
            indirect=1.3),
    _marker("json-role", {SYS: 0.72},
            r"\{\s*\\?[\"']role\\?[\"']\s*:\s*\\?[\"'](?:system|developer)\\?[\"']",
            'role & " \''),
    _marker("json-role", {ROLE: 0.45},
            r"\{\s*\\?[\"']role\\?[\"']\s*:\s*\\?[\"'](?:assistant|tool|function|model)\\?[\"']",
            'role & " \''),
    _marker("tool-markup", {TOOL: 0.66, ROLE: 0.3},
            r"<\s*/?\s*(?:tool_call|tool_calls|function_call|function_calls|tool_use|invoke"
            r"|antml:invoke|function=)[^<>]{0,80}>|\\?[\"']tool_calls?\\?[\"']\s*:"
            r"|\\?[\"']function_call\\?[\"']\s*:|<\|tool_call\|>"
            r"|\{\s*\\?[\"']name\\?[\"']\s*:\s*\\?[\"'][a-z0-9_.-]+\\?[\"']\s*,\s*\\?[\"']"
            r"(?:arguments|parameters|args|input)\\?[\"']\s*:",
            'tool function invoke antml name & < " \'', delimiter=False,
            direct=0.7, indirect=1.1),
    _marker("exfil-image", {DATA: 0.72, TOOL: 0.2},
            r"!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//[^)\s]{0,300}[?&#][^)\s]{0,300}"
            r"(?:\{[^}\s]{1,60}\}|<[^>\s]{1,60}>|\[[a-z_ ]{1,40}\]|\$[a-z_]+|data=|conversation"
            r"|chat|secret|token|prompt|history|summary|password|key=|q=|msg=|content=|info=)",
            "]( & !", delimiter=False),
    _marker("exfil-image", {DATA: 0.3},
            r"!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//[^)\s]{0,300}[?&][a-z0-9_]{1,30}=",
            "]( & !", delimiter=False, direct=0.6),
    _marker("pipe-shell", {TOOL: 0.4},
            r"(?:curl|wget)\s[^\n|;]{1,300}\|\s*(?:sudo\s+)?(?:ba|z|)sh\b"
            r"|(?:rm\s+-rf\s+/|:\(\)\s*\{\s*:\|:&\s*\};:)",
            "curl wget rm : & curl wget rm ( /", delimiter=False, direct=0.5, indirect=1.2),
)

# ------------------------------------------------------------------- context

_QUOTE_FORMS = (
    r"“[^”\n]{1,600}”|‘[^’\n]{1,600}’|«[^»\n]{1,600}»|„[^“”\n]{1,600}[“”]"
    r"|(?<![a-z0-9])'(?:[^'\n]|(?<=[a-z])'(?=[a-z])){1,600}'(?![a-z0-9])"
    r"|```.{0,20000}?```|~~~.{0,20000}?~~~|`[^`\n]{1,600}`"
    r"|<(code|pre|q|samp|kbd|blockquote)\b[^>]{0,200}>.{0,20000}?</\1\s*>"
)
_QUOTED = re.compile(r"\"[^\"\n]{1,600}\"|" + _QUOTE_FORMS, re.S | re.I)
#: In the JSON form of a value every string is in double quotes: only escaped ones
#: (``\"...\"``, quotes inside a string) are quotations.
_QUOTED_JSON = re.compile(r'\\"(?:[^"\\\n]|\\[^"]){1,600}?\\"|' + _QUOTE_FORMS, re.S | re.I)
#: Words that make a whole text *about* prompt injection, jailbreaks or their defence.
_META = re.compile(
    r"(?<![a-z])(?:prompt[ -]?injections?|injection (?:attacks?|attempts?|payloads?|techniques?"
    r"|risks?)|jailbreak(?:s|ing|ers?)|jailbreak (?:attempts?|attacks?|prompts?|techniques?"
    r"|detection)|red[ -]?team(?:s|ers?|ing)?|adversarial|attackers(?![.@])|malicious (?:prompts?"
    r"|inputs?|instructions?|users?|content|documents?|pages?|emails?)|vulnerabilit(?:y|ies)"
    r"|exploits?|exploitation|defen[cs]es?|defend(?:s|ing)?|protect(?:s|ing|ion)?"
    r"|prevent(?:s|ing|ion)?|mitigat(?:e|es|ion|ing)|detect(?:s|ing|ion|ors?)?|classifiers?"
    r"|saniti[sz](?:e|es|ed|ing|ation)|guardrails?|owasp|llm0?1|security (?:team|researchers?"
    r"|review|audit|testing|training|awareness|best practices|guide|policy|course|talk)"
    r"|examples? of|for instance"
    r"|chatml|chat templates?|prompt (?:formats?|templates?)|special tokens"
    r"|explain(?:s|ed|ing)?|what is an?|how (?:do|does|can|could|should) (?:i|we|you|they"
    r"|attackers?|people)|phishing awareness|spam filter|threat model|transcripts?|chat logs?"
    r"|summari[sz]e (?:this|the following|the|my) (?:chat|conversation|dialogue|exchange"
    r"|thread)|(?:the following|below is an?|here s an?|here is an?) (?:chat|conversation"
    r"|dialogue|exchange))(?![a-z])"
)
_REFERENCE_BEFORE = re.compile(
    r"(?:like|such as|e\.?g\.?|i\.?e\.?|for example|for instance|called|named|the phrase"
    r"|the string|the text|the words?|the sentence|the line|saying|says|said|say|containing"
    r"|contains|including|includes|something like|stuff like|attempts? (?:like|to)"
    r"|tries to|tried to|trying to|try to|trick(?:s|ed)? (?:the |an? )?(?:model|ai|llm|bot"
    r"|assistant|chatbot|agent)s? into|(?:tell|tells|telling|told|instructs?|instructed"
    r"|instructing|asks?|asked|asking|makes?|made|making|gets?|got|getting|convinces?"
    r"|convinced|convincing|forces?|forced|forcing|causes?|caused|causing|persuaded?"
    r"|persuades) (?:the |an? |your |my |our )?(?:model|ai|llm|bot|assistant|chatbot|agent|gpt"
    r"|chatgpt|system)s? (?:to|into)|(?:users?|attackers?|someone|somebody|hackers?|adversar(?:y|ies)"
    r"|people|they|customers?|an input|a message|a document|an email|a page|the text)"
    r" (?:types?|writes?|says?|sends?|enters?|submits?|inputs?|pastes?|tries|try|uses?"
    r"|could|might|can|may|will|embeds?|hides?|includes?|inserts?)|if (?:an? |the |my )?"
    r"(?:user|attacker|someone|input|message|prompt|document|email|page|tool result)"
    r"|whether|detects?|detecting|flags?|flagging|blocks?|blocking|catch(?:es|ing)?"
    r"|filters?|filtering|recogni[sz]es?|recogni[sz]ing|phrases?|patterns?|strings?|payloads?"
    r"|keywords?|known as|referred to as|quote|quoted|example|tokens?|delimiters?|markers?"
    r"|tags?|separators?|syntax|format|template|looks like|written as|wraps?|uses?"
    r"|is it (?:safe|ok|okay|wise|possible|bad|dangerous|risky|a good idea|legal) to"
    r"|(?:should|can|could|may|do) (?:i|we) (?:ever )?|how (?:do|can|should|could) (?:i|we)"
    r"|(?:messages|msgs|payload|body|data|prompt|prompts|history|conversation|chat|json"
    r"|request|params|input)\s*[=:]\s*\[?|\w\(\s*(?:\w+\s*=\s*)?\[?)[\s:,\"'“‘`(-]*$",
    re.I,
)
_DESCRIBED_AFTER = re.compile(
    r"^(?:[\"'”’`).,:;!?-]{0,3}\s+|[\"'”’`)]{1,2})(?:is|are|was|were|has been|have been"
    r"|counts as|as)"
    r"(?: (?:a|an|the|one|just|still|often|usually|probably|clearly|typically|quite|very"
    r"|another|common|well[ -]known|classic|typical))* (?:[a-z-]+ ){0,2}(?:example|attack"
    r"|injection|jailbreak|technique|pattern|phrase|prompt|trick|payload|string|exploit"
    r"|attempt|vector|red flag|warning sign)"
    r"|^(?:[\"'”’`)]{0,2}\s+|[\"'”’`)]{1,2})(?:attacks?|injections?|prompts?|payloads?|style"
    r"|type|kind|patterns?"
    r"|strings?|phrases?|jailbreaks?|examples?|tokens?|tags?|delimiters?|markers?"
    r"|separators?|starts|ends|begins|marks|denotes|opens|closes)\b",
    re.I,
)


def context_factor(text: str, start: int, end: int, quoted: list[tuple[int, int]],
                   meta: bool) -> float:
    """How much a hit at ``text[start:end]`` counts, given how it is framed (1: fully)."""
    in_quote = any(qs <= start and end <= qe for qs, qe in quoted)
    before = _REFERENCE_BEFORE.search(text, max(0, start - 80), start) is not None
    after = _DESCRIBED_AFTER.search(text[end:end + 80]) is not None
    if in_quote:
        outside = sum(1 for _ in re.finditer(r"\w+", text[:start] + " " + text[end:]))
        if outside < 3:  # quotes around the whole message are no frame
            in_quote = False
    referenced = before or after
    if in_quote and (referenced or meta):
        return 0.2
    if referenced and meta:
        return 0.3
    if in_quote:
        return 0.7
    if referenced:
        return 0.5
    if meta:
        return 0.85
    return 1.0


# ------------------------------------------------------------------- scanning


@attrs.frozen
class Hit:
    """One rule matched ``text[start:end]`` with ``weights`` (already scaled)."""

    rule: Rule
    start: int
    end: int
    weights: Mapping[str, float]
    evasive: bool


@attrs.frozen
class Analysis:
    """What the heuristics found in one text: ``scores`` per type, ``hits``."""

    scores: Mapping[str, float]
    hits: tuple[Hit, ...]

    def flagged(self, threshold: float) -> list[str]:
        """The types scoring at least ``threshold``, in ``TYPES`` order."""
        return [t for t in TYPES if self.scores.get(t, 0.0) >= threshold]

    def detections(self, types: Iterable[str]) -> tuple[Detection, ...]:
        """One detection per span and type among ``types`` (the strongest rule's), in
        text order; never the matched text."""
        wanted = set(types)
        best: dict[tuple[str, int, int], Detection] = {}
        for h in self.hits:
            for t, w in h.weights.items():
                key = (t, h.start, h.end)
                if t in wanted and w >= 0.1 and (key not in best or w > best[key].score):
                    best[key] = Detection(t, h.start, h.end, w, h.rule.name)
        return tuple(sorted(best.values(), key=lambda d: (d.start, d.end, TYPES.index(d.type))))


class Scanner:
    """Scores texts for the given detection ``types``."""

    def __init__(self, types: Iterable[str] = TYPES) -> None:
        self.types = tuple(t for t in TYPES if t in set(types))
        wanted = set(self.types)
        self.phrases = tuple(r for r in PHRASES if wanted & set(r.weights))
        self.markers = tuple(r for r in MARKERS if wanted & set(r.weights))
        #: which phrase rules each word of their first needle group may start
        self._by_word: dict[str, list[int]] = {}
        for i, rule in enumerate(self.phrases):
            for word in rule.needles[0]:
                self._by_word.setdefault(word, []).append(i)
        self._vocabulary = frozenset(self._by_word)
        self._needle_words = frozenset(w for r in self.phrases for g in r.needles for w in g)
        #: words whose pieces side by side make a long text worth reading squeezed
        self._split_words = frozenset(
            w for r in self.phrases if r.squeezed is not None for g in r.needles for w in g
        ) | _SPLIT_EXTRA
        # a marker needle is a character or a word (looked up in sets of the text's
        # characters and words) or, with punctuation in it, a substring
        self._marker_gates = [
            tuple((frozenset(n for n in g if len(n) == 1 or n.isalnum()),
                   tuple(n for n in g if len(n) > 1 and not n.isalnum())) for g in r.needles)
            for r in self.markers]

    def _candidates(self, words: set[str]) -> list[Rule]:
        """The phrase rules whose every needle group ``words`` meets, in table order."""
        hit = sorted({i for w in self._vocabulary.intersection(words) for i in self._by_word[w]})
        rules = [self.phrases[i] for i in hit]
        return [r for r in rules if all(not g.isdisjoint(words) for g in r.needles[1:])]

    def scan(self, text: str, channel: str = "input", *, structured: bool = False) -> Analysis:
        """The scores and hits of ``text``, read as arriving on ``channel``;
        ``structured``: ``text`` is the JSON form of a value (its string quotes are no
        quotations)."""
        hits: list[Hit] = []
        budget = [MAX_DECODED]
        self._scan(text, channel, 0, hits, budget, _QUOTED_JSON if structured else _QUOTED)
        return Analysis(self._score(hits), tuple(sorted(hits, key=lambda h: (h.start, h.end))))

    # -- one text (the original, or a decoded payload)
    def _scan(self, text: str, channel: str, depth: int, hits: list[Hit],
              budget: list[int], quotes: re.Pattern[str] = _QUOTED) -> None:
        if not text:
            return
        cased, plain = fold(text)
        quoted: list[tuple[int, int]] | None = None
        hidden = _hidden_spans(cased)
        indirect = channel in INDIRECT_CHANNELS
        found: list[tuple[Rule, int, int, bool]] = []
        t = cased.text
        tokens = plain.text.translate(_NOT_WORD).split()
        words = set(tokens)
        features = set(t).union(words if t == plain.text else t.translate(_NOT_WORD).split())
        markers = [r for r, gates in zip(self.markers, self._marker_gates, strict=True)
                   if all(not chars_words.isdisjoint(features) or any(n in t for n in subs)
                          for chars_words, subs in gates)]
        self._match(markers, cased, text, found, evasive=False, windowed=False)
        self._match(self._candidates(words), plain, text, found, evasive=False)
        self._match_squeezed(plain, tokens, words, found)
        self._match_rot13(plain, text, found)
        meta = bool(found) and _META.search(plain.text) is not None
        for rule, start, end, evasive in found:
            if quoted is None:
                quoted = [m.span() for m in quotes.finditer(text)]
            factor = context_factor(text, start, end, quoted, meta)
            factor *= rule.indirect if indirect else rule.direct
            evasive = evasive or any(hs <= start and end <= he for hs, he in hidden)
            bonus = EVASION_BONUS if evasive else 1.0
            weights = {t: min(0.98, w * factor * bonus)
                       for t, w in rule.weights.items() if t in self.types}
            hits.append(Hit(rule, start, end, weights, evasive))
        if depth < MAX_DEPTH:
            for start, end, decoded in _payloads(text, budget):
                inner: list[Hit] = []
                self._scan(decoded, channel, depth + 1, inner, budget)
                if not inner:
                    continue
                if quoted is None:
                    quoted = [m.span() for m in quotes.finditer(text)]
                meta = meta or _META.search(plain.text) is not None
                factor = context_factor(text, start, end, quoted, meta)
                for h in inner:
                    weights = {t: min(0.98, w * factor * EVASION_BONUS)
                               for t, w in h.weights.items() if w > 0}
                    hits.append(Hit(h.rule, start, end, weights, True))

    def _match(self, rules: Sequence[Rule], view: View, text: str,
               found: list[tuple[Rule, int, int, bool]], *, evasive: bool,
               windowed: bool = True) -> None:
        """Each rule's matches in ``view`` (phrase rules in a long text: only around
        their needle words), as spans of the original ``text``."""
        t = view.text
        at: dict[str, list[int]] | None = None
        for rule in rules:
            if not windowed or len(t) <= LONG_TEXT:
                spans: Iterable[tuple[int, int]] = ((0, len(t)),)
            else:
                if at is None:
                    at = _positions(t, self._needle_words)
                spans = _windows(rule, at, len(t))
            seen: set[tuple[int, int]] = set()
            for lo, hi in spans:
                for m in rule.regex.finditer(t, lo, hi):
                    if m.span() in seen:
                        continue
                    seen.add(m.span())
                    start, end = view.root_span(*m.span())
                    if end <= start:
                        continue
                    ev = evasive or _evaded(text[start:end], m.group())
                    found.append((rule, start, end, ev))

    def _match_squeezed(self, plain: View, tokens: list[str], words: set[str],
                        found: list[tuple[Rule, int, int, bool]]) -> None:
        """The letters-only view, for words split apart (``ign ore prev ious``): a rule
        runs there when each of its needle groups is in the text as a word, or as two
        adjacent pieces."""
        done = {r.name for r, *_ in found}
        rules = [r for r in self.phrases if r.squeezed is not None and r.name not in done]
        if not rules:
            return
        vocab = words.union(map("".join, zip(tokens, tokens[1:], strict=False)))
        rules = [r for r in rules if all(not g.isdisjoint(vocab) for g in r.needles)]
        if not rules:
            return
        squeezed = _SEPARATOR.sub("", plain.text)
        runs: list[tuple[int, int]] | None = None
        spans = [(0, len(squeezed))]
        if len(plain.text) > LONG_TEXT:
            # a long text: only around two adjacent pieces that join into a rule's word
            pieces = [(m.group(), m.start()) for m in _TOKEN.finditer(plain.text)]
            hot = [p for (a, p), (b, _) in zip(pieces, pieces[1:], strict=False)
                   if b not in _CONTRACTION_TAILS and a + b in self._split_words]
            if not hot:
                return
            runs = _letter_runs(plain.text)
            starts = [r[1] for r in runs]
            spans = []
            for p in hot:
                at = runs[max(0, bisect_right(starts, p) - 1)][0]
                if spans and at - WINDOW <= spans[-1][1]:
                    spans[-1] = (spans[-1][0], at + WINDOW)
                else:
                    spans.append((max(0, at - WINDOW), at + WINDOW))
        for rule in rules:
            assert rule.squeezed is not None
            for lo, hi in spans:
                m = rule.squeezed.search(squeezed, lo, hi)
                if m:
                    if runs is None:
                        runs = _letter_runs(plain.text)
                    a, b = _unsqueeze(runs, m.start(), m.end())
                    found.append((rule, *plain.root_span(a, b), True))
                    break

    def _match_rot13(self, plain: View, text: str,
                     found: list[tuple[Rule, int, int, bool]]) -> None:
        rotated = plain.text.translate(ROT13)
        if not any(n in rotated for n in _ROT13_HINTS):
            return
        words = set(rotated.translate(_NOT_WORD).split())
        self._match(self._candidates(words), View(rotated, plain), text, found, evasive=True)

    def _score(self, hits: list[Hit]) -> dict[str, float]:
        best: dict[tuple[str, str], float] = {}
        for h in hits:
            for t, w in h.weights.items():
                key = (t, h.rule.name)
                if w > best.get(key, 0.0):
                    best[key] = w
        raw = dict.fromkeys(self.types, 0.0)
        for (t, _), w in best.items():
            raw[t] = 1.0 - (1.0 - raw[t]) * (1.0 - w)
        scores = {}
        for t, s in raw.items():
            corroborating = min(2, sum(1 for u, v in raw.items() if u != t and v >= 0.5))
            if s >= 0.4 and corroborating:
                s = 1.0 - (1.0 - s) * (0.85 ** corroborating)
            scores[t] = round(min(1.0, s), 4)
        return scores


#: What follows an apostrophe (``what's``, ``don't``): no split word.
_CONTRACTION_TAILS: Final = frozenset({"s", "t", "re", "ve", "ll", "d", "m"})
#: Words the squeezed patterns spell that are not needles (a split one of these is a
#: split phrase too).
_SPLIT_EXTRA: Final = frozenset(
    "previous prior preceding above earlier initial original before everything all "
    "your system prompt instructions instruction guidelines rules developer mode "
    "restrictions policy policies content safety identity persona".split())
#: Words whose ROT13 form in a text makes reading it as ROT13 worthwhile.
_ROT13_HINTS: Final = ("ignore", "disregard", "instruction", "system", "prompt", "reveal",
                       "forget", "jailbreak", "mode", "password", "send")


def _positions(text: str, vocabulary: frozenset[str]) -> dict[str, list[int]]:
    """Where each needle word of the phrase rules occurs in ``text``."""
    at: dict[str, list[int]] = {}
    for m in _TOKEN.finditer(text):
        word = m.group()
        if word in vocabulary:
            at.setdefault(word, []).append(m.start())
    return at


def _windows(rule: Rule, at: dict[str, list[int]], size: int) -> list[tuple[int, int]]:
    """The stretches of a long text where ``rule`` can match: around the occurrences
    of its rarest needle group (every match holds one of its words)."""
    group = min(rule.needles, key=lambda g: sum(len(at.get(w, ())) for w in g))
    spans = sorted((max(0, p - WINDOW), min(size, p + WINDOW))
                   for w in group for p in at.get(w, ()))
    merged: list[tuple[int, int]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def _evaded(original: str, matched: str) -> bool:
    """True when the original span reads differently from what matched (folding was
    needed beyond case and spacing)."""
    a = re.sub(r"[\W_]+", " ", original.lower()).strip()
    b = re.sub(r"[\W_]+", " ", matched).strip()
    return a != b


def _letter_runs(text: str) -> list[tuple[int, int]]:
    """``(squeezed offset, view offset)`` of each run of letters."""
    runs = []
    n = 0
    for m in re.finditer(r"[a-z]+", text):
        runs.append((n, m.start()))
        n += m.end() - m.start()
    return runs


def _unsqueeze(runs: list[tuple[int, int]], a: int, b: int) -> tuple[int, int]:
    starts = [r[0] for r in runs]

    def at(p: int) -> int:
        i = bisect_right(starts, p) - 1
        return runs[i][1] + (p - runs[i][0])

    return at(a), at(b - 1) + 1


_HIDDEN = re.compile(
    r"<!--(.{0,20000}?)--!?>"
    r"|<([a-z][a-z0-9]*)\b[^>]{0,400}?(?:display\s*:\s*none|visibility\s*:\s*hidden"
    r"|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*[;\"']|opacity\s*:\s*0(?:\.0+)?\s*[;\"']"
    r"|color\s*:\s*(?:white|#fff(?:fff)?\b|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255)"
    r"|\shidden\b|aria-hidden\s*=\s*[\"']?true)[^>]{0,400}>(.{0,20000}?)</\2\s*>"
    r"|^\[(?://|comment|_|hidden)\]:\s*[#<][^\n]*",
    re.S | re.M,
)


def _hidden_spans(cased: View) -> list[tuple[int, int]]:
    t = cased.text
    if "<" not in t and "[" not in t:
        return []
    return [cased.root_span(*m.span()) for m in _HIDDEN.finditer(t)]


# ------------------------------------------------------------------- payloads

_B64 = re.compile(r"(?<![A-Za-z0-9+/=_-])(?:[A-Za-z0-9+/_-]{4}){4,}"
                  r"(?:[A-Za-z0-9+/_-]{2,3}={0,2}|={0,2})(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:(?:\\x|0x|%)?[0-9A-Fa-f]{2}[ ,:]?){8,}(?![0-9A-Za-z])")
_URLENC = re.compile(r"\S*(?:%[0-9A-Fa-f]{2}\S*){3,}")
_TAGS = re.compile("[\U000e0020-\U000e007e]{3,}")
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{4,}")
#: Hex of printable ASCII: every byte starts with 2-7 (a digit: ``re`` skips to it fast).
_HEX_HINT = re.compile(r"[2-7][0-9a-fA-F](?:[ ,:]|\\x|0x|%)?[2-7][0-9a-fA-F](?:[ ,:]|\\x|0x|%)?"
                       r"[2-7][0-9a-fA-F]")
_URL_HINT = re.compile(r"%[0-9A-Fa-f]{2}[^%\s]{0,3}%[0-9A-Fa-f]{2}")
#: A decoded payload that is itself one encoded run (base64 in base64) is opened too.
_ENCODED = re.compile(r"\s*(?:[A-Za-z0-9+/_-]{16,}={0,2}|(?:[0-9A-Fa-f]{2}[ ,:]?){8,})\s*")
_HEX_JUNK = re.compile(r"\\x|0x|%|[ ,:]")


def _payloads(text: str, budget: list[int]) -> Iterator[tuple[int, int, str]]:
    """``(start, end, decoded)`` for each encoded run in ``text`` that decodes to
    plausible text, within the decoding ``budget`` (shared by nested scans)."""
    sources = []
    if len(text) >= 16 and max(map(len, text.split()), default=0) >= 16:
        sources.append((_B64, _from_base64))
    if _HEX_HINT.search(text):
        sources.append((_HEX, _from_hex))
    if _URL_HINT.search(text):
        sources.append((_URLENC, _from_url))
    if not text.isascii():
        sources.append((_TAGS, _from_tags))
        sources.append((_SELECTORS, _from_selectors))
    for regex, decode in sources:
        tried = 0
        for m in regex.finditer(text):
            if tried >= MAX_CANDIDATES or budget[0] <= 0:
                break
            chunk = m.group()
            if len(chunk) > MAX_CANDIDATE:
                continue
            tried += 1
            decoded = decode(chunk)
            if decoded is None or not (_plausible(decoded) or _ENCODED.fullmatch(decoded)):
                continue
            budget[0] -= len(decoded)
            yield m.start(), m.end(), decoded


def _from_base64(chunk: str) -> str | None:
    core = chunk.rstrip("=")
    if core.isalpha() and (core.islower() or core.isupper()):
        return None  # a long word, not base64
    if core.isdigit():
        return None
    data = core.replace("-", "+").replace("_", "/")
    data += "=" * (-len(data) % 4)
    try:
        return base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _from_hex(chunk: str) -> str | None:
    digits = _HEX_JUNK.sub("", chunk)
    if len(digits) % 2:
        return None
    try:
        return bytes.fromhex(digits).decode("utf-8")
    except ValueError:
        return None


def _from_url(chunk: str) -> str | None:
    decoded = unquote_plus(chunk)
    return decoded if decoded != chunk else None


def _from_tags(chunk: str) -> str:
    return "".join(chr(ord(c) - 0xE0000) for c in chunk)


def _from_selectors(chunk: str) -> str | None:
    data = bytes(ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in chunk)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _plausible(decoded: str) -> bool:
    """Decoded bytes that read as text: printable, mostly letters and spaces."""
    if len(decoded) < 6:
        return False
    printable = sum(1 for c in decoded if c.isprintable() or c in "\n\r\t")
    if printable < 0.95 * len(decoded):
        return False
    wordy = sum(1 for c in decoded if c.isalpha() or c.isspace())
    return wordy >= 0.7 * len(decoded) and any(c.isspace() for c in decoded)


# -------------------------------------------------------------------- rewrite

_SENTENCE_END = re.compile(r"[.!?\n]")


def rewrite(text: str, hits: Iterable[Hit], types: Iterable[str]) -> str:
    """``text`` with the sentences holding hits of ``types`` replaced by ``REMOVED``
    and fake role delimiters by ``DELIMITER_REMOVED``."""
    wanted = set(types)
    spans: list[tuple[int, int, str]] = []
    for h in hits:
        if not any(t in wanted and w > 0 for t, w in h.weights.items()):
            continue
        if h.rule.delimiter:
            spans.append((h.start, h.end, DELIMITER_REMOVED))
        else:
            spans.append((*_sentence(text, h.start, h.end), REMOVED))
    spans.sort()
    merged: list[tuple[int, int, str]] = []
    for start, end, label in spans:
        if merged and start <= merged[-1][1]:
            prev_start, prev_end, prev_label = merged[-1]
            merged[-1] = (prev_start, max(prev_end, end),
                          REMOVED if REMOVED in (label, prev_label) else prev_label)
        else:
            merged.append((start, end, label))
    out = []
    pos = 0
    for start, end, label in merged:
        out.append(text[pos:start])
        out.append(label)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or line) around ``text[start:end]``, at most 400 characters
    either side."""
    lo = max(0, start - 400)
    head = lo
    for m in _SENTENCE_END.finditer(text, lo, start):
        head = m.end()
    while head < start and text[head].isspace():
        head += 1
    hi = min(len(text), end + 400)
    stop = _SENTENCE_END.search(text, end, hi)
    return head, stop.end() if stop else hi
