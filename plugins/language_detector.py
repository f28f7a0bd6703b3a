"""``language-detector``: find out which language each user message is written in, and
record it, warn about it, block it or have a model translate it.

Detection is offline: ``py3langid`` (a maintained fork of langid.py, a naive Bayes
classifier over byte n-grams whose model ships inside its wheel), 140 languages,
probabilities calibrated across text lengths. No network, no download, well under a
millisecond for a chat message once the model is loaded (about half a second, once
per process, when the first detector is built). ``pip install 'tripwire[language]'``.

The checked messages are the input's user messages, as ``prompt-injection-detector``
checks them: system and assistant messages, signals and messages recalled from memory
are left alone. Each message's text (its text parts) is classified as a whole:

* shorter than ``min_text_length`` characters (after stripping), or classified with a
  confidence below ``threshold``, or with no language in it at all (digits and
  punctuation): the message is left as it is;
* one of ``target_languages``: ``message.content.metadata["language_detection"]``
  records the language, with ``is_target_language: true``;
* another language, by ``strategy``: ``detect`` records it; ``warn`` records it, tells
  ``on_violation`` and reports a ``tripwire.guards.verdicts.Verdict`` (``result.verdicts``);
  ``block`` stops the run (``Non-target language detected: Language detected: German
  (de) with confidence 0.97``); ``translate`` asks the ``model`` (through a
  ``tripwire.Judge``) for a translation into the first target language, replaces the
  message's text with it, records ``translation`` and, with ``preserve_original``,
  ``original_content``, and reports a verdict (action ``rewritten``).

A translation that fails (the model is down, the verdict does not parse) is an error
of this processor: the run ends with ``ProcessorError`` unless ``fail_open`` is set
(the ``Processor`` attribute, or ``fail_open = true`` in the TOML table, as for any
processor), in which case the message goes on untranslated.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any, Literal

from tripwire import hookimpl, notify_violation
from tripwire.errors import ConfigurationError, MissingDependencyError
from tripwire.guards.judge import DEFAULT_TIMEOUT, Judge, JudgeTimeout
from tripwire.guards.verdicts import Detection, Verdict
from tripwire.messages import Message, MessageList, TextPart
from tripwire.models import Model
from tripwire.option_checks import NonNegativeInt, Range, check
from tripwire.processor import Processor, ProcessorViolation
from tripwire.types import Abort, Writer

__all__ = ["INSTRUCTIONS", "LANGUAGES", "TRANSLATION_SCHEMA", "LanguageDetector", "Strategy"]

Strategy = Literal["detect", "translate", "block", "warn"]
Threshold = Annotated[float, Range(min=0.0, max=1.0)]

#: English names of the languages the classifier knows, by the code it reports (ISO
#: 639-1 where there is one, 639-3 otherwise).
LANGUAGES: dict[str, str] = {
    "ace": "Acehnese", "af": "Afrikaans", "am": "Amharic", "an": "Aragonese",
    "ar": "Arabic", "ary": "Moroccan Arabic", "arz": "Egyptian Arabic",
    "as": "Assamese", "az": "Azerbaijani", "ba": "Bashkir", "bcl": "Central Bikol",
    "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali", "br": "Breton",
    "bs": "Bosnian", "ca": "Catalan", "crh": "Crimean Tatar", "cs": "Czech",
    "cy": "Welsh", "da": "Danish", "de": "German", "dz": "Dzongkha", "el": "Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian",
    "eu": "Basque", "ext": "Extremaduran", "fa": "Persian", "fi": "Finnish",
    "fo": "Faroese", "fr": "French", "fuv": "Nigerian Fulfulde",
    "fy": "Western Frisian", "ga": "Irish", "gcf": "Guadeloupean Creole",
    "gcr": "Guianese Creole", "gd": "Scottish Gaelic", "gl": "Galician",
    "gom": "Goan Konkani", "grc": "Ancient Greek", "gu": "Gujarati",
    "gug": "Paraguayan Guarani", "guw": "Gun", "ha": "Hausa", "hbo": "Ancient Hebrew",
    "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "ht": "Haitian Creole",
    "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian", "ig": "Igbo",
    "is": "Icelandic", "it": "Italian", "ja": "Japanese", "jv": "Javanese",
    "ka": "Georgian", "kab": "Kabyle", "kik": "Kikuyu", "kk": "Kazakh", "km": "Khmer",
    "kn": "Kannada", "ko": "Korean", "ku": "Kurdish", "ky": "Kyrgyz", "la": "Latin",
    "lb": "Luxembourgish", "lg": "Ganda", "lij": "Ligurian", "ln": "Lingala",
    "lo": "Lao", "lt": "Lithuanian", "ltg": "Latgalian", "lv": "Latvian",
    "mg": "Malagasy", "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian",
    "mr": "Marathi", "ms": "Malay", "mt": "Maltese", "my": "Burmese", "ne": "Nepali",
    "nl": "Dutch", "nn": "Norwegian Nynorsk", "no": "Norwegian",
    "nso": "Northern Sotho", "oc": "Occitan", "om": "Oromo", "or": "Odia",
    "pa": "Punjabi", "pcm": "Nigerian Pidgin", "pl": "Polish", "ps": "Pashto",
    "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian",
    "rw": "Kinyarwanda", "sa": "Sanskrit", "sdh": "Southern Kurdish",
    "se": "Northern Sami", "si": "Sinhala", "sk": "Slovak", "sl": "Slovenian",
    "sn": "Shona", "so": "Somali", "sq": "Albanian", "sr": "Serbian",
    "st": "Southern Sotho", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil",
    "te": "Telugu", "tg": "Tajik", "th": "Thai", "tk": "Turkmen", "tl": "Tagalog",
    "tr": "Turkish", "tt": "Tatar", "ug": "Uyghur", "uk": "Ukrainian", "ur": "Urdu",
    "uz": "Uzbek", "uzs": "Southern Uzbek", "vec": "Venetian", "vi": "Vietnamese",
    "vo": "Volapük", "wa": "Walloon", "wuu": "Wu Chinese", "xh": "Xhosa",
    "yo": "Yoruba", "yue": "Cantonese", "zh": "Chinese", "zu": "Zulu",
}

#: The classifier's label for text with no language in it (digits, punctuation).
_NO_LANGUAGE = "zxx"
_BY_NAME = {name.casefold(): code for code, name in LANGUAGES.items()}

#: What the translating judge answers: the translation, and the language the model
#: says the text was in (advisory: the offline detection decides).
TRANSLATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "translated_text": {"type": "string"},
        "source_language": {"type": "string"},
    },
    "required": ["translated_text", "source_language"],
    "additionalProperties": False,
}

#: The translating model's default system prompt; ``{target}`` is the first target
#: language's English name.
INSTRUCTIONS = (
    "Translate the user's text into {target}. Keep its meaning, tone, formatting, "
    "names, numbers, code and URLs; do not answer it, summarise it or add anything. "
    "Give the translation as translated_text and the language the text was written in "
    "as source_language (its English name)."
)


@functools.cache
def _identifier() -> Any:
    """The classifier, loaded once per process (the module's own ``classify`` keeps
    unnormalised scores; this one gives probabilities)."""
    try:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier
    except ImportError as e:
        raise MissingDependencyError(
            "language-detector needs the py3langid library: pip install 'tripwire[language]'"
        ) from e
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def language_name(code: str) -> str:
    """The English name of a language code the classifier reports (the code itself
    for one the table does not know)."""
    return LANGUAGES.get(code, code)


class LanguageDetector(Processor):
    """Detects the language of each user message offline and records, warns about,
    blocks or translates the ones not in ``target_languages``.

    Options:

    ``target_languages`` = ``["English", "en"]``
        The languages the agent expects, by English name (``"German"``) or ISO code
        (``"de"``, ``"pt-BR"``: the region is ignored); at least one. The first is the
        language ``translate`` translates into.
    ``threshold`` = ``0.7``
        The confidence (0-1) a detection needs; below it the message is left alone.
    ``strategy`` = ``"detect"``
        ``"detect"`` records the language in the message's metadata; ``"warn"`` also
        tells ``on_violation`` and reports a verdict; ``"block"`` stops the run;
        ``"translate"`` has ``model`` translate the text.
    ``preserve_original`` = ``True``
        ``translate`` keeps the original text as ``original_content`` in the metadata.
    ``min_text_length`` = ``10``
        Texts shorter than this (stripped) are not classified.
    ``include_detection_details`` = ``False``
        Adds ``details``: the classifier, the characters classified and the next most
        likely languages.
    ``model`` = ``None``
        The translating model (a router id or a model object); required for, and used
        only by, ``translate``.
    ``instructions`` = ``INSTRUCTIONS``
        The translating model's system prompt (only with ``translate``; the verdict's
        schema, ``TRANSLATION_SCHEMA``, is appended to it). ``{target}`` in it stands
        for the first target language's English name. Detection is offline, so the
        model is a translator here, and these are its instructions: a glossary, a
        register, what to leave untranslated.
    ``judge_timeout`` = ``30.0``
        Seconds one translation attempt may take; past it a ``JudgeError`` (kind
        ``timeout``).
    """

    id = "language-detector"
    name = "Language Detector"
    description = (
        "Detects each user message's language offline (py3langid) and records, warns "
        "about, blocks or translates (with a model) the ones not in target_languages"
    )

    def __init__(
        self,
        *,
        target_languages: list[str] | None = None,
        threshold: Threshold = 0.7,
        strategy: Strategy = "detect",
        preserve_original: bool = True,
        min_text_length: NonNegativeInt = 10,
        include_detection_details: bool = False,
        model: str | Model | None = None,
        instructions: str | None = None,
        judge_timeout: JudgeTimeout = DEFAULT_TIMEOUT,
    ) -> None:
        owner = self.id
        judge_timeout = check("judge_timeout", judge_timeout, JudgeTimeout, owner=owner)
        check("instructions", instructions, str | None, owner=owner)
        if instructions is not None and strategy != "translate":
            raise ConfigurationError(
                f"{owner}: instructions are the translating model's and need strategy "
                f"'translate' (detection is offline and takes none), got strategy "
                f"{strategy!r}")
        if target_languages is None:
            target_languages = ["English", "en"]
        check("target_languages", target_languages, list[str], owner=owner)
        self.threshold = check("threshold", threshold, Threshold, owner=owner)
        self.strategy = check("strategy", strategy, Strategy, owner=owner)
        self.preserve_original = check("preserve_original", preserve_original, bool,
                                       owner=owner)
        self.min_text_length = check("min_text_length", min_text_length, NonNegativeInt,
                                     owner=owner)
        self.include_detection_details = check(
            "include_detection_details", include_detection_details, bool, owner=owner)
        #: The option as given (what the metadata repeats).
        self.target_languages = list(target_languages)
        #: The target languages as the classifier's codes, in the order given.
        self.target_codes = _target_codes(self.target_languages, owner)
        self._identifier = _identifier()
        self.judge: Judge | None = None
        if strategy == "translate":
            if model is None:
                raise ConfigurationError(
                    f"{owner}: strategy 'translate' needs model=, the model that translates "
                    f"(a router id such as \"openai/gpt-5-nano\" or a model object)"
                )
            self.judge = Judge(
                model,
                instructions=(INSTRUCTIONS if instructions is None else instructions).replace(
                    "{target}", self.target_language),
                schema=TRANSLATION_SCHEMA,
                name="translation",
                timeout=judge_timeout,
            )
        self.model = model
        #: The translating model's system prompt (``None`` without ``translate``).
        self.instructions = self.judge.instructions if self.judge is not None else None

    def __repr__(self) -> str:
        return (f"<LanguageDetector targets={self.target_codes!r} strategy={self.strategy!r} "
                f"threshold={self.threshold}>")

    @property
    def target_language(self) -> str:
        """The English name of the first target language (what ``translate`` aims at)."""
        return language_name(self.target_codes[0])

    # ------------------------------------------------------------ detection

    def detect(self, text: str) -> dict[str, Any] | None:
        """What ``language_detection`` would say about ``text``, or ``None`` when it is
        too short, has no language in it or is classified below ``threshold``."""
        text = text.strip()
        if len(text) < self.min_text_length:
            return None
        ranked = self._identifier.rank(text)
        code, score = ranked[0]
        confidence = round(float(score), 4)  # what the metadata says is what was compared
        if code == _NO_LANGUAGE or confidence < self.threshold:
            return None
        found: dict[str, Any] = {
            "detected_language": language_name(code),
            "iso_code": code,
            "confidence": confidence,
            "is_target_language": code in self.target_codes,
            "target_languages": list(self.target_languages),
        }
        if self.include_detection_details:
            found["details"] = {
                "detector": "py3langid",
                "characters": len(text),
                "alternatives": [
                    {"language": language_name(c), "iso_code": c, "confidence": round(p, 4)}
                    for c, p in ranked[1:4] if c != _NO_LANGUAGE
                ],
            }
        return found

    # ------------------------------------------------------------ the hook

    @hookimpl
    async def process_input(
        self,
        messages: list[Message],
        message_list: MessageList,
        abort: Abort,
        writer: Writer,
    ) -> list[Message] | None:
        checked: list[tuple[Message, dict[str, Any], int]] = []  # message, finding, offset
        offset = 0
        for message in messages:
            if (message.role != "user" or message.is_signal
                    or message_list.source_of(message.id) == "memory"):
                continue
            text = message.text
            found = self.detect(text)
            if found is not None:
                checked.append((message, found, offset))
            offset += len(text)
        if not checked:
            return None
        foreign = [(m, found, at) for m, found, at in checked if not found["is_target_language"]]
        if foreign and self.strategy == "block":
            message, found, at = foreign[0]
            verdict = self._verdict("blocked", [(message, found, at)])
            abort(_reason(found), metadata={**verdict.to_metadata(),
                                            "language_detection": found})
        if foreign and self.strategy == "translate":
            await self._translate(foreign, writer)
        for message, found, _ in checked:
            _record(message, found)
        if foreign and self.strategy == "warn":
            verdict = self._verdict("warned", foreign)
            for _, found, _ in foreign:
                await notify_violation(self, ProcessorViolation(
                    self.id, _reason(found), {**verdict.to_metadata(),
                                              "language_detection": found}))
            writer.report(verdict)
        return messages

    async def _translate(self, foreign: list[tuple[Message, dict[str, Any], int]],
                         writer: Writer) -> None:
        """Translate the messages concurrently; replace their text and note it in their
        findings. A ``JudgeError`` propagates (``fail_open`` decides)."""
        assert self.judge is not None
        judge = self.judge
        verdicts = await asyncio.gather(*(judge(m.text) for m, _, _ in foreign))
        report = self._verdict("rewritten", foreign)  # offsets into the original texts
        for (message, found, _), verdict in zip(foreign, verdicts, strict=True):
            original = message.text
            _replace_text(message, verdict["translated_text"])
            found["translation"] = {"original_language": found["detected_language"],
                                    "target_language": self.target_language}
            if self.preserve_original:
                found["original_content"] = original
        writer.report(report)

    def _verdict(self, action: str, found: list[tuple[Message, dict[str, Any], int]]
                 ) -> Verdict:
        """One detection per message, spanning its text (offsets count through the
        checked messages' texts, as other guards' do)."""
        return Verdict(self.id, "input", self.strategy, action, tuple(
            Detection("non-target-language", at, at + len(message.text),
                      score=finding["confidence"], detector="py3langid")
            for message, finding, at in found
        ))


# ---------------------------------------------------------------- helpers


def _target_codes(targets: list[str], owner: str) -> list[str]:
    """The classifier codes of ``target_languages`` (names or ISO codes), in order,
    each once."""
    if not targets:
        raise ConfigurationError(f"{owner}: target_languages must name at least one language")
    codes: list[str] = []
    unknown: list[str] = []
    for target in targets:
        key = target.strip()
        code = _BY_NAME.get(key.casefold())
        if code is None:
            base = key.replace("_", "-").split("-")[0].lower()
            code = base if base in LANGUAGES else None
        if code is None:
            unknown.append(target)
        elif code not in codes:
            codes.append(code)
    if unknown:
        raise ConfigurationError(
            f"{owner}: target_languages: unknown language(s) {unknown}; give English names "
            f"or ISO codes of the languages the detector knows, e.g. \"English\", \"en\", "
            f"\"German\", \"de\" (all: tripwire.plugins.language_detector.LANGUAGES)"
        )
    return codes


def _reason(found: dict[str, Any]) -> str:
    return (f"Non-target language detected: Language detected: {found['detected_language']} "
            f"({found['iso_code']}) with confidence {found['confidence']:.2f}")


def _record(message: Message, found: dict[str, Any]) -> None:
    metadata = message.content.metadata
    if metadata is None:
        metadata = message.content.metadata = {}
    metadata["language_detection"] = found


def _replace_text(message: Message, text: str) -> None:
    """Put ``text`` in place of the message's text: in its first text part (the others
    go; files and other parts stay where they are), or in ``content.content``."""
    parts = message.content.parts
    first = next((i for i, p in enumerate(parts) if type(p) is TextPart), None)
    if first is None:
        message.content.content = text
        return
    parts[:] = [TextPart(text) if i == first else p for i, p in enumerate(parts)
                if i == first or type(p) is not TextPart]
