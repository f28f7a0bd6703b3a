"""One registry for every entry point group tripwire reads.

Installed distributions publish plugins as entry points: processors in
``tripwire.processors``, model providers in ``tripwire.models``, CLI commands in
``tripwire.commands``, detectors for guardrails in ``tripwire.detectors``, cache
backends in ``tripwire.caches`` (by URL scheme), memory embedders in
``tripwire.embedders`` and memory stores by URL scheme in ``tripwire.stores``
(``GROUPS`` lists them with what each entry point must name). One
``Registry`` serves them all, the same way:

- **one lazy scan**: distributions are read once per registry, on the first question,
  never at import, under a lock;
- **de-duplication**: a distribution found twice on ``sys.path`` counts once (the
  first wins, as for imports); an entry point listed twice by one distribution
  (editable installs, setuptools #3649) is one plugin; two distributions claiming one
  name make that name broken, naming both;
- **a broken-plugin record**: an entry point is imported when first asked for; an
  import error, or a target of the wrong kind, is recorded on its ``Plugin`` (shown by
  ``tripwire plugins`` / ``tripwire models``) and raised only when someone builds it;
- **environment allow/block lists**, read once per registry:

  ``TRIPWIRE_DISABLE_PLUGINS=a,b``
      hides those names in every group that honours it (processors, model
      providers), through a pluggy ``PluginManager`` block list per group;
  ``TRIPWIRE_LOAD_PLUGINS=a,b``
      makes only those processor names visible (set but empty: none); model
      providers and commands are not narrowed by it, so tripwire's own providers keep
      working in a test suite that sets it.

  A name that no honouring group knows is a ``ConfigurationError`` listing the names
  there are; it is raised by every question about a group that honours that variable
  (commands never do, so the CLI can report it).

``current()`` is the process's registry; ``reset()`` replaces it with a fresh one
(tests do, after faking distributions). Plugins can also be registered at run time
(``tripwire.models.register_provider``); they belong to the registry, so ``reset()``
forgets them too.
"""

from __future__ import annotations

import io
import os
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any, cast

import attrs
import pluggy

from tripwire.errors import ConfigurationError, MissingDependencyError
from tripwire.hooks._markers import PROJECT_NAME

LOAD_ENV = "TRIPWIRE_LOAD_PLUGINS"
DISABLE_ENV = "TRIPWIRE_DISABLE_PLUGINS"


@attrs.frozen
class Plugin:
    """One entry point of a group (or a plugin registered at run time), loaded.

    ``target`` is what the entry point names (``None`` when its import failed);
    ``error`` is why the plugin is broken (its import error, a target of the wrong
    kind, a name claimed twice), ``None`` when it is usable. ``distribution`` is
    ``None`` for a plugin registered at run time.
    """

    name: str
    group: str
    distribution: str | None
    version: str | None
    value: str
    target: Any = None
    error: BaseException | None = attrs.field(default=None, eq=False)

    @property
    def status(self) -> str:
        """``"ok"`` or ``"broken"``."""
        return "ok" if self.error is None else "broken"

    def failure(self) -> ConfigurationError:
        """The error to raise when someone asks to use this broken plugin: it names
        the plugin, its distribution and version and the entry point, with the
        original error chained."""
        noun = GROUPS[self.group].noun if self.group in GROUPS else "plugin"
        dist = " ".join(filter(None, [self.distribution or "?", self.version]))
        err = self.error
        error = ConfigurationError(
            f"{noun} {self.name!r} from distribution {dist} ({self.value}) failed to load: "
            f"{type(err).__name__}: {err}"
        )
        error.__cause__ = err
        return error


@attrs.frozen
class Group:
    """An entry point group: its name, what its plugins are called in messages, what an
    entry point must name (``check`` raises ``TypeError`` otherwise), and which of the
    environment variables narrow it."""

    name: str
    noun: str
    check: Callable[[str, str, Any], None]
    load_env: bool = False
    disable_env: bool = False

    def honours(self, var: str) -> bool:
        return self.load_env if var == LOAD_ENV else self.disable_env


def _processor_class(name: str, value: str, target: Any) -> None:
    import tripwire.hookspecs as hookspecs
    from tripwire.hooks._marked import hooks_of

    if not isinstance(target, type):
        raise TypeError(
            f"entry point {name} = {value} must name a processor class, "
            f"got {type(target).__name__}"
        )
    hooks = hooks_of(target)
    unknown = [h for h in hooks if h not in hookspecs.ALL_HOOKS]
    if not hooks:
        raise TypeError(
            f"{target.__name__} implements no tripwire hook; mark its methods "
            f"with @tripwire.hookimpl"
        )
    if unknown:
        raise TypeError(
            f"{target.__name__} marks unknown hook(s) {', '.join(unknown)}; "
            f"valid hook names: {', '.join(hookspecs.ALL_HOOKS)}"
        )


def _callable(kind: str, what: str) -> Callable[[str, str, Any], None]:
    def check(name: str, value: str, target: Any) -> None:
        if not callable(target):
            raise TypeError(
                f"{kind} entry point {name} = {value} must be {what}, "
                f"got {type(target).__name__}"
            )

    return check


PROCESSORS = Group(
    "tripwire.processors", "processor", _processor_class, load_env=True, disable_env=True
)
MODELS = Group(
    "tripwire.models",
    "model provider",
    _callable("model provider", "a factory function(model_id) -> Model"),
    disable_env=True,
)
COMMANDS = Group(
    "tripwire.commands", "command", _callable("command", "a function register(subparsers)")
)

DETECTORS = Group(
    "tripwire.detectors",
    "detector",
    _callable("detector", "a detector class or factory (see tripwire.guards.verdicts.Detector)"),
)

CACHES = Group(
    "tripwire.caches",
    "cache backend",
    _callable("cache backend", "a factory(url) -> CacheBackend (see tripwire.caches)"),
)

EMBEDDERS = Group(
    "tripwire.embedders",
    "embedder",
    _callable("embedder", "a factory function(model_id) -> Embedder"),
)

STORES = Group(
    "tripwire.stores",
    "memory store",
    _callable("memory store", "a factory function(url) -> MemoryStore"),
)

#: Every group tripwire reads, by entry point group name.
GROUPS: dict[str, Group] = {
    g.name: g for g in (PROCESSORS, MODELS, COMMANDS, DETECTORS, CACHES, EMBEDDERS, STORES)
}

#: The distributions published beside tripwire (its ``contrib/`` folder) and how to
#: install each: a name one of them provides is asked for by users who have not
#: installed it yet, so the error says what to install instead of only "unknown".
CONTRIB: dict[str, str] = {
    "tripwire-keyword-guard": "pip install ./contrib/keyword-guard",
    "tripwire-redis": "pip install ./contrib/redis",
    "tripwire-postgres": "pip install ./contrib/postgres",
}

#: What each ``CONTRIB`` distribution provides: group name -> plugin name ->
#: distribution.
PROVIDED_BY: dict[str, dict[str, str]] = {
    PROCESSORS.name: {"keyword-guard": "tripwire-keyword-guard"},
    CACHES.name: {"redis": "tripwire-redis", "rediss": "tripwire-redis"},
    STORES.name: {"postgresql": "tripwire-postgres", "postgres": "tripwire-postgres"},
}


def not_installed(group: Group | str, name: str, available: Iterable[str]) -> ConfigurationError:
    """The error for ``name``, which no installed distribution provides in ``group``:
    a ``MissingDependencyError`` naming the distribution to install and how, when one
    published beside tripwire provides it (``PROVIDED_BY``); otherwise a
    ``ConfigurationError`` saying it is unknown. Both list the ``available`` names."""
    g = group if isinstance(group, Group) else GROUPS[group]
    listing = ", ".join(available) or "none installed"
    dist = PROVIDED_BY.get(g.name, {}).get(name)
    if dist is None:
        return ConfigurationError(f"unknown {g.noun} {name!r}; available: {listing}")
    return MissingDependencyError(
        f"{g.noun} {name!r} comes with the distribution {dist}, which is not installed: "
        f"{CONTRIB[dist]} (in a tripwire checkout); available: {listing}")


@attrs.define
class _Found:
    """An entry point as found in a distribution's metadata (not imported yet)."""

    name: str
    group: str
    distribution: str | None
    version: str | None
    entry_point: Any
    conflict: str | None = None

    @property
    def value(self) -> str:
        return str(self.entry_point.value)


class Registry:
    """The plugins of ``groups``: scanned once, loaded one by one on demand."""

    def __init__(self, groups: Iterable[Group] = GROUPS.values()) -> None:
        self.groups = {g.name: g for g in groups}
        self._lock = threading.RLock()
        self._found: dict[str, dict[str, _Found]] | None = None
        self._loaded: dict[tuple[str, str], Plugin] = {}
        self._registered: dict[str, dict[str, Plugin]] = {g: {} for g in self.groups}
        self._env: _Environment | None = None

    # ------------------------------------------------------------ questions

    def names(self, group: Group | str) -> list[str]:
        """The visible names of ``group``, sorted, without importing anything."""
        g = self._group(group)
        env = self._environment(g)
        visible = set(self._scan()[g.name]) - set(env.hidden[g.name])
        return sorted(visible | set(self._registered[g.name]))

    def plugins(self, group: Group | str) -> dict[str, Plugin]:
        """Every visible plugin of ``group`` by name, loaded (broken ones included)."""
        g = self._group(group)
        return {name: self._load(g, name) for name in self.names(g)}

    def get(self, group: Group | str, name: str) -> Plugin:
        """The visible plugin ``name``, loaded (it may be broken: see ``Plugin.error``
        and ``failure()``). An unknown or hidden name is a ``ConfigurationError``
        saying why and listing the visible names."""
        g = self._group(group)
        visible = self.names(g)
        if name not in visible:
            why = self.hidden(g).get(name)
            if why:
                raise ConfigurationError(f"{g.noun} {name!r} is {why}")
            raise not_installed(g, name, visible)
        return self._load(g, name)

    def hidden(self, group: Group | str) -> dict[str, str]:
        """Installed names of ``group`` hidden by the environment, with the reason."""
        g = self._group(group)
        return dict(sorted(self._environment(g).hidden[g.name].items()))

    def is_blocked(self, group: Group | str, name: str) -> bool:
        """True when the environment hides ``name`` in ``group``."""
        g = self._group(group)
        return self._environment(g).blocklists[g.name].is_blocked(name)

    def register(self, group: Group | str, name: str, target: Any) -> None:
        """Add (or replace) a plugin at run time; it wins over an entry point of the
        same name and is never hidden by the environment. A target the group cannot
        use (a model provider that is not callable) is a ``TypeError``."""
        g = self._group(group)
        value = f"{getattr(target, '__module__', '?')}:{getattr(target, '__qualname__', target)}"
        g.check(name, value, target)  # a TypeError here: wrong at the call site, raise it
        with self._lock:
            self._registered[g.name][name] = Plugin(name, g.name, None, None, value, target=target)

    def registered(self, group: Group | str) -> dict[str, Any]:
        """The plugins of ``group`` registered at run time: name -> target."""
        g = self._group(group)
        with self._lock:
            return {n: p.target for n, p in self._registered[g.name].items()}

    # ------------------------------------------------------------ internals

    def _group(self, group: Group | str) -> Group:
        name = group.name if isinstance(group, Group) else group
        try:
            return self.groups[name]
        except KeyError:
            raise ValueError(
                f"unknown entry point group {name!r}; valid: {', '.join(self.groups)}"
            ) from None

    def _scan(self) -> dict[str, dict[str, _Found]]:
        with self._lock:
            if self._found is None:
                self._found = _scan(self.groups)
            return self._found

    def _environment(self, group: Group) -> _Environment:
        with self._lock:
            if self._env is None:
                self._env = _Environment.read(self.groups, self._scan())
            env = self._env
        for var, error in env.errors.items():
            if group.honours(var):
                raise ConfigurationError(str(error))
        return env

    def _load(self, group: Group, name: str) -> Plugin:
        with self._lock:
            registered = self._registered[group.name].get(name)
            if registered is not None:
                return registered
            key = (group.name, name)
            if key not in self._loaded:
                self._loaded[key] = _load(group, self._scan()[group.name][name])
            return self._loaded[key]


# ------------------------------------------------------------------ scanning


def _scan(groups: dict[str, Group]) -> dict[str, dict[str, _Found]]:
    import importlib.metadata  # read by the first scan, not when tripwire is imported

    found: dict[str, dict[str, _Found]] = {g: {} for g in groups}
    seen_dists: set[str] = set()
    for dist in importlib.metadata.distributions():
        dist_name, version = _identity(dist)
        if dist_name is not None:
            key = _normalize(dist_name)
            # The same distribution found twice on sys.path: the first one wins, as it
            # does for imports.
            if key in seen_dists:
                continue
            seen_dists.add(key)
        for ep in dist.entry_points:
            if ep.group not in found:
                continue
            group = found[ep.group]
            new = _Found(ep.name, ep.group, dist_name, version, ep)
            old = group.get(ep.name)
            if old is None:
                group[ep.name] = new
            elif old.distribution == new.distribution and old.value == new.value:
                # Listed twice by one distribution (editable installs with both
                # setup.cfg and pyproject.toml, setuptools #3649): one plugin.
                continue
            else:
                old.conflict = (
                    f"the name {ep.name!r} is claimed twice: by {old.distribution} "
                    f"({old.value}) and by {new.distribution} ({new.value}); "
                    f"uninstall one of them"
                )
    return found


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _identity(dist: Any) -> tuple[str | None, str | None]:
    """A distribution's name and version. An installed one's are read from the header
    lines of its metadata: ``dist.name`` parses the whole file, long description (often
    the project's README) included, and a scan reads every installed distribution's
    name."""
    import importlib.metadata

    if isinstance(dist, importlib.metadata.Distribution):
        headers = _headers(dist.read_text("METADATA") or dist.read_text("PKG-INFO") or "")
        if "name" in headers:
            return headers["name"], headers.get("version")
    return _dist_name(dist), _dist_version(dist)


def _headers(text: str) -> dict[str, str]:
    """The header fields of a metadata file, by lower-case name (the first of each)."""
    fields: dict[str, str] = {}
    for line in io.StringIO(text):
        if not line.strip():
            break
        name, colon, value = line.partition(":")
        if colon and not line[0].isspace():
            fields.setdefault(name.strip().lower(), value.strip())
    return fields


def _dist_name(dist: Any) -> str | None:
    name = getattr(dist, "name", None)
    if name is None:
        try:
            name = dist.metadata["Name"]
        except (KeyError, TypeError):
            name = None
    return name


def _dist_version(dist: Any) -> str | None:
    try:
        return cast("str | None", dist.version)
    except Exception:  # a malformed METADATA file must not stop discovery
        return None


def _load(group: Group, found: _Found) -> Plugin:
    """Import one entry point, recording (not raising) what goes wrong."""
    error: BaseException | None = None
    target: Any = None
    if found.conflict:
        error = ConfigurationError(found.conflict)
    else:
        try:
            target = found.entry_point.load()
        except Exception as e:
            error = e
        else:
            try:
                group.check(found.name, found.value, target)
            except TypeError as e:
                error = e
    return Plugin(
        found.name, found.group, found.distribution, found.version, found.value,
        target=target, error=error,
    )


# ------------------------------------------------------------------ environment


@attrs.frozen
class _Environment:
    """What ``TRIPWIRE_DISABLE_PLUGINS`` / ``TRIPWIRE_LOAD_PLUGINS`` hide, per group."""

    blocklists: dict[str, pluggy.PluginManager]
    hidden: dict[str, dict[str, str]]
    errors: dict[str, ConfigurationError]

    @classmethod
    def read(cls, groups: dict[str, Group], found: dict[str, dict[str, _Found]]) -> _Environment:
        blocklists = {g: pluggy.PluginManager(PROJECT_NAME) for g in groups}
        hidden: dict[str, dict[str, str]] = {g: {} for g in groups}
        errors: dict[str, ConfigurationError] = {}
        lists = {var: _names_from_env(var) for var in (DISABLE_ENV, LOAD_ENV)}
        for var, listed in lists.items():
            honouring = [g for g in groups.values() if g.honours(var)]
            unknown = [
                n for n in listed or () if not any(n in found[g.name] for g in honouring)
            ]
            if unknown:
                errors[var] = ConfigurationError(_unknown(var, unknown, honouring, found))
        for group in groups.values():
            blocked, why = blocklists[group.name], hidden[group.name]
            if group.disable_env and DISABLE_ENV not in errors:
                for name in lists[DISABLE_ENV] or ():
                    if name in found[group.name]:
                        blocked.set_blocked(name)
                        why[name] = f"disabled by {DISABLE_ENV}"
            only = lists[LOAD_ENV]
            if group.load_env and only is not None and LOAD_ENV not in errors:
                for name in sorted(found[group.name]):
                    if name not in only and not blocked.is_blocked(name):
                        blocked.set_blocked(name)
                        why[name] = f"not listed in {LOAD_ENV}"
        return cls(blocklists, hidden, errors)


def _names_from_env(var: str) -> list[str] | None:
    raw = os.environ.get(var)
    if raw is None:
        return None
    return [n.strip() for n in raw.split(",") if n.strip()]


def _unknown(
    var: str, unknown: list[str], groups: list[Group], found: dict[str, dict[str, _Found]]
) -> str:
    """``VAR names unknown processor(s) x; available: a, b``, listing each honouring
    group that has names when there is more than one."""
    with_names = [g for g in groups if found[g.name]]
    if len(with_names) <= 1:
        group = with_names[0] if with_names else groups[0]
        names = sorted(found[group.name])
        return (
            f"{var} names unknown {group.noun}(s) {', '.join(unknown)}; "
            f"available: {', '.join(names) or 'none installed'}"
        )
    listing = "; ".join(f"{g.noun}s: {', '.join(sorted(found[g.name]))}" for g in with_names)
    nouns = " or ".join(f"{g.noun}(s)" for g in groups)
    return f"{var} names unknown {nouns} {', '.join(unknown)}; available {listing}"


# ------------------------------------------------------------------ tripwire's own


#: The distribution whose entry points ``builtin`` reads.
DISTRIBUTION = "tripwire"

_builtins: dict[tuple[str, str], Any] = {}


def builtin(group: Group | str, name: str) -> Any:
    """What tripwire's own distribution publishes as ``name`` in ``group``, loaded.

    The framework places some of its own processors itself: every agent's error
    processor (``prefill-error-handler``), the processor of the ``structured_output``
    call option (``structured-output``) and memory's three (``message-history``,
    ``working-memory``, ``semantic-recall``). Core reaches them here, by entry point,
    never by importing ``tripwire.plugins``. Only tripwire's own distribution is read, so
    another distribution claiming the name, ``TRIPWIRE_LOAD_PLUGINS`` /
    ``TRIPWIRE_DISABLE_PLUGINS``, ``reset()`` and faked distributions do not change
    what a role gets (callers that honour the environment ask ``is_blocked`` first).
    The target is checked as the group's are and kept for the process. A name
    tripwire does not publish, or a target that fails to load, is a
    ``ConfigurationError`` naming it.
    """
    g = GROUPS[group] if isinstance(group, str) else group
    key = (g.name, name)
    target = _builtins.get(key)
    if target is None:
        plugin = _load(g, _own_entry_point(g, name))
        if plugin.error is not None:
            raise plugin.failure() from plugin.error
        target = _builtins[key] = plugin.target
    return target


def _own_entry_point(group: Group, name: str) -> _Found:
    import importlib.metadata

    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise ConfigurationError(
            f"{group.noun} {name!r} is tripwire's own, read from the metadata of the "
            f"distribution {DISTRIBUTION}, which is not installed (pip install -e . in a "
            f"checkout)"
        ) from None
    for ep in dist.entry_points.select(group=group.name, name=name):
        return _Found(name, group.name, DISTRIBUTION, dist.version, ep)
    raise ConfigurationError(
        f"{group.noun} {name!r} is not published by the distribution {DISTRIBUTION} "
        f"(entry point group {group.name})"
    )


# ------------------------------------------------------------------ the process's


_current_lock = threading.Lock()
_current = Registry()


def current() -> Registry:
    """The process's registry (scanned on its first question)."""
    with _current_lock:
        return _current


def reset(*, keep_registered: bool = False) -> Registry:
    """Replace the process's registry with a fresh one: the next question scans the
    distributions and reads the environment again. Plugins registered at run time are
    forgotten too, unless ``keep_registered``. Returns the new registry."""
    global _current
    with _current_lock:
        old, _current = _current, Registry(_current.groups.values())
        if keep_registered:
            for group in old.groups:
                for name, target in old.registered(group).items():
                    _current.register(group, name, target)
        return _current


__all__ = [
    "CACHES",
    "COMMANDS",
    "CONTRIB",
    "DISABLE_ENV",
    "GROUPS",
    "LOAD_ENV",
    "MODELS",
    "PROCESSORS",
    "PROVIDED_BY",
    "STORES",
    "Group",
    "Plugin",
    "DISTRIBUTION",
    "Registry",
    "builtin",
    "current",
    "not_installed",
    "reset",
]
