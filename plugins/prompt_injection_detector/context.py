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
    # (not a word of a domain name or an address: "company.example")
    r"(?<![^\W\d_])(?<![.@])(?:like|such as|e\.?g\.?|i\.?e\.?|for example|for instance|called|named|the phrase"
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

#: The same frames in the other languages: an example marker right before a hit
#: ("zum Beispiel", "par exemple", "例えば"; a short word meaning "like" only before a
#: quotation mark or colon: "wie «...»", "como: ..."), and, in the languages that put
#: it after, right after the hit: in Turkish after the rest of its word ("... gibi"),
#: in Japanese, Korean and Chinese after the rest of its quotation ("「...」のような",
#: "\"...\" 같은", "「...」之类的").
_REFERENCE_BEFORE_INTL = re.compile(
    r"(?:(?<![^\W\d_])(?:z\.\s?b\.|zum beispiel|beispielsweise|sogenannte[nrms]?|s\.g\."
    r"|par exemple|p\. ?ex\.|tel(?:le)?s? que|du type|por ejemplo|p\. ?ej\.|tal(?:es)? como"
    r"|del tipo|ad esempio|per esempio|ad es\.|por exemplo|p\. ?ex\.|do tipo|(?<=[(\s])ex\.:?"
    r"|bijvoorbeeld|bijv\.|bv\.|zoals|например|к примеру|örneğin|mesela"
    r"|مثلا|مثلاً|على سبيل المثال|예를 들어|예컨대"
    r"|(?:wie|comme|como|come|как|مثل|la frase|a frase|la phrase|le texte|la mention"
    r"|die phrase|den satz|der satz|den text|die zeile|el texto|o texto|il testo|de zin"
    r"|de tekst|фразу|фраза|текст|строку|العبارة|عبارة|cümle|ifade"
    # a verb of writing or saying, or "the classic", right before a quotation: it is cited
    r"|that read|which read|that reads|which reads|it read|it reads|stand|hieß es|lautete|lautet|klassiker|disait|indiquait|était écrit|classique"
    r"|decía|ponía|clásico|clásica|diceva|c'era scritto|classico|classica|dizia"
    r"|estava escrito|clássico|clássica|stond|luidde|klassieke|classic"
    r"|написано|говорилось|гласил[аио]?|классическ\w+|كتب فيها|مكتوب|الكلاسيكي)"
    r"(?=\s*[\"'“‘«„「『:：]))"
    r"|写着|写上|写有|写道|写了|字样为|经典的|经典"
    r"|例如|比如|诸如|譬如|例えば|たとえば|像(?=\s*[\"“「『]))"
    r"[\s:：,，、\"'“‘«„「『`(-]*$",
    re.I,
)
_DESCRIBED_AFTER_INTL = re.compile(
    r"^[^\s]{0,60}?[\"”’»)]?\s+(?:gibi|benzeri|türünden|tarzında)(?![^\W\d_])"
    r"|^[^」』\"”’»\n]{0,20}[」』\"”’»)]\s*(?:のような|みたいな|といった|などの|等の|という|と書|と記|같은|와 같은|과 같은|처럼"
    r"|라는 문장|라는 문구|이라는|는 문장|라고 적|이라고 적|라고 써"
    r"|(?:yazıyordu|yazıyor|yazan|yazılı|diyordu|diyen|yazılmıştı|ifadesi|cümlesi))"
    r"|^[^」』\"”’»\n]{0,20}[」』\"”’»)]\s*(?:的字样|这句话|一句话"
    r"|등의|之类|之類|这样的|這樣的|这类|此类|等)",
    re.I,
)

#: Reported speech: a verb of telling or asking, in a form that reports (past, third
#: person, a gerund or participle: "a page that told the assistant to ...", "der den
#: Assistenten aufforderte, ... zu vergessen", "要求助手忘记"), before the hit in its
#: sentence; in Japanese, Korean and Turkish after it ("...を無視するよう求めていました",
#: "...무시하라고 요구했습니다", "...unutmasını isteyen"). Imperatives ("tell", "ask")
#: are not reports.
_REPORTED_BEFORE = re.compile(
    r"(?<![^\W\d_])(?:told|tells|telling|asked|asks|asking|instructed|instructs|instructing"
    r"|directed|directing|ordered|ordering|urged|urging|demanded|demanding|requested"
    r"|requesting|commanded|tricked|tricking|persuaded|pushed|nudged|said|wrote|stated|claimed"
    r"|sagte|schrieb|behauptete|disait|écrivait|affirmait|a dit|a écrit|decía|dijo|escribió"
    r"|afirmaba|diceva|disse|scrisse|dizia|escreveu|zei|schreef|beweerde|сказал[аио]?"
    r"|написал[аио]?|утверждал[аио]?|говорил[аио]?|tried to (?:get|make"
    r"|convince|trick)|tries to (?:get|make|convince|trick)"
    r"|forderte|fordert|aufforderte|auffordert|aufgefordert|verlangte|verlangt|bat|bittet"
    r"|gebeten|anwies|angewiesen|befahl|befiehlt|verleitete|verleitet"
    r"|demandant|demandait|demandaient|demand[ée] à|a demandé|exigeait|exigeant|a exigé"
    r"|ordonnait|ordonnant|enjoignait|incitait|incitant|poussait|poussant|invitait|invitant"
    r"|pedía|pidió|pedían|pide al?|pidiendo|exigía|exigió|exigiendo|ordenaba|ordenó"
    r"|ordenando|indicaba|instruía|instruyó|solicitaba|solicitó|incitaba"
    r"|chiedeva|chiese|chiede al?l?|chiedendo|ordinava|ordinò|ordinando|imponeva|invitava"
    r"|invitando|esortava|istruiva|induceva|spingeva"
    r"|mandava|mandou|mandando|pedia|pediu|pedindo|pede ao?|exigia|exigiu|exigindo|ordenava"
    r"|ordenou|instruía|instruiu|solicitava|solicitou|induzia|induziu"
    r"|opdroeg|opgedragen|vroeg|vraagt|vroegen|eiste|eist|beval|gebood|verzocht|verzoekt"
    r"|instrueerde|aanspoorde"
    r"|велел[аио]?|велит|просил[аио]?|попросил[аио]?|просит|требовал[аио]?|потребовал[аио]?"
    r"|требует|приказывал[аио]?|приказал[аио]?|приказывает|заставлял[аио]?|заставляет"
    r"|вынуждал[аио]?|призывал[аио]?|предлагал[аио]?|предлагает|указывал[аио]?"
    r"|يطلب من|طلب من|تطلب من|طلبت من|يأمر|تأمر|أمرت|يطالب|تطالب|طالب|يحث|تحث"
    r")(?![^\W\d_])"
    r"|要求|命令|指示|诱导|诱使|引导|试图让|企图让|促使|指使|要求讓|誘導",
    re.I,
)
_REPORTED_AFTER = re.compile(
    r"よう(?:に)?(?:求め|要求し|指示し|命じ|頼ん|依頼し|促し|仕向け|誘導し)(?:て|た)"
    r"|よう(?:に)?(?:求める|要求する|指示する|命じる|促す)(?:文|テキスト|命令|内容|もの|メール"
    r"|ページ|コメント|指示)"
    r"|(?:라고|도록|하라는|으라는|라는)\s*(?:요구|요청|지시|명령|유도)(?:했|하였|하는|한|해\s*왔)"
    r"|(?:m[ae]s[iı]n[iı]|m[ae]lar[iı]n[iı])\s+(?:\w+\s+){0,3}?(?:iste(?:yen|di|mi[sş]|rdi"
    r"|mekte)|istiyordu|söyle(?:yen|di|mi[sş])|emre(?:den|tti|dilen))",
    re.I,
)
#: Words for the reader or the model addressed as "you": a report about what someone
#: told *you* to do is an instruction to you (German, Spanish and Italian polite forms
#: need their capital letter: ``_YOU_CASED``).
_YOU = re.compile(
    r"(?<![^\W\d_])(?:you|your|yourself|du|dich|dir|dein\w*|vous|tu|te|toi|votre|vos|t'"
    r"|tú|ti|usted|ustedes|os|voi|vi|você|vocês|je|jij|jou|jouw|uw"
    r"|ты|тебя|тебе|тобой|вы|вас|вам|ваш\w*|твой\w*|منك|لك|عليك|أنت|انت"
    r"|sen|senin|seni|sana|siz|sizin|size)(?![^\W\d_])|你|您|あなた|君|お前|당신|너|네가",
    re.I,
)
_YOU_CASED = re.compile(r"(?<![^\W\d_])(?:Sie|Ihnen|Ihr\w*|Usted|Lei|Le)(?![^\W\d_])")
_SENTENCE_END = re.compile(r"[.!?。！？\n]")


def _addressed(span: str) -> bool:
    return _YOU.search(span) is not None or _YOU_CASED.search(span) is not None


def reported(text: str, start: int, end: int) -> bool:
    """Whether the hit ``text[start:end]`` is reported speech: what a verb of telling
    or asking, right before it in its sentence (or, in Japanese, Korean and Turkish,
    right after it), says someone told a third party to do ("the page told the
    assistant to ..."); not when the one told is "you"."""
    head = max(0, start - 120)
    cut = list(_SENTENCE_END.finditer(text, head, start))
    head = cut[-1].end() if cut else head
    last = None
    for m in _REPORTED_BEFORE.finditer(text, head, min(end, start + 2)):
        last = m
    if last is not None and last.end() >= start - 60 and not _addressed(text[last.end():start]):
        return True
    stop = _SENTENCE_END.search(text, end, end + 160)
    tail_end = stop.start() if stop else min(len(text), end + 160)
    after = _REPORTED_AFTER.search(text, end, tail_end) or _REPORTED_AFTER.search(
        text, start, end)
    return after is not None and not _addressed(text[head:tail_end])


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


#: What a hit of sending or leaking weighs when a negation comes right before its verb
#: ("staff must not paste customer data into ...", "n'envoyez jamais votre mot de passe",
#: "切勿转发"): a rule forbidding the leak, not asking for it.
NEGATED = 0.5
_NEGATION_BEFORE = re.compile(
    r"(?<![^\W\d_])(?:not|never|n't|nicht|nie|niemals|jamais|ne|n'|no|nunca|jamás|non|mai"
    r"|não|nao|niet|nooit|не|никогда|لا|لن)\s+$|(?:不要|不得|切勿|别|勿|不会|不能|禁止|绝不|千万不要)\s*$",
    re.I)


#: A negation over a verb of asking right before a hit ("IT will never ask you to
#: reply with your password", "wir werden Sie nie bitten, ...", "ne vous demandera
#: jamais de ...", "nunca le pediremos que ..."): the hit is what nobody will ask for,
#: a warning to the reader.
_NEGATED_ASK = re.compile(
    r"(?<![^\W\d_])(?:not|never|n't|ne|nie|niemals|jamais|nunca|jamás|mai|não|nao|nooit"
    r"|никогда|не)\s+(?:[^\W\d_]+\s+){0,3}?"
    r"(?:ask|asks|request|requests|require|requires|bitten|fragen|auffordern|demander"
    r"|demandera|demanderons|demandons|pedir|pedirá|pediremos|pedimos|pide|pediría|chiedere"
    r"|chiederà|chiederemo|chiediamo|pede|pedirão|vragen|vraagt|vragen|попросит|попросим"
    r"|просим|просит|попросят|спросит)(?![^\W\d_])"
    r"(?:\s+(?:[^\W\d_]+\s+){0,3}?)?[\s,]*(?:to|for|um|zu|de|d'|que|di|a|om|te)?\s*$"
    r"|(?:决不会|绝不会|从不|不会)(?:要求|让)[^。！？\n]{0,8}$",
    re.I)


def negated(text: str, start: int) -> bool:
    """Whether a negation comes right before ``text[start:]`` (the verb of a hit), or a
    negated verb of asking does ("will never ask you to ...")."""
    return (_NEGATION_BEFORE.search(text, max(0, start - 16), start) is not None
            or _NEGATED_ASK.search(text, max(0, start - 48), start) is not None)


def context_factor(text: str, start: int, end: int, quoted: list[tuple[int, int]],
                   meta: bool) -> float:
    """How much a hit at ``text[start:end]`` counts, given how it is framed (1: fully).
    Reported speech (``reported``) frames a hit only in a text about attacks (``meta``):
    elsewhere "the administrator has instructed the assistant to ..." is how a fake
    authority speaks."""
    quote = next(((qs, qe) for qs, qe in quoted if qs <= start and end <= qe), None)
    in_quote = quote is not None
    # (a marker right before a quotation, or right after it, frames all of it)
    heads = {start} if quote is None else {start, quote[0] + 1}
    before = (any(_REFERENCE_BEFORE.search(text, max(0, h - 80), h) is not None
                  or _REFERENCE_BEFORE_INTL.search(text, max(0, h - 80), h) is not None
                  for h in heads)
              or meta and reported(text, start, end))
    tails = [text[end:end + 80]] + ([] if quote is None else [text[quote[1] - 1:quote[1] + 80]])
    after = any(_DESCRIBED_AFTER.search(tail) is not None
                or _DESCRIBED_AFTER_INTL.search(tail) is not None for tail in tails)
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


#: A line of a script or play: a speaker's name, maybe a stage direction in brackets,
#: a colon, the line spoken.
_SPEAKER_LINE = re.compile(
    r"^[ \t]*(?P<who>[^\W\d_][^\W\d_.'’ -]{0,19}(?:[ -][^\W\d_]{1,20})?)[ \t]*"
    r"(?:\([^)\n]{0,60}\))?[ \t]*[:：][ \t]*(?:\([^)\n]{0,60}\)[ \t]*)?(?P<line>\S[^\n]*)$",
    re.M)
#: Speakers that make lines a chat transcript (its turns are what an injection fakes)
#: or a message's header fields, not a script.
_NOT_CHARACTERS = frozenset(
    "user assistant system human ai bot model developer admin administrator operator gpt "
    "chatgpt claude dan llm tool function kullanıcı asistan sistem benutzer nutzer assistent "
    "utilisateur système usuario sistema asistente utente assistente utilizador usuário "
    "gebruiker systeem пользователь ассистент система 用户 助手 系统 ユーザー アシスタント "
    "システム 사용자 어시스턴트 시스템 المستخدم المساعد النظام from to subject date cc bcc sent "
    "von an betreff datum de à objet para asunto fecha da a oggetto assunto data van aan "
    "onderwerp от кому тема дата kimden kime konu tarih 发件人 收件人 主题 件名 宛先 差出人 "
    "제목 من إلى الموضوع".split())


def dialogue_lines(text: str) -> list[tuple[int, int]]:
    """The spoken lines of a script or play in ``text`` (at least three lines of at
    least two speakers, one of them speaking twice, none a chat role or a header
    field): what a character says to another is a quotation, not an instruction to
    the reader."""
    if text.count(":") + text.count("：") < 3:
        return []
    lines = list(_SPEAKER_LINE.finditer(text))
    if len(lines) < 3:
        return []
    speakers = [m.group("who").casefold() for m in lines]
    counts = {w: speakers.count(w) for w in speakers}
    if len(counts) < 2 or max(counts.values()) < 2 or any(
            w in _NOT_CHARACTERS or w.split()[-1] in _NOT_CHARACTERS for w in counts):
        return []
    return [m.span() for m in lines]


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
