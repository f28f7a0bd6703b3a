"""Detection types of your own, for the processors whose judge finds them
(``pii-detector``, ``prompt-injection-detector``): the reference's judges take any
detection type name (``detectionTypes: ['employee-id']``) and ask the model for it.

With a judge (``model=``) a type name outside a processor's built-in ones is asked
of the judge in the same call as the built-in ones: its name in the verdict's schema,
its meaning (from ``type_descriptions``, or its name alone) in the judge's
instructions. Without one, no detector could find it: it is an error that says so.

This module holds what both processors share: the rule for a type name
(``check_names``), that error (``unknown_types``), the ``type_descriptions`` option
(``check_descriptions``) and the lines of the instructions that say what each type
means (``meaning_lines``, ``described``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from tripwire.errors import ConfigurationError
from tripwire.option_checks import check

__all__ = ["MAX_NAME", "TYPE_NAME", "UNDESCRIBED", "check_descriptions", "check_names",
           "described", "meaning_lines", "unknown_types"]

#: A type name of your own: lower-case words of letters and digits joined by ``-``,
#: starting with a letter (``employee-id``, ``custom-jailbreak``), as the built-in
#: types are spelled. A placeholder spells the type upper-cased with ``_`` for ``-``
#: (``[EMPLOYEE_ID]``, ``<EMPLOYEE_ID_1>``): so two names never spell one placeholder.
TYPE_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: The longest type name.
MAX_NAME = 64

#: What the judge is told a type without a description means.
UNDESCRIBED = "what its name says"


def check_names(owner: str, names: Iterable[str]) -> None:
    """``ConfigurationError`` for the first of ``names`` (types of your own) that is not
    a valid type name (``TYPE_NAME``, at most ``MAX_NAME`` characters)."""
    for name in names:
        if len(name) > MAX_NAME or not TYPE_NAME.fullmatch(name):
            raise ConfigurationError(
                f"{owner}: detection type {name!r} in detection_types is not a valid type "
                f"name: lower-case letters and digits, words joined by '-', starting with a "
                f"letter, at most {MAX_NAME} characters (like 'employee-id')")


def unknown_types(owner: str, unknown: Sequence[str], valid: str) -> ConfigurationError:
    """The error for types no detector finds and no judge is there to ask: it names
    them, the valid ones (``valid``), and that a judge would accept them."""
    return ConfigurationError(
        f"{owner}: unknown detection type(s) {', '.join(unknown)}; valid: {valid}. A judge "
        f"accepts any other name in detection_types and asks its model for it: give model= "
        f"(a router id or a model object), and describe the type in type_descriptions")


def check_descriptions(owner: str, descriptions: object, judged: Sequence[str], *,
                       has_judge: bool) -> dict[str, str]:
    """The ``type_descriptions`` option checked: a mapping of type name to what the type
    means (text), each type one the judge is asked about (``judged``), each description
    non-empty. ``{}`` for ``None``."""
    checked = check("type_descriptions", descriptions, dict[str, str] | None, owner=owner)
    if not checked:
        return {}
    if not has_judge:
        raise ConfigurationError(
            f"{owner}: type_descriptions tell a judge what a type means, and there is no "
            f"judge: give model= (a router id or a model object)")
    extra = [t for t in checked if t not in judged]
    if extra:
        raise ConfigurationError(
            f"{owner}: type_descriptions names {', '.join(map(repr, extra))}, which the "
            f"judge is not asked about; it describes types of detection_types the judge "
            f"finds: {', '.join(judged)}")
    for name, text in checked.items():
        if not text.strip():
            raise ConfigurationError(
                f"{owner}: type_descriptions[{name!r}] is empty; say what the type means "
                f"(\"an employee number, EMP- and six digits\")")
    return {name: " ".join(text.split()) for name, text in checked.items()}


def meaning_lines(types: Iterable[str], meanings: Mapping[str, str]) -> str:
    """One line a type, ``\\n- name: meaning``, for a judge's instructions; a type
    without a meaning is told to mean ``UNDESCRIBED``."""
    return "".join(f"\n- {t}: {meanings.get(t, UNDESCRIBED)}" for t in types)


def described(instructions: str, descriptions: Mapping[str, str]) -> str:
    """Instructions of your own (``instructions=``) with the ``type_descriptions``
    given appended, so the judge learns what they mean; as they are without any."""
    if not descriptions:
        return instructions
    return (f"{instructions.rstrip()}\n\nWhat these detection types mean:"
            f"{meaning_lines(descriptions, descriptions)}")
