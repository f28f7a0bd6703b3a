"""``Scanner``: runs the rules over the views of a text and its decoded payloads,
weighs each hit by its context and combines the hits into a score per type.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from tripwire.guards.verdicts import Detection
from tripwire.plugins.prompt_injection_detector import readers
from tripwire.plugins.prompt_injection_detector.classifier import Classifier
from tripwire.plugins.prompt_injection_detector.context import (
    META,
    NEGATED,
    QUOTED,
    QUOTED_JSON,
    REFUSED,
    context_factor,
    dialogue_lines,
    hidden_spans,
    negated,
    refused,
)
from tripwire.plugins.prompt_injection_detector.payloads import (
    MAX_DECODED,
    MAX_DEPTH,
    find_payloads,
)
from tripwire.plugins.prompt_injection_detector.rules import DATA, TOOL, TYPES, Rule
from tripwire.plugins.prompt_injection_detector.views import (
    NOT_WORD,
    ROT13,
    SEPARATOR,
    TOKEN,
    View,
    fold,
    fold_term,
)

if TYPE_CHECKING:
    from tripwire.plugins.prompt_injection_detector.concepts import Occurrence

#: Channels where what is scanned did not come from the user: instructions there are
#: more suspicious (``Rule.indirect``) and a user's own requests less (``Rule.direct``).
INDIRECT_CHANNELS: Final = frozenset({"tool-result", "document"})
#: Channels in the assistant's voice (an assistant turn the caller sent: written by the
#: caller, so weighed as direct input), where a hit the assistant declines ("I can't
#: share my system prompt") weighs ``REFUSED``.
ASSISTANT_CHANNELS: Final = frozenset({"assistant"})

#: What a hit in a line of a script or play weighs (``context.dialogue_lines``): a
#: character's words to another character, a quotation with its speaker named.
PLAYED: Final = 0.5
#: The types a negation right before the verb turns into a rule against the act
#: (``context.negated``): sending and leaking.
_AFFIRMED: Final = frozenset({DATA, TOOL})
#: The rules that read an AI named before a colon as addressed.
_ADDRESS_RULES: Final = frozenset({"concept-ai-addressed", "concept-ai-instructed"})
LONG_TEXT: Final = 4_000       # longer texts match each rule only around its needles
WINDOW: Final = 400            # characters either side of a needle word
EVASION_BONUS: Final = 1.2     # a hit found only through an evasion weighs this much more
#: The rule that asks for a text to be decoded or translated and acted on.
OBEY_RULE: Final = "concept-decode"


@attrs.frozen
class Hit:
    """One rule matched ``text[start:end]`` with ``weights`` (already scaled)."""

    rule: Rule
    start: int
    end: int
    weights: Mapping[str, float]
    evasive: bool
    #: its framing made it weigh less (quoted, given as an example, in a text about
    #: attacks, declined): the rules read it as discussed, not made
    framed: bool = False
    #: how much its framing let it count (``context.context_factor``, a text about
    #: attacks and the rest: 1 unframed); at or under ``DISCUSSED_FRAME`` it is
    #: discussed: quoted, an example, retold, a concept in a text about attacks
    frame: float = 1.0
    #: where the quotation it is in starts (-1: in none)
    quote: int = -1


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


#: A hit whose framing lets it count this much or less (quoted, an example, retold,
#: a line of a play) is read as discussed: see ``Scanner._score``.
DISCUSSED_FRAME: Final = 0.7
#: The model's rule: a hit of it is the model's verdict on the stretch it scored.
MODEL_RULE: Final = Rule("model", {}, re.compile(""), ())
#: The weight of a model hit at the model's threshold, and at probability 1.
MODEL_WEIGHT: Final = (0.7, 0.95)
#: The model is asked about a text only when the rules score every type under this
#: (they do not flag it at the default threshold) and frame none of their hits.
MODEL_GATE: Final = 0.7
#: The model's threshold in a channel where it needs more than its own: an assistant
#: turn of the caller's history is first-person talk about what the assistant can and
#: cannot do, a kind of text the model was not trained on; documents and tool results
#: are where benign text most often reads like an instruction (manuals, READMEs with
#: install commands, logs, policies).
MODEL_THRESHOLDS: Final = {"assistant": 0.9, "document": 0.85, "tool-result": 0.8}
#: What a model hit weighs in a text about attacks: the model does not tell quoting an
#: attack from making one, so there it adds to the rules' evidence and never flags alone.
MODEL_DISCUSSED: Final = 0.5


class Scanner:
    """Scores texts for the given detection ``types``; with ``model`` (a
    ``classifier.Classifier``), a text the model scores at or over its threshold is
    a hit too (``model_hit``)."""

    def __init__(self, types: Iterable[str] = TYPES, model: Classifier | None = None) -> None:
        # the rule tables compile their patterns as they are imported: the first
        # scanner imports them, so that loading the processor's class does not
        from tripwire.plugins.prompt_injection_detector.concepts import (
            CONCEPT_RULES,
            ConceptMatcher,
        )
        from tripwire.plugins.prompt_injection_detector.markers import MARKERS
        from tripwire.plugins.prompt_injection_detector.phrases import PHRASES

        self.types = tuple(t for t in TYPES if t in set(types))
        self.model = model
        wanted = set(self.types)
        self.phrases = tuple(r for r in PHRASES if wanted & set(r.weights))
        self.markers = tuple(r for r in MARKERS if wanted & set(r.weights))
        # every concept: the model reads the occurrences the rules' pass finds
        self.concepts = ConceptMatcher((r for r in CONCEPT_RULES if wanted & set(r.rule.weights)),
                                       every_concept=True)
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

    def scan(self, text: str, channel: str = "input", *, structured: bool = False,
             ask_model: bool = True) -> Analysis:
        """The scores and hits of ``text``, read as arriving on ``channel``;
        ``structured``: ``text`` is the JSON form of a value (its string quotes are no
        quotations); ``ask_model``: the model may have its say (not on text written to
        instruct the model: a caller's system message, tool definitions)."""
        hits: list[Hit] = []
        budget = [MAX_DECODED]
        read: list[list[Occurrence] | None] = []
        plain = self._scan(text, channel, 0, hits, budget,
                           QUOTED_JSON if structured else QUOTED, read)
        if plain is not None and self.model is not None and ask_model:
            self._model_hit(plain, hits, read[0] if read else None, channel)
        return Analysis(self._score(hits), tuple(sorted(hits, key=lambda h: (h.start, h.end))))

    # -- one text (the original, or a decoded payload)
    def _scan(self, text: str, channel: str, depth: int, hits: list[Hit],
              budget: list[int], quotes: re.Pattern[str] = QUOTED,
              read: list[list[Occurrence] | None] | None = None) -> View | None:
        """Adds the hits of ``text`` to ``hits``; returns its folded view without markup.
        ``read`` receives the lexicon's concepts in that view's text (None when the
        rules read another text: letters spaced apart joined)."""
        if not text:
            return None
        cased, plain = fold(text)
        quoted: list[tuple[int, int]] | None = None
        play: list[tuple[int, int]] = []
        hidden = hidden_spans(cased)
        indirect = channel in INDIRECT_CHANNELS
        voiced = channel in ASSISTANT_CHANNELS
        found: list[tuple[Rule, int, int, bool]] = []
        t = cased.text
        tokens = plain.text.translate(NOT_WORD).split()
        words = set(tokens)
        features = set(t).union(words if t == plain.text else t.translate(NOT_WORD).split())
        markers = [r for r, gates in zip(self.markers, self._marker_gates, strict=True)
                   if all(not chars_words.isdisjoint(features) or any(n in t for n in subs)
                          for chars_words, subs in gates)]
        self._match(markers, cased, text, found, evasive=False, windowed=False)
        self._match(self._candidates(words), plain, text, found, evasive=False)
        self._match_squeezed(plain, tokens, words, found)
        self._match_rot13(plain, text, found)
        joined = View.edited(plain, _letters_apart(plain.text))
        occurrences = self.concepts.occurrences(joined.text)
        if read is not None:
            read.append(occurrences if joined is plain else None)
        concept_hits, about_attacks = self.concepts.hits(joined.text, occurrences)
        if concept_hits:
            # a concept hit where a phrase or marker rule of its type hit too is the same
            # evidence: the stronger of the two counts
            phrases = list(found)
            for rule, a, b in concept_hits:
                start, end = joined.root_span(a, b)
                if end <= start:
                    continue
                weight = max(rule.weights.values()) * (rule.discussed if about_attacks else 1.0)
                same = [f for f in phrases if f[1] < end and start < f[2]
                        and set(f[0].weights) & set(rule.weights)]
                if any(max(f[0].weights.values()) >= weight for f in same):
                    continue
                found[:] = [f for f in found if f not in same]
                # (folded a character at a time, as its terms were: only an evasion
                # that folding characters does not undo, spaced letters, counts)
                evasive = _evaded(fold_term(text[start:end]), joined.text[a:b])
                found.append((rule, start, end, evasive))
        meta = bool(found) and (about_attacks or META.search(plain.text) is not None)
        # a text that asks for its quotation to be decoded or translated and then acted
        # on makes the quotation an instruction: its quotes frame nothing
        obeyed = not meta and any(rule.name == OBEY_RULE for rule, *_ in found)
        for rule, start, end, evasive in found:
            if quoted is None:
                quoted = [] if obeyed else [m.span() for m in quotes.finditer(text)]
                if indirect:
                    play = dialogue_lines(text)
            frame = context_factor(text, start, end, quoted, meta)
            line = next(((ps, pe) for ps, pe in play if ps <= start and end <= pe), None)
            if line is not None:
                if rule.name in _ADDRESS_RULES and start < _label_end(text, *line):
                    continue  # the speaker's label names a character, it addresses no AI
                frame = min(frame, PLAYED)
            if about_attacks:
                frame *= rule.discussed
            if voiced and refused(text, start):
                frame *= REFUSED
            if not _AFFIRMED.isdisjoint(rule.weights) and negated(text, start):
                frame *= NEGATED
            factor = frame * (rule.indirect if indirect else rule.direct)
            evasive = evasive or any(hs <= start and end <= he for hs, he in hidden)
            bonus = EVASION_BONUS if evasive else 1.0
            weights = {t: min(0.98, w * factor * bonus)
                       for t, w in rule.weights.items() if t in self.types}
            quote = next((qs for qs, qe in quoted if qs <= start and end <= qe), -1)
            hits.append(Hit(rule, start, end, weights, evasive, frame < 1.0, frame, quote))
        if depth < MAX_DEPTH:
            for start, end, decoded in find_payloads(text, budget):
                inner: list[Hit] = []
                self._scan(decoded, channel, depth + 1, inner, budget)
                if not inner:
                    continue
                if quoted is None:
                    quoted = [m.span() for m in quotes.finditer(text)]
                meta = meta or META.search(plain.text) is not None
                factor = context_factor(text, start, end, quoted, meta)
                for h in inner:
                    weights = {t: min(0.98, w * factor * EVASION_BONUS)
                               for t, w in h.weights.items() if w > 0}
                    hits.append(Hit(h.rule, start, end, weights, True))
        return plain

    def _model_hit(self, plain: View, hits: list[Hit],
                   occurrences: list[Occurrence] | None, channel: str) -> None:
        """The model's hit on the text whose folded view is ``plain`` (read on ``channel``: its
        threshold there is at least ``MODEL_THRESHOLDS``'s), when the rules
        score every type under ``MODEL_GATE`` and read none of their hits as framed
        (quoted, an example, discussed: the model is a second opinion on what the rules
        let through, not on how they weighed what they found), and the model scores at
        or over its threshold: weighing ``MODEL_WEIGHT[0]`` there
        (the default threshold), up to ``MODEL_WEIGHT[1]`` at probability 1, times
        ``MODEL_DISCUSSED`` in a text about attacks; for the type asked for that the
        rules weigh most in the text, or ``injection`` when they find none."""
        assert self.model is not None
        rules = self._score(hits)
        if max(rules.values(), default=0.0) >= MODEL_GATE or any(h.framed for h in hits):
            return
        if occurrences and _retracted(plain.text, occurrences):
            return
        kind = max((t for t in self.types if rules.get(t, 0.0) > 0),
                   key=lambda t: rules[t], default="injection")
        if kind not in self.types:
            return
        score = self.model.score_view(plain, occurrences)
        cut = max(self.model.threshold, MODEL_THRESHOLDS.get(channel, 0.0))
        if score.probability < cut or score.end <= score.start:
            return
        low, high = MODEL_WEIGHT
        weight = low + (high - low) * (score.probability - cut) / max(1e-9, 1.0 - cut)
        if score.about_attacks or META.search(plain.text) is not None:
            weight *= MODEL_DISCUSSED
        hits.append(Hit(MODEL_RULE, score.start, score.end, {kind: round(weight, 4)}, False))

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
        squeezed = SEPARATOR.sub("", plain.text)
        runs: list[tuple[int, int]] | None = None
        spans = [(0, len(squeezed))]
        if len(plain.text) > LONG_TEXT:
            # a long text: only around two adjacent pieces that join into a rule's word
            pieces = [(m.group(), m.start()) for m in TOKEN.finditer(plain.text)]
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
        words = set(rotated.translate(NOT_WORD).split())
        self._match(self._candidates(words), View(rotated, plain), text, found, evasive=True)

    def _score(self, hits: list[Hit]) -> dict[str, float]:
        """Each type's score: the strongest hit of each family, combined as independent
        evidence (``_combined``). Hits read as discussed (``DISCUSSED_FRAME``: quoted,
        given as an example, retold) add up only with the hits of their own quotation:
        a text is scored with what it says outside quotations and, at most, one of its
        quotations (the one that scores highest), and the discussed hits outside any
        quotation count as one piece of evidence a type, the strongest, corroborating
        no other type. Three attacks quoted in a list of test cases, or retold in an
        incident report, are one discussion, not three attacks; one quotation that
        says several things to the model is read whole."""
        made: list[Hit] = []
        regions: dict[int, list[Hit]] = {}
        told: dict[str, tuple[str, float]] = {}
        for h in hits:
            if h.frame > DISCUSSED_FRAME:
                made.append(h)
            elif h.quote >= 0:
                regions.setdefault(h.quote, []).append(h)
            else:
                for t, w in h.weights.items():
                    if w > told.get(t, ("", 0.0))[1]:
                        told[t] = (h.rule.name, w)
        scores = self._combined(made, told)
        for region in regions.values():
            for t, v in self._combined(made + region, told).items():
                scores[t] = max(scores[t], v)
        return scores

    def _combined(self, hits: list[Hit], told: Mapping[str, tuple[str, float]]
                  ) -> dict[str, float]:
        """The scores of ``hits`` (the strongest of each family, as independent
        evidence; a type at 0.5 or more corroborates the others) and of ``told``, the
        family and weight of the strongest discussed hit outside quotations by type
        (as a hit of its family, corroborating nothing)."""
        best: dict[tuple[str, str], float] = {}
        for h in hits:
            for t, w in h.weights.items():
                key = (t, h.rule.name)
                if w > best.get(key, 0.0):
                    best[key] = w
        made = dict.fromkeys(self.types, 0.0)
        for (t, _), w in best.items():
            made[t] = 1.0 - (1.0 - made[t]) * (1.0 - w)
        for t, (family, w) in told.items():
            if w > best.get((t, family), 0.0):
                best[t, family] = w
        raw = dict.fromkeys(self.types, 0.0)
        for (t, _), w in best.items():
            if t in raw:
                raw[t] = 1.0 - (1.0 - raw[t]) * (1.0 - w)
        scores = {}
        for t, s in raw.items():
            corroborating = min(2, sum(1 for u, v in made.items() if u != t and v >= 0.5))
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


def _retracted(text: str, occurrences: Sequence[Occurrence]) -> bool:
    """Whether the rules read an "ignore" of ``text`` as the reader's business (its
    object a warning, something sent or said earlier, a password; told to a group of
    people: ``readers``): the words of an override, read as a retraction, which the
    model (it does not tell one from the other) is not asked to weigh again."""
    ignores = sum(1 for o in occurrences if o.concept == "IGNORE")
    if not ignores:
        return False
    return sum(1 for o in readers.dropped(text, list(occurrences))
               if o.concept == "IGNORE") < ignores


def _label_end(text: str, start: int, end: int) -> int:
    """Where the speaker's label of the script line ``text[start:end]`` ends (its colon)."""
    return min((i for i in (text.find(":", start, end), text.find("：", start, end)) if i >= 0),
               default=start)


def _positions(text: str, vocabulary: frozenset[str]) -> dict[str, list[int]]:
    """Where each needle word of the phrase rules occurs in ``text``."""
    at: dict[str, list[int]] = {}
    for m in TOKEN.finditer(text):
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


#: Letters of any script spaced apart (``и г н о р и р у й``, ``무 시 하 고``): four or
#: more single letters each followed by one space (``views`` joins the Latin ones).
_LETTERS_APART = re.compile(
    "(?<!\\w)(?:[^\\W\\d_]{1,3}[\u1160-\u11ff]{0,2} ){4,}[^\\W\\d_]{1,3}[\u1160-\u11ff]{0,2}(?!\\w)")
_SINGLE_LETTER = re.compile("^[^\\W\\d_][\u1160-\u11ff]{0,2}$")


def _letters_apart(text: str) -> list[tuple[int, int, str]]:
    """Deletions of the spaces inside letters spaced apart, in any script (a folded
    Hangul syllable is its letters; a few letters may already be joined, as Latin
    look-alikes folded from Cyrillic are): runs mostly of single letters."""
    edits: list[tuple[int, int, str]] = []
    for m in _LETTERS_APART.finditer(text):
        pieces = m.group().split(" ")
        if sum(1 for p in pieces if _SINGLE_LETTER.match(p)) * 3 < len(pieces) * 2:
            continue
        edits.extend((m.start() + i, m.start() + i + 1, "")
                     for i, ch in enumerate(m.group()) if ch == " ")
    return edits


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
