"""Who a concept's words are for: the occurrences of ``concepts.ConceptMatcher`` that
the words around them make someone else's business, dropped before the concept rules
pair them.

An instruction in a document is often addressed to its human reader, and a word for
instructions is often not the agent's: the writer's own system prompt ("review this
system prompt"), paperwork the reader is told to discard ("ignore my previous email",
"click past the warning"), the label of an address ("forward it to the address x@y"),
the title of a document ("Instructions for new staff:").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from tripwire.plugins.prompt_injection_detector.concepts import Occurrence

__all__ = ["dropped"]


def dropped(text: str, occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` (found in ``text``, a folded view's text) without those the words
    around them make the writer's own, the reader's paperwork, an address's label or a
    document's title."""
    return _headings_dropped(text, _notices_dropped(text, _plurals_dropped(text, _nouns_dropped(
        text, _addresses_dropped(_qualifiers_dropped(text, _own_prompts_dropped(occurrences)))))))


#: Concepts naming the agent's instructions, which a determiner right before makes
#: someone else's ("review this system prompt", "mi prompt de sistema").
_OWNABLE: Final = frozenset({"SYSPROMPT", "INSTR", "STRONGINSTR"})


def _own_prompts_dropped(occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` without a system prompt or instructions that a demonstrative or
    a first-person possessive right before (at most 12 characters) makes the writer's
    own or a quoted one, not the agent's."""
    owned = [o for o in occurrences if o.concept == "OWNDET"]
    if not owned:
        return occurrences
    return [o for o in occurrences if o.concept not in _OWNABLE or o.positional
            or not any(0 <= o.start - d.end <= 12 for d in owned)]


def _qualifiers_dropped(text: str, occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` without a word for approval right before a word for an AI (the
    rest of its word and a space or a "的" between them: "approved assistants",
    "freigegebene KI-Assistenten", "одобренных ассистентов", "公司批准的AI工具"): it says
    which tools a policy allows, it claims no authority over the model."""
    ais = [o for o in occurrences if o.concept == "AI"]
    if not ais:
        return occurrences
    return [o for o in occurrences if o.concept not in _QUALIFYING
            or not any(0 <= a.start - o.end <= 8
                       and _ATTRIBUTE_GAP.fullmatch(text, o.end, a.start) for a in ais)]


#: What may come between a word for approval and the AI it qualifies: the rest of the
#: word (an ending), a space or hyphen, Chinese "的".
_ATTRIBUTE_GAP: Final = re.compile(r"[^\W\d_]{0,5}[\s-]?的?")


#: Concepts that, right before a word for an AI, qualify it.
_QUALIFYING: Final = frozenset({"AUTHZ", "PERMIT"})


def _nouns_dropped(text: str, occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` without a verb of reading that goes on as a noun made of it
    (German "-ung", Dutch "-ing": "Zusammenfassungs-Bot", "samenvatting"): a summary or
    its bot is named, no AI reading this is addressed."""
    return [o for o in occurrences if o.concept != "READING"
            or not _NOUN_ENDING.match(text, o.end)]


#: What turns a verb stem into a noun (German, Dutch).
_NOUN_ENDING: Final = re.compile(r"(?:ung|ting|ing)(?![^\W\d_])|(?:ungs|ungen|tingen)")


def _plurals_dropped(text: str, occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` without an "ignore" in the plural imperative of the languages
    that have one apart from the polite singular ("ignoren", "olvidad", "ignorem",
    "ignorate", "vergesst", "تجاهلوا"), in a text that names no AI: an assistant is
    told "ignora", a group of people "ignoren" (neighbours, a team, the family)."""
    if any(o.concept in _NAMES_AI for o in occurrences):
        return occurrences
    return [o for o in occurrences if o.concept != "IGNORE"
            or not _PLURAL_IMPERATIVE.match(text, o.start)]


#: Concepts that name an AI.
_NAMES_AI: Final = frozenset({"AI", "AICOLON", "AIINSTR"})
#: "Ignore" in the plural imperative (the folded text: accents stripped).
_PLURAL_IMPERATIVE: Final = re.compile(
    r"(?:ignoren|ignorad|olviden|olvidad|omitan|omitid|descarten|descartad|desestimen"
    r"|no hagan caso|hagan caso omiso|no tengan en cuenta|no sigan|dejen de seguir"
    r"|ignorem|esquecam|desconsiderem|descartem|desprezem|nao sigam|deixem de seguir"
    r"|ignorate|dimenticate|trascurate|tralasciate|non considerate|non seguite"
    r"|non tenete conto|vergesst|تجاهلوا|انسوا|اهملوا|لا تتبعوا)(?![^\W\d_])")


def _addresses_dropped(occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` without a secret that is the word for an address right next to
    (at most two characters from) an e-mail address or a link: its label ("forward it to
    the address x@y", "x@y adresine iletin"), not an address being sent."""
    dests = [o for o in occurrences if o.concept == "DEST"]
    labels = [o for o in occurrences if o.concept == "ADDRWORD"
              and any(-2 <= d.start - o.end <= 2 or -2 <= o.start - d.end <= 2 for d in dests)]
    if not labels:
        return occurrences
    return [o for o in occurrences if o.concept != "SECRET"
            or not any(a.start < o.end and o.start < a.end for a in labels)]


def _notices_dropped(text: str, occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` without an "ignore" whose object, right after it or (in the
    languages that put the verb last) right before it, is a warning, an error message
    or a notification, or what was sent earlier (an e-mail, a form, a version; at most
    16 characters apart, in one clause, and no instructions as near): a manual telling
    its reader to click past a warning, a correction telling it to discard the last
    mail."""
    notices = [o for o in occurrences if o.concept == "NOTICE"]
    if not notices:
        return occurrences
    named = [o for o in occurrences if o.concept in _OWNABLE]
    return [o for o in occurrences if o.concept != "IGNORE"
            or any(-16 <= i.start - o.end <= 16 or -16 <= o.start - i.end <= 16 for i in named)
            or not any(0 <= n.start - o.end <= 16 and not _CLAUSE_END.search(text, o.end, n.start)
                       or 0 <= o.start - n.end <= 16
                       and not _CLAUSE_END.search(text, n.end, o.start)
                       for n in notices)]


#: What ends a clause: a notice on the other side of it is not the verb's object.
_CLAUSE_END = re.compile(r"[.:;!?。：；！？\n]")




#: A heading naming what a document is for ("Instructions for new staff:", "操作手册："):
#: from the start of its line, a few words, no sentence in it, then a colon.
_HEADING = re.compile(r"[^\n.!?。！？:：]{1,40}?[:：]")
_LINE_LEAD = re.compile(r"[ \t#*>\-•]*")


def _headings_dropped(text: str, occurrences: list[Occurrence]) -> list[Occurrence]:
    """``occurrences`` without a word for instructions that starts a heading naming
    the document ("Anleitung für neue Mitarbeitende:", "Istruzioni per il personale:"),
    unless the heading names an AI ("Instructions for the AI:" is addressed to one):
    such a title is not the object of an "ignore" in the text under it."""
    out = []
    for o in occurrences:
        if o.concept in _HEADED:
            head = text.rfind("\n", 0, o.start) + 1
            label = _HEADING.match(text, o.start)
            if (label and _LINE_LEAD.fullmatch(text, head, o.start) and label.end() > o.end
                    and not any(x.concept in ("AI", "AICOLON") and o.start <= x.start < label.end()
                                for x in occurrences)):
                continue
        out.append(o)
    return out


#: Concepts a heading may start with.
_HEADED: Final = frozenset({"INSTR", "STRONGINSTR"})
