"""IP addresses: a dotted quad is a host's address unless its words make it a version,
a section number, an OID or a numbered heading, in English, German, French and
Spanish; an address with a port, a CIDR suffix or a host word is found whatever
comes near it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire.detectors.network import IPAddressDetector

IP = IPAddressDetector()


def values(text: str) -> list[str]:
    return [d.value or "" for d in IP.detect(text)]


@pytest.mark.parametrize("text", [
    "since the upgrade to 10.2.0.1 the VPN drops",
    "seit dem Update auf 10.2.0.3 geht es nicht mehr",
    "depuis la mise à jour 2.4.1.0 ça plante",
    "en la aplicación (versión 10.4.2.1) antes del 31",
    "[INFO] Building tripwire-agent 2.4.0.17",
    "Baue lagerverwaltung 2.4.1.18",
    'module_version = "1.2.3.4"',
    "APP_VERSION=2.14.0.7",
    "c'est la 4.12.0.3 sur Android 14 (build 68983b9)",
    "works on 5.1.0.2 (build 2231)",
    "See section 2.1.3.4 for details",
    "1. Avancement du lot 2.1.3.4 : 80 %",
    "1. Estado del paquete 2.1.3.4: 75 %",
    "gemäß Abschnitt 3.1.2.4 des Vertrags",
    "conforme à l'article 4.2.1.3 du règlement",
    "según el apartado 7.2.1.1",
    "§ 4.2.1.1 applies",
    "Nota 1.1.1.1 de la ley",
    "see figure 2.1.3.4 and Tabelle 3.1.2.1",
    "OID 2.5.4.3 is the common name",
    "2.1.3.4 Data retention\nWe keep logs for 30 days.",
    "  1.2.1.1 Geltungsbereich",
])
def test_a_version_a_section_an_oid_or_a_heading_is_not_an_address(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ("Tried from home (71.204.19.88) at 9pm", "71.204.19.88"),
    ("upgrade server 10.0.0.12 tonight", "10.0.0.12"),      # a host word between
    ("the update came from 10.2.0.1", "10.2.0.1"),
    ("build host 192.168.1.20 is down", "192.168.1.20"),
    ("Poste : PC-COMPTA-07, IP 192.168.10.57", "192.168.10.57"),
    ("172.16.8.10     srv-ad01.agence.local", "172.16.8.10"),
    ('allowed_cidrs = ["73.22.140.9/32"]', "73.22.140.9"),
    ("78.193.42.7 - - [12/Mar/2024:10:01:02 +0100] \"GET / HTTP/1.1\"", "78.193.42.7"),
    ("ouvrez 192.168.1.1 dans votre navigateur", "192.168.1.1"),
    ("relay=mx.example.com[52.101.73.14]:25", "52.101.73.14"),
    ("Gateway 10.0.0.1 Ping ok", "10.0.0.1"),                 # not at a line's start
])
def test_a_hosts_address_is_found(text, value):
    assert values(text) == [value]


OCTET = st.integers(0, 255)
HOST_WORDS = st.sampled_from(["from ", "host ", "IP ", "server: ", "Server ", "at ", "ping ",
                              "connect to ", "client=", "addr ", "Adresse IP ", "dirección IP ",
                              "ssh root@"])
PUNCTUATION = st.sampled_from(["(", "- ", "", "[", '"'])
VERSION_WORDS = st.sampled_from(["version ", "Version: ", "v", "release ", "build ", "upgrade to ",
                                 "section ", "§ ", "Abschnitt ", "article ", "apartado ",
                                 "versión ", "mise à jour ", "OID "])


@settings(max_examples=200, deadline=None, database=None)
@given(HOST_WORDS, OCTET, OCTET, OCTET, OCTET)
def test_property_any_address_after_a_host_word_is_found(word, a, b, c, d):
    value = f"{a}.{b}.{c}.{d}"
    assert values(f"see {word}{value} now") == [value]


@settings(max_examples=200, deadline=None, database=None)
@given(PUNCTUATION, st.integers(32, 255), OCTET, OCTET, OCTET)
def test_property_an_address_with_a_large_octet_needs_no_word(before, a, b, c, d):
    value = f"{a}.{b}.{c}.{d}"
    assert values(f"see {before}{value} now") == [value]


@settings(max_examples=200, deadline=None, database=None)
@given(VERSION_WORDS, OCTET, OCTET, OCTET, OCTET)
def test_property_no_dotted_number_after_a_version_or_section_word_is_an_address(
        word, a, b, c, d):
    assert values(f"see {word}{a}.{b}.{c}.{d} now") == []


@pytest.mark.parametrize("text", [
    "Siehe 2.1.3.4 der AGB",
    "see 3.2.1.4 above",
    "voir le point 2.1.3.4 ci-dessous",
    "véase 4.1.2.3",
    "conforme al 2.1.3.4",
    "cf. 2.1.3.4",
    "Die App (4.12.0.3) stürzt ab",
    "Pasa con la 4.12.0.3 también",
    "running 5.1.0.12 since monday",
    "Abschnitt 3, Unterpunkt 2.1.3.4",
    "- 3.1.2.4 Haftung",
    "tel que prévu en 12.3.1.2 et 12.3.1.3",
])
def test_a_dotted_quad_of_small_numbers_with_no_network_word_is_no_address(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ("ping 4.2.2.3 fails", "4.2.2.3"),
    ("DNS 1.1.1.1", "1.1.1.1"),
    ("Server 5.9.12.3 antwortet nicht", "5.9.12.3"),
    ("client=3.4.5.6 status=200", "3.4.5.6"),
    ("ssh root@2.3.4.5", "2.3.4.5"),
    ("2.1.3.4:8080 is open", "2.1.3.4"),
    ("allow 2.1.3.0/24", "2.1.3.0"),
    ("El router de casa es 10.0.0.1", "10.0.0.1"),
    ("IP-Adresse: 3.2.1.4", "3.2.1.4"),
    ("l'adresse IP 3.2.1.4 est bloquée", "3.2.1.4"),
    ("dirección IP: 3.2.1.4", "3.2.1.4"),
    ("Desde 2.3.4.5 no responde", "2.3.4.5"),
    ("relay=mx[5.1.2.3]:25", "5.1.2.3"),
])
def test_a_dotted_quad_of_small_numbers_with_a_network_word_is_an_address(text, value):
    assert values(text) == [value]
