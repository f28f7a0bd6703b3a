"""The ``MessageList`` that backs one agent run, and its filtered live views.

A processor that wants to add, remove or reorder messages goes through
``MessageList``; every message in it carries its source (``input``, ``response``,
``memory``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import attrs

from tripwire.messages._coerce import coerce_message
from tripwire.messages._forms import message_to_core, message_to_ui
from tripwire.messages._types import (
    SOURCES,
    Message,
    Part,
    Role,
    Source,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    coerce_system,
    replace_untagged,
)

#: The metadata key that marks a recalled system message while it waits in the
#: conversation for the input processors (``MessageList.add_recalled_system``).
_RECALLED_SYSTEM = "recalled_system"


class MessageView(Sequence[Message]):
    """A filtered, live view over a ``MessageList`` (``all``, ``input``, ...)."""

    __slots__ = ("_list", "_source")

    def __init__(self, message_list: MessageList, source: str | None) -> None:
        self._list = message_list
        self._source = source

    def _items(self) -> list[Message]:
        if self._source is None:
            return [m for m, _ in self._list._records]
        return [m for m, s in self._list._records if s == self._source]

    def db(self) -> list[Message]:
        """The stored messages themselves (edits to their parts are live)."""
        return self._items()

    def core(self) -> list[dict[str, Any]]:
        """Provider-facing dicts (system messages not included)."""
        out: list[dict[str, Any]] = []
        for m in self._items():
            out.extend(message_to_core(m))
        return out

    def ui(self) -> list[dict[str, Any]]:
        """Dicts for user interfaces; signal (``<system-reminder>``) messages are hidden."""
        return [message_to_ui(m) for m in self._items() if not m.is_signal]

    @overload
    def __getitem__(self, index: int) -> Message: ...
    @overload
    def __getitem__(self, index: slice) -> list[Message]: ...
    def __getitem__(self, index: int | slice) -> Message | list[Message]:
        return self._items()[index]

    def __len__(self) -> int:
        return len(self._items())

    def __iter__(self) -> Iterator[Message]:
        return iter(self._items())

    def __repr__(self) -> str:
        return f"<MessageView {self._source or 'all'}: {len(self)} messages>"


class MessageList:
    """The live conversation of one run: system messages plus tagged messages.

    Every message carries a source: ``input`` (given to this call), ``response``
    (produced during this call) or ``memory`` (recalled history). Adding a message
    whose id is already present replaces it in place.
    """

    def __init__(
        self,
        messages: Iterable[Message | str | dict[str, Any]] = (),
        *,
        system_messages: Iterable[str | dict[str, Any]] = (),
        source: Source = "input",
    ) -> None:
        self._records: list[tuple[Message, str]] = []
        self._index: dict[str, int] = {}
        self._system: list[dict[str, Any]] = []
        for s in system_messages:
            self.add_system(s)
        self.add(list(messages), source)

    # -- views
    @property
    def all(self) -> MessageView:
        return MessageView(self, None)

    @property
    def input(self) -> MessageView:
        return MessageView(self, "input")

    @property
    def response(self) -> MessageView:
        return MessageView(self, "response")

    @property
    def remembered(self) -> MessageView:
        return MessageView(self, "memory")

    # -- system messages
    @property
    def system_messages(self) -> list[dict[str, Any]]:
        """System messages as ``{"role": "system", "content": str}`` dicts."""
        return self._system

    @system_messages.setter
    def system_messages(self, value: Iterable[str | dict[str, Any] | Message]) -> None:
        """Replace the untagged system messages. Tagged ones (a ``"tag"`` key, e.g.
        the ``memory`` context working memory adds) are kept, after the untagged ones,
        as the reference keeps its tagged buckets; a tagged message in ``value`` that is
        not there yet is added."""
        self._system = replace_untagged(self._system, value)

    def add_system(self, message: str | dict[str, Any] | Message) -> None:
        self._system.append(coerce_system(message))

    def add_recalled_system(self, message: dict[str, Any]) -> Message:
        """Add a tagged system message recalled from memory (working memory's
        document, semantic recall's hits from other threads): until the input
        processors have run it stays in the conversation as a ``memory`` message, so
        they check it as they check every recalled message (a redactor redacts it, a
        guard that filters drops it, one that blocks stops the run); then
        ``lift_recalled_system`` puts what is left of it among the system messages, with
        its tag. It holds text the store kept, which no guard of this run has seen."""
        data = coerce_system(message)
        text = data.pop("content")
        data.pop("role")
        msg = Message._of("system", [TextPart(text)], {_RECALLED_SYSTEM: data})
        self._insert_remembered(msg)
        return msg

    def lift_recalled_system(self) -> None:
        """Move the recalled system messages still in the conversation (as the input
        processors left them) to the end of the system messages, in order, with their
        tags (``add_recalled_system``)."""
        lifted = [m for m, s in self._records if s == "memory" and m.role == "system"
                  and _RECALLED_SYSTEM in (m.content.metadata or {})]
        if not lifted:
            return
        self.remove_by_ids(m.id for m in lifted)
        for m in lifted:
            if m.text.strip():
                self.add_system({"role": "system", "content": m.text,
                                 **(m.content.metadata or {})[_RECALLED_SYSTEM]})

    # -- mutators
    def add(
        self,
        messages: Message | str | dict[str, Any] | Iterable[Message | str | dict[str, Any]],
        source: Source = "input",
        *,
        keep_system: bool = False,
    ) -> list[Message]:
        """Add messages (a Message, a string, a dict, or a list of them) from ``source``.

        System-role messages go to ``system_messages``; with ``keep_system`` they stay
        in the conversation where they are, like any other message (processors then
        see them in ``messages``, and the prompt has them at that place), and so does
        one already in the conversation (it is updated in place). Returns the stored
        messages.
        """
        if source == "remembered":  # type: ignore[comparison-overlap]
            source = "memory"
        if source not in SOURCES:
            raise ValueError(f"unknown message source {source!r}; valid: {', '.join(SOURCES)}")
        if isinstance(messages, Message | str | dict):
            messages = [messages]
        added = []
        for value in messages:
            role: Role = "assistant" if source == "response" else "user"
            msg = coerce_message(value, role=role)
            if msg.role == "system" and not keep_system and msg.id not in self._index:
                self.add_system(msg)
                continue
            if msg.id in self._index:
                self._records[self._index[msg.id]] = (msg, self._records[self._index[msg.id]][1])
            elif source == "memory":
                self._insert_remembered(msg)
            else:
                self._index[msg.id] = len(self._records)
                self._records.append((msg, source))
            added.append(msg)
        return added

    def _insert_remembered(self, msg: Message) -> None:
        """Recalled history comes before this call's messages, oldest first: a
        ``memory`` message goes into the leading block of remembered messages, after
        those created no later than it."""
        at = 0
        for m, s in self._records:
            if s != "memory" or m.created_at > msg.created_at:
                break
            at += 1
        self._records.insert(at, (msg, "memory"))
        self._reindex()

    def remove_by_ids(self, ids: Iterable[str]) -> list[Message]:
        """Remove the messages with these ids; returns the removed messages."""
        wanted = set(ids)
        removed = [m for m, _ in self._records if m.id in wanted]
        if removed:
            self._records = [(m, s) for m, s in self._records if m.id not in wanted]
            self._reindex()
        return removed

    def update_tool_invocation(self, part: ToolInvocationPart | dict[str, Any]) -> Message:
        """Replace the stored tool invocation that has the same ``tool_call_id``.

        This is how ``process_tool_result`` changes what the model (and the streamed
        tool-result chunk) sees. Raises ``KeyError`` if no message holds that call.
        """
        if isinstance(part, dict):
            from tripwire.messages.serde import converter

            # cattrs annotates the target as type[T]; a union of part classes is a
            # valid target at runtime (tagged by "type").
            part = converter.structure({"type": "tool-invocation", **part},
                                       Part)  # type: ignore[arg-type]
        if not isinstance(part, ToolInvocationPart):
            raise TypeError(f"expected a ToolInvocationPart, got {type(part).__name__}")
        call_id = part.tool_invocation.tool_call_id
        for msg, _ in reversed(self._records):
            for i, existing in enumerate(msg.content.parts):
                if (
                    type(existing) is ToolInvocationPart
                    and existing.tool_invocation.tool_call_id == call_id
                ):
                    msg.content.parts[i] = part
                    return msg
        raise KeyError(f"no message holds a tool invocation with tool_call_id {call_id!r}")

    def store_tool_result(self, tool_call_id: str, result: Any) -> bool:
        """``result`` as the stored result of the call ``tool_call_id``: what the model
        sees next, the history and ``result.tool_results`` hold. For an output
        processor that changed a ``tool-error`` chunk (``process_tool_result`` does not
        run for a tool that failed), so the model and the store get what the client
        got. False when no message holds the call."""
        invocation = self.find_tool_invocation(tool_call_id)
        if invocation is None:
            return False
        self.update_tool_invocation(ToolInvocationPart(attrs.evolve(invocation,
                                                                    result=result)))
        return True

    def find_tool_invocation(self, tool_call_id: str) -> ToolInvocation | None:
        for msg, _ in reversed(self._records):
            for p in msg.content.parts:
                if type(p) is ToolInvocationPart and p.tool_invocation.tool_call_id == tool_call_id:
                    return p.tool_invocation
        return None

    def source_of(self, message_id: str) -> str | None:
        i = self._index.get(message_id)
        return None if i is None else self._records[i][1]

    def replace_stage(
        self, stage: Sequence[Message], returned: Sequence[Message | str | dict[str, Any]],
        default_source: Source,
    ) -> None:
        """Reconcile a processor's returned list with the messages of its stage.

        Stage messages missing from ``returned`` are removed; the returned messages take
        the stage's place, in the returned order (new ones get ``default_source``). A new
        system-role message goes to ``system_messages``; one that was in the
        conversation (``add(..., keep_system=True)``) stays there.
        """
        coerced = [coerce_message(m) for m in returned]
        stage_ids = {m.id for m in stage}
        moved_ids = {m.id for m in coerced}
        positions = [i for i, (m, _) in enumerate(self._records) if m.id in stage_ids]
        at = positions[0] if positions else len(self._records)
        kept_before: list[tuple[Message, str]] = []
        kept_after: list[tuple[Message, str]] = []
        old_source = {m.id: s for m, s in self._records}
        for i, rec in enumerate(self._records):
            if rec[0].id in stage_ids or rec[0].id in moved_ids:
                continue
            (kept_before if i < at else kept_after).append(rec)
        new = []
        for m in coerced:
            if m.role == "system" and m.id not in old_source:
                self.add_system(m)
                continue
            new.append((m, old_source.get(m.id, default_source)))
        self._records = kept_before + new + kept_after
        self._reindex()

    # -- checkpoints (used by retries to roll back to a step boundary)
    def checkpoint(self) -> tuple[list[tuple[Message, str]], list[dict[str, Any]]]:
        return (list(self._records), list(self._system))

    def rollback(self, checkpoint: tuple[list[tuple[Message, str]], list[dict[str, Any]]]) -> None:
        self._records = list(checkpoint[0])
        self._system = list(checkpoint[1])
        self._reindex()

    # -- forks (a parallel group's members each work on their own copy)
    def fork(self) -> MessageList:
        """A deep copy: same ids and sources, messages that can be changed freely."""
        fork = MessageList.__new__(MessageList)
        fork._records = [(copy.deepcopy(m), s) for m, s in self._records]
        fork._system = copy.deepcopy(self._system)
        fork._reindex()
        return fork

    def changes_since(self, base: MessageList) -> dict[tuple[str, ...], Any]:
        """What this fork changed relative to ``base`` (the list it was forked from),
        keyed by what was touched: ``("message", id)`` for a changed, removed (None)
        or added message, ``("system",)`` for the system messages."""
        changes: dict[tuple[str, ...], Any] = {}
        mine = {m.id: (m, s) for m, s in self._records}
        theirs = {m.id: (m, s) for m, s in base._records}
        for mid, (m, _) in theirs.items():
            if mid not in mine:
                changes[("message", mid)] = None
            elif mine[mid][0] != m:
                changes[("message", mid)] = ("changed", mine[mid][0])
        previous: str | None = None
        for m, source in self._records:
            if m.id not in theirs:
                changes[("message", m.id)] = ("added", m, source, previous)
            previous = m.id
        if self._system != base._system:
            changes[("system",)] = list(self._system)
        return changes

    def apply_changes(self, changes: dict[tuple[str, ...], Any]) -> None:
        """Apply what ``changes_since`` found (to the list the fork was made from)."""
        for key, change in changes.items():
            if key == ("system",):
                self._system = list(change)
                continue
            mid = key[1]
            if change is None:
                self._records = [r for r in self._records if r[0].id != mid]
                self._reindex()
            elif change[0] == "changed":
                i = self._index[mid]
                self._records[i] = (change[1], self._records[i][1])
            else:
                _, message, source, after = change
                at = self._index[after] + 1 if after in self._index else len(self._records)
                self._records.insert(at, (message, source))
                self._reindex()

    def _reindex(self) -> None:
        self._index = {m.id: i for i, (m, _) in enumerate(self._records)}

    def __len__(self) -> int:
        return len(self._records)

    def __repr__(self) -> str:
        counts = {s: sum(1 for _, x in self._records if x == s) for s in SOURCES}
        return f"<MessageList system={len(self._system)} {counts}>"
