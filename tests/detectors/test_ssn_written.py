"""US Social Security numbers as people write them in English, German, French and
Spanish texts: the words each language calls one ("Seguro Social",
"Sozialversicherungsnummer", "sécurité sociale", "SSNs"), nine bare digits or dotted
groups near them, the SSN column of a table; and, side by side, the nine-digit
identifiers that are not one."""

from __future__ import annotations

import pytest

from tripwire.detectors.identity import SSNDetector

SSN = SSNDetector()


def values(text: str) -> list[str]:
    return [d.value or "" for d in SSN.detect(text) if d.score >= 0.6]


@pytest.mark.parametrize(("text", "found"), [
    ("SSNs: 536854718 and 343291321", ["536854718", "343291321"]),
    ("número de Seguro Social: 536854718", ["536854718"]),
    ("Seguro Social 536854718, por favor", ["536854718"]),
    ("US-Sozialversicherungsnummer 536854718", ["536854718"]),
    ("Sozialversicherungs-Nr. (USA): 536854718", ["536854718"]),
    ("numéro de sécurité sociale américain : 536854718", ["536854718"]),
    ("SSN: 536.85.4718", ["536.85.4718"]),
    ("id|ssn|n\n1|536854718|x\n2|343291321|y\n", ["536854718", "343291321"]),
    ("Name;SSN;Geburtsdatum\nAnna;536854718;1990-01-01\nBen;343291321;1985-02-02\n",
     ["536854718", "343291321"]),
])
def test_an_ssn_written_any_way_is_found(text, found):
    assert values(text) == found


@pytest.mark.parametrize("text", [
    "see 536.85.4718 here",                          # dotted, no word
    "version 536.85.4718",
    "a;b;c\n1;536854718;x\n",                        # a column that is not an SSN's
    "name,phone,dob\nAna,536854718,1990-01-01\n",
    "Kontonummer 536854718",
    "Sozialversicherungsnummer 12 150485 M 123",     # a German one: not an SSN
    "numéro de sécurité sociale 1 85 05 78 006 084 36",
    "ITIN 912-70-1234",
    "EIN 12-3456789",
    "zip 53685-4718",
])
def test_nine_digits_no_ssn_word_or_column_names_are_not_one(text):
    assert values(text) == []


def test_the_ssn_column_of_a_markdown_table_is_found():
    table = "| Name | SSN |\n|---|---|\n| Ann | 536854718 |\n| Bob | 343291321 |\n"
    assert values(table) == ["536854718", "343291321"]
    other = "| Name | Kunde |\n|---|---|\n| Ann | 536854718 |\n| Bob | 343291321 |\n"
    assert values(other) == []
