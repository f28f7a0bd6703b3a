"""Dates of birth in more of the forms people write them, in English, German, French
and Spanish: under a heading that names the birth date (a ticket's title, a
message's subject, a label on its own line), written again in another form or order
("„3. März 1978“ ... „03.03.1978“"), after "b.", a CV's "*12.04.1985" at a line's
start, the phrases for being born ("zur Welt gekommen", "venu au monde", "vino al
mundo"), an ISO date with its time, a dotted month-first date; and, side by side,
the dates that are not one: a report's date under such a heading, a bullet, a
different date after a date of birth, prose."""

from __future__ import annotations

import datetime

import pytest

from tripwire.detectors.identity import DateOfBirthDetector

DOB = DateOfBirthDetector()


def dates(text: str) -> list[str]:
    return [d.value or "" for d in DOB.detect(text)]


@pytest.mark.parametrize(("text", "want"), [
    ("BUG-552: Geburtsdatum in Langform wird nicht erkannt\n"
     "Import aus dem Bewerberportal: „3. März 1978“ wird als leer übernommen",
     ["3. März 1978"]),
    ("RRHH-771: fecha de nacimiento mal en el portal del empleado\n"
     "Abel Quiroga indica que en su ficha aparece 07/05/1983", ["07/05/1983"]),
    ("Subject: date of birth on my account is wrong\n\nHi, the app shows 1986-11-02 "
     "for my profile.", ["1986-11-02"]),
    ("Objet : correction de la date de naissance\nBonjour, mon dossier indique le "
     "14 avril 1969, merci de corriger.", ["14 avril 1969"]),
    ("Date of birth (as on your passport)\n\nPlease type it below; we reply within a "
     "day.\n02/11/1979", ["02/11/1979"]),
    ("Could you confirm your date of birth so I can verify the account?\n\nUser: Sure, "
     "no problem at all, it is 14/03/1987", ["14/03/1987"]),
    ("¿Me puede indicar su fecha de nacimiento para verificar la cuenta?\nCliente: claro "
     "que sí, es el 14/03/1987", ["14/03/1987"]),
    ("Wie lautet Ihr Geburtsdatum?\nKunde: Moment, ich schaue kurz nach ... das wäre der "
     "14. März 1987", ["14. März 1987"]),
])
def test_a_date_under_a_heading_that_names_a_birth_date_is_one(text, want):
    assert dates(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Geburtsdatum: „3. März 1978“ wird leer übernommen, „03.03.1978“ klappt.",
     ["3. März 1978", "03.03.1978"]),
    ("fecha de nacimiento: aparece 07/05/1983 y la correcta es el 5 de julio de 1983",
     ["07/05/1983", "5 de julio de 1983"]),
    ("DOB 1990-02-14, i.e. 14 Feb 1990", ["1990-02-14", "14 Feb 1990"]),
    ("né le 02/03/1961 (soit le 2 mars 1961)", ["02/03/1961", "2 mars 1961"]),
])
def test_a_date_of_birth_written_again_in_another_form_is_one(text, want):
    assert dates(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Ann Lee (b. 1987-03-03) joined in 2010.", "1987-03-03"),
    ("Marie Curie, b. 7 Nov 1867", "7 Nov 1867"),  # a person's, however long ago
    ("Goethe, geb. 28.08.1749", "28.08.1749"),
    ("Johann Weber, geb. 12.03.1699", None),  # before 1700
    ("Tom Baker, b. 20 January 1934, actor", "20 January 1934"),
    ("LEBENSLAUF\nTimo Hagedorn\n*12.04.1985 in Kassel", "12.04.1985"),
    ("Sie ist am 14. März 1987 in Graz zur Welt gekommen.", "14. März 1987"),
    ("Il est venu au monde le 14 mars 1987 à Lyon.", "14 mars 1987"),
    ("vino al mundo el 14 de marzo de 1987 en Cádiz", "14 de marzo de 1987"),
    ("Mi madre dio a luz el 3 de mayo de 1990.", "3 de mayo de 1990"),
    ('{"name": "Ann Lee", "birthDate": "1987-03-14T00:00:00Z"}', "1987-03-14"),
    ("dob: 03.14.1987", "03.14.1987"),
    ("DOB 14 03 1987", "14 03 1987"),
    ("Geboren: 14. 03. 1987", "14. 03. 1987"),
    ("Date de naissance : 14 / 03 / 1987", "14 / 03 / 1987"),
    ("fecha de nacimiento 01 03 1987", "01 03 1987"),
    ("DOB 14 03 87", None),  # spaced, a two-digit year: any three numbers
])
def test_more_ways_of_saying_born_find_the_date(text, want):
    assert dates(text) == ([want] if want else [])


RECENT = (datetime.date.today() - datetime.timedelta(days=400)).strftime("%d.%m.%Y")


@pytest.mark.parametrize("text", [
    f"BUG-552: Geburtsdatum in Langform wird nicht erkannt\nGemeldet am {RECENT} von "
    "der Personalabteilung.",
    "Subject: birthday party\n\nHi all, just so you know: the venue was booked on "
    "12/03/2001 and again later",
    "Please never paste your date of birth in this chat. Thanks.\nOur office opened "
    "on 03/04/1998 in Leeds.",
    "* 12.04.1985 Abschluss der Ausbildung\n* 01.09.1986 erste Stelle",
    "3 *12.04.1985",
    "Geburtsdatum-Feld: siehe Abschnitt 4.\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
    "Ein Eintrag von ganz unten, viele Zeilen später und weit weg: 12.04.1985",
    "Option b. 2.5 mg, option c. 5 mg",
    "Wann haben Sie Geburtstag?\nKunde: Moment, ich schaue kurz nach, die Feier war am "
    "14.03.1990",
    "Is your date of birth on file? We checked. It is.\nThe account was opened on "
    "14/03/1999 in the branch.",
    "Il est le meilleur au monde depuis longtemps.",
])
def test_a_date_that_is_not_a_birth_date_is_left(text):
    assert dates(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("DOB: 14.03.1987, Einstellung am 01.09.1987", ["14.03.1987"]),
    ("Geburtsdatum 02.03.1961, Heirat 03.02.1985", ["02.03.1961"]),
    ("fecha de nacimiento 05/07/1983; alta en la empresa 07/05/2005", ["05/07/1983"]),
])
def test_another_date_after_a_date_of_birth_is_not_one(text, want):
    assert dates(text) == want



YEAR = datetime.date.today().year


@pytest.mark.parametrize(("text", "want"), [
    (f"Anna Weber, 37 Jahre alt (14.03.{YEAR - 37})", f"14.03.{YEAR - 37}"),
    (f"Patient: John Smith, 45 y/o, 03/14/{YEAR - 46}", f"03/14/{YEAR - 46}"),
    (f"Elle a 37 ans, le 14/03/{YEAR - 38} à Lyon", f"14/03/{YEAR - 38}"),
    (f"Âgée de 52 ans (2 mars {YEAR - 53})", f"2 mars {YEAR - 53}"),
    (f"Mi hijo tiene 30 años: 14/03/{YEAR - 32}", f"14/03/{YEAR - 32}"),
    (f"edad: 41, {YEAR - 42}-05-06", f"{YEAR - 42}-05-06"),
    (f"age: 37 | {YEAR - 39}-03-14", f"{YEAR - 39}-03-14"),
])
def test_a_date_beside_an_age_it_fits_is_a_birth_date(text, want):
    assert dates(text) == [want]


@pytest.mark.parametrize("text", [
    "Anna, 37 Jahre alt, Eintritt 14.03.2015",             # the age does not fit
    f"depuis 3 ans, le 14/03/{YEAR - 4}",                   # a time, not an age
    f"hace 3 años, el 14/03/{YEAR - 3}",
    f"page: 37, updated 03/14/{YEAR - 37}",                 # not an age's word
    f"Alter: 37, Aufnahme 12.03.{YEAR - 2}",
    f"a 5-year-old laptop bought 03/14/{YEAR - 5}",
])
def test_a_date_beside_an_age_it_does_not_fit_is_left(text):
    assert dates(text) == []
