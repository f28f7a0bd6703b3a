"""Phone numbers as people write them in French, Spanish, German and English text, for
their own countries and their neighbours' (Belgium, Switzerland, Luxembourg, Quebec,
the Maghreb and West Africa; Mexico, Argentina, Colombia, Chile, Peru, Venezuela,
Uruguay, Paraguay, Central America): the verbs of calling in any of their forms
("rappelle-moi au", "llámame al", "márcanos"), a service line's "client" ("Service
client :", "Atención al cliente:"), Mexico's 2-4-4 grouping and its mobiles' old "+52 1",
Argentina's numbers without their trunk prefix ("11 2345-6789"); and, side by side, the
order, invoice, customer and tracking numbers, versions, IBANs and amounts that are
none."""

from __future__ import annotations

import pytest

from tripwire.detectors.contact import PhoneDetector

PHONE = PhoneDetector()


def numbers(text: str) -> list[str]:
    return sorted(d.value or "" for d in PHONE.detect(text) if d.score >= 0.6)


@pytest.mark.parametrize(("text", "want"), [
    ('Appelez-moi au 06 12 34 56 78 ce soir.', ['06 12 34 56 78']),
    ('tél : 06.12.34.56.78', ['06.12.34.56.78']),
    ('Mon portable : 06-12-34-56-78', ['06-12-34-56-78']),
    ('rappelle-moi au 0612345678 stp', ['0612345678']),
    ('Tél. +33 (0)1 42 68 53 00', ['+33 (0)1 42 68 53 00']),
    ('joignable au +33 6 12 34 56 78', ['+33 6 12 34 56 78']),
    ("depuis l'étranger : 0033 6 12 34 56 78", ['0033 6 12 34 56 78']),
    ('Numéro vert : 0 800 123 456 (appel gratuit)', ['0 800 123 456']),
    ('Service client : 09 72 41 38 56', ['09 72 41 38 56']),
    ('Standard : 01 44 55 66 77 poste 214', ['01 44 55 66 77']),
    ('Fixe : 04.91.37.58.26 / Portable : 07.81.22.45.90', ['04.91.37.58.26', '07.81.22.45.90']),
    ('contactez Julie au 06 12 34 56 78 ou au 01 42 68 53 00', ['01 42 68 53 00', '06 12 34 56 78']),
    ('Tél. (Réunion) : 02 62 41 22 33', ['02 62 41 22 33']),
    ('+33612345678', ['+33612345678']),
    ('tel:+33612345678', ['+33612345678']),
    ('Notre bureau de Bruxelles : 02 512 34 67', ['02 512 34 67']),
    ('GSM : 0475 12 34 56', ['0475 12 34 56']),
    ('Appelez Marc au 0475/12.34.56 (Liège)', ['0475/12.34.56']),
    ('Tél. 02/512.34.67 – Bruxelles', ['02/512.34.67']),
    ('Natel : 079 123 45 67', ['079 123 45 67']),
    ('Genève, tél. 022 718 45 90', ['022 718 45 90']),
    ('Lausanne : +41 21 312 45 67', ['+41 21 312 45 67']),
    ('Luxembourg : +352 621 438 912', ['+352 621 438 912']),
    ('Montréal : 514 871-2345', ['514 871-2345']),
    ('à Casablanca : +212 6 12 34 56 78', ['+212 6 12 34 56 78']),
    ('Dakar : +221 77 123 45 67', ['+221 77 123 45 67']),
    ('Tunis : +216 98 123 456', ['+216 98 123 456']),
    ('Alger : +213 5 51 23 45 67', ['+213 5 51 23 45 67']),
    ('Abidjan : +225 07 07 12 34 56', ['+225 07 07 12 34 56']),
    ('mon numéro belge : +32 475 12 34 56', ['+32 475 12 34 56']),
    ('Tél. : +32 (0)2 512 34 67', ['+32 (0)2 512 34 67']),
    ('Suisse : 0041 79 123 45 67', ['0041 79 123 45 67']),
    ('Llámame al 612 34 56 78', ['612 34 56 78']),
    ('móvil: 612345678', ['612345678']),
    ('Tel. 91 552 78 40', ['91 552 78 40']),
    ('teléfono 915 527 840', ['915 527 840']),
    ('(+34) 612 345 678', ['(+34) 612 345 678']),
    ('0034 612 34 56 78', ['0034 612 34 56 78']),
    ('Atención al cliente: 900 100 200', ['900 100 200']),
    ('Tfno.: 93-412-35-67', ['93-412-35-67']),
    ('tel 612.34.56.78', ['612.34.56.78']),
    ('llámame al 612-345-678 o al 91-552-78-40', ['612-345-678', '91-552-78-40']),
    ('mi celular en Ciudad de México es 55 1234 5678', ['55 1234 5678']),
    ('Cel: (55) 1234-5678', ['(55) 1234-5678']),
    ('desde México: +52 1 55 1234 5678', ['+52 1 55 1234 5678']),
    ('Mi WhatsApp: +52 33 1234 5678', ['+52 33 1234 5678']),
    ('En Buenos Aires: 011 4123-4567', ['011 4123-4567']),
    ('celular: +54 9 11 2345-6789', ['+54 9 11 2345-6789']),
    ('mi cel argentino 11 2345-6789', ['11 2345-6789']),
    ('Bogotá: +57 310 123 4567', ['+57 310 123 4567']),
    ('celular 310 123 4567 (Colombia)', ['310 123 4567']),
    ('Santiago: +56 9 8421 7730', ['+56 9 8421 7730']),
    ('mi celular chileno es 9 8421 7730', ['9 8421 7730']),
    ('Lima: +51 987 654 321', ['+51 987 654 321']),
    ('celular en Lima 987 654 321', ['987 654 321']),
    ('Caracas: 0412-1234567', ['0412-1234567']),
    ('Montevideo: 099 123 456', ['099 123 456']),
    ('Quito: 099 123 4567', ['099 123 4567']),
    ('Mi número costarricense: 8888 1234', ['8888 1234']),
    ('Asunción: 0981 123 456', ['0981 123 456']),
    ('Santo Domingo: 809-535-0123', ['809-535-0123']),
    ('Ruf mich an: 0171 2345678', ['0171 2345678']),
    ('Tel.: 030 12345678', ['030 12345678']),
    ('Tel. 0 30 / 12 34 56 78', ['0 30 / 12 34 56 78']),
    ('Telefon (0 30) 12 34 56-0', ['(0 30) 12 34 56']),
    ('Wien: +43 1 234 56 78', ['+43 1 234 56 78']),
    ('Handy 0664 123 45 67 (Österreich)', ['0664 123 45 67']),
    ('Zürich: 044 213 67 90', ['044 213 67 90']),
    ('Tel.: +49 (0) 30 1234567', ['+49 (0) 30 1234567']),
    ('Mobil: 0151/23456789', ['0151/23456789']),
    ('erreichbar unter 0221-9438-0', ['0221-9438']),
    ('Call me on 07911 123456', ['07911 123456']),
    ('Phone: (212) 535-0187', ['(212) 535-0187']),
    ('Tel: +1 (415) 867-5309', ['+1 (415) 867-5309']),
    ('ph 415.867.5309', ['415.867.5309']),
    ('Dublin office: 01 234 5678', ['01 234 5678']),
    ('Sydney: 02 9876 5432', ['02 9876 5432']),
    ('mobile 0412 345 678 (Aus)', ['0412 345 678']),
    ('Haïti : mon cellulaire haïtien 3412 3456', ['3412 3456']),
    ('Douala : +237 6 71 23 45 67', ['+237 6 71 23 45 67']),
    ('Service clients : 01 44 55 66 77', ['01 44 55 66 77']),
])
def test_a_phone_number_as_its_country_writes_it_is_found(text, want):
    assert numbers(text) == want


@pytest.mark.parametrize("text", [
    'Commande n° 06 12 34 56 78 expédiée',
    'N° SIRET : 732 829 320 00074',
    'Facture FA-0612345678 du 14/03/2024',
    'Colis suivi 6A12345678901',
    'version 06.12.34.56',
    'IBAN FR76 3000 6000 0112 3456 7890 189',
    'mi número es el seiscientos doce',
    'Pedido nº 612 34 56 78',
    'Referencia: 915527840',
    'CIF B-12345678 y NIF 12345678Z',
    'IBAN ES91 2100 0418 4502 0005 1332',
    'versión 9.1.552.78',
    'Importe: 612 345,78 €',
    'n° client : 0144556677',
    'Nº de cliente 612345678',
    'Customer no. 07911 123456',
    'Cliente: 91 552 78 40',
])
def test_identifiers_versions_and_amounts_beside_phone_words_are_no_phone_numbers(text):
    assert numbers(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("écris-moi sur wa.me/33612345678 plutôt", ["33612345678"]),
    ("https://api.whatsapp.com/send?phone=34612345678&text=hola", ["34612345678"]),
    ("Kontakt: https://wa.me/4915123456789", ["4915123456789"]),
    ("ONCALL_PHONE=+33612345678\nTEL_ASTREINTE=0033 6 12 34 56 78", ["+33612345678",
                                                                    "0033 6 12 34 56 78"]),
    ("  mobile_number=0612345678  # France", ["0612345678"]),
    ("nom;prenom;tel;ville\nMartin;Paul;0612345678;Lyon\nRuiz;Ana;612345678;Madrid",
     ["0612345678", "612345678"]),
    ("Name,Email,Phone\nAnn Lee,ann@example.com,07911123456", ["07911123456"]),
    ("id\tnombre\tteléfono_móvil\n17\tLuis\t612345678", ["612345678"]),
])
def test_a_links_a_settings_and_a_phone_columns_number(text, want):
    assert numbers(text) == want


@pytest.mark.parametrize("text", [
    "https://example.com/orders/33612345678",
    "build=0033612345678",
    "ORDER_ID=0612345678",
    "nom;prenom;commande;ville\nMartin;Paul;0612345678;Lyon",
    "id,phone,amount\n17,,0612345678",
    "sms non envoyé : numéro 06528147 tronqué (8 chiffres)",
    "SMS-Versand fehlgeschlagen, Kennung 06528147",
])
def test_links_settings_and_columns_of_other_numbers_are_not_phones(text):
    assert numbers(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("kontakt.telefon=+49 30 1234567\nsupport.hotline=030 1234567", ["+49 30 1234567",
                                                                      "030 1234567"]),
    ("call me l8r 212 639 4102 k?", ["212 639 4102"]),
    ("pls ring b4 9pm 646.302.7718", ["646.302.7718"]),
    ("Tel. 0049 30 1234567 und 0049 30 7654321", ["0049 30 1234567", "0049 30 7654321"]),
])
def test_settings_text_speak_and_lists_of_phone_numbers(text, want):
    assert numbers(text) == want


@pytest.mark.parametrize("text", [
    "Labels 0044 7911 123456 and 0044 7911 123457 printed",
    "Paket-Nr. 0049 30 1234567, 0049 30 1234568",
    "étiquettes 0033 6 12 34 56 78 et 0033 6 12 34 56 79",
    "UPS 1Z 9W8 47E 03 4417 2285",
])
def test_a_list_of_identifiers_holds_no_phone_number(text):
    assert numbers(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("Mon numéro : +33(0)6 12 34 56 78", ["+33(0)6 12 34 56 78"]),
    ("Mon numéro : +33.6.12.34.56.78", ["+33.6.12.34.56.78"]),
    ("Mob. 0612345678", ["0612345678"]),
    ("Port. 0612345678", ["0612345678"]),
    ("Tel 06 12 34 56 78/07 12 34 56 78", ["06 12 34 56 78", "07 12 34 56 78"]),
    ("Tel. 0171 2345678 / 030 1234567", ["0171 2345678", "030 1234567"]),
    ("Tel. +49 171 2345678/+49 30 1234567", ["+49 171 2345678", "+49 30 1234567"]),
    ("Tel. 089/12 34 56", ["089/12 34 56"]),
])
def test_a_trunk_prefix_inside_a_group_dotted_groups_and_two_numbers_joined(text, want):
    assert numbers(text) == want


@pytest.mark.parametrize("text", [
    "version 1.2.3.4.5.6",
    "Tel. 06 12 34 56 78/9",
    "Datum 06/12/2024/07",
])
def test_no_alternative_or_dotted_number_of_pieces(text):
    assert numbers(text) in ([], ["06 12 34 56 78"])
