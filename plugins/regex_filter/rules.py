"""The rules of ``regex-filter`` and how they are matched: ``Rule``, the ``PRESETS``,
a pattern's shortest and longest match (``width``), ``Matcher``, which compiles a
list of patterns into as few scans as possible, and the ``rules`` option read and
checked (``structure_rules``, ``rules_in_force``: every pattern valid, non-empty and
bounded, every name unique).

Rules that start with ``(?<!\\w)`` (only where a word starts: every preset) share
scans that stop only where a word starts; other rules without capturing groups share
one alternation; a rule with capturing groups (a backreference would break in an
alternation) or global inline flags is scanned on its own. Alternatives whose every
match holds a literal or a digit are scanned only near those (``_prefilter``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tripwire.errors import ConfigurationError
from tripwire.option_checks import PositiveInt, check
from tripwire.plugins.regex_filter.prefilter import Atom, Gate, Locator, Span, gate, windows

__all__ = ["PRESETS", "WORD_START", "Matcher", "Rule", "rules_in_force", "structure_rules",
           "width"]


@attrs.frozen
class Rule:
    """One named pattern: ``name`` (what reports call it), ``pattern`` (a Python regular
    expression; use inline flags such as ``(?i:...)`` for case), ``replacement`` (what
    ``strategy = "redact"`` puts in place of each match) and ``max_length``: the most
    characters one match can cover, which is how much streamed text is held back at
    most (a rule whose matches lie within one word,
    ``tripwire.guards.window.in_one_word``, holds back only the last word).
    ``max_length`` is computed when the pattern is bounded (``\\d{3}-\\d{4}``: 8); give
    it for a pattern that can match without bound (``\\d+``), as the bound you accept:
    a longer match is not guarded whole in a stream."""

    name: str = attrs.field(validator=attrs.validators.instance_of(str))
    pattern: str = attrs.field(validator=attrs.validators.instance_of(str))
    replacement: str = attrs.field(default="[REDACTED]",
                                   validator=attrs.validators.instance_of(str))
    max_length: int | None = None


#: Only where a word starts (after a character that is not a letter, digit or ``_``, or
#: at the start of the text). Rules that begin with it share the fastest scan.
WORD_START = r"(?<!\w)"
_W = WORD_START

#: The preset rules, by preset name. Plain patterns, each with its bound.
PRESETS: dict[str, tuple[Rule, ...]] = {
    "pii": (
        # a domain's dots as people write them too: the ideographic (。), halfwidth
        # (｡), fullwidth (．) and small (﹒) full stops, which NFKC leaves or maps
        Rule("email", _W + r"[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}[.\u3002\uff61\uff0e\ufe52])"
             r"{1,4}[A-Za-z]{2,24}(?![\w-])", "[EMAIL]", 345),
        Rule("phone", "|".join(_W + p + r"(?!\d)" for p in (
            r"\+\d{1,3}[ .-]?(?:\(\d{1,4}\)|\d{1,4})(?:[ .-]?\d{2,4}){2,5}",  # +44 20 7946 0958
            r"\(\d{3}\)[ .-]?\d{3}[ .-]?\d{4}",                                 # (555) 123-4567
            r"\d{3}[ .-]?\d{3}[ .-]?\d{4}",                                     # 555-123-4567
        )), "[PHONE]", 36),
        Rule("ssn", _W + r"\d{3}-\d{2}-\d{4}(?![\w-])", "[SSN]", 11),
        Rule("credit-card", "|".join(_W + p + r"(?!\d)" for p in (
            r"3[47]\d{2}[ -]?\d{6}[ -]?\d{5}",                # American Express
            r"\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}",          # 16 digits
        )), "[CREDIT_CARD]", 19),
    ),
    "secrets": (
        Rule("api-key", "|".join((
            *(_W + p for p in (
                r"sk-[A-Za-z0-9_-]{20,200}",                 # OpenAI, Anthropic
                r"gh[pousr]_[A-Za-z0-9]{36,255}",            # GitHub
                r"github_pat_[A-Za-z0-9_]{22,255}",
                r"xox[abprs]-[A-Za-z0-9-]{10,200}",          # Slack
                r"AIza[0-9A-Za-z_-]{35}",                    # Google
                r"[rs]k_(?:live|test)_[0-9A-Za-z]{16,247}",  # Stripe
            )),
            # api_key = "...", OPENAI_API_KEY=..., "secret-key": "...": from the key name
            # on. (Its first letter comes first, the check of what precedes it second:
            # that lets the scan skip to the letters a and s.)
            r"[AaSs](?<![A-Za-z0-9].)(?i:(?<=a)pi|(?<=s)ecret|(?<=a)ccess)[_-]?(?i:key)"
            r"[\"']?[ \t]{0,3}[:=][ \t]{0,3}[\"']?[A-Za-z0-9_./+=-]{8,200}",
        )), "[API_KEY]", 266),
        Rule("bearer-token", _W + r"(?i:bearer)[ \t]{1,4}[A-Za-z0-9._~+/-]{8,500}={0,2}",
             "[BEARER_TOKEN]", 512),
        Rule("aws-key", _W + r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])", "[AWS_KEY]", 20),
        # a URL or connection string of any scheme with a password, whole:
        # postgres://user:pass@host/db, redis://:pass@host, jdbc:mysql://...
        Rule("url-credentials", _W + r"(?:jdbc:)?[A-Za-z][A-Za-z0-9+.-]{0,30}://"
             r"[^\s:/?#@\"'<>`]{0,128}:[^\s/?#\"'<>`]{1,256}@[A-Za-z0-9\[]"
             r"(?:[^\s<>\"'`]{0,1000}[^\s<>\"'`.,;:!?)\]}])?", "[URL_CREDENTIALS]", 1427),
    ),
    "urls": (
        Rule("url", _W + r"(?i:https?://|ftp://|www\.)[^\s<>\"'`]{0,499}[^\s<>\"'`.,;:!?)\]}]",
             "[URL]", 508),
    ),
}


# The stdlib's regular expression parser gives a pattern's shortest and longest match
# (``getwidth``). It is private (``re._parser``, ``sre_parse`` before 3.11), so it is
# looked up, not imported: without it only literal patterns get a computed bound.
try:
    _PARSER: Any = importlib.import_module("re._parser")
except ImportError:  # a Python whose re no longer has it
    _PARSER = None

_LITERAL = re.compile(r"(?:[^\\.^$*+?{}\[\]|()]|\\[^A-Za-z0-9])+")
_UNESCAPE = re.compile(r"\\(.)")


def width(pattern: str) -> tuple[int | None, int | None]:
    """The fewest and the most characters a match of ``pattern`` covers (``None``:
    unknown, or no bound)."""
    if _PARSER is not None:
        low, high = _PARSER.parse(pattern).getwidth()
        return low, (None if high >= _PARSER.MAXREPEAT else high)
    if _LITERAL.fullmatch(pattern):
        n = len(_UNESCAPE.sub(r"\1", pattern))
        return n, n
    return None, None


def _word_start_body(pattern: str) -> str | None:
    """The rest of ``pattern`` when it is ``(?<!\\w)`` followed by something with no
    top-level ``|`` (so only-at-a-word-start applies to all of it), else ``None``."""
    if _PARSER is None or not pattern.startswith(WORD_START):
        return None
    body = pattern[len(WORD_START):]
    try:
        wrapped = _PARSER.parse(f"{WORD_START}(?:{body})")
    except re.error:
        return None
    return body if str(wrapped.data) == str(_PARSER.parse(pattern).data) else None


#: Texts shorter than this are scanned whole (see ``Matcher``).
_SHORT = 128


class _Scan:
    """One compiled scan and where to run it: ``orders`` maps the number of the group
    that closed last (``None`` for a pattern scanned alone) to the alternative's place
    among all of the matcher's; ``gate`` (``_prefilter``) says near what to run it
    (``None``: over the whole text)."""

    __slots__ = ("pattern", "orders", "gate")

    def __init__(self, pattern: re.Pattern[str], orders: dict[int | None, int],
                 gate: Gate | None) -> None:
        self.pattern = pattern
        self.orders = orders
        self.gate = gate


def _grouped(items: list[tuple[int, str, Gate | None]], template: str, extra: int
             ) -> list[_Scan]:
    """Alternatives ``(order, pattern, gate)`` sharing one scan per set of atoms (those
    without a gate share one too), each scan ``template`` around them."""
    by_atoms: dict[frozenset[Any] | None, list[tuple[int, str, Gate | None]]] = {}
    for item in items:
        by_atoms.setdefault(item[2].atoms if item[2] else None, []).append(item)
    scans = []
    for atoms, members in by_atoms.items():
        body = "|".join(f"(?:{p})()" for _, p, _ in members)
        compiled = re.compile(template.format(body))
        orders: dict[int | None, int] = {group: order
                                         for group, (order, _, _) in enumerate(members, 1)}
        found = None
        if atoms is not None:
            gates = [g for _, _, g in members if g is not None]
            found = Gate(atoms, max(g.width for g in gates) + extra, max(g.ahead for g in gates),
                         max(g.before for g in gates) + extra)
        scans.append(_Scan(compiled, orders, found))
    return scans


class Matcher:
    r"""The compiled rules: ``find(text)`` gives every match as ``(start, end, rule
    index)``.

    Each rule's top-level alternatives (``a|b``) are placed on their own. Word-start
    ones (``(?<!\w)X``) share scans ``\W(?:X0()|X1()|...)`` over the text with a space
    in front: it stops only where a word starts, and the empty group that closes each
    alternative says which matched (``lastindex``). Other alternatives without groups
    share ``(?:P0)()|(?:P1)()|...``; the rest are scanned alone.

    Alternatives whose matches all contain a literal (``sk-``, ``@``, ``bearer``
    ignoring case) or a digit (``tripwire.plugins.regex_filter.prefilter``) are scanned only near
    those, one scan per set of such atoms: the same matches, found at a fraction of
    the cost. At a position where several scans match, the alternative first in order
    wins, as in one alternation.
    """

    __slots__ = ("word", "combined", "alone", "rule_of", "locator", "_whole")

    def __init__(self, patterns: Sequence[str]) -> None:
        word: list[tuple[int, str, Gate | None]] = []
        general: list[tuple[int, str, Gate | None]] = []
        self.alone: list[_Scan] = []
        #: the rule index of each alternative, by its order
        self.rule_of: list[int] = []
        for index, pattern in enumerate(patterns):
            for alternative in _alternatives(pattern):
                order = len(self.rule_of)
                self.rule_of.append(index)
                compiled = re.compile(alternative)
                body = _word_start_body(alternative) if compiled.groups == 0 else None
                if body is not None:
                    word.append((order, body, gate(body)))
                elif compiled.groups == 0 and _combinable(alternative):
                    general.append((order, alternative, gate(alternative)))
                else:
                    self.alone.append(_Scan(compiled, {None: order}, gate(alternative)))
        self.word = _grouped(word, r"\W(?:{})", 1)
        self.combined = _grouped(general, "{}", 0)
        # For a short text (a stream's window with short rules) finding the atoms costs
        # more than one scan of it: the same alternatives in one scan of each kind.
        self._whole = (_grouped([(o, p, None) for o, p, _ in word], r"\W(?:{})", 1),
                       _grouped([(o, p, None) for o, p, _ in general], "{}", 0),
                       [_Scan(s.pattern, s.orders, None) for s in self.alone])
        self.locator = Locator(s.gate for s in (*self.word, *self.combined, *self.alone)
                               if s.gate is not None)

    def find(self, text: str, *, at_start: bool = True, pos: int = 0
             ) -> list[tuple[int, int, int]]:
        """Every match in ``text`` that starts at ``pos`` or later (what precedes ``pos``
        is still seen by look-behinds), overlapping ones too: each scan goes on from the
        character after a match's start, not from its end, so a match that took the
        start of another (``123456 4111`` as a phone number in ``ORD-123456 4111 1111
        1111 1111``) does not hide it. ``at_start``: ``text`` begins the whole text (a
        word-start rule may match at 0); false for a stream window, whose first
        character is context only."""
        found: list[tuple[int, int, int]] = []
        if len(text) < _SHORT:
            word, combined, alone = self._whole
            atoms: dict[Atom, list[Span]] = {}
        else:
            word, combined, alone = self.word, self.combined, self.alone
            atoms = self.locator.locate(text)
        if word:
            # In ``padded`` each match is preceded by the non-word character the scan
            # consumed.
            if at_start:
                self._scans(word, " " + text, 1, pos, atoms, found, 0, -1)
            else:
                self._scans(word, text, 0, max(pos - 1, 0), atoms, found, 1, 0)
        if combined:
            self._scans(combined, text, 0, pos, atoms, found, 0, 0)
        for scan in alone:
            self._scans([scan], text, 0, pos, atoms, found, 0, 0)
        return found

    def _scans(self, scans: list[_Scan], string: str, pad: int, pos: int,
               atoms: dict[Atom, list[Span]],
               found: list[tuple[int, int, int]], start_shift: int, end_shift: int) -> None:
        """Add the matches of ``scans`` (alternatives of one alternation) in ``string``
        (the text after ``pad`` characters) from ``pos`` on to ``found``."""
        hits: list[tuple[int, int, int]] = []  # (start, order, end) in ``string``
        scanned = 0
        for scan in scans:
            gate = scan.gate
            if gate is None:
                spans = [(pos, len(string), len(string))]
            else:
                if atoms.keys().isdisjoint(gate.atoms):
                    continue  # (most scans, most texts: cheaper than ``windows``)
                spans = [(s + pad, last + pad, end + pad) for s, last, end in windows(atoms, gate)]
            scanned += 1
            _scan(scan, string, pos, spans, hits)
        if scanned > 1:  # where several scans match, the first alternative is the match
            hits.sort()
            hits = [h for i, h in enumerate(hits) if not i or h[0] != hits[i - 1][0]]
        rule_of = self.rule_of
        found.extend((start + start_shift, end + end_shift, rule_of[order])
                     for start, order, end in hits)


def _scan(scan: _Scan, string: str, pos: int, spans: list[tuple[int, int, int]],
          hits: list[tuple[int, int, int]]) -> None:
    """Add ``scan``'s matches in ``string`` from ``pos`` on, within the windows
    ``(start, last, endpos)`` (a match starts in ``start .. last``), to ``hits``."""
    search = scan.pattern.search
    orders = scan.orders
    alone = orders.get(None)
    n = len(string)
    for first, last, endpos in spans:
        endpos = min(endpos, n)
        m = search(string, max(first, pos), endpos)
        while m is not None:
            start, end = m.span()
            if start > last:
                break
            if end > start:
                hits.append((start, orders[m.lastindex] if alone is None else alone, end))
            m = search(string, start + 1, endpos)
        pos = max(pos, last + 1)


def _alternatives(pattern: str) -> list[str]:
    """``pattern``'s top-level alternatives (``a|b``: ``a`` and ``b``), or ``[pattern]``
    when it has none or the parser does not confirm the split."""
    pieces: list[str] = []
    depth = start = i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 1
        elif c == "[":  # a class: "]" right after "[" or "[^" is a member
            i += 2 if pattern.startswith("[^", i) else 1
            i += 1 if pattern.startswith("]", i) else 0
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            pieces.append(pattern[start:i])
            start = i + 1
        i += 1
    pieces.append(pattern[start:])
    if len(pieces) == 1 or _PARSER is None:
        return [pattern]
    try:
        for piece in pieces:  # each must stand alone (no reference to another's group)
            re.compile(piece)
        joined = _PARSER.parse("|".join(f"(?:{p})" for p in pieces))
    except re.error:
        return [pattern]
    return pieces if str(joined.data) == str(_PARSER.parse(pattern).data) else [pattern]


def _combinable(pattern: str) -> bool:
    """``pattern`` keeps its meaning inside ``(?:...)`` in an alternation (global inline
    flags such as ``(?i)`` must start a whole pattern)."""
    try:
        re.compile(f"(?:{pattern})()")
    except re.error:
        return False
    return True


_RULE_KEYS = tuple(a.name for a in attrs.fields(Rule))


def structure_rules(rules: Any, owner: str) -> list[Rule]:
    """``rules`` as ``Rule`` objects (tables converted), with a clear error for anything
    else, an unknown or a missing key."""
    if rules is None:
        return []
    if not isinstance(rules, list | tuple):
        raise ConfigurationError(
            f"{owner}: rules must be a list of rules ({{name, pattern, replacement, "
            f"max_length}} tables or Rule objects), got {rules!r}"
        )
    out: list[Rule] = []
    for index, rule in enumerate(rules):
        if isinstance(rule, Rule):
            out.append(rule)
            continue
        if not isinstance(rule, Mapping):
            raise ConfigurationError(
                f"{owner}: rule {index} must be a table {{name, pattern, replacement, "
                f"max_length}} or a Rule, got {rule!r}"
            )
        unknown = [k for k in rule if k not in _RULE_KEYS]
        missing = [k for k in ("name", "pattern") if k not in rule]
        if unknown or missing:
            problem = (f"has no key {', '.join(map(repr, unknown))}" if unknown
                       else f"needs {' and '.join(map(repr, missing))}")
            raise ConfigurationError(
                f"{owner}: rule {index} {problem}; a rule has name, pattern, replacement "
                f"(default '[REDACTED]') and max_length"
            )
        out.append(check(f"rule {index}", dict(rule), Rule, owner=owner))
    return out


def rules_in_force(rules: Sequence[Rule], presets: Sequence[str], owner: str
                   ) -> tuple[Rule, ...]:
    """Every rule in force, in order: ``rules``, then each preset's, each checked
    (``_checked``) and every name used once; a ``ConfigurationError`` naming the rule
    otherwise."""
    every: list[Rule] = []
    where: dict[str, str] = {}
    for index, rule in enumerate(rules):
        every.append(_checked(rule, f"rule {index} ({rule.name!r})", owner))
        _claim(where, rule.name, f"rule {index}", owner)
    for preset in presets:
        for rule in PRESETS[preset]:
            every.append(_checked(rule, f"preset {preset!r} rule {rule.name!r}", owner))
            _claim(where, rule.name, f"preset {preset!r}", owner)
    return tuple(every)


def _checked(rule: Rule, where: str, owner: str) -> Rule:
    """``rule`` with its ``max_length`` computed when it was not given; every problem
    a ``ConfigurationError`` naming the rule."""
    if not rule.name:
        raise ConfigurationError(f"{owner}: {where}: name must be a non-empty string")
    try:
        re.compile(rule.pattern)
    except re.error as e:
        raise ConfigurationError(
            f"{owner}: {where}: pattern {rule.pattern!r} is not a valid regular expression: {e}"
        ) from e
    low, high = width(rule.pattern)
    if low == 0 or (low is None and re.compile(rule.pattern).search("") is not None):
        raise ConfigurationError(
            f"{owner}: {where}: pattern {rule.pattern!r} can match the empty string; a "
            f"rule must match at least one character"
        )
    given = rule.max_length
    if given is not None:
        check("max_length", given, PositiveInt, owner=f"{owner}: {where}")
        if high is not None and given < high:
            raise ConfigurationError(
                f"{owner}: {where}: max_length {given} is less than the longest match of "
                f"{rule.pattern!r} ({high} characters); leave it out to have it computed"
            )
        return rule
    if high is None and low is None:
        raise ConfigurationError(
            f"{owner}: {where}: the longest match of {rule.pattern!r} cannot be computed "
            f"(this Python's re has no parser tripwire can read); give max_length, the "
            f"most characters one match may cover"
        )
    if high is None:
        raise ConfigurationError(
            f"{owner}: {where}: pattern {rule.pattern!r} can match without bound; give "
            f"max_length, the most characters one match may cover (streamed text is held "
            f"back that far), e.g. by bounding repeats: '\\d{{1,12}}' instead of '\\d+'"
        )
    return attrs.evolve(rule, max_length=high)


def _claim(where: dict[str, str], name: str, owner_of: str, owner: str) -> None:
    if name in where:
        raise ConfigurationError(
            f"{owner}: rule name {name!r} is used twice ({where[name]} and {owner_of}); "
            f"rule names must be unique"
        )
    where[name] = owner_of
