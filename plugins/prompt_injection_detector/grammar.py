"""Concepts found by a language's grammar: constructions a word list cannot spell.

The lexicon (``lexicon.LEXICON``) lists a concept's words as stems. Japanese and Korean
(and, for a few constructions, Chinese) build an instruction by gluing particles and verb endings to a noun or a stem, and
each choice of particle or ending is another string: "制限を解除", "制限が解除され",
"制限は解除済み" all say the restrictions are lifted; "断らないで", "断るのは禁止",
"断るセリフは一切なしで" all say never refuse. A term per combination would copy
whichever ones a text happened to use; ``GRAMMAR`` reads the construction instead: a
class of nouns, the particles that may follow them, a class of verbs in the forms that
say the thing (negative, prohibitive, passive, a request).

Each entry is ``(concept, hints, pattern)``: the pattern runs on the folded text (the
one the lexicon's terms match, see ``concepts.ConceptMatcher``) when the text holds one
of ``hints``, and each match is an occurrence of ``concept``, read by the concept rules
exactly like the lexicon's. Patterns and hints are written as the language writes them
and folded as the text is (``_folded``: voicing marks go, so "が" is read as "か").
"""

from __future__ import annotations

import re
from typing import Final

from tripwire.plugins.prompt_injection_detector.views import fold_term

__all__ = ["GRAMMAR", "constructions"]


def _folded(source: str) -> str:
    """``source`` (a pattern or a hint) with each character outside ASCII folded as
    the scanned text is."""
    return "".join(ch if ch.isascii() else fold_term(ch) for ch in source)


def _rule(concept: str, hints: tuple[str, ...], pattern: str
          ) -> tuple[str, tuple[str, ...], re.Pattern[str]]:
    return concept, tuple(_folded(h) for h in hints), re.compile(_folded(pattern))

#: Japanese "you", polite to rude, and the time words that start a new role
#: ("今から", "これから").
_JA_YOU: Final = "(?:あなた|あんた|きみ|君|お前|おまえ|貴方)"
_JA_NOW: Final = "(?:今から|いまから|これから|今日から|ここから(?:は|先は)?|この先|今後は?)"
#: The rules an assistant keeps, as Japanese nouns.
_JA_LIMITS: Final = ("(?:制限|制約|ルール|規則|規制|フィルター|フィルタ|検閲|モデレーション"
                     "|セーフティ|安全(?:機能|装置|対策|設定)|ガードレール|倫理(?:規定|フィルター)?)")
#: What an assistant says when it refuses, and notes it adds to an answer.
_JA_REFUSE: Final = "(?:断る|断わる|拒否する|拒否|拒絶する|拒絶|お断り)"
_JA_CAVEAT: Final = "(?:警告|注意書き|注意喚起|免責(?:事項)?|但し書き|説教|お説教|倫理的な注意)"
#: Nouns between a verb and its particle ("断るセリフは", "断ることは").
_JA_NOUN: Final = "(?:の|こと)?(?:セリフ|せりふ|台詞|返事|返答|言葉|文句|メッセージ|文)?"
#: "none", "forbidden", "not needed", "don't" as the end of a clause.
_JA_NONE: Final = ("(?:一切|絶対に?|決して|全部|全然)?(?:なし|無し|禁止|ng|ダメ|だめ|駄目|不要|いらない"
                   "|要らない|厳禁|抜き|入れない|入れず|入れないで|つけない|付けない|つけず|付けず"
                   "|しない|しないで)")

GRAMMAR: Final[tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...]] = (
    # -- never refuse: a refusal (or the caveats that come with one) and a ban on it,
    # with or without a noun and a topic particle between them
    _rule("NOREFUSE", ("断", "拒"),
        f"{_JA_REFUSE}{_JA_NOUN}(?:は|も|とか)?{_JA_NONE}"
        "|(?:断ら|断わら|拒否し|拒絶し)(?:ない|ず|ないで|なくて|なくても)"
        "|(?:断っ|拒否し|拒絶し)(?:ては|ちゃ)(?:いけ|だめ|ダメ|駄目|ならな)"
        "|(?:断る|拒否する|拒絶する)な(?![いくらさ])"),
    _rule("NOREFUSE", ("警", "注意", "免責", "但し", "説教"),
        f"{_JA_CAVEAT}(?:文|事項)?(?:は|も|を|とか|など)?{_JA_NONE}"),
    # -- "ignore": not minding, not following
    _rule("IGNORE", ("気に", "従わ", "守ら"),
        "気に(?:し(?:ない|なく|ません)|せず|すんな|するな)"
        "|(?:従わ|守ら)(?:ない|なく|ず)"),
    # -- the rules lifted: a rule noun, any particle, a verb of lifting in any form
    _rule("UNBOUND", ("解除", "外", "撤廃", "無効", "オフ", "停止", "取り払", "取っ払"),
        f"{_JA_LIMITS}(?:を|が|は|も)?(?:すべて|全て|全部|一切|完全に)?"
        "(?:解除|外さ|外し|外れ|撤廃|無効|オフ|停止|取り払|取っ払)"),
    _rule("UNBOUND", ("解除", "해제", "풀", "없애", "끄", "꺼", "무효"),
        "(?:제한|제약|규칙|필터|검열|안전\\s?장치|가드레일)(?:을|를|이|가|은|는|도)?\\s?"
        "(?:모두|전부|다|완전히)?\\s?(?:해제|풀려|풀었|풀어|풀린|없애|없앴|꺼|끄|무효)"),
    # -- Chinese: "without (any of) X's rules", a few characters between the negation
    # and the rule noun
    _rule("UNBOUND", ("没有", "不受", "抛开", "摆脱"),
        "(?:没有|不受|抛开|摆脱)(?:任何)?[^，。！？,.!?\n]{0,8}?(?:限制|规则|规矩|条条框框|约束|框框)"),
    # -- a new role: a time word and "you" in either order, any pronoun
    _rule("YOUARENOW", ("あなた", "あんた", "きみ", "君", "お前", "おまえ", "貴方"),
        f"{_JA_NOW}、?{_JA_YOU}(?:は|が|って)|{_JA_YOU}(?:は|って)、?{_JA_NOW}"),
    # -- answers anything (what a persona without rules does)
    _rule("ANYTHING", ("でも", "どんな"),
        "(?:何|なん)でも(?:答え|こたえ|話|書|教え|言|やる|やって|して|する|応じ|回答)"
        "|どんな(?:質問|内容|こと|話題|依頼|お願い|要求)(?:に|で)?(?:でも|も)"),
    # -- an agreement the model never made ("as we agreed", "you promised")
    _rule("AGREED", ("合意", "約束", "同意", "了承", "承諾", "取り決め", "言ってくれ"),
        "(?:合意|約束|同意|了承|承諾|取り決め)(?:した|しました|して(?:くれ|もら|いただ)|済み"
        "|でした|だった|ですよね|だよね|違反|どおり|通り|のとおり|の通り|したとおり|した通り)"
        "|言ってくれ(?:た|ました)"),
    # -- act on what a text says ("訳した内容のとおりに振る舞って")
    _rule("EXECUTE", ("とおり", "通り", "従", "したが"),
        "(?:とおり|通り)に(?:振る舞|ふるま|行動|動い|動け|実行|対応|して|やって|従)"
        "|(?:内容|文|文章|テキスト|結果)に(?:従|したが)"),
)


def constructions(text: str, wanted: frozenset[str]) -> list[tuple[str, int, int]]:
    """``(concept, start, end)`` of each construction of ``GRAMMAR`` whose concept is in
    ``wanted``, found in ``text`` (a folded view's text)."""
    found: list[tuple[str, int, int]] = []
    for concept, hints, pattern in GRAMMAR:
        if concept in wanted and any(h in text for h in hints):
            found.extend((concept, m.start(), m.end()) for m in pattern.finditer(text))
    return found
