"""Dates of birth in the whole of each language's grammar and of ID documents' layouts,
not only the forms the evaluation sets hold: every form of the verbs for being born
(French "naître": naît, nait, naquit; Spanish "nacer": nace, naci, nacio, nació, without
their accents as chats write them), the idioms ("vu le jour", "vio la luz", "das Licht
der Welt erblickt"), the labels' abbreviations ("F.N.:", "DN :", "D.D.N.", "Fecha de
nac:", ``fecha_nac=``, "GebDatum"), "natalicio", "anniversaire", a place between the
label and the date ("Lugar y fecha de nacimiento: Sevilla, 14 de marzo de 1987"), a
month printed in two languages (``14 MARS/MAR 1987``), Spanish years ``1.987`` and
"del año 1987"; and, side by side, the dates near those words that are nobody's
birth."""

from __future__ import annotations

import pytest

from tripwire.detectors.identity import DateOfBirthDetector

DOB = DateOfBirthDetector()


def values(text: str) -> list[str]:
    return sorted(d.value or "" for d in DOB.detect(text))


@pytest.mark.parametrize(("text", "want"), [
    ('Lugar y fecha de nacimiento: Sevilla, 14 de marzo de 1987', ['14 de marzo de 1987']),
    ('Nació en Bogotá el 3 de mayo de 1980 y se mudó a Madrid en 2005.', ['3 de mayo de 1980']),
    ('Nacida en Rosario (Argentina) el 22/07/1991.', ['22/07/1991']),
    ('F. de nacimiento: 05-11-1979', ['05-11-1979']),
    ('Fecha nac.: 12/03/85', ['12/03/85']),
    ('FECHA DE NACIMIENTO 14 03 1987', ['14 03 1987']),
    ('Fecha de nacimiento: 14 MAR 1987', ['14 MAR 1987']),
    ('nací el 14 de marzo del 87, así que ya tengo 37', ['14 de marzo del 87']),
    ('Nacimiento: 1987-03-14', ['1987-03-14']),
    ('el niño nació el miércoles 14 de marzo de 2018 a las 3 de la mañana', ['14 de marzo de 2018']),
    ('Mi cumpleaños es el 14 de marzo de 1987.', ['14 de marzo de 1987']),
    ('fecha_nac=1987-03-14;dni=12345678Z', ['1987-03-14']),
    ('Paciente: varón, 45 años, f.n. 02/02/1979', ['02/02/1979']),
    ('D. Emilio Paredes, nacido en Málaga el día 19 de febrero de 1958', ['19 de febrero de 1958']),
    ('Nombre: Ana Ruiz\nFecha de nacimiento\n14/03/1987', ['14/03/1987']),
    ('Hijos: Lucía (nacida el 3/4/2010) y Pablo (nacido el 5/6/2012).', ['3/4/2010', '5/6/2012']),
    ('nacida el 14 de marzo de 1987 en Cádiz', ['14 de marzo de 1987']),
    ('FN: 14.03.1987', ['14.03.1987']),
    ('Fecha de nacimiento (dd/mm/aaaa): 07/10/1969', ['07/10/1969']),
    ('Mi hijo nació el 2 de enero de 2015.', ['2 de enero de 2015']),
    ('Nacimiento 14-mar-1987', ['14-mar-1987']),
    ('nacido el 1 de septiembre de 1990', ['1 de septiembre de 1990']),
    ('nacido el 1 de setiembre de 1990', ['1 de setiembre de 1990']),
    ('Fecha de Nacimiento: Marzo 14, 1987', ['Marzo 14, 1987']),
    ('fecha de nac. 14/III/1987', ['14/III/1987']),
    ('La fecha de nacimiento que figura en el pasaporte es 14/03/1987, no 14/03/1978.', ['14/03/1987']),
    ('Née à Lyon le 14 mars 1987, de nationalité française.', ['14 mars 1987']),
    ('Date et lieu de naissance : 14/03/1987 à Lyon', ['14/03/1987']),
    ('Date et lieu de naissance : Lyon, le 14/03/1987', ['14/03/1987']),
    ('Né(e) le : 14.03.1987', ['14.03.1987']),
    ('né(e) le 14/03/87', ['14/03/87']),
    ('Date de naissance / Date of birth : 14 MARS/MAR 1987', ['14 MARS/MAR 1987']),
    ('Date de naiss. : 14-03-1987', ['14-03-1987']),
    ("j'ai vu le jour le 14 mars 1987 à Nantes", ['14 mars 1987']),
    ('Mon fils est né le lundi 2 janvier 2015.', ['2 janvier 2015']),
    ('naissance : 1987-03-14', ['1987-03-14']),
    ('Enfant : Léa, née le 1er avril 2012', ['1er avril 2012']),
    ('Nom : DURAND\nPrénom : Paul\nDate de naissance\n14/03/1987', ['14/03/1987']),
    ('né le 14 mars 1987 à Bordeaux (Gironde)', ['14 mars 1987']),
    ('Mme Colin, née le 8 févr. 1956', ['8 févr. 1956']),
    ('Ma date de naissance est le 14/03/1987.', ['14/03/1987']),
    ('né le 14 Mars 1987', ['14 Mars 1987']),
    ('Date de naissance : le 3 juin 1975', ['3 juin 1975']),
    ('DN : 03/06/1975', ['03/06/1975']),
    ('Patient né le 03.06.75, admis le 12.03.2024', ['03.06.75']),
    ('Anniversaire : 14/03/1987', ['14/03/1987']),
    ('date_naissance: 1987-03-14', ['1987-03-14']),
    ("Né le 14 mars 1987, il a aujourd'hui 37 ans.", ['14 mars 1987']),
    ('Geburtstag / Date of birth / Date de naissance\n14.03.1987', ['14.03.1987']),
    ('Geburtstag: 14.03.1987', ['14.03.1987']),
    ('Geb.-Datum: 14.03.1987', ['14.03.1987']),
    ('Geb.Dat. 14.03.87', ['14.03.87']),
    ('geb. am 14.3.1987 in Köln', ['14.3.1987']),
    ('Geburtsdatum/-ort: 14.03.1987, Köln', ['14.03.1987']),
    ('Geburtsdatum und -ort: 14.03.1987 in Köln', ['14.03.1987']),
    ('erblickte am 3. Mai 1980 in Hamburg das Licht der Welt', ['3. Mai 1980']),
    ('Er wurde am 3. Mai 1980 in Hamburg als Sohn eines Lehrers geboren.', ['3. Mai 1980']),
    ('Tag der Geburt: 03.05.1980', ['03.05.1980']),
    ('Mein Sohn kam am 2. Januar 2015 zur Welt.', ['2. Januar 2015']),
    ('geboren 14.03.1987', ['14.03.1987']),
    ('GEBURTSDATUM 14 03 1987', ['14 03 1987']),
    ('Geburtsdatum: 14.03.1987 (37 Jahre)', ['14.03.1987']),
    ('Name: Weber, Anna, geb. Schulz, *14.03.1987', ['14.03.1987']),
    ('Frau Weber (geb. 14.03.1987) ist Mitglied seit 01.01.2010.', ['14.03.1987']),
    ('Geburtsdatum: 14. Mrz. 1987', ['14. Mrz. 1987']),
    ('Geburtsdatum: Samstag, 14. März 1987', ['14. März 1987']),
    ('Geburtsdatum\t14.03.1987', ['14.03.1987']),
    ('Sie ist am 14.03.1987 geboren und wohnt in Bonn.', ['14.03.1987']),
    ('Kinder: Lena (geb. 03.05.2010), Tim (geb. 04.06.2012)', ['03.05.2010', '04.06.2012']),
    ('Born: Mar 14 1987', ['Mar 14 1987']),
    ('I was born on the 14th of March 1987 in Leeds.', ['14th of March 1987']),
    ('born March the 14th, 1987', ['March the 14th, 1987']),
    ('DoB 3/14/87', ['3/14/87']),
    ('Birth date: 1987-03-14', ['1987-03-14']),
    ('birthdate=1987-03-14', ['1987-03-14']),
    ('Date of Birth\n14/03/1987', ['14/03/1987']),
    ('Place and date of birth: Leeds, 14 March 1987', ['14 March 1987']),
    ('She was born in Leeds on 14 March 1987.', ['14 March 1987']),
    ('My birthday is March 14, 1987.', ['March 14, 1987']),
    ('Our daughter was born Tuesday, March 14, 2017.', ['March 14, 2017']),
    ('b-day: 14.03.1987', ['14.03.1987']),
    ('D.O.B: 14 MAR 1987', ['14 MAR 1987']),
    ('"dob": "03/14/1987"', ['03/14/1987']),
    ('F. Nacimiento: 14/03/1987', ['14/03/1987']),
    ('Fec. nac.: 14/03/1987', ['14/03/1987']),
    ('Fecha de nac: 14/03/1987', ['14/03/1987']),
    ('Nacido/a el: 14/03/1987', ['14/03/1987']),
    ('Natalicio: 14/03/1987', ['14/03/1987']),
    ('Nacido(a) el 14/03/1987', ['14/03/1987']),
    ('DNI 12345678Z, nacido 14/03/1987', ['14/03/1987']),
    ('NACIMIENTO 14.03.1987', ['14.03.1987']),
    ('con fecha de nacimiento 14/03/1987 y domicilio en Lugo', ['14/03/1987']),
    ('nació un 14 de marzo de 1987', ['14 de marzo de 1987']),
    ('vio la luz el 14 de marzo de 1987 en Vigo', ['14 de marzo de 1987']),
    ('fecha de nacimiento: 14 de Marzo de 1.987', ['14 de Marzo de 1.987']),
    ('nacida el 14 de marzo, 1987', ['14 de marzo, 1987']),
    ('nacida el 14 marzo 1987', ['14 marzo 1987']),
    ('Fecha de nacimiento: 1987/03/14', ['1987/03/14']),
    ('nacido el 14.03.87', ['14.03.87']),
    ('F.Nac.: 14/03/1987', ['14/03/1987']),
    ('Fecha de nacimiento – 14/03/1987', ['14/03/1987']),
    ('Edad: 37 (14/03/1987)', ['14/03/1987']),
    ('Fecha de nacimiento ........ 14/03/1987', ['14/03/1987']),
    ('el 14 de marzo de 1987 nació nuestra hija', ['14 de marzo de 1987']),
    ('Apellidos y nombre: Ruiz Gil, Ana\nNacimiento: 14-03-1987 (Lugo)', ['14-03-1987']),
    ('nacida el 14/3/87', ['14/3/87']),
    ('Fecha de nacimiento: 14 de marzo de 1987 (37 años)', ['14 de marzo de 1987']),
    ('naci el 14 de marzo de 1987', ['14 de marzo de 1987']),
    ('nacio el 14 de marzo de 1987', ['14 de marzo de 1987']),
    ('Fecha de nacimiento: 14 de marzo del año 1987', ['14 de marzo del año 1987']),
    ('cumpleaños: 14/03/1987', ['14/03/1987']),
    ('Datos del menor: Hugo, nacido el día 25/10/2013', ['25/10/2013']),
    ('Né(e) le 14/03/1987 à Lyon (69)', ['14/03/1987']),
    ('date de naissance : 14.03.87', ['14.03.87']),
    ('D.D.N. : 14/03/1987', ['14/03/1987']),
    ('ddn: 14/03/1987', ['14/03/1987']),
    ('Naissance le 14/03/1987', ['14/03/1987']),
    ("Il naît le 14 mars 1987 à Lyon, fils d'un boulanger.", ['14 mars 1987']),
    ('Elle naquit le 14 mars 1987.', ['14 mars 1987']),
    ('Date naissance: 14/03/1987', ['14/03/1987']),
    ('Le 14 mars 1987 est née notre fille Léa.', ['14 mars 1987']),
    ('14/03/1987 (date de naissance)', ['14/03/1987']),
    ('Mme Martin, née Dupont le 14 mars 1987', ['14 mars 1987']),
    ('née le 14 mars 87', ['14 mars 87']),
    ('né le 1er mars 1987', ['1er mars 1987']),
    ('Léa, 6 ans, née le 02/05/2018', ['02/05/2018']),
    ('Date de naissance (JJ/MM/AAAA) : 14/03/1987', ['14/03/1987']),
    ('date de naissance : 14 mars 1987', ['14 mars 1987']),
    ('nés le 03/05/2010 et le 04/06/2012', ['03/05/2010', '04/06/2012']),
    ('né le 14.3.1987', ['14.3.1987']),
    ('geb. 14.03.87', ['14.03.87']),
    ('Geburtsdatum (TT.MM.JJJJ): 14.03.1987', ['14.03.1987']),
    ('Geb.: 14.03.1987', ['14.03.1987']),
    ('Geb.-Dat.: 14.03.1987', ['14.03.1987']),
    ('GebDatum: 14.03.1987', ['14.03.1987']),
    ('geb am 14.03.1987', ['14.03.1987']),
    ('14.03.1987 (Geburtstag)', ['14.03.1987']),
    ("Geboren am 14. März '87 in Köln", ["14. März '87"]),
    ('geboren am 14.03.1987 in Köln', ['14.03.1987']),
    ('Mein Geburtsdatum ist der 14.03.1987.', ['14.03.1987']),
    ('Geburtsdatum: 1987-03-14', ['1987-03-14']),
    ('Geburtsdatum: 14/03/1987', ['14/03/1987']),
    ("born 14 Mar '87", ["14 Mar '87"]),
    ('DOB: 03.14.1987', ['03.14.1987']),
    ('Date of birth (dd/mm/yyyy): 14/03/1987', ['14/03/1987']),
    ('DOB - 14/03/1987', ['14/03/1987']),
    ('DOB 14-Mar-1987', ['14-Mar-1987']),
    ('birth: 1987-03-14', ['1987-03-14']),
    ('Born — 14 March 1987', ['14 March 1987']),
    ('born Mar. 14, 1987', ['Mar. 14, 1987']),
    ('date of birth 14.3.87', ['14.3.87']),
    ('Date of birth: Saturday 14 March 1987', ['14 March 1987']),
    ('DOB: 14th March 1987', ['14th March 1987']),
    ('DOB: 1987.03.14', ['1987.03.14']),
    ('birthDate: 19870314', ['19870314']),
    ('date of birth: 14-03-1987 | gender: F', ['14-03-1987']),
])
def test_a_date_of_birth_in_any_form_of_the_language_is_found(text, want):
    assert values(text) == want


@pytest.mark.parametrize("text", [
    'Fecha del pedido: 14/03/2024',
    'nacida el 30 de febrero de 1990',
    'Je suis née un 14 mars, en 1987.',
    'M. Roche, né en 1960 à Alger le 3 juin',
    'née le 14 mars mil neuf cent quatre-vingt-sept',
    'Ich bin Jahrgang 1987, genauer am 14.3. geboren.',
    'Bestelldatum: 14.03.2024, Lieferung 18.03.2024',
    'Invoice date: 14 March 2024',
    "né le 14 mars de l'an 1987",
    'Sohn Max, 8 Jahre (geb. 2016)',
    "NAC policy of 12.03.2023",
    "anniversaire de mariage : 14/06/1987",
    "Anniversaire du contrat : 01/09/2015",
    "DN: cn=admin,dc=example,dc=com, créé le 14/03/2019",
    "la natación el 14/03/2019",
    "naciones unidas, 14/03/2019",
    "Lieferdatum: 14.03.2024, Rechnung vom 01.03.2024",
])
def test_a_date_no_birth_word_of_the_grammar_names_is_not_one(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("Mon arrière-grand-mère Berthe, née le 2 février 1879 à Albi, fut institutrice.",
     ["2 février 1879"]),
    ("Urgroßvater Karl wurde am 14.08.1868 in Ulm geboren.", ["14.08.1868"]),
    ("Great-grandfather Thomas was born on 3 June 1881 in Cork.", ["3 June 1881"]),
    ("su tatarabuelo nació el 7-IX-1872 en Soria", ["7-IX-1872"]),
    ("Registre paroissial : né le 1845-04-12, baptisé le 1845-04-14", ["1845-04-12"]),
    ("Johann Weber, geb. 12.03.1699", []),  # before 1700
])
def test_an_ancestors_date_of_birth_is_one(text, want):
    assert values(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Familia: Pedro, nacido el 12/03/1980; Ana (su esposa), 05/07/82; Sofía, 01/02/2010",
     ["01/02/2010", "05/07/82", "12/03/1980"]),
    ("Passengers: John Smith, DOB 12/03/1980; Mary Smith, 05/07/1982",
     ["05/07/1982", "12/03/1980"]),
    ("Kinder: Lena, geb. 03.05.2010; Tim (Zwilling), 03.05.2010",
     ["03.05.2010", "03.05.2010"]),
    ("DOB 12/03/1980. Appointment: 05/07/2024", ["12/03/1980"]),
    ("né le 12/03/1980 ; arrivé en France en 2001, embauché le 05/07/2010", ["12/03/1980"]),
])
def test_the_next_person_of_a_list_and_their_date(text, want):
    assert values(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("In Liebe und Dankbarkeit\nHildegard Maier\n* 3. Mai 1931   † 14. Februar 2021",
     ["3. Mai 1931"]),
    ("Karl Huber\n* 02.07.1940 ✝ 11.11.2019", ["02.07.1940"]),
    ("* 12.03.2020 Meeting\n* 14.03.2021 Review", []),  # bullets
])
def test_a_star_with_a_deaths_cross_on_its_line_is_a_birth(text, want):
    assert values(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Place of birth: Leeds\nDate of issue: 14 MAR /MARS 22", []),
    ("Lieu de naissance : Lyon\nDate de délivrance : 14/03/2022", []),
    ("Lugar de nacimiento: Lima. Fecha de emisión: 14/03/2022", []),
    ("Country of birth: Spain, arrived 03/05/2019", []),
    ("País de nacimiento: España, alta el 14/03/2019", []),
    ("Date et lieu de naissance : 14/03/1987 à Lyon", ["14/03/1987"]),
    ("Place and date of birth: Leeds, 14 March 1987", ["14 March 1987"]),
    ("Date of birth / Date de naissance: 26 OCT /OCT 84\nPlace of birth: LEEDS\n"
     "Date of issue: 14 MAR /MARS 22   Date of expiry: 14 MAR /MARS 32", ["26 OCT /OCT 84"]),
])
def test_a_place_of_birth_names_no_date(text, want):
    assert values(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("37 ans (14/03/1987)", ["14/03/1987"]),
    ("Ana López | 37 años | 14/03/1987", ["14/03/1987"]),
    ("- 40 ans (01/01/1986)", ["01/01/1986"]),
    ("3 ans de garantie (01/01/2020)", []),   # no adult's age
    ("contrat, 20 ans le 01/01/2006", []),    # a contract's years
    ("garantie : 30 ans, posé le 01/01/1996", []),
])
def test_an_age_standing_alone_beside_its_date(text, want):
    assert values(text) == want
