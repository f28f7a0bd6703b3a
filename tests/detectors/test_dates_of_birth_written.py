"""Dates of birth as people write them in English, German, French and Spanish, beyond
the forms the evaluation set's development half holds: every birth word of the four
languages (verbs and abbreviations too), month names and their abbreviations with any
separator, ordinals, two-digit years, compact ``YYYYMMDD``, keys of JSON and logs in
camelCase; and, side by side, the dates near those words that are not anyone's birth."""

from __future__ import annotations

import datetime

import pytest

from tripwire.detectors.identity import DateOfBirthDetector

DOB = DateOfBirthDetector()


def values(text: str) -> list[str]:
    return [d.value or "" for d in DOB.detect(text)]


@pytest.mark.parametrize(("text", "value"), [
    # English
    ("born 14 Mar 87 in Leeds", "14 Mar 87"),
    ("She was born on March 14th, '87.", "March 14th, '87"),
    ("B-day: 3rd Feb 1992", "3rd Feb 1992"),
    ("DOB 19870314, MRN 448812", "19870314"),
    ('{"dateOfBirth": "1987-03-14", "plan": "gold"}', "1987-03-14"),
    ("patientDOB=19870314 ward=4", "19870314"),
    ("dateofbirth=03/14/1987&zip=10001", "03/14/1987"),
    ("d.o.b. 14-Mar-1987", "14-Mar-1987"),
    # German
    ("Geb: 14.03.1987, Köln", "14.03.1987"),
    ("geb 14.3.87", "14.3.87"),
    ("Max Mustermann (* 14.03.1987) wohnt in Bonn", "14.03.1987"),
    ("Anna Weber, *12. Mrz. 1985, Köln", "12. Mrz. 1985"),
    ("geboren am 14.März 1987", "14.März 1987"),
    ("Geburtstag: 2. Feber 1990", "2. Feber 1990"),
    ("geburtsDatum=1987-03-14", "1987-03-14"),
    # French
    ("Né à Lyon le 14 mars 1987.", "14 mars 1987"),
    ("née en Bretagne le 2 fév. 1990", "2 fév. 1990"),
    ("Date de naiss. : 03/04/1985", "03/04/1985"),
    ("DDN : 12/05/1979", "12/05/1979"),
    ("né(e) le 14/03/1987", "14/03/1987"),
    ("dateNaissance=1987-03-14", "1987-03-14"),
    # Spanish
    ("nació el 3 de mayo de 1990 en Sevilla", "3 de mayo de 1990"),
    ("yo nací el 14/03/1987", "14/03/1987"),
    ("mi cumpleaños: 14-mar-1987", "14-mar-1987"),
    ("nacido el 1º de mayo de 1980", "1º de mayo de 1980"),
    ("fecha de nacimiento: 14/mar/1987", "14/mar/1987"),
    ("fechaNacimiento=1987-03-14", "1987-03-14"),
])
def test_a_date_of_birth_written_any_way_is_found(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize("text", [
    "* 2024-03-12 released the new build",           # a bullet, not a birth sign
    "notes:\n  * 12.03.1985 contract signed",
    "Preis 3 * 12.03.2020",                            # a product
    "NAC policy of 12.03.2023",                        # no birth word
    "nacional desde el 12/03/2020",
    "Firmengeburtstag am 12.03.2019",                  # a word that holds one
    "Rhône, le 14 mars 1987",
    "la nacionalidad se concedió el 3 de mayo de 2010",
    "Geburtsort: Köln. Vertrag vom 01.02.2020, Anlage vom 03.02.2020",
])
def test_a_date_no_birth_word_names_is_not_one(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ("Date of birth (as shown on your passport, DD/MM/YYYY): 14/03/1987", "14/03/1987"),
    ("Geburtsdatum (bitte wie im Reisepass angeben, TT.MM.JJJJ): 14.03.1987", "14.03.1987"),
    ("Date de naissance (telle qu'indiquée sur la pièce d'identité) : 14/03/1987",
     "14/03/1987"),
    ("Fecha de nacimiento (tal como figura en su pasaporte): 14/03/1987", "14/03/1987"),
])
def test_a_forms_label_with_a_note_before_its_colon_names_the_date_after_it(text, value):
    assert values(text) == [value]


def test_a_date_far_after_a_birth_word_with_no_colon_between_is_not_its_date():
    assert values("I was born, and then very many, many years later, on 12.03.1985, I moved") == []
    assert values("born in a village far away from here, and on the 12.03.1985: I moved") == []


def test_the_birth_date_column_of_a_markdown_table_is_found():
    table = ("| Name | Geburtsdatum | Ort |\n|---|---|---|\n"
             "| Anna Weber | 14.03.1987 | Köln |\n| Jonas Kurt | 02.11.1990 | Bonn |\n")
    assert values(table) == ["14.03.1987", "02.11.1990"]


LAST_YEAR = datetime.date.today().year - 1


@pytest.mark.parametrize("text", [
    f"Geburtstagsfeier am 14.03.{LAST_YEAR} im Büro",
    f"birthday party on 03/14/{LAST_YEAR}",
    f"cumpleaños de Lucía el 3 de mayo de {LAST_YEAR}",
])
def test_a_recent_date_near_a_birthday_word_only_is_a_party(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ("my birthday is 14/03/1987", "14/03/1987"),
    ("Mein Sohn, geb. 11.02.2024, hat bald Geburtstag", "11.02.2024"),
    ("mi cumpleaños: 14-mar-1987", "14-mar-1987"),
])
def test_a_birthday_words_old_date_or_a_birth_words_recent_one_is_a_birth_date(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize(("text", "value"), [
    # a month in Roman numerals, a ticket's or a chart's compact date
    ("Nacida el 8-IV-1989 · Carné B", "8-IV-1989"),
    ("geb. 14.III.1987 in Graz", "14.III.1987"),
    ("Date de naissance : 3/XII/1975", "3/XII/1975"),
    ("DOB 14MAR1987 SEX F", "14MAR1987"),
    ("PAX SMITH/ANNA MRS DOB 02FEB85", "02FEB85"),
    # German puts the participle last: its date is the one before it
    ("Anna ist am 7. Juli 1989 geboren, Termin am 12.07.2024.", "7. Juli 1989"),
    ("Er ist am 3. Mai 1965 in Köln geboren. Eingestellt am 01.08.2019.", "3. Mai 1965"),
    ("Sie ist am 14.03.1987 zur Welt gekommen und wohnt seit 01.02.2020 hier.", "14.03.1987"),
    # a birth word's date said with its preposition, farther on in its sentence
    ("Born in Leeds to a family of two teachers on 14 March 1987, she", "14 March 1987"),
    ("Je suis né à Lyon, dans le troisième arrondissement, le 14 mars 1987.", "14 mars 1987"),
    ("Mi hijo nació en el Hospital La Paz de Madrid el 3 de mayo de 2015.", "3 de mayo de 2015"),
    ("Our daughter was born at St Mary's Hospital in Manchester on 3 May 2015.", "3 May 2015"),
    ("Geboren wurde er im Kreiskrankenhaus von Bad Hersfeld am 2. Juni 1961.", "2. Juni 1961"),
    # an age with a person's noun before it, no verb
    ("Patient, 37 ans (14/03/1987), adressé le 02/05/2024", "14/03/1987"),
    ("Paciente de 37 años (14/03/1987), ingreso el 02/05/2024", "14/03/1987"),
    ("une patiente de 52 ans, née en Bretagne, DDN 04/11/1972", "04/11/1972"),
])
def test_a_date_of_birth_in_more_written_forms_is_found(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize("text", [
    "Flug LH 441 am 14MAR2024, Gate B12",
    "Rechnung vom 8-IV-2024, zahlbar bis 8-V-2024",
    "Anna ist 1989 geboren, Termin am 12.07.2024.",
    "Er wurde in Köln geboren. Eingestellt am 01.08.2019.",
    "She was born in Leeds. On 14 March 2019 she joined the team.",
    "Il est né à Lyon. Le 14 mars 2019, il a rejoint l'équipe.",
    "plus de 20 ans d'expérience (depuis le 01/09/2004)",
    "un contrat de 15 ans signé le 01/09/2011",
    "Garantía de 15 años desde el 01/09/2011",
])
def test_dates_that_other_words_or_sentences_name_are_no_birth_dates(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Geburtsdaten der Kinder: 03.05.2010, 04.06.2012 und 05.07.2015",
     ["03.05.2010", "04.06.2012", "05.07.2015"]),
    ("Dates of birth: 03/05/2010 (Anna), 04/06/2012 (Ben)", ["03/05/2010", "04/06/2012"]),
    ("dates de naissance des enfants : 03/05/2010 et 04/06/2012", ["03/05/2010", "04/06/2012"]),
    ("Fechas de nacimiento: 03/05/2010, 04/06/2012 y 05/07/2015.",
     ["03/05/2010", "04/06/2012", "05/07/2015"]),
    ("Our kids were born on 03/05/2010 and 04/06/2012.", ["03/05/2010", "04/06/2012"]),
    ("Mis hijos nacieron el 03/05/2010 y el 04/06/2012.", ["03/05/2010", "04/06/2012"]),
    ("Mes enfants sont nés le 03/05/2010 et le 04/06/2012.", ["03/05/2010", "04/06/2012"]),
    # a form's leader between the label and its value
    ("Date of birth .............................................. 14/03/1987", ["14/03/1987"]),
    ("Geburtsdatum:                                               14.03.1987", ["14.03.1987"]),
    ("Fecha de nacimiento ______________________ 14/03/1987", ["14/03/1987"]),
])
def test_a_list_of_birth_dates_and_a_forms_leader_are_read_as_people_write_them(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("DOB 14/03/1987, visit 01/09/2024, follow-up 15/09/2024", ["14/03/1987"]),
    ("Born: 14/03/1987 | Joined: 01/09/2019 | Left: 31/12/2023", ["14/03/1987"]),
    ("né le 03/05/1980, embauché le 01/09/2019", ["03/05/1980"]),
    ("Invoice date ............................................ 14/03/2024", []),
])
def test_a_date_after_a_birth_date_with_a_word_of_its_own_is_no_birth_date(text, expected):
    assert values(text) == expected
