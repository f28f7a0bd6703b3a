"""Dates of birth in English, German, French and Spanish: month names and the way
each language writes a date, the keyword's own date (never one with another date
between them), and the birth-date column of a table."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire.detectors.identity import DateOfBirthDetector

DOB = DateOfBirthDetector()


def values(text: str) -> list[str]:
    return [d.value or "" for d in DOB.detect(text)]


@pytest.mark.parametrize(("text", "value"), [
    ("Zoé Marchand, née le 14 janvier 1998, ci-après", "14 janvier 1998"),
    ("Né le : 2 février 2013 à Amiens", "2 février 2013"),
    ("né le 1er mars 1979", "1er mars 1979"),
    ("Date de naissance du titulaire (vérification) : 16 juillet 1959", "16 juillet 1959"),
    ("nacido el 9 de mayo de 1952, con domicilio", "9 de mayo de 1952"),
    ("Fecha de nacimiento: 4 de julio de 1980", "4 de julio de 1980"),
    ("F. nac.: 18 de febrero de 1997", "18 de febrero de 1997"),
    ("geboren am 14. März 1987 in Köln", "14. März 1987"),
    ("Geburtsdatum: 3. Dezember 1990", "3. Dezember 1990"),
    ("DOB is April 9, 1958", "April 9, 1958"),
    ("born on the 12th of September, 1985", "12th of September, 1985"),
    ("14.03.1987 (date of birth)", "14.03.1987"),
])
def test_a_date_of_birth_is_found_in_each_language(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize(("text", "value"), [
    ("DOB: 01/15/2015 Start date: 09/03/2024", "01/15/2015"),
    ("a partir del 1 de junio de 2024. Titular: Inmaculada Herrera Ruiz, nacida el 15/09/1971",
     "15/09/1971"),
    ("Geburtsdatum 12.03.1985, Eintritt 01.04.2019", "12.03.1985"),
    ("signed 2 May 2019, born 3 May 1960", "3 May 1960"),
])
def test_a_keyword_names_its_own_date_not_one_beyond_another_date(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize("text", [
    "à partir du 1er juin 2024, la résiliation",
    "la factura del 3 de marzo de 2024",
    "Lieferung am 14. März 2024",
])
def test_a_date_with_no_birth_keyword_of_its_own_is_not_one(text):
    assert values(text) == []


CSV = ("id,first_name,email,phone,dob,ssn\n"
       "10442,Marisa,m@example.com,918-742-3310,1983-02-11,119-50-6144\n"
       "10443,Kieran,k@example.com,(405) 228-9014,1990-09-30,090-62-8332\n"
       "\n"
       "later: 1991-01-01,a,b,c,d,e\n")


def test_the_birth_date_column_of_a_table_is_found():
    assert values(CSV) == ["1983-02-11", "1990-09-30"]
    semicolons = ("Name;E-Mail;Telefon;Geburtsdatum;Straße\n"
                  "Anna Weber;a@example.de;0421 6692 3108;11.02.1983;Goethestr. 12\n"
                  "Jonas Kurt;j@example.de;+49 172 5590312;30.09.1990;Am Markt 4a\n")
    assert values(semicolons) == ["11.02.1983", "30.09.1990"]
    tabs = "name\tdate_of_birth\tcity\nAda\t10 December 1915\tLondon\n"
    assert values(tabs) == ["10 December 1915"]


def test_a_sentence_with_commas_is_no_table_header():
    text = ("We asked for the date of birth, the address, and the phone, as always.\n"
            "2024-01-02,2024-02-03,2024-03-04,2024-04-05\n")
    assert values(text) == []


MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"],
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
           "September", "Oktober", "November", "Dezember"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"],
}
WRITTEN = {
    "en": ("born on {d} {m} {y}", "{d} {m} {y}"),
    "de": ("geboren am {d}. {m} {y}", "{d}. {m} {y}"),
    "fr": ("née le {d} {m} {y}", "{d} {m} {y}"),
    "es": ("nacida el {d} de {m} de {y}", "{d} de {m} de {y}"),
}


@settings(max_examples=200, deadline=None, database=None)
@given(st.sampled_from(sorted(MONTHS)),
       st.dates(datetime.date(1901, 1, 1), datetime.date(2015, 12, 31)))
def test_property_any_past_date_written_with_a_month_name_near_a_keyword_is_found(lang, date):
    sentence, value = WRITTEN[lang]
    parts = {"d": date.day, "m": MONTHS[lang][date.month - 1], "y": date.year}
    assert values(sentence.format(**parts) + ", merci.") == [value.format(**parts)]
