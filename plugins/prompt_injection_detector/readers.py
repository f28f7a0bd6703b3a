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
    return _headings_dropped(text, _notices_dropped(
        text, _addresses_dropped(_qualifiers_dropped(text, _own_prompts_dropped(occurrences)))))


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
