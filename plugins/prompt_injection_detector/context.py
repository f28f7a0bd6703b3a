"""How a hit is framed: quoted, introduced as an example, described afterwards,
in a text about prompt injection (``context_factor``: it weighs less), declined in the
assistant's voice (``refused``: it weighs less there), or hidden in markup a reader
does not see (``hidden_spans``: it weighs more).
"""

from __future__ import annotations

import re

from tripwire.plugins.prompt_injection_detector.views import View

_QUOTE_FORMS = (
    r"“[^”\n]{1,600}”|‘[^’\n]{1,600}’|«[^»\n]{1,600}»|„[^“”\n]{1,600}[“”]"
    r"|「[^」\n]{1,600}」|『[^』\n]{1,600}』|‹[^›\n]{1,600}›|《[^》\n]{1,600}》"
    r"|(?<![a-z0-9])'(?:[^'\n]|(?<=[a-z])'(?=[a-z])){1,600}'(?![a-z0-9])"
    r"|```.{0,20000}?```|~~~.{0,20000}?~~~|`[^`\n]{1,600}`"
    r"|<(code|pre|q|samp|kbd|blockquote)\b[^>]{0,200}>.{0,20000}?</\1\s*>"
)
#: (a double-quoted field of a CSV or semicolon-separated row is syntax, no quotation)
QUOTED = re.compile(r"(?<![;,\t])\"[^\"\n]{1,600}\"|" + _QUOTE_FORMS, re.S | re.I)
#: In the JSON form of a value every string is in double quotes: only escaped ones
#: (``\"...\"``, quotes inside a string) are quotations.
QUOTED_JSON = re.compile(r'\\"(?:[^"\\\n]|\\[^"]){1,600}?\\"|' + _QUOTE_FORMS, re.S | re.I)
#: Words that make a whole text *about* prompt injection, jailbreaks or their defence.
META = re.compile(
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
    r"(?<![^\W\d_])(?:like|such as|e\.?g\.?|i\.?e\.?|for example|for instance|called|named|the phrase"
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


#: A first-person refusal right before a hit, at most two words from it ("I can't
#: share my system prompt", "I'm unable to send emails to ..."): in an assistant's
#: voice that is the assistant declining, not an instruction. "don't" and "never" are
#: not refusals here ("I never refuse" is what a jailbreak makes a model say).
_REFUSAL_BEFORE = re.compile(
    r"(?<![a-z])(?:i|we)(?:\s+am|\s+are|\s*['’]\s*(?:m|re))?\s+"
    r"(?:(?:really|simply|just|still|certainly|definitely|afraid i|sorry,? but i)\s+)?"
    r"(?:can\s*not|can['’]?t|won['’]?t|will\s+not|must\s+not|mustn['’]?t"
    r"|refuse\s+to|decline\s+to|(?:not|never)\s+(?:be\s+)?(?:able|allowed|permitted"
    r"|going|willing)\s+to|unable\s+to)"
    r"\s+(?:[a-z]+\s+){0,2}$",
    re.I,
)
#: How much a hit a refusal frames counts (``refused``).
REFUSED = 0.3


def refused(text: str, start: int) -> bool:
    """Whether a first-person refusal comes right before ``text[start:]``."""
    return _REFUSAL_BEFORE.search(text, max(0, start - 80), start) is not None


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


#: Markup a reader does not see: HTML comments, elements styled invisible, Markdown
#: link-reference comments.
_HIDDEN = re.compile(
    r"<!--(.{0,20000}?)--!?>"
    r"|<([a-z][a-z0-9]*)\b[^>]{0,400}?(?:display\s*:\s*none|visibility\s*:\s*hidden"
    r"|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*[;\"']|opacity\s*:\s*0(?:\.0+)?\s*[;\"']"
    r"|color\s*:\s*(?:white|#fff(?:fff)?\b|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255)"
    r"|\shidden\b|aria-hidden\s*=\s*[\"']?true)[^>]{0,400}>(.{0,20000}?)</\2\s*>"
    r"|^\[(?://|comment|_|hidden)\]:\s*[#<][^\n]*",
    re.S | re.M,
)


def hidden_spans(cased: View) -> list[tuple[int, int]]:
    """The spans of the original text hidden by markup (a hit inside one is evasive)."""
    t = cased.text
    if "<" not in t and "[" not in t:
        return []
    return [cased.root_span(*m.span()) for m in _HIDDEN.finditer(t)]
