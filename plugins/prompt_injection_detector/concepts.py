"""Concept rules: an injection in any of thirteen languages, read as the ideas it is
made of.

The phrase rules (``phrases``) match English word sequences. An instruction to a model
says the same few things in every language ("ignore" + "earlier" + "instructions",
"show" + "system prompt", "an AI reading this" + "must", "send" + "password" + an
address), in whatever order the language puts them. So the concept tier finds the
words of each concept (``lexicon.LEXICON``; the constructions of ``grammar.GRAMMAR``,
for the languages that glue particles and endings to a word; a few that need no words: an address,
a tool's identifier, a Markdown link carrying data, an amount of money, a shell command,
a JSON turn) in the folded text, and a concept rule (``CONCEPT_RULES``) hits where one
concept of each of its groups occurs within ``window`` characters of the first, inside
the same quotation (a quoted attack does not pair with the words that discuss it) and
the same segment (a paragraph, a list item, a line of a log). Its hits are weighed like
the phrase rules' (context, channel, evasion) and scored with them; in a text about
attacks (a ``META`` concept) they weigh ``DISCUSSED`` more.

``ConceptMatcher`` compiles each concept's terms once per process (as a trie, one
branch per character) and reads a text in one pass over the words that start like some
term: a word's first letters pick the concepts to match there. Terms of Chinese,
Japanese, Korean and Arabic match anywhere, in a text in those scripts.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Iterable
from typing import Final

import attrs

from tripwire.plugins.prompt_injection_detector import readers
from tripwire.plugins.prompt_injection_detector.context import QUOTED
from tripwire.plugins.prompt_injection_detector.grammar import constructions
from tripwire.plugins.prompt_injection_detector.lexicon import LEXICON, UNBOUNDED
from tripwire.plugins.prompt_injection_detector.rules import DATA, INJ, JB, ROLE, SYS, TOOL, Rule
from tripwire.plugins.prompt_injection_detector.views import fold_term

__all__ = ["CONCEPT_RULES", "ConceptMatcher", "ConceptRule", "Occurrence"]

#: A gap inside a term (a space, hyphen, apostrophe or underscore in it): up to three
#: non-letters, or none.
_GAP: Final = r"[\W_]{0,3}"
#: Where a word ends: no letter follows, or one of a script written without spaces
#: (a Latin word inside Japanese or Chinese text: "outputして").
_WORD_END: Final = r"(?![^\W\d_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"

#: Concepts that count only at the start of a line (a role label).
LINE_START: Final = frozenset({"SYSLABEL", "ROLELABEL", "USERLABEL"})
_LINE_HEAD = re.compile(r"[\s#*>\[\](){}|\"'`«»“”\-=_]*")

#: Concepts found by shape, not by words: a URL or e-mail address, a tool's identifier
#: (``send_email``, ``calendar.delete_event``), a Markdown link or image whose URL
#: carries a query, an IBAN or an amount of money.
SHAPES: Final = {
    "DEST": re.compile(r"https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}", re.I),
    "IDENT": re.compile(r"(?:(?<![\w/.\\-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\(\))?"
                        r"|(?<![\w/])[a-z]+\.[a-z]+_[a-z_]+)(?![\w/]|\.\w)(?![\"']?\s*[:=])"
                        r"|(?<![\w.])[a-z_]{3,40}\((?:[a-z_]+\s*=|['\"])", re.I),
    "MDLINK": re.compile(r"!?\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//[^)\s]{0,300}[?&#=]"
                         r"|(?:https?:)?//[^\s)]{0,200}[?&][\w-]{0,30}=(?:\s|$|\{|<|\[|[^\s&]{0,3}\s)",
                         re.I),
    "SHELL": re.compile(r"rm\s+-(?:rf|fr)\b|git\s+push\s+(?:-f|--force)|curl\s[^\n|]{1,300}\|\s*(?:sudo\s+)?"
                        r"(?:ba|z)?sh\b|chmod\s+777|drop\s+(?:table|database)|npm\s+publish"
                        r"|force[- ]push", re.I),
    "JSONROLE": re.compile(
        r"[{,]\s*\\?[\"'][\w ]{2,12}\\?[\"']\s*:\s*\\?[\"'](?:"
        + "|".join(re.escape(fold_term(n)) for n in (
            "system", "systeem", "système", "sistema", "sistem", "система", "系统", "系統",
            "システム", "시스템", "النظام", "assistant", "assistent", "asistente",
            "assistente", "ассистент", "助手", "アシスタント", "어시스턴트", "المساعد", "asistan",
            "developer", "entwickler", "développeur", "desarrollador", "sviluppatore",
            "desenvolvedor", "ontwikkelaar", "разработчик", "开发者", "開発者", "개발자", "المطور",
            "geliştirici"))
        + r")\\?[\"']"),
    "AMOUNT": re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\b"
                         r"|(?:[$€£¥₩]|usd|eur|gbp|chf|rmb|cny|sar|aed|try|rub)\s?\d[\d.,\s]{2,}"
                         r"|\d[\d.,\s]{2,}\s?(?:[$€£¥₩]|usd|eur|gbp|chf|euro|dollar|yuan|元|円|원"
                         r"|ريال|درهم|lira|tl|руб)", re.I),
}


#: What a text must hold for a shape to be looked for in it (any of these).
_SHAPE_HINTS: Final = {
    "DEST": ("://", "www.", "@"),
    "IDENT": ("_", "("),
    "MDLINK": ("//",),
    "AMOUNT": tuple("0123456789"),
    "SHELL": ("rm ", "git ", "curl", "chmod", "drop ", "npm ", "force"),
    "JSONROLE": ('"', "'"),
}

#: A gap marker in a prepared term (a gap character between two letters).
_GAP_MARK: Final = "\x00"


def _prepare(term: str) -> str:
    """``term`` with each run of gap characters between two letters or digits made a
    gap marker (elsewhere they are literal: ``--- end`` needs its dashes)."""
    return re.sub(r"(?<=\w)[ \-'’_]+(?=\w)", _GAP_MARK, term)


def _piece(ch: str) -> str:
    if ch == _GAP_MARK:
        return _GAP
    if ch in ":：":
        return r"[\])*]{0,2}[ \t]?[:：]"
    if ch == " ":
        return r"\s+"
    return re.escape(ch)


_Trie = dict[str, "_Trie"]


def _trie_regex(terms: Iterable[str]) -> str:
    """One alternation for ``terms``, shared prefixes factored out (a trie), so that
    the regular expression tries one branch per character. A term ending in ``$``
    must end a word."""
    trie: _Trie = {}
    for term in terms:
        node = trie
        for ch in term:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: _Trie) -> str:
        ends = "" in node
        branches = []
        for ch, child in sorted(node.items()):
            if ch == "":
                continue
            piece = _WORD_END if ch == "$" else _piece(ch)
            rest = build(child)
            branches.append(piece + rest)
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if ends else body

    return build(trie)


@attrs.frozen
class _Compiled:
    """One concept's terms, compiled: ``words``, a pattern matched where a word starts
    with one of ``starts`` (each term's first four letters, fewer where a gap
    follows); ``anywhere``, the terms that match
    anywhere (Chinese, Japanese, Korean, Arabic), run on a text in those scripts;
    ``marks``, the terms that start with a mark (``[system``, ``</document>``)."""

    words: re.Pattern[str] | None
    starts: frozenset[str]
    anywhere: re.Pattern[str] | None
    marks: re.Pattern[str] | None
    mark_chars: frozenset[str] = frozenset()


def _start(term: str) -> str:
    """The letters a term starts with, up to four (fewer where a gap or a mark
    follows): where a word starts with them, the term may match."""
    n = 0
    while n < 4 and term[n:n + 1].isalnum():
        n += 1
    return term[:max(n, 1)]


@functools.cache
def _compile(concept: str) -> _Compiled:
    """The patterns of one concept of ``LEXICON``, compiled once per process."""
    words: set[str] = set()
    anywhere: set[str] = set()
    marks: set[str] = set()
    for lang, terms in LEXICON[concept].items():
        for term in terms.split("|"):
            if not term.strip():
                continue
            ends_word = term.endswith(("$", " "))
            folded = _prepare(fold_term(term.rstrip("$ "))) + ("$" if ends_word else "")
            if not folded[:1].isalnum():
                marks.add(folded)
            elif lang in UNBOUNDED and not folded.isascii():
                anywhere.add(folded)
            else:
                words.add(folded)
    return _Compiled(
        re.compile(_trie_regex(words)) if words else None,
        frozenset(_start(w) for w in words),
        re.compile(_trie_regex(anywhere)) if anywhere else None,
        re.compile(_trie_regex(marks)) if marks else None,
        frozenset(m[:1] for m in marks))


@functools.cache
def _starts_regex(starts: frozenset[str]) -> re.Pattern[str]:
    """Where a word starts with one of ``starts`` (the longest one that fits)."""
    return re.compile(r"(?<![^\W\d_])" + _trie_regex(starts))
#: A character of the scripts whose terms match anywhere.
_UNSPACED = re.compile("[\u0600-\u06ff\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@attrs.frozen
class Occurrence:
    """One concept found at ``start:end`` of the scanned view's text, in quotation
    ``region`` (-1: outside quotes), ``segment`` (a paragraph, a list item, a line of
    a log) and ``sentence``."""

    concept: str
    start: int
    end: int
    region: int = -1
    segment: int = 0
    sentence: int = 0
    #: a place in the conversation ("before my first message"): a possessive in it
    #: is about the message, not the prompt
    positional: bool = False


@attrs.frozen
class ConceptRule:
    """A hit where one concept of each of ``groups`` occurs within ``window``
    characters; ``rule`` is what the scanner weighs and reports (its name, weights and
    channel factors)."""

    rule: Rule
    groups: tuple[frozenset[str], ...]
    window: int = 120
    #: its concepts may be on either side of a quotation mark (a ban of quoted words)
    across_quotes: bool = False
    #: its concepts may be in different paragraphs or lines (a transcript's turns)
    across_lines: bool = False
    #: its concepts must be in one sentence (a verb and its object)
    one_sentence: bool = False


_NEVER = re.compile(r"(?!)")
#: How much a concept hit counts in a text about attacks, on top of the discount every
#: hit there gets: concepts in any order match more of a discussion than phrases do.
DISCUSSED: Final = 0.7


def concept_rule(name: str, weights: dict[str, float], *groups: str, window: int = 120,
                 direct: float = 1.0, indirect: float = 1.0,
                 across_quotes: bool = False, across_lines: bool = False,
                 one_sentence: bool = False) -> ConceptRule:
    """A concept rule: each group is concept names separated by ``|``."""
    sets = tuple(frozenset(g.split("|")) for g in groups)
    rule = Rule(name, weights, _NEVER, (), None, direct, indirect, discussed=DISCUSSED)
    return ConceptRule(rule, sets, window, across_quotes, across_lines, one_sentence)


#: The concept rules. A family's strongest hit counts (``name``), families combine.
CONCEPT_RULES: Final[tuple[ConceptRule, ...]] = (
    # -- overriding earlier instructions
    concept_rule("concept-override", {INJ: 0.86}, "IGNORE", "PRIOR", "INSTR|SYSPROMPT", window=90,
                 one_sentence=True),
    concept_rule("concept-override", {INJ: 0.8}, "IGNORE", "SYSPROMPT", window=50,
                 one_sentence=True),
    concept_rule("concept-override", {INJ: 0.78}, "IGNORE", "STRONGINSTR", window=50,
                 one_sentence=True),
    concept_rule("concept-override", {INJ: 0.62}, "IGNORE", "INSTR", window=50, one_sentence=True),
    concept_rule("concept-override", {INJ: 0.6}, "IGNORE", "PRIOR", window=40, one_sentence=True),
    concept_rule("concept-revoked", {INJ: 0.66, SYS: 0.3}, "REVOKED", "INSTR|SYSPROMPT", window=70),
    concept_rule("concept-revoked", {INJ: 0.8, SYS: 0.3}, "REVOKED", "INSTR|SYSPROMPT",
                 "AI|YOUARENOW|NEW", window=150),
    # (in content, "from now on the old rules no longer apply" is how a policy update
    # or a manual speaks to its reader: there it needs the AI or a new role too)
    concept_rule("concept-revoked", {INJ: 0.8, SYS: 0.3}, "REVOKED", "INSTR|SYSPROMPT",
                 "FROMNOW", window=150, indirect=0.8),
    concept_rule("concept-new-rules", {INJ: 0.45}, "NEW", window=1),
    concept_rule("concept-new-rules", {INJ: 0.7}, "NEW", "FROMNOW|REVOKED|IGNORE", window=120),
    # -- replacing the agent's role, lifting its rules
    concept_rule("concept-role", {ROLE: 0.78, JB: 0.3}, "YOUARENOW", "UNBOUND|DEVMODE|ANYTHING",
                 window=200),
    concept_rule("concept-role", {ROLE: 0.5}, "YOUARENOW", "AI|FROMNOW|INSTR", window=80),
    concept_rule("concept-unbound", {JB: 0.45}, "UNBOUND", window=1),
    concept_rule("concept-unbound", {JB: 0.76}, "UNBOUND", "AI|YOUARENOW|NOREFUSE|DEVMODE|FROMNOW",
                 window=150),
    concept_rule("concept-devmode", {JB: 0.5}, "DEVMODE", window=1),
    concept_rule("concept-devmode", {JB: 0.8}, "DEVMODE", "ACTIVATE|YOUARENOW|UNBOUND|NOREFUSE",
                 window=80),
    concept_rule("concept-no-refusal", {JB: 0.66}, "NOREFUSE", window=1, indirect=1.15),
    concept_rule("concept-no-refusal", {JB: 0.8}, "NOREFUSE",
                 "AI|FROMNOW|USERREQ|CANT|ANSWERANYWAY|UNBOUND|YOUARENOW|BAN|REFUSEWORD",
                 window=150),
    concept_rule("concept-no-refusal", {JB: 0.75}, "BAN", "CANT", "CANT", window=100,
                 across_quotes=True),
    concept_rule("concept-no-refusal", {JB: 0.75}, "REFUSEWORD", "ANSWERANYWAY", window=120),
    concept_rule("concept-grandma", {ROLE: 0.75}, "GRANDMA", "DECEASED", window=200),
    concept_rule("concept-prefill", {JB: 0.72}, "STARTWITH", "SUREHERE", window=60,
                 across_quotes=True),
    # -- leaking the prompt, the conversation, secrets
    concept_rule("concept-prompt-leak", {DATA: 0.8}, "REVEAL", "SYSPROMPT", window=80),
    concept_rule("concept-prompt-leak", {DATA: 0.6}, "SYSPROMPT", "VERBATIM", window=80),
    concept_rule("concept-prompt-leak", {DATA: 0.72}, "REVEAL", "INSTR", "VERBATIM", window=80),
    concept_rule("concept-secrets", {DATA: 0.74}, "REVEAL|SEND", "SECRET", "VERBATIM|UNMASKED",
                 window=120),
    concept_rule("concept-secrets", {DATA: 0.72}, "SECRET", "UNMASKED", window=150),
    concept_rule("concept-exfiltration", {DATA: 0.82}, "SEND", "SECRET", "DEST", window=100),
    concept_rule("concept-exfiltration", {DATA: 0.45}, "SEND|REVEAL", "SECRET", window=60,
                 indirect=1.3),
    concept_rule("concept-exfil-link", {DATA: 0.8}, "MDLINK", "SECRET|SEND|VERBATIM|REVEAL",
                 window=160),
    concept_rule("concept-other-users", {DATA: 0.75}, "OTHERUSERS", "SECRET|REVEAL|SEND",
                 window=150),
    # -- hijacking tools
    concept_rule("concept-tool", {TOOL: 0.55}, "TOOLCALL", "IDENT", window=40, direct=0.6,
                 indirect=1.15),
    concept_rule("concept-tool", {TOOL: 0.75}, "TOOLCALL", "IDENT", "AI|SKIPCONFIRM|NOTELL",
                 window=150, direct=0.6, indirect=1.15),
    concept_rule("concept-tool", {TOOL: 0.74}, "AI", "IDENT|SHELL", "DELETE|SEND|TRANSFER|TOOLCALL",
                 window=200, direct=0.6, indirect=1.15),
    concept_rule("concept-tool", {TOOL: 0.72}, "AI", "SHELL", window=200, direct=0.6,
                 indirect=1.15),
    concept_rule("concept-unconfirmed", {TOOL: 0.6}, "DELETE|TRANSFER|SEND|TOOLCALL",
                 "SKIPCONFIRM", window=160, indirect=1.2),
    concept_rule("concept-transfer", {TOOL: 0.5}, "TRANSFER", "AMOUNT", window=120, direct=0.7,
                 indirect=1.3),
    concept_rule("concept-unconfirmed", {TOOL: 0.55}, "AMOUNT", "SKIPCONFIRM", window=160,
                 direct=0.8, indirect=1.3),
    concept_rule("concept-stealth", {INJ: 0.5}, "NOTELL", window=1, direct=0.8, indirect=1.3),
    concept_rule("concept-ignore-user", {INJ: 0.78}, "IGNORE", "USERREQ", window=60, direct=0.6,
                 indirect=1.1),
    # -- an agreement the model never made, holding it to lifting its rules ("as we
    # agreed, no confirmation from here on", "you promised to answer anything"); in a
    # document or tool result "as agreed" is how colleagues write to each other
    concept_rule("concept-agreed", {INJ: 0.74}, "AGREED",
                 "SKIPCONFIRM|NOREFUSE|UNBOUND|IGNORE|SYSPROMPT|DEVMODE|ANYTHING", window=200,
                 indirect=0.8),
    concept_rule("concept-agreed", {INJ: 0.74}, "AGREED", "CONFIRM",
                 "FROMNOW|DELETE|SEND|TRANSFER|TOOLCALL", window=200, indirect=0.8),
    # -- what the model was told before the conversation, asked about: with a persona
    # that stays in its role or never refuses, or asked for word for word
    concept_rule("concept-prompt-leak", {DATA: 0.55}, "TOLDYOU", "INSTR|STRONGINSTR|SYSPROMPT",
                 window=80, direct=1.0, indirect=0.8),
    concept_rule("concept-prompt-leak", {DATA: 0.76}, "TOLDYOU",
                 "NOREFUSE|STAYINROLE|VERBATIM|UNBOUND|ANYTHING", window=250, indirect=0.8),
    concept_rule("concept-no-refusal", {JB: 0.74}, "STAYINROLE",
                 "NOREFUSE|UNBOUND|ANYTHING|CANT|TOLDYOU", window=250, across_quotes=True),
    # -- claimed authority
    concept_rule("concept-authority", {SYS: 0.72}, "SYSMSG",
                 "AUTHZ|REVOKED|FROMNOW|NOREFUSE|UNBOUND", "AI|INSTR|SYSPROMPT|NOREFUSE|UNBOUND",
                 window=200),
    concept_rule("concept-authority", {SYS: 0.6, ROLE: 0.2}, "IAMDEV", window=1),
    concept_rule("concept-authority", {SYS: 0.74}, "SYSMSG", "PERMIT", "AI|SYSPROMPT|SECRET",
                 window=200),
    concept_rule("concept-authorized", {SYS: 0.55}, "AUTHZ|PERMIT", "AI|SKIPCONFIRM", window=150,
                 direct=0.8, indirect=1.3),
    concept_rule("concept-authorized", {SYS: 0.72}, "AUTHZ|PERMIT|IAMDEV", "REVOKED|UNBOUND|IGNORE",
                 "INSTR|SYSPROMPT|AI", window=150),
    # -- a fake end of the content, fake turns
    concept_rule("concept-context", {SYS: 0.76}, "ENDCTX", "SYSLABEL|ROLELABEL|SYSMSG|NEW|FROMNOW",
                 window=200, across_lines=True),
    concept_rule("concept-system-label", {SYS: 0.6}, "SYSLABEL", window=1),
    concept_rule("concept-json-turn", {SYS: 0.5, ROLE: 0.3}, "JSONROLE", window=1),
    concept_rule("concept-json-turn", {SYS: 0.78, ROLE: 0.3}, "JSONROLE",
                 "UNBOUND|REVOKED|NOREFUSE|DEVMODE|IGNORE|NEW|SYSPROMPT|SECRET|SEND|DELETE|TRANSFER",
                 window=300, across_lines=True, across_quotes=True),
    concept_rule("concept-system-label", {SYS: 0.8},
                 "SYSLABEL", "IGNORE|NEW|REVOKED|UNBOUND|FROMNOW|YOUARENOW|DEVMODE", window=150),
    concept_rule("concept-fake-turns", {ROLE: 0.45}, "ROLELABEL|USERLABEL",
                 "SYSLABEL|UNBOUND|DEVMODE", window=300, across_lines=True),
    concept_rule("concept-fake-turns", {ROLE: 0.5}, "USERLABEL", "ROLELABEL", window=400,
                 direct=0.7, indirect=1.3, across_lines=True),
    concept_rule("concept-context", {SYS: 0.78}, "ENDCTX", "USERLABEL", "ROLELABEL", window=400,
                 across_lines=True),
    # -- encoded or scrambled instructions (to be obeyed unexplained: an attack)
    concept_rule("concept-decode", {INJ: 0.65}, "DECODE", "EXECUTE", window=100),
    concept_rule("concept-decode", {INJ: 0.76}, "DECODE", "EXECUTE", "NOEXPLAIN", window=200,
                 across_quotes=True),
    # -- a note to the AI inside a text the user asks to have summarised or translated
    concept_rule("concept-smuggled", {DATA: 0.76}, "PROCESS", "AICOLON|AIINSTR",
                 "SECRET|REVEAL|SEND|IGNORE|TOOLCALL|DELETE|NOTELL|SYSPROMPT", window=500,
                 across_quotes=True, across_lines=True, indirect=0.85),
    # -- the rules of whoever deployed the assistant, set aside or lifted
    concept_rule("concept-override", {INJ: 0.78}, "IGNORE|UNBOUND|REVOKED", "OPERATOR", "INSTR",
                 window=60),
    # -- text addressed to an AI inside content
    concept_rule("concept-ai-addressed", {INJ: 0.55}, "AI", "READING", window=60, direct=0.6,
                 indirect=1.35),
    concept_rule("concept-ai-addressed", {INJ: 0.5}, "AICOLON", window=1, direct=0.6,
                 indirect=1.35),
    concept_rule("concept-ai-addressed", {INJ: 0.55}, "AIINSTR", window=1, direct=0.6,
                 indirect=1.35),
    concept_rule("concept-ai-command", {INJ: 0.5}, "AI", "MUST", window=40, direct=0.5,
                 indirect=1.3),
    concept_rule("concept-ai-instructed", {INJ: 0.58}, "AICOLON",
                 "IGNORE|DELETE|SEND|TRANSFER|REVEAL|NOREFUSE|USERREQ|NOTELL|TOOLCALL|YOUARENOW"
                 "|FROMNOW|SKIPCONFIRM|DECODE|SHELL", window=200, direct=0.5, indirect=1.3),
)

#: An AI addressed by name: the AI term followed by a colon or comma (``KI-Agenten:``).
_ADDRESS_AFTER = re.compile(r"(?:さん|様|さま|くん|ちゃん|님)?(?:へ|に|에게|께)?"
                            r"[ \t]{0,2}[)\]】]?[ \t]{0,2}[:：,，]")


#: Where a phrase may start: a line, a sentence, a bracket or quotation, a clause.
_PHRASE_START = re.compile(r"[\n.!?;:(\[{«“\"<>—–。！？；：（【「『]")
#: Words before an AI's name in a phrase that addresses it ("note to the AI:", "Hinweis
#: an die KI:", "message to all AI agents reading this:").
_ADDRESS_WORDS: Final = 5


def _addressing(text: str, start: int) -> bool:
    """Whether the AI named at ``start`` (with a colon or comma after it) starts a
    phrase of its own, a few words at most from where its line, sentence, bracket or
    clause starts: an address ("KI-Agent:", "Hinweis an die KI:"), not a word for an AI
    ending a longer sentence before a colon ("instructions aimed at the assistant: each
    action ...", which goes on to explain)."""
    head = max(0, start - 200)
    cut = None
    for m in _PHRASE_START.finditer(text, head, start):
        cut = m
    lead = text[cut.end() if cut else head:start]
    if cut is None and head > 0:
        return False
    return len(lead.split()) <= _ADDRESS_WORDS or _UNSPACED.search(lead) is not None \
        and len(lead) <= 3 * _ADDRESS_WORDS


class ConceptMatcher:
    """Finds concepts in a folded text and the concept rules they make."""

    def __init__(self, rules: Iterable[ConceptRule] = CONCEPT_RULES, *,
                 every_concept: bool = False) -> None:
        """Matches the concepts ``rules`` need (``every_concept``: those of every
        concept rule, which the model reads, whichever ``rules`` are given)."""
        self.rules = tuple(rules)
        wanted = {c for r in (CONCEPT_RULES if every_concept else self.rules)
                  for g in r.groups for c in g} | {"AI", "META", "OWNDET", "NOTICE", "ADDRWORD"}
        self.patterns = {c: _compile(c) for c in LEXICON if c in wanted}
        self.shapes = {c: p for c, p in SHAPES.items() if c in wanted}
        self._wanted = frozenset(wanted)
        #: which concepts have a term starting with each two letters
        self._by_start: dict[str, list[str]] = {}
        for concept, compiled in self.patterns.items():
            for start in compiled.starts:
                self._by_start.setdefault(start, []).append(concept)
        self._words = {c: p.words for c, p in self.patterns.items() if p.words is not None}
        #: the concepts whose terms may start at a word starting with each start (the
        #: start's own and its shorter starts'), and where such words start
        self._at_start = {key: [c for n in range(len(key), 0, -1)
                                for c in self._by_start.get(key[:n], ())]
                          for key in self._by_start}
        self._starts = _starts_regex(frozenset(self._by_start))

    def occurrences(self, text: str) -> list[Occurrence]:
        """Every concept found in ``text`` (a folded view's text)."""
        spans: list[tuple[str, int, int]] = []
        # a word's first two letters say which concepts' terms can start there: each of
        # those is matched right there (one pass over the words, not one per concept)
        at_start = self._at_start
        words = self._words
        for w in self._starts.finditer(text):
            at = w.start()
            for concept in at_start[w.group()]:
                m = words[concept].match(text, at)
                if m:
                    spans.append((concept, at, m.end()))
        unspaced = _UNSPACED.search(text) is not None
        chars = frozenset(text)
        for concept, compiled in self.patterns.items():
            if unspaced and compiled.anywhere is not None:
                spans.extend((concept, m.start(), m.end())
                             for m in compiled.anywhere.finditer(text))
            if compiled.marks is not None:
                for mark in compiled.mark_chars & chars:
                    at = text.find(mark)
                    while at >= 0:
                        m = compiled.marks.match(text, at)
                        if m:
                            spans.append((concept, at, m.end()))
                        at = text.find(mark, at + 1)
        found: list[Occurrence] = []
        for concept, start, end in spans:
            if end <= start or concept in LINE_START and not _at_line_start(text, start):
                continue
            found.append(Occurrence(concept, start, end, positional=concept == "SYSPROMPT"
                                    and _POSITIONAL.search(text, start, end) is not None))
            if concept == "AI" and _ADDRESS_AFTER.match(text, end) and _addressing(text, start):
                found.append(Occurrence("AICOLON", start, end))
        for concept, pattern in self.shapes.items():
            if any(hint in text for hint in _SHAPE_HINTS.get(concept, ("",))):
                found.extend(Occurrence(concept, m.start(), m.end())
                             for m in pattern.finditer(text))
        if unspaced:
            found.extend(Occurrence(c, a, b) for c, a, b in constructions(text, self._wanted))
        return found

    def hits(self, text: str, occurrences: list[Occurrence] | None = None
             ) -> tuple[list[tuple[Rule, int, int]], bool]:
        """The concept rules ``text`` holds, ``(rule, start, end)`` in the text's
        offsets, one per rule; and whether the text is about attacks (a ``META``
        word: prompt injection, jailbreak, phishing, red team, ... in any language).
        ``occurrences``: ``self.occurrences(text)``, when the caller has them."""
        if occurrences is None:
            occurrences = self.occurrences(text)
        if not occurrences:
            return [], False
        occurrences = readers.dropped(text, occurrences)
        quotes = [m.span() for m in QUOTED.finditer(text)]
        breaks = _segment_breaks(text)
        stops = [m.end() for m in _SENTENCE_STOP.finditer(text)]
        by_concept: dict[str, list[Occurrence]] = {}
        for o in occurrences:
            region = next((i for i, (qs, qe) in enumerate(quotes) if qs <= o.start and o.end <= qe),
                          -1)
            o = attrs.evolve(o, region=region, segment=bisect_right(breaks, o.start),
                             sentence=bisect_right(stops, o.start))
            by_concept.setdefault(o.concept, []).append(o)
        out: list[tuple[Rule, int, int]] = []
        present = by_concept.keys()
        for rule in self.rules:
            if any(present.isdisjoint(g) for g in rule.groups):
                continue  # (most rules: a group with none of its concepts in the text)
            span = _co_occur(rule, by_concept)
            if span is not None:
                out.append((rule.rule, *span))
        return out, "META" in by_concept


#: Where a sentence ends: a full stop, question or exclamation mark before a space
#: (not in ``e.g.`` or ``3.5``), or a Chinese or Japanese one.
_SENTENCE_STOP = re.compile(r"(?<![\s.][a-z])[.!?](?=\s)|[。！？]")
#: A line that starts a new item: a bullet, a number, a quotation, a role label, a
#: log line, a table row.
_ITEM_START = re.compile(r"[ \t]*(?:[-*•>#|]|\d+[.):]|\[|(?=[a-z]*\d)[0-9a-z]{7}\s|[\w.-]+\s?[:：]\s)")


#: Hangul vowels and finals (a folded syllable is its letters) and wide characters.
_JAMO_TAIL = re.compile("[\u1160-\u11ff]")
_WIDE = re.compile("[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]")


def _width(line: str) -> int:
    """How wide ``line`` is in columns (a Chinese, Japanese or Korean character takes two)."""
    return len(line) - len(_JAMO_TAIL.findall(line)) + len(_WIDE.findall(line))


def _segment_breaks(text: str) -> list[int]:
    """Where the segments of ``text`` start: after a blank line, a short line, a line
    ending a sentence, or before a line starting a new item; a long line running on
    (text wrapped at a width) continues its segment."""
    breaks = []
    start = 0
    for m in re.finditer("\n", text):
        line = text[start:m.start()].strip()
        start = m.end()
        if (_width(line) < 60 or line[-1:] in ".!?。！？:：;" or text.startswith("\n", start)
                or _ITEM_START.match(text, start)):
            breaks.append(m.end())
    return breaks


#: A system-prompt term that names a place in the conversation (what came before or
#: above a message), in any of the languages.
_POSITIONAL = re.compile(r"above|before|earlier|oben|vor |avant|au dessus|arriba|antes|sopra"
                         r"|prima|acima|boven|voor |выше|до |之前|以上|上面|より前|前に|上の|위|앞|이전"
                         r"|قبل|أعلاه|önce|yukarı", re.I)


def _at_line_start(text: str, start: int) -> bool:
    head = text.rfind("\n", 0, start) + 1
    before = text[head:start]
    if _LINE_HEAD.fullmatch(before):
        return True
    return bool(re.search(r"[.!?。！？:]\s+$", before))


def _co_occur(rule: ConceptRule, by_concept: dict[str, list[Occurrence]]
              ) -> tuple[int, int] | None:
    """The span of a first-group occurrence with one of every other group within the
    rule's window, or None."""
    groups = [[o for c in g for o in by_concept.get(c, ())] for g in rule.groups]
    if any(not g for g in groups):
        return None
    for anchor in groups[0]:
        start, end = anchor.start, anchor.end
        for group in groups[1:]:
            near = [o for o in group
                    if o.start < anchor.end + rule.window and anchor.start < o.end + rule.window
                    and (rule.across_quotes or o.region == anchor.region)
                    and (rule.across_lines or o.segment == anchor.segment)
                    and (not rule.one_sentence or o.sentence == anchor.sentence)]
            if not near:
                break
            best = min(near, key=lambda o: abs(o.start - anchor.start))
            start, end = min(start, best.start), max(end, best.end)
        else:
            return start, end
    return None
