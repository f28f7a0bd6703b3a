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
   markup, ``CONCEPT_RULES`` for any of 13 languages: concepts of ``LEXICON`` found
   near each other, in one paragraph and one quotation). A hit found only through an
   evasion weighs more (``EVASION_BONUS``): plain text rarely hides its instructions.
4. **Context.** A hit inside quotes or code, introduced as an example ("phrases
   like ..."), described afterwards ("... is a classic attack") or in a text about
   prompt injection weighs less (``context_factor``), so a message that discusses
   an attack is not one; so does, in the assistant's voice (channel ``assistant``),
   a hit the assistant declines (``refused``: "I can't share my system prompt").
5. **Scores.** Per type, the strongest hit of each family combined as independent
   evidence, ``1 - prod(1 - w)``: more signals, higher score, never above 1; types
   that corroborate each other raise each other a little.

Where each step lives: ``views`` (1), ``payloads`` (2), ``rules`` (the rule type and
the pattern language) with the tables ``phrases`` and ``markers``, and ``concepts`` with
its word lists ``lexicon`` (3), ``context``
(4), ``scan`` (``Scanner``: all of them together, and 5) and ``rewrite`` (what
``strategy = "rewrite"`` leaves of a text).

The processor's other pieces live here too: ``judge`` (the judge tier: its prompt,
schema and verdict), ``findings`` (``Finding``: what either tier decides about a text),
``texts`` (the texts a hook checks: values, document parts, and how a cleaned text goes
back) and ``cleaning`` (``strategy = "rewrite"`` applied to a flagged text or value).

Speed: a rule runs only on a text holding a word of each of its needle groups (sets
of words, looked up once per text); in a text longer than ``LONG_TEXT`` only around
those words, and the letters-only view only near two pieces that join into one.
"""

from __future__ import annotations

from tripwire.plugins.prompt_injection_detector.rewrite import (
    DELIMITER_REMOVED,
    REMOVED,
    rewrite,
)
from tripwire.plugins.prompt_injection_detector.rules import TYPES
from tripwire.plugins.prompt_injection_detector.scan import LONG_TEXT, Analysis, Hit, Scanner
from tripwire.plugins.prompt_injection_detector.views import View, fold

__all__ = [
    "DELIMITER_REMOVED",
    "LONG_TEXT",
    "REMOVED",
    "TYPES",
    "Analysis",
    "Hit",
    "Scanner",
    "View",
    "fold",
    "rewrite",
]
