"""What a rule is and how the rule tables are written.

``Rule``: one member of a weighted pattern family. ``phrase`` builds a phrase rule
from a pattern in a small language (``{NAME}`` names a vocabulary entry of ``_V``, a
space is a gap between words, ``~`` a few words in between, `` ?`` an optional gap),
matched on the folded view without markup; ``marker`` builds a marker rule, a plain
regular expression matched on the folded view with its markup. The tables are
``phrases.PHRASES`` and ``markers.MARKERS``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import attrs

#: The detection types, in the reference's order.
TYPES: Final[tuple[str, ...]] = (
    "injection",
    "jailbreak",
    "tool-exfiltration",
    "data-exfiltration",
    "system-override",
    "role-manipulation",
)


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
    matches is a fake role delimiter (``rewrite`` neutralises just that); ``discussed``:
    a further weight factor in a text about attacks (a ``META`` concept of ``lexicon``:
    prompt injection, jailbreak, phishing, ... in any language)."""

    name: str
    weights: Mapping[str, float]
    regex: re.Pattern[str]
    needles: tuple[frozenset[str], ...]
    squeezed: re.Pattern[str] | None = None
    direct: float = 1.0
    indirect: float = 1.0
    delimiter: bool = False
    discussed: float = 1.0


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


def phrase(name: str, weights: Mapping[str, float], pattern: str, needles: str,
           *, squeeze: bool = False, direct: float = 1.0, indirect: float = 1.0) -> Rule:
    """A phrase rule: ``pattern`` and ``needles`` in the phrase language (``&``
    separates needle groups); ``squeeze``: match the letters-only view too."""
    body = _expand(pattern)
    groups = tuple(frozenset(group.split()) for group in _expand(needles).split("&"))
    return Rule(name, weights, _words(body), groups, _squeezed(body) if squeeze else None,
                direct, indirect)


def marker(name: str, weights: Mapping[str, float], pattern: str, needles: str,
           *, delimiter: bool = True, direct: float = 1.0, indirect: float = 1.0) -> Rule:
    """A marker rule: ``pattern`` a regular expression (multi-line), ``needles``
    characters, words or substrings (``&`` separates groups)."""
    groups = tuple(frozenset(group.split()) for group in needles.split("&"))
    return Rule(name, weights, re.compile(pattern, re.M), groups, None, direct, indirect,
                delimiter)


#: The types by short names, for the tables.
INJ, JB, TOOL, DATA, SYS, ROLE = TYPES
