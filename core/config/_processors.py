"""The processor lists of a configuration file.

The processor lists of a configuration file (``input_processors``, ...): checking their
shape, building the processors they name, and listing the names without building
anything (``tripwire agents``).

An item is a processor name, a ``{ use = NAME, ...options }`` table, or a group
table (``{ parallel = [...], id = "..." }``, ``{ sequence = [...], id = "..." }``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tripwire.errors import ConfigurationError
from tripwire.registry.discovery import create

_GROUP_KINDS = ("parallel", "sequence")


def _group_kind(spec: Mapping[str, Any]) -> str | None:
    """``"parallel"`` or ``"sequence"`` for a group table, None for a processor table."""
    kinds = [k for k in _GROUP_KINDS if k in spec]
    return kinds[0] if len(kinds) == 1 and "use" not in spec else None


def check_specs(specs: Any, where: str) -> None:
    """Check a processor list of names, ``{ use = ... }`` tables and group tables
    (``{ parallel = [...], id = "..." }``, ``{ sequence = [...], id = "..." }``)."""
    if isinstance(specs, str | bytes) or not isinstance(specs, Sequence):
        raise ConfigurationError(f"{where}: expected a list of processors, got {specs!r}")
    for i, spec in enumerate(specs):
        if isinstance(spec, str):
            continue
        here = f"{where}[{i}]"
        if not isinstance(spec, Mapping):
            raise ConfigurationError(f"{here}: expected a processor name or a table, got "
                                     f"{spec!r}")
        kind = _group_kind(spec)
        if kind is not None:
            allowed = {kind, "id"} | ({"select"} if kind == "parallel" else set())
            unknown = set(spec) - allowed
            if unknown:
                raise ConfigurationError(
                    f"{here}: unknown key(s) {sorted(unknown)} in a {kind} group; valid: "
                    f"{', '.join(sorted(allowed))}")
            if not isinstance(spec.get("id"), str) or not spec["id"]:
                raise ConfigurationError(f"{here}: a {kind} group needs id = \"...\"")
            check_specs(spec[kind], f"{here}.{kind}")
        elif not isinstance(spec.get("use"), str):
            raise ConfigurationError(
                f"{here}: a processor table needs use = \"NAME\" (or is a group: "
                f"{{ parallel = [...], id = \"...\" }} / {{ sequence = [...], id = \"...\" }}), "
                f"got {spec!r}"
            )

def build_processors(spec_list: Sequence[str | Mapping[str, Any]],
                     model: Callable[[str], Any] | None = None) -> list[Any]:
    """Processors from a list of names, ``{"use": NAME, **options}`` tables and group
    tables (``{"parallel": [...], "id": ...}``, ``{"sequence": [...], "id": ...}``).

    ``model`` (``Config.processor_model``) turns a processor's ``model = "models.NAME"``
    option into the model that ``[models.NAME]`` table describes, so a judge can call the
    same self-hosted endpoint as the agent; without it such a reference is an error.

    Two keys of a processor table are not constructor options: ``mode`` (wraps the
    processor as ``WithMode``) and ``fail_open`` (a bool set as the processor's
    ``fail_open`` attribute, so a failure lets its input through)."""
    if isinstance(spec_list, str | bytes) or not isinstance(spec_list, Sequence):
        raise ConfigurationError(
            f"a processor list must be a list of names or {{ use = NAME, ... }} tables, "
            f"got {spec_list!r}"
        )
    from tripwire.groups import parallel, sequence

    out: list[Any] = []
    for i, spec in enumerate(spec_list):
        if isinstance(spec, Mapping) and (kind := _group_kind(spec)) is not None:
            group_id: Any = spec.get("id")  # parallel() and sequence() check it
            try:
                members = build_processors(spec[kind], model)
                if kind == "parallel":
                    out.append(parallel(*members, id=group_id, select=spec.get("select")))
                else:
                    out.append(sequence(*members, id=group_id))
            except (ConfigurationError, TypeError, ValueError) as e:
                raise ConfigurationError(f"[{i}] ({kind} group): {e}") from e
            continue
        if isinstance(spec, str):
            name, options = spec, {}
        elif isinstance(spec, Mapping) and isinstance(spec.get("use"), str):
            name = spec["use"]
            options = {k: v for k, v in spec.items() if k != "use"}
        else:
            raise ConfigurationError(
                f"[{i}]: expected a processor name or a table with use = \"NAME\", "
                f"got {spec!r}"
            )
        ref = options.get("model")
        if isinstance(ref, str) and ref.startswith("models."):
            if model is None:
                raise ConfigurationError(
                    f"[{i}]: processor {name!r} model: {ref!r} refers to a [models.NAME] "
                    f"table, which only a configuration file has; use a router id "
                    f"\"provider/model\" or a model object")
            try:
                options["model"] = model(ref)
            except ConfigurationError as e:
                raise ConfigurationError(f"[{i}]: processor {name!r} {e}") from e
        mode = options.pop("mode", None)
        fail_open = options.pop("fail_open", None)
        if fail_open is not None and not isinstance(fail_open, bool):
            raise ConfigurationError(
                f"[{i}]: fail_open = {fail_open!r} must be true or false (true: a failure "
                f"of {name!r} lets its input through instead of ending the run)")
        try:
            processor = create(name, **options)
        except ConfigurationError as e:
            raise ConfigurationError(f"[{i}]: {e}") from e
        if fail_open is not None:
            _set_fail_open(processor, fail_open, f"[{i}]: processor {name!r}")
        if mode is not None:
            from tripwire.groups import WithMode
            from tripwire.hooks._lists import MODES

            if mode not in MODES:
                raise ConfigurationError(
                    f"[{i}]: mode = {mode!r} is not a mode; valid: {', '.join(MODES)}")
            processor = WithMode(processor, mode)
        out.append(processor)
    return out


def _set_fail_open(processor: Any, fail_open: bool, where: str) -> None:
    """Set ``fail_open`` on a built processor (a ``Processor`` attribute; any other
    processor object gets the attribute too, which is where the runner reads it)."""
    try:
        processor.fail_open = fail_open
    except AttributeError as e:  # __slots__ without fail_open, a frozen class
        raise ConfigurationError(
            f"{where}: cannot set fail_open on a {type(processor).__name__} object (its "
            f"class has __slots__ or is frozen); make fail_open a settable attribute"
        ) from e


def processor_ids(spec_list: Sequence[str | Mapping[str, Any]]) -> list[str]:
    """The processor names of a checked processor list, without building them (a
    group shows as ``id(kind: member, ...)``)."""
    out = []
    for spec in spec_list:
        if isinstance(spec, Mapping) and (kind := _group_kind(spec)) is not None:
            out.append(f"{spec['id']}({kind}: {', '.join(processor_ids(spec[kind]))})")
        else:
            out.append(spec if isinstance(spec, str) else str(spec["use"]))
    return out
