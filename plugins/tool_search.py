"""``tool-search``: let the model find and load tools on demand.

An agent with hundreds of tools pays for every tool definition on every model call,
and models pick tools less accurately from long lists. This processor shows the model
two meta tools instead, ``search_tools(query)`` (BM25 keyword search over the library's
tool names and descriptions) and ``load_tool(name)``, and makes a tool active from the
step after it was loaded. A system message tells the model how the two work, as the
reference's ToolSearchProcessor does.

The processor instance is shared by concurrent calls, so everything a call owns (the
loaded tools, the meta tools whose ``execute`` closes over them) lives in that call's
``state`` and is built in ``process_input_step``.
"""

from __future__ import annotations

import math
import re
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from tripwire import THREAD_ID_KEY, Processor, StepResult, Tool, hookimpl, tool
from tripwire.errors import ConfigurationError
from tripwire.option_checks import PositiveInt, check

__all__ = ["ToolSearch", "BM25Index", "INSTRUCTIONS"]

SEARCH_TOOL = "search_tools"
LOAD_TOOL = "load_tool"
META_TOOLS = (SEARCH_TOOL, LOAD_TOOL)

#: The system instruction added on every step (``instructions=True``): the reference
#: ToolSearchProcessor's words, plus when a loaded tool can be called.
INSTRUCTIONS = (
    f"To discover available tools, call {SEARCH_TOOL} with a keyword query. "
    f"To add a tool to the conversation, call {LOAD_TOOL} with the tool name. "
    f"Tools must be loaded before they can be used: a loaded tool can be called from "
    f"your next step on, not in the step that loads it."
)


class ToolSearch(Processor):
    """Give the model ``search_tools`` and ``load_tool`` instead of a large tool list.

    On every step the active tools are the two meta tools, the ``always_active`` tools,
    the agent's own tools when the library is given separately (``tools``), any tools
    the caller (or an earlier processor) already made active through ``active_tools``,
    and the tools loaded so far in this call. A tool loaded with
    ``load_tool`` becomes callable from the next step on; loaded tools stay active for
    the rest of the call (a load in a step rejected by a processor retry is undone).
    Every step also gets a system message explaining the two meta tools (after the
    agent's instructions; for that step only, like any ``process_input_step`` system
    message).

    Options:
        tools (list[Tool] | None, default ``None``): the searchable library. ``None``
            makes the agent's own tools (minus ``always_active``) the library, which is
            what a TOML configuration gets. With a library given here, the agent's own
            tools stay active as usual and only the library is behind search.
        top_k (int, default ``5``): most results one ``search_tools`` call returns.
        always_active (list[str], default ``[]``): tools (by name) that are always
            active and never part of the search.
        remember_per_thread (bool, default ``False``): also keep loaded tools across
            calls of the same memory thread (the ``tripwire.THREAD_ID_KEY`` entry of
            the request context). The memory is this process's, in memory, bounded by
            ``max_threads`` (least recently used threads are forgotten); calls without
            a thread id start empty.
        max_threads (int, default ``1000``): how many threads ``remember_per_thread``
            keeps.
        instructions (bool | str, default ``True``): the system message explaining
            ``search_tools`` and ``load_tool``. ``True`` adds ``INSTRUCTIONS``, a string
            adds that text instead, ``False`` adds none (the meta tools' descriptions
            are then all the model is told).

    Example::

        Agent(..., tools=library_of_200_tools, input_processors=[ToolSearch(top_k=3)])
    """

    id = "tool-search"
    description = "search_tools / load_tool meta tools for agents with large tool libraries"

    def __init__(
        self,
        tools: list[Tool] | None = None,
        top_k: PositiveInt = 5,
        always_active: list[str] | None = None,
        remember_per_thread: bool = False,
        max_threads: PositiveInt = 1000,
        instructions: bool | str = True,
    ) -> None:
        self.tools = _check_tools(tools)
        check("top_k", top_k, PositiveInt, owner=self.id)
        if always_active is None:
            always_active = []
        if isinstance(always_active, str) or not isinstance(always_active, Iterable):
            raise ConfigurationError(
                f"tool-search: always_active must be a list of tool names, got {always_active!r}"
            )
        always_active = list(always_active)
        bad = [n for n in always_active if not isinstance(n, str) or not n or n in META_TOOLS]
        if bad:
            raise ConfigurationError(
                f"tool-search: always_active must hold tool names other than "
                f"{' and '.join(META_TOOLS)}, got {bad!r}"
            )
        check("remember_per_thread", remember_per_thread, bool, owner=self.id)
        check("max_threads", max_threads, PositiveInt, owner=self.id)
        if not isinstance(instructions, bool) and not (
            isinstance(instructions, str) and instructions.strip()
        ):
            raise ConfigurationError(
                f"tool-search: instructions must be true, false or a non-empty string, "
                f"got {instructions!r}"
            )
        self.instructions = INSTRUCTIONS if instructions is True else instructions or None
        self.top_k = top_k
        self.always_active = always_active
        self.remember_per_thread = remember_per_thread
        self.max_threads = max_threads
        self._threads: OrderedDict[str, list[str]] = OrderedDict()
        self._indexes: OrderedDict[tuple[tuple[str, str], ...], BM25Index] = OrderedDict()

    def __repr__(self) -> str:
        size = "agent tools" if self.tools is None else f"{len(self.tools)} tools"
        return f"ToolSearch({size}, top_k={self.top_k})"

    @hookimpl
    def process_input_step(
        self,
        tools: dict[str, Tool],
        active_tools: list[str] | None,
        steps: list[StepResult],
        state: dict[str, Any],
        request_context: Mapping[str, Any],
        system_messages: list[dict[str, Any]],
    ) -> dict[str, Any]:
        available = {**tools, **(self.tools or {})}
        clash = [n for n in META_TOOLS if n in available]
        if clash:
            raise ConfigurationError(
                f"tool-search: the agent already has a tool named {clash[0]!r}; rename it, "
                f"tool-search adds its own {' and '.join(META_TOOLS)}"
            )
        missing = [n for n in self.always_active if n not in available]
        if missing:
            raise ConfigurationError(
                f"tool-search: always_active names unknown tool(s) {missing}; "
                f"available: {', '.join(sorted(available)) or 'none'}"
            )
        if "library" not in state:
            source = self.tools if self.tools is not None else tools
            library = {n: t for n, t in source.items() if n not in self.always_active}
            thread = request_context.get(THREAD_ID_KEY) if self.remember_per_thread else None
            state["library"] = library
            state["thread"] = thread
            state["remembered"] = [n for n in self._recall(thread) if n in library]
            state["loaded"] = []
            state["meta"] = self._meta_tools(state, self._index(library))
        library = state["library"]
        # What is loaded follows the accepted steps: a load_tool call in a step that a
        # processor rejected (retry) is undone with the rest of that step.
        loaded: list[str] = state["loaded"]
        loaded[:] = dict.fromkeys([*state["remembered"], *_loads(steps, library)])
        for name in loaded:
            self._remember(state["thread"], name)
        meta: dict[str, Tool] = state["meta"]
        own: list[str] = []
        if self.tools is not None:  # a separate library: the agent's tools stay as they are
            own = [n for n in tools if n not in library
                   and (active_tools is None or n in active_tools)]
        active = [*meta, *self.always_active, *own, *(active_tools or []), *loaded]
        out: dict[str, Any] = {
            "tools": {**meta, **available},
            "active_tools": list(dict.fromkeys(active)),
        }
        if self.instructions:
            # Step-scoped: the agent resets system messages at every step, so this is
            # added once per model call, never accumulated.
            out["system_messages"] = [
                *system_messages, {"role": "system", "content": self.instructions}]
        return out

    # -- the meta tools (one pair per call, closing over that call's state)

    def _meta_tools(self, state: dict[str, Any], index: BM25Index) -> dict[str, Tool]:
        library: dict[str, Tool] = state["library"]
        loaded: list[str] = state["loaded"]
        top_k = self.top_k

        def search_tools(query: str) -> dict[str, Any]:
            if not query.strip():
                raise ValueError("query must not be empty: give keywords such as 'send email'")
            hits = index.search(query, top_k)
            results = [
                {"name": name, "description": library[name].description, "loaded": name in loaded}
                for name, _ in hits
            ]
            if not results:
                return {"query": query, "results": [],
                        "message": f"No tool matched {query!r}; try other keywords."}
            return {"query": query, "results": results,
                    "message": "Call load_tool with a tool name to use that tool."}

        def load_tool(name: str) -> dict[str, Any]:
            found = library.get(name)
            if found is None:
                close = [n for n, _ in index.search(name, 3)]
                hint = f" Did you mean: {', '.join(close)}?" if close else ""
                raise ValueError(
                    f"no tool named {name!r} in the library; call search_tools to find "
                    f"tool names.{hint}"
                )
            already = name in loaded
            if not already:
                loaded.append(name)
            return {
                "loaded": name,
                "description": found.description,
                "parameters": found.parameters,
                "message": ("Already loaded: you can call it." if already
                            else "Loaded: you can call it from your next step on."),
            }

        return {
            SEARCH_TOOL: tool(
                search_tools,
                description=(
                    f"Search the library of {len(library)} tools that are not loaded yet, by "
                    f"keywords matched against tool names and descriptions. Returns up to "
                    f"{top_k} tool names, best first."
                ),
            ),
            LOAD_TOOL: tool(
                load_tool,
                description=(
                    "Load a tool by its exact name (as returned by search_tools) so you can "
                    "call it on your next step."
                ),
            ),
        }

    # -- caches shared by calls: only immutable data or per-thread name lists

    def _index(self, library: dict[str, Tool]) -> BM25Index:
        key = tuple((n, t.description) for n, t in library.items())
        index = self._indexes.get(key)
        if index is None:
            index = BM25Index((n, f"{t.description}") for n, t in library.items())
            self._indexes[key] = index
            while len(self._indexes) > 8:
                self._indexes.popitem(last=False)
        else:
            self._indexes.move_to_end(key)
        return index

    def _recall(self, thread: Any) -> list[str]:
        if thread is None or thread not in self._threads:
            return []
        self._threads.move_to_end(thread)
        return list(self._threads[thread])

    def _remember(self, thread: Any, name: str) -> None:
        if thread is None:
            return
        names = self._threads.setdefault(thread, [])
        if name not in names:
            names.append(name)
        self._threads.move_to_end(thread)
        while len(self._threads) > self.max_threads:
            self._threads.popitem(last=False)


def _loads(steps: list[StepResult], library: dict[str, Tool]) -> list[str]:
    """Names loaded by successful ``load_tool`` calls of the accepted steps, in order."""
    return [
        name for s in steps if s.tripwire is None for r in s.tool_results
        if r.tool_name == LOAD_TOOL and not r.is_error
        and isinstance(name := r.args.get("name"), str) and name in library
    ]


def _check_tools(tools: Any) -> dict[str, Tool] | None:
    if tools is None:
        return None
    items = tools.values() if isinstance(tools, Mapping) else tools
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise ConfigurationError(
            f"tool-search: tools must be a list of Tool objects (or None for the agent's "
            f"tools), got {type(tools).__name__}"
        )
    out: dict[str, Tool] = {}
    for t in items:
        if not isinstance(t, Tool):
            raise ConfigurationError(
                f"tool-search: tools must hold Tool objects (use @tripwire.tool), got {t!r}"
            )
        if t.name in META_TOOLS:
            raise ConfigurationError(
                f"tool-search: a library tool may not be named {t.name!r}; tool-search adds "
                f"its own {' and '.join(META_TOOLS)}"
            )
        if t.name in out:
            raise ConfigurationError(f"tool-search: two library tools are named {t.name!r}")
        out[t.name] = t
    return out


# ---------------------------------------------------------------- search


_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens: ``get_weatherForecast`` -> get, weather, forecast.

    Plurals are folded lightly (``emails`` -> ``email``) so queries and descriptions
    meet halfway.
    """
    out = []
    for word in _WORD.findall(text):
        word = word.lower()
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


class BM25Index:
    """Okapi BM25 over documents ``(name, text)``; the name's words count twice.

    ``k1`` saturates repeated terms, ``b`` normalises for document length.
    """

    def __init__(self, documents: Iterable[tuple[str, str]], k1: float = 1.2, b: float = 0.75):
        self.k1 = k1
        self.b = b
        self.names: list[str] = []
        self.freqs: list[Counter[str]] = []
        self.lengths: list[int] = []
        df: Counter[str] = Counter()
        for name, text in documents:
            terms = tokenize(name) * 2 + tokenize(text)
            counts = Counter(terms)
            self.names.append(name)
            self.freqs.append(counts)
            self.lengths.append(len(terms))
            df.update(counts.keys())
        n = len(self.names)
        self.avg_length = (sum(self.lengths) / n) if n else 0.0
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}

    def search(self, query: str, top_k: int) -> list[tuple[str, float]]:
        """The ``top_k`` best ``(name, score)`` pairs with a positive score, best first
        (ties keep library order)."""
        terms = [t for t in dict.fromkeys(tokenize(query)) if t in self.idf]
        if not terms or top_k < 1:
            return []
        scored = []
        for i, counts in enumerate(self.freqs):
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / (self.avg_length or 1))
            for t in terms:
                f = counts.get(t)
                if f:
                    score += self.idf[t] * f * (self.k1 + 1) / (f + norm)
            if score > 0:
                scored.append((-score, i))
        scored.sort()
        return [(self.names[i], -s) for s, i in scored[:top_k]]
