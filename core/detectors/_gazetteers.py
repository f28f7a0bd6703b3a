"""The name data the offline ``name`` detector reads, from the packages of the ``names``
extra (``pip install 'tripwire[names]'``), loaded once per process when the first
detector is built, never when ``tripwire`` is imported.

- ``first_names()``: given names and how common each is, from ``gender-guesser``'s
  dictionary (Jörg Michael's ``nam_dict.txt``, about 48,000 given names with their
  frequency in each of 54 countries and regions, the four languages' countries and
  their immigrant communities among them), as the largest frequency over the
  countries, 1 (rare) to 13 (very common);
- ``surnames()``: family names, from ``probablepeople``'s table of the US census's
  names (about 150,000, with the share of people who bear each as a given name): the
  names borne as a given name by at most one bearer in ten, upper case, without
  accents.

Both are a few MB and take about 0.1 s each to read. The larger ``names-dataset``
(730,000 given names and 980,000 surnames of 105 countries) takes 11 s and 2 GB of
memory to load, too much for a detector built per agent.
"""

from __future__ import annotations

import functools
import importlib
import importlib.resources
import importlib.util
import unicodedata

from tripwire.errors import MissingDependencyError

__all__ = ["EXTRA", "first_names", "fold_name", "require", "surnames"]

#: How to install what the offline tier needs.
EXTRA = "pip install 'tripwire[names]'"
#: The packages of the extra, by the module each is imported as.
_PACKAGES = {"gender_guesser": "gender-guesser", "probablepeople": "probablepeople"}


def require(what: str) -> None:
    """Raise ``MissingDependencyError`` naming the extra when one of its packages is
    missing (``what``: the detector asking, for the message)."""
    missing = [dist for module, dist in _PACKAGES.items()
               if importlib.util.find_spec(module) is None]
    if missing:
        raise MissingDependencyError(
            f"{what} needs the names extra ({', '.join(missing)} not installed): {EXTRA}")


@functools.cache
def first_names() -> dict[str, int]:
    """Given name (as written, capitalised) → its largest frequency in any country
    (1 rare ... 13 very common). A name written with variants (``Abdel+Rahman``) is
    there joined, hyphenated and spaced."""
    require("the name detector")
    data = importlib.resources.files("gender_guesser") / "data" / "nam_dict.txt"
    names: dict[str, int] = {}
    for line in data.read_text(encoding="utf-8").splitlines():
        if not line or line[0] in "#=":
            continue
        line = line.rstrip()
        name = line[3:29].strip()
        # one hexadecimal digit a country, blank where the name is not borne: the
        # largest digit is the largest character ("9" < "A")
        frequencies = line[30:-1].replace(" ", "")
        strength = int(max(frequencies), 16) if frequencies else 0
        variants = [name] if "+" not in name else [
            name.replace("+", sep) for sep in ("", "-", " ")]
        for variant in variants:
            if strength > names.get(variant, -1):
                names[variant] = strength
    return names


def fold_name(token: str) -> str:
    """``token`` upper case without accents (``Müller`` → ``MULLER``), as the census
    table writes names."""
    if token.isascii():
        return token.upper()
    decomposed = unicodedata.normalize("NFKD", token)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


@functools.cache
def surnames() -> frozenset[str]:
    """Family names (``fold_name`` form): the census names borne as a given name by
    at most one bearer in ten."""
    require("the name detector")
    ratios: dict[str, float] = importlib.import_module("probablepeople.ratios").ratios
    return frozenset(name for name, given in ratios.items() if given <= 0.1)
