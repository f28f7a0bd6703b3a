"""``provider-history-compat``: make a conversation acceptable to the provider it is
sent to, without touching the stored history.

A conversation that moves between providers (an OpenAI-compatible model first, then
Claude; a Kimi tool call id; reasoning from one vendor replayed to another) carries
things the next provider rejects. This processor rewrites the *outbound prompt* of a
model call (``process_llm_request`` returning ``{"prompt": ...}``), never the message
list: memory, ``result.messages`` and the UI keep exactly what happened.

Rules come in two kinds, as in the reference:

- **preemptive** (``apply_to_prompt``): applied to every prompt of a matching model;
- **reactive** (``error_patterns`` + ``fix``): when a call fails with an error whose
  message or response body matches (anywhere in the cause chain), the rule is switched
  on for the rest of the run, and the call is retried with ``fix`` applied to its
  prompt. A rule is switched on once: if the provider still complains, the error is
  raised (no retry loop). A later run starts clean and spends one rejected call.

Default rules (the reference's, for tripwire's providers):

``tool-call-id-format`` (reactive)
    Anthropic accepts tool-use ids matching ``^[a-zA-Z0-9_-]+$``; OpenAI ids at most 40
    characters. Ids from other providers (``functions.get_weather:0``) are rewritten
    consistently in calls and results: characters outside the set become ``_``, long
    ids are shortened with a hash, and two ids never collapse into one.
``anthropic-strip-empty-signed-reasoning`` (preemptive, Anthropic)
    A reasoning part with an Anthropic signature but no text (a record whose text was
    lost) is dropped: Anthropic signs the exact text and rejects the pair.
``anthropic-strip-foreign-reasoning`` (preemptive, Anthropic)
    Reasoning that Anthropic did not sign (another provider's, or any unsigned) is
    dropped instead of being sent as a thinking block it would reject.
``azure-system-reminder-transform`` (preemptive, Azure OpenAI)
    Azure's content filter may take ``<system-reminder>`` wrappers in user messages for
    prompt injection: they are renamed ``<memory-context>`` in user and system text.

The two reasoning rules leave the trailing assistant message of an active tool-use
continuation alone when Anthropic verifies it byte for byte (its thinking blocks may
not be modified), and drop assistant messages they empty.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

import attrs

from tripwire import Processor, hookimpl
from tripwire.errors import ConfigurationError
from tripwire.plugins.stream_error_retry import cause_chain

__all__ = [
    "DEFAULT_RULES",
    "CompatRule",
    "ProviderHistoryCompat",
    "anthropic_strip_empty_signed_reasoning",
    "anthropic_strip_foreign_reasoning",
    "azure_system_reminder_transform",
    "is_anthropic",
    "is_azure",
    "system_reminder_transform",
    "tool_call_id_format",
]

log = logging.getLogger("tripwire.plugins.provider_history_compat")

Prompt = list[dict[str, Any]]
#: ``(prompt, model) -> new prompt``, or None when nothing needs to change.
PromptRewrite = Callable[[Prompt, Any], Prompt | None]


@attrs.frozen
class CompatRule:
    """One provider incompatibility and how to avoid it.

    ``apply_to_prompt(prompt, model)`` rewrites every outbound prompt (preemptive);
    ``fix(prompt, model)`` rewrites prompts once a call failed with an error matching
    one of ``error_patterns`` (reactive). Both return a new prompt, or None for "no
    change", and must not modify the prompt they are given.
    """

    name: str
    apply_to_prompt: PromptRewrite | None = None
    error_patterns: tuple[re.Pattern[str], ...] = ()
    fix: PromptRewrite | None = None

    @classmethod
    def of(cls, value: Any, where: str) -> CompatRule:
        """A rule from a ``CompatRule`` or a mapping of its fields (patterns may be
        strings); a bad one is a ``ConfigurationError`` saying what is wrong."""
        if isinstance(value, CompatRule):
            rule = value
        elif isinstance(value, Mapping):
            valid = ("name", "apply_to_prompt", "error_patterns", "fix")
            unknown = sorted(set(value) - set(valid))
            if unknown:
                raise ConfigurationError(
                    f"{where}: unknown key(s) {unknown}; valid: {', '.join(valid)}"
                )
            patterns = value.get("error_patterns") or ()
            if isinstance(patterns, str | re.Pattern):
                patterns = [patterns]
            compiled = []
            for p in patterns:
                if isinstance(p, re.Pattern):
                    compiled.append(p)
                elif isinstance(p, str) and p:
                    try:
                        compiled.append(re.compile(p, re.I))
                    except re.error as e:
                        raise ConfigurationError(
                            f"{where}: error pattern {p!r} is not a valid regular expression ({e})"
                        ) from None
                else:
                    raise ConfigurationError(
                        f"{where}: error_patterns must hold regular expressions, got {p!r}"
                    )
            rule = cls(
                value.get("name"),  # type: ignore[arg-type]
                value.get("apply_to_prompt"),
                tuple(compiled),
                value.get("fix"),
            )
        else:
            raise ConfigurationError(
                f"{where} must be a CompatRule or a table with name, apply_to_prompt, "
                f"error_patterns, fix; got {value!r}"
            )
        if not isinstance(rule.name, str) or not rule.name:
            raise ConfigurationError(f"{where}: a rule needs a non-empty name, got {rule.name!r}")
        for field in ("apply_to_prompt", "fix"):
            fn = getattr(rule, field)
            if fn is not None and not callable(fn):
                raise ConfigurationError(
                    f"{where} ({rule.name}): {field} must be a function (prompt, model) -> "
                    f"prompt or None, got {fn!r}"
                )
        if rule.apply_to_prompt is None and rule.fix is None:
            raise ConfigurationError(f"{where} ({rule.name}): give apply_to_prompt, fix or both")
        if rule.fix is not None and not rule.error_patterns:
            raise ConfigurationError(
                f"{where} ({rule.name}): a fix needs error_patterns (the errors it answers)"
            )
        return rule

    def matches(self, error: BaseException) -> bool:
        """True when the message or response body of ``error`` (or of an error in its
        cause chain) matches one of ``error_patterns``."""
        for candidate in cause_chain(error):
            texts = [str(candidate), getattr(candidate, "response_body", None)]
            for text in texts:
                if isinstance(text, str) and any(p.search(text) for p in self.error_patterns):
                    return True
        return False


# ---------------------------------------------------------------- which provider


def _provider(model: Any) -> str:
    provider = getattr(model, "provider", None)
    return provider.lower() if isinstance(provider, str) else ""


def is_anthropic(model: Any) -> bool:
    """True for a model speaking to Anthropic (``provider`` ``anthropic`` or
    ``anthropic.*``)."""
    p = _provider(model)
    return p == "anthropic" or p.startswith(("anthropic.", "anthropic-"))


_AZURE_HOSTS = (".openai.azure.com", ".services.ai.azure.com", ".cognitiveservices.azure.com")


def is_azure(model: Any) -> bool:
    """True for an Azure OpenAI deployment: ``provider`` ``azure`` / ``azure-openai``
    (``OpenAICompatible(provider="azure", ...)``), or a ``base_url`` on an Azure host."""
    p = _provider(model)
    if p in ("azure", "azure-openai") or p.startswith("azure."):
        return True
    base_url = getattr(model, "base_url", None)
    if isinstance(base_url, str):
        host = (urlsplit(base_url).hostname or "").lower()
        return host.endswith(_AZURE_HOSTS)
    return False


# ---------------------------------------------------------------- tool call ids

_VALID_ID = re.compile(r"[a-zA-Z0-9_-]{1,40}")
_BAD_ID_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
MAX_TOOL_ID = 40


def _id_map(prompt: Prompt) -> dict[str, str]:
    """New ids for the tool call ids of ``prompt`` that are not ``[a-zA-Z0-9_-]{1,40}``:
    bad characters as ``_``, too long ones cut and ended by a hash; never equal to
    another id of the prompt."""
    ids: list[str] = []
    for message in prompt:
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if isinstance(part, Mapping) and part.get("type") in ("tool-call", "tool-result"):
                    call_id = part.get("tool_call_id")
                    if isinstance(call_id, str) and call_id not in ids:
                        ids.append(call_id)
    taken = {i for i in ids if _VALID_ID.fullmatch(i)}
    mapping: dict[str, str] = {}
    for old in ids:
        if old in taken:
            continue
        new = _BAD_ID_CHARS.sub("_", old) or "call"
        if len(new) > MAX_TOOL_ID:
            digest = hashlib.sha256(old.encode()).hexdigest()[:8]
            new = f"{new[: MAX_TOOL_ID - 9]}_{digest}"
        base, n = new, 1
        while new in taken:
            suffix = f"_{n}"
            new = base[: MAX_TOOL_ID - len(suffix)] + suffix
            n += 1
        taken.add(new)
        mapping[old] = new
    return mapping


def _rewrite_tool_ids(prompt: Prompt, model: Any) -> Prompt | None:
    mapping = _id_map(prompt)
    if not mapping:
        return None
    out: Prompt = []
    for message in prompt:
        content = message.get("content")
        if isinstance(content, list) and any(
            isinstance(p, Mapping) and p.get("tool_call_id") in mapping for p in content
        ):
            parts = [
                {**p, "tool_call_id": mapping[p["tool_call_id"]]}
                if isinstance(p, Mapping) and p.get("tool_call_id") in mapping
                else p
                for p in content
            ]
            out.append({**message, "content": parts})
        else:
            out.append(message)
    return out


tool_call_id_format = CompatRule(
    "tool-call-id-format",
    error_patterns=(
        # Anthropic: messages.1.content.0.tool_use.id: String should match pattern ...
        re.compile(r"tool_use(?:\.id|_id):.*should match pattern", re.I),
        re.compile(r"tool_call_id.*invalid", re.I),
        # OpenAI: Invalid 'messages[2].tool_calls[0].id': string too long. Expected ...
        re.compile(r"invalid '?messages\[\d+\]\.(?:tool_calls\[\d+\]\.id|tool_call_id)'?", re.I),
    ),
    fix=_rewrite_tool_ids,
)


# ---------------------------------------------------------------- reasoning


def _anthropic_signature(part: Mapping[str, Any]) -> str | None:
    signature = part.get("signature")
    if not signature:
        meta = part.get("provider_metadata")
        anthropic = meta.get("anthropic") if isinstance(meta, Mapping) else None
        signature = anthropic.get("signature") if isinstance(anthropic, Mapping) else None
    return signature if isinstance(signature, str) and signature else None


def _is_reasoning(part: Any) -> bool:
    return isinstance(part, Mapping) and part.get("type") == "reasoning"


def _protected_index(prompt: Prompt) -> int:
    """The assistant message Anthropic verifies unmodified: the last message when it
    is the assistant's, or the assistant message followed only by tool results (an
    active tool-use continuation); -1 when the prompt ends with a user turn."""
    for i in range(len(prompt) - 1, -1, -1):
        role = prompt[i].get("role")
        if role == "assistant":
            return i
        if role != "tool":
            return -1
    return -1


def _strip_reasoning(
    prompt: Prompt, drop: Callable[[Mapping[str, Any]], bool], keep_index: int
) -> Prompt | None:
    """``prompt`` without the assistant reasoning parts ``drop`` selects (message
    ``keep_index`` untouched); assistant messages left empty are dropped."""
    out: Prompt = []
    changed = False
    for i, message in enumerate(prompt):
        content = message.get("content")
        if i == keep_index or message.get("role") != "assistant" or not isinstance(content, list):
            out.append(message)
            continue
        kept = [p for p in content if not (_is_reasoning(p) and drop(p))]
        if len(kept) == len(content):
            out.append(message)
            continue
        changed = True
        if kept:
            out.append({**message, "content": kept})
    return out if changed else None


def _strip_empty_signed(prompt: Prompt, model: Any) -> Prompt | None:
    if not is_anthropic(model):
        return None
    return _strip_reasoning(
        prompt,
        lambda p: _anthropic_signature(p) is not None and not p.get("text"),
        _protected_index(prompt),
    )


def _strip_foreign(prompt: Prompt, model: Any) -> Prompt | None:
    if not is_anthropic(model):
        return None
    keep = _protected_index(prompt)
    if keep >= 0:
        content = prompt[keep].get("content")
        signed = isinstance(content, list) and any(
            _is_reasoning(p) and _anthropic_signature(p) for p in content
        )
        if not signed:
            keep = -1
    return _strip_reasoning(prompt, lambda p: _anthropic_signature(p) is None, keep)


anthropic_strip_empty_signed_reasoning = CompatRule(
    "anthropic-strip-empty-signed-reasoning", apply_to_prompt=_strip_empty_signed
)
anthropic_strip_foreign_reasoning = CompatRule(
    "anthropic-strip-foreign-reasoning", apply_to_prompt=_strip_foreign
)


# ---------------------------------------------------------------- system reminders

_REMINDER_OPEN = re.compile(r"<system-reminder(?=[\s/>])([^>]*)>")
_REMINDER_CLOSE = re.compile(r"</system-reminder\s*>")


def system_reminder_transform(
    name: str, applies: Callable[[Any], bool], tag: str = "memory-context"
) -> CompatRule:
    """A rule renaming ``<system-reminder ...>...</system-reminder>`` to ``<TAG ...>
    ...</TAG>`` in the system and user text of prompts sent to models for which
    ``applies(model)`` is true (attributes are kept)."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]*", tag):
        raise ConfigurationError(f"{name}: tag must be an XML tag name, got {tag!r}")

    def rename(text: str) -> str:
        return _REMINDER_CLOSE.sub(f"</{tag}>", _REMINDER_OPEN.sub(rf"<{tag}\1>", text))

    def rewrite(prompt: Prompt, model: Any) -> Prompt | None:
        if not applies(model):
            return None
        out: Prompt = []
        changed = False
        for message in prompt:
            role, content = message.get("role"), message.get("content")
            if role == "system" and isinstance(content, str):
                text = rename(content)
                if text != content:
                    message, changed = {**message, "content": text}, True
            elif role == "user" and isinstance(content, list):
                parts = [
                    {**p, "text": rename(p["text"])}
                    if isinstance(p, Mapping)
                    and p.get("type") == "text"
                    and isinstance(p.get("text"), str)
                    else p
                    for p in content
                ]
                if parts != content:
                    message, changed = {**message, "content": parts}, True
            out.append(message)
        return out if changed else None

    return CompatRule(name, apply_to_prompt=rewrite)


azure_system_reminder_transform = system_reminder_transform(
    "azure-system-reminder-transform", is_azure
)

#: The built-in rules, in the order they run.
DEFAULT_RULES: tuple[CompatRule, ...] = (
    tool_call_id_format,
    anthropic_strip_empty_signed_reasoning,
    anthropic_strip_foreign_reasoning,
    azure_system_reminder_transform,
)


# ---------------------------------------------------------------- the processor


class ProviderHistoryCompat(Processor):
    """Rewrite the outbound prompt so the provider accepts the conversation; the stored
    history stays as it was (an input processor).

    Options:
        additional_rules (list, default ``[]``): more ``CompatRule`` objects (or tables
            of their fields), run after the built-in ones.
        exclude_rules (list[str], default ``[]``): names of built-in rules to leave out.
        system_reminder_providers (list[str], default ``[]``): provider names (a model's
            ``provider``, e.g. ``"openai"``) whose prompts also get the
            ``<system-reminder>`` → ``<memory-context>`` rewrite Azure gets.

    Example::

        Agent(..., model="anthropic/claude-sonnet-4-5",
              input_processors=[ProviderHistoryCompat()])
    """

    id = "provider-history-compat"
    description = (
        "Rewrites the outbound prompt so a provider accepts history from another one "
        "(tool call ids, foreign reasoning, system-reminder tags); stored history untouched"
    )

    def __init__(
        self,
        additional_rules: list[Any] | None = None,
        exclude_rules: list[str] | None = None,
        system_reminder_providers: list[str] | None = None,
    ) -> None:
        extra = _as_list(additional_rules, "additional_rules", self.id)
        excluded = _as_list(exclude_rules, "exclude_rules", self.id)
        known = [r.name for r in DEFAULT_RULES]
        bad = [n for n in excluded if n not in known]
        if bad:
            raise ConfigurationError(
                f"{self.id}: exclude_rules names unknown rule(s) {bad!r}; built-in rules: "
                f"{', '.join(known)}"
            )
        providers = _as_list(system_reminder_providers, "system_reminder_providers", self.id)
        if not all(isinstance(p, str) and p for p in providers):
            raise ConfigurationError(
                f"{self.id}: system_reminder_providers must be provider names, got {providers!r}"
            )
        rules = [r for r in DEFAULT_RULES if r.name not in excluded]
        if providers:
            wanted = {p.lower() for p in providers}
            rules.append(
                system_reminder_transform(
                    "system-reminder-transform", lambda m: _provider(m) in wanted
                )
            )
        rules += [
            CompatRule.of(r, f"{self.id}: additional_rules[{i}]") for i, r in enumerate(extra)
        ]
        names = [r.name for r in rules]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ConfigurationError(f"{self.id}: rule names must be unique, repeated: {dupes}")
        self.rules: tuple[CompatRule, ...] = tuple(rules)
        self.system_reminder_providers = providers

    def __repr__(self) -> str:
        return f"ProviderHistoryCompat(rules={[r.name for r in self.rules]!r})"

    @hookimpl
    def process_llm_request(
        self, prompt: Prompt, model: Any, state: dict[str, Any]
    ) -> dict[str, Any] | None:
        armed: set[str] = state.setdefault("armed", set())
        current = prompt
        for rule in self.rules:
            for rewrite in (rule.apply_to_prompt, rule.fix if rule.name in armed else None):
                if rewrite is None:
                    continue
                new = rewrite(current, model)
                if new is not None:
                    log.debug("rule %s rewrote the prompt", rule.name)
                    current = new
        state["sent"], state["model"] = current, model
        return {"prompt": current} if current is not prompt else None

    @hookimpl
    def process_api_error(
        self, error: BaseException, state: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Switch on the first reactive rule that answers ``error`` and would change the
        prompt that failed; ask for a retry (the retried call gets the rewrite)."""
        sent = state.get("sent")
        if sent is None:  # the call failed before this processor saw its prompt
            return None
        armed: set[str] = state.setdefault("armed", set())
        for rule in self.rules:
            if rule.fix is None or rule.name in armed or not rule.matches(error):
                continue
            if rule.fix(sent, state.get("model")) is not None:
                armed.add(rule.name)
                log.info("%s: %s answers the provider's error; retrying", self.id, rule.name)
                return {"retry": True}
        return None


def _as_list(value: Any, name: str, owner: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise ConfigurationError(f"{owner}: {name} must be a list, got {value!r}")
    return list(value)
