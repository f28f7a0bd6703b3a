"""The built-in deterministic detectors: what each finds (many realistic formats, with
exact offsets), what it must not (order numbers, ISBNs, versions, timestamps, hashes,
numbers that fail their checksum or issuing rules), and how ``build`` and
``detect_all`` put them together. Property tests generate valid values in many shapes
and check that each is found exactly, that a changed digit is not, and that every
detector keeps its own contract on any text."""

from __future__ import annotations

import datetime
import ipaddress
import re
import string
import subprocess
import sys
import uuid

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tripwire.detectors import BUILTIN_TYPES, build, detect_all
from tripwire.detectors.contact import EmailDetector, PhoneDetector, UrlDetector
from tripwire.detectors.financial import (
    IBAN_LENGTHS,
    CreditCardDetector,
    IBANDetector,
    card_issuer,
    iban_is_valid,
    luhn_is_valid,
)
from tripwire.detectors.identity import DateOfBirthDetector, SSNDetector, ssn_is_valid
from tripwire.detectors.network import IPAddressDetector, UUIDDetector
from tripwire.errors import ConfigurationError, MissingDependencyError
from tripwire.guards.verdicts import Detection, Detector

#: Types whose detectors other modules provide (secrets.py, crypto.py).
NOT_HERE = ("api-key", "crypto-wallet")
OURS = tuple(t for t in BUILTIN_TYPES if t not in NOT_HERE)


def values(detector: Detector, text: str) -> list[str]:
    return [d.value for d in sorted(detector.detect(text), key=lambda d: d.start)]


def spans(detector: Detector, text: str) -> list[tuple[int, int]]:
    return sorted((d.start, d.end) for d in detector.detect(text))


def assert_finds(detector: Detector, text: str, value: str) -> None:
    """``detector`` finds exactly ``value`` in ``text``, at its offsets."""
    start = text.index(value)
    assert spans(detector, text) == [(start, start + len(value))], values(detector, text)


# ------------------------------------------------------------------------- email

EMAIL = EmailDetector()


@pytest.mark.parametrize(("text", "value"), [
    ("write to ada@example.com please", "ada@example.com"),
    ("Ada.Lovelace+news@mail.example.co.uk.", "Ada.Lovelace+news@mail.example.co.uk"),
    ("<first_last-99@sub.domain.io>", "first_last-99@sub.domain.io"),
    ("mailto:ops%team@example.org", "ops%team@example.org"),
    ("(contact: x@y-z.museum)", "x@y-z.museum"),
    ("jörg.müller@beispiel.de schrieb", "jörg.müller@beispiel.de"),
    ("user@xn--bcher-kva.example", "user@xn--bcher-kva.example"),
    ('"ada@example.com",', "ada@example.com"),
    ("mail ...ada@example.com", "ada@example.com"),
    ("git@github.com:org/repo.git", "git@github.com"),
])
def test_email_finds_practical_addresses(text, value):
    assert_finds(EMAIL, text, value)


@pytest.mark.parametrize("text", [
    "icon@2x.png and logo@3x.webp",                   # retina file names
    "pip install pkg@1.2.tgz",
    "https://ada:s3cret@db.example.com/path",         # a URL's credentials
    "https://ada@example.com/",                       # a URL's user name
    "root@localhost",                                 # no TLD
    "a@b.c",                                          # one-letter TLD
    "ada..b@example.com",                             # consecutive dots
    "ada.@example.com",                               # dot before @
    "@mention and @@ and x@",
    "ada@example.com1",                               # no letter TLD
    "ada@-example.com",
    "ada@example.com@evil.com",
    "a" * 65 + "@example.com",                        # local part over 64
])
def test_email_rejects_lookalikes(text):
    assert values(EMAIL, text) == []


def test_email_offsets_for_several_addresses():
    text = "cc: a@x.io, b.c@y.org; d@z.net"
    assert spans(EMAIL, text) == [(4, 10), (12, 21), (23, 30)]


@pytest.mark.parametrize("text", [
    "Crash log attached (crash_0603@2x.ips). Steps: open app",
    "assets: logo@3x.webp, hero@2x.avif",
])
def test_email_an_images_scale_before_any_extension_is_a_file_name(text):
    assert values(EMAIL, text) == []


# ------------------------------------------------------------------------- phone

PHONE = PhoneDetector()


@pytest.mark.parametrize(("text", "value"), [
    ("call (415) 555-2671 today", "(415) 555-2671"),
    ("call 415-555-2671.", "415-555-2671"),
    ("call 415.555.2671", "415.555.2671"),
    ("call 415 555 2671", "415 555 2671"),
    ("tel: 4155552671", "4155552671"),
    ("+1 (415) 555-2671", "+1 (415) 555-2671"),
    ("+1-415-555-2671", "+1-415-555-2671"),
    ("+14155552671", "+14155552671"),
    ("1-800-555-0199", "1-800-555-0199"),
    ("Toronto office: 416-555-0123", "416-555-0123"),   # Canada, same plan
    ("London +44 20 7946 0958", "+44 20 7946 0958"),
    ("Berlin: +49 30 12345678", "+49 30 12345678"),
    ("Paris +33 1 23 45 67 89", "+33 1 23 45 67 89"),
    ("Mumbai +91 81234 56789", "+91 81234 56789"),
    ("Tokyo +81 90-1234-5678", "+81 90-1234-5678"),
    ("São Paulo +55 11 96123-4567", "+55 11 96123-4567"),
    ("UK: +44 (0) 20 7946 0958", "+44 (0) 20 7946 0958"),
    ("call 415 555 2671 in 2024", "415 555 2671"),       # a year after the number
])
def test_phone_finds_valid_numbers_in_many_formats(text, value):
    assert_finds(PHONE, text, value)


@pytest.mark.parametrize(("regions", "text", "value"), [
    (["GB"], "ring 020 7946 0958", "020 7946 0958"),
    (["GB"], "mobile 07400 123456", "07400 123456"),
    (["DE"], "Tel. 030 12345678", "030 12345678"),
    (["DE"], "Tel. 030/12345678", "030/12345678"),
    (["FR"], "tél 06 12 34 56 78", "06 12 34 56 78"),
    (["US", "GB"], "ring 020 7946 0958", "020 7946 0958"),
    (["GB"], "from abroad: 0044 20 7946 0958", "0044 20 7946 0958"),
    (["US"], "from abroad: 011 44 20 7946 0958", "011 44 20 7946 0958"),
    (["GB"], "or +1 415 555 2671", "+1 415 555 2671"),   # + numbers need no region
    (["DE"], "Tel: +49 (0)30 12345678", "+49 (0)30 12345678"),
    (["DE"], "Tel.: 030 / 123 456 78", "030 / 123 456 78"),
    (["US"], "dial +1.415.555.2671", "+1.415.555.2671"),
])
def test_phone_regions_decide_numbers_without_a_country_code(regions, text, value):
    assert_finds(PhoneDetector(regions=regions), text, value)


def test_phone_year_ranges_are_not_numbers_even_where_they_would_be_valid():
    assert values(PhoneDetector(regions=["DE"]), "between 2015-2020 and 1999 - 2004") == []


def test_phone_national_numbers_of_another_region_are_not_found_by_default():
    # (nothing in the text points at Britain, nor does the grouping, as "020 7946 0958"
    # would: see test_phone_regions.py for what does)
    assert values(PHONE, "ring 0207 94 60958") == []
    assert values(PhoneDetector(regions="gb"), "ring 0207 94 60958") == ["0207 94 60958"]


@pytest.mark.parametrize("text", [
    "(555) 123-4567",                      # 555 is no area code: fictional numbers
    "555-0199",                            # too short for a whole US number
    "+1 555 123 4567",
    "on 2024-01-15 at 10:30:00",           # dates and times
    "on 01/15/2024 or 15.01.2024",
    "timestamp 1712345678 and 1712345678123",
    "order #4155552671",                   # order numbers
    "Order 4155552671 shipped",
    "Order no. 4155552671",
    "invoice: 4155552671",
    "tracking id 4155552671",
    "ISBN 978-0-306-40615-7",              # ISBNs
    "see 0-306-40615-2",
    "9780306406157",
    "version 4.15.55.2671",                # versions and addresses
    "v415.555.2671",
    "host 192.168.100.200",
    "card 4111 1111 1111 1111",            # a card is no phone
    "sha 3f2a4155552671ab",                # inside a hash
    "price $4155552671",
    "4155552671%",
    "1 2 3 4 5 6 7 8 9 10",
    "SSN 536-90-4399",
    "IBAN DE18 1917 0482 3184 3129 95",    # the groups of an (invalid) IBAN
    "NL23 RIDT 2696 9215 56",
    "reach me at 12 415 555 2671",         # a piece of a longer run of digit groups
    "SIRET 812 345 674 00021",
    "ticket 415-55-2671",                  # the shape of an SSN
    "invoice 415-555-2671",                # after "invoice", "n°", "Kundennummer", ...
    "facture n° 415 555 2671",
])
def test_phone_rejects_what_only_looks_like_a_phone_number(text):
    assert values(PHONE, text) == []


def test_phone_scores_bare_digits_below_formatted_numbers():
    (bare,) = PHONE.detect("tel 4155552671")
    (formatted,) = PHONE.detect("tel (415) 555-2671")
    assert 0.6 < bare.score < formatted.score <= 1


@pytest.mark.parametrize("regions", [["ZZ"], ["US", "Mars"], [], [7], 7])
def test_phone_regions_must_be_known_region_codes(regions):
    with pytest.raises(ConfigurationError, match=r"region.*(e\.g\. US|such as)"):
        PhoneDetector(regions=regions)


def test_phone_without_phonenumbers_fails_when_built_and_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "phonenumbers", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'tripwire\[guardrails\]'") as e:
        build(["phone"])
    assert isinstance(e.value, ImportError) and isinstance(e.value, ConfigurationError)
    assert [d.name for d in build(["email", "url"])] == ["email", "url"]


def test_tripwire_and_its_detectors_import_without_phonenumbers():
    code = (
        "import sys; sys.modules['phonenumbers'] = None\n"
        "import tripwire, tripwire.detectors.contact as c\n"
        "from tripwire.detectors import build\n"
        "assert [d.name for d in build(['email', 'url', 'ssn'])] == ['email', 'url', 'ssn']\n"
        "try:\n"
        "    build(['phone'])\n"
        "except ImportError as e:\n"
        "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert "pip install 'tripwire[guardrails]'" in out.stdout


# --------------------------------------------------------------------------- url

URL = UrlDetector()


@pytest.mark.parametrize(("text", "value"), [
    ("see https://example.com", "https://example.com"),
    ("see https://example.com/a/b?x=1&y=2#frag.", "https://example.com/a/b?x=1&y=2#frag"),
    ("(see https://example.com/docs)", "https://example.com/docs"),
    ("[docs](https://example.com/docs), then", "https://example.com/docs"),
    ("https://en.wikipedia.org/wiki/Foo_(bar) is it", "https://en.wikipedia.org/wiki/Foo_(bar)"),
    ("<http://example.org:8080/x>", "http://example.org:8080/x"),
    ("FTP://files.example.net/pub/file.tar.gz!", "FTP://files.example.net/pub/file.tar.gz"),
    ("go to www.example.org.", "www.example.org"),
    ("go to WWW.EXAMPLE.ORG/path;", "WWW.EXAMPLE.ORG/path"),
    ("http://192.168.0.1/admin", "http://192.168.0.1/admin"),
    ("http://[2001:db8::1]:8080/", "http://[2001:db8::1]:8080/"),
    ("http://localhost:3000/api?", "http://localhost:3000/api"),
    ('"https://example.com/q"', "https://example.com/q"),
    ("**https://example.com/bold**", "https://example.com/bold"),
    ("https://user:pw@example.com/x", "https://user:pw@example.com/x"),
    ("Visit https://example.com;then", "https://example.com"),
    ("https://例え.jp/パス", "https://例え.jp/パス"),
])
def test_url_finds_urls_without_the_punctuation_around_them(text, value):
    assert_finds(URL, text, value)


@pytest.mark.parametrize("text", [
    "gopher://example.com", "javascript://x", "file:///etc/passwd", "https://", "http:// x",
    "https://nodot", "awww.example.com", "foo.www.example.com", "mailto:ada@example.com",
    "www.", "https://_bad.example.com", "git://github.com/x", "https://example.com-x",
])
def test_url_rejects_other_schemes_and_broken_urls(text):
    assert values(URL, text) == []


def test_url_scores_www_without_a_scheme_lower():
    (bare,) = URL.detect("www.example.org")
    (full,) = URL.detect("https://www.example.org")
    assert bare.score < full.score == 1.0
    assert full.value == "https://www.example.org"


# -------------------------------------------------------------------- ip-address

IP = IPAddressDetector()


@pytest.mark.parametrize(("text", "value"), [
    ("server 192.168.1.10 is down", "192.168.1.10"),
    ("from 8.8.8.8.", "8.8.8.8"),
    ("(10.0.0.1)", "10.0.0.1"),
    ("ip=255.255.255.255,", "255.255.255.255"),
    ("host 172.16.254.1:8080", "172.16.254.1"),
    ("v6 2001:db8:85a3::8a2e:370:7334 ok", "2001:db8:85a3::8a2e:370:7334"),
    ("link fe80::1ff:fe23:4567:890a.", "fe80::1ff:fe23:4567:890a"),
    ("full 2001:0db8:0000:0000:0000:ff00:0042:8329", "2001:0db8:0000:0000:0000:ff00:0042:8329"),
    ("mapped ::ffff:192.0.2.128 here", "::ffff:192.0.2.128"),
    ("[2001:DB8::1]:443", "2001:DB8::1"),
    ("addr fe80::1: it", "fe80::1"),
])
def test_ip_finds_ipv4_and_ipv6_addresses(text, value):
    assert_finds(IP, text, value)


@pytest.mark.parametrize("text", [
    "version 1.2.3.4", "Version: 10.0.19041.1", "build 4.1.2.0", "firmware v2.1.0.3",
    "v1.2.3.4", "python 3.11.4.1",
    "1.2.3.4.5", "10.0.0.1.2", "1.2.3.4-beta", "1.2.3.4+build",
    "256.1.1.1", "01.02.03.04", "1.2.3", "999.999.999.999",
    "at 12:30:45", "2024-01-15T10:30:00Z", "MAC 00:1A:2B:3C:4D:5E",
    "std::vector<int>", "Foo::Bar::baz", "::", "::1", "a::", "ratio 1:2:3",
    "hash deadbeef:cafe:babe", "x2001:db8::1",
])
def test_ip_rejects_versions_times_and_other_dotted_or_colon_numbers(text):
    assert values(IP, text) == []


# -------------------------------------------------------------------------- uuid

UUID = UUIDDetector()


@pytest.mark.parametrize("value", [
    "550e8400-e29b-41d4-a716-446655440000",      # v4
    "6ba7b810-9dad-11d1-80b4-00c04fd430c8",      # v1
    "017F22E2-79B0-7CC3-98C4-DC0C0C07398F",      # v7, upper case
    "00000000-0000-0000-0000-000000000000",      # nil
])
@pytest.mark.parametrize("template", ["{}", "id={}.", "{{{}}}", "urn:uuid:{} x"])
def test_uuid_finds_any_version(value, template):
    assert_finds(UUID, template.format(value), value)


@pytest.mark.parametrize("text", [
    "550e8400e29b41d4a716446655440000",          # no dashes: a hash
    "d41d8cd98f00b204e9800998ecf8427e",          # MD5
    "550e8400-e29b-41d4-a716-44665544000",       # 11 in the last group
    "550e8400-e29b-41d4-a716-4466554400001",     # 13
    "x550e8400-e29b-41d4-a716-446655440000",
    "550e8400-e29b-41d4-a716-446655440000-1",
    "550e8400-e29g-41d4-a716-446655440000",
])
def test_uuid_rejects_hashes_and_wrong_groupings(text):
    assert values(UUID, text) == []


# ------------------------------------------------------------------- credit-card

CARD = CreditCardDetector()

TEST_CARDS = {
    "4111111111111111": "visa", "4012888888881881": "visa", "4222222222222": "visa",
    "5555555555554444": "mastercard", "5105105105105100": "mastercard",
    "2223003122003222": "mastercard", "2720992720992729": "mastercard",
    "378282246310005": "amex", "371449635398431": "amex",
    "6011111111111117": "discover", "6445644564456445": "discover",
    "3530111333300000": "jcb", "3566002020360505": "jcb",
    "30569309025904": "diners", "36227206271667": "diners", "38520000023237": "diners",
    "6200000000000005": "unionpay", "6759649826438453": "maestro",
    "5018000000000009": "maestro", "2200000000000004": "mir",
}


@pytest.mark.parametrize(("number", "issuer"), sorted(TEST_CARDS.items()))
def test_card_issuers_and_luhn(number, issuer):
    assert luhn_is_valid(number) and card_issuer(number) == issuer
    assert_finds(CARD, f"card: {number}, thanks", number)


@pytest.mark.parametrize(("text", "value"), [
    ("pay with 4111 1111 1111 1111 now", "4111 1111 1111 1111"),
    ("pay with 4111-1111-1111-1111.", "4111-1111-1111-1111"),
    ("amex 3782 822463 10005", "3782 822463 10005"),
    ("amex 3782-822463-10005", "3782-822463-10005"),
    ("diners 3056 930902 5904", "3056 930902 5904"),
    ("visa13 4222 2222 2222 2", "4222 2222 2222 2"),
    ("card=4111111111111111&cvv=123", "4111111111111111"),
    ("(4111 1111 1111 1111)", "4111 1111 1111 1111"),
    ("4111 1111 1111 1111 exp 12/27", "4111 1111 1111 1111"),
    ("qty 2 4111 1111 1111 1111", "4111 1111 1111 1111"),
    ("4111 1111 1111 1111 2027", "4111 1111 1111 1111"),
])
def test_card_finds_grouped_numbers_with_exact_offsets(text, value):
    assert_finds(CARD, text, value)


@pytest.mark.parametrize("text", [
    "4111 1111 1111 1112",                   # Luhn fails
    "4111111111111112",
    "1234 5678 9012 3456",                   # Luhn fails, no issuer
    "1234567890123452",                      # Luhn passes, no issuer
    "9111111111111111",
    "3782822463100050",                      # Amex prefix with 16 digits
    "5555555555554444000",                   # Mastercard prefix with 19 digits
    "4111 1111-1111 1111",                   # mixed separators
    "41111 11111 11111 1",                   # not in groups of four
    "4111  1111  1111  1111",                # two spaces
    "41111111111111111111",                  # 20 digits
    "x4111111111111111",                     # inside a word or token
    "4111111111111111abc",
    "4111111111111111.50",                   # an amount
    "+4111111111111",
    "ISBN 978-0-306-40615-7", "timestamp 1712345678123", "2024-01-15 10:30:00",
    "sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "IBAN DE75 4111 1111 1111 1111 73",      # the groups of an (invalid) IBAN
    "3500 0949 4809 1410",                   # 35xx outside JCB's 3528-3589
])
def test_card_rejects_numbers_failing_luhn_issuer_or_grouping(text):
    assert values(CARD, text) == []


def test_card_after_an_order_keyword_scores_below_the_default_threshold():
    (order,) = CARD.detect("Order #4111111111111111 shipped")
    (card,) = CARD.detect("card 4111111111111111 please")
    assert order.score == 0.5 < 0.6 < card.score
    assert detect_all("Order #4111111111111111", [CARD], threshold=0.6) == []


@given(st.sampled_from(sorted(TEST_CARDS)), st.integers(0, 99), st.integers(1, 9))
def test_changing_one_digit_of_a_card_makes_it_invalid(number, position, delta):
    i = position % len(number)
    changed = number[:i] + str((int(number[i]) + delta) % 10) + number[i + 1:]
    assert not luhn_is_valid(changed)
    assert values(CARD, f"card {changed}") == []


@pytest.mark.parametrize("before", [
    "Checkout rejects the test card ", "sandbox card: ", "use the Testkarte ",
    "la carte de test ", "con la tarjeta de prueba ", "e.g. the example number "])
def test_card_a_published_test_card_scores_under_the_default_threshold(before):
    (d,) = CARD.detect(before + "4242 4242 4242 4242 please")
    assert d.score == 0.5
    (real,) = CARD.detect("charged my card 4242 4242 4242 4242 twice")
    assert real.score == 0.99


# -------------------------------------------------------------------------- iban

IBAN = IBANDetector()

TEST_IBANS = [
    "DE89370400440532013000", "GB82WEST12345698765432", "FR1420041010050500013M02606",
    "NL91ABNA0417164300", "ES9121000418450200051332", "IT60X0542811101000000123456",
    "CH9300762011623852957", "BE68539007547034", "AT611904300234573201",
    "NO9386011117947", "MT84MALT011000012345MTLCAST001S", "SA0380000000608010167519",
    "PL61109010140000071219812874", "SE4550000000058398257466", "DK5000400440116243",
    "FI2112345600000785", "IE29AIBK93115212345678", "PT50000201231234567890154",
    "LU280019400644750000", "BR1800360305000010009795493C1",
    "RU0204452560040702810412345678901", "LC55HEMM000100010012001200023015",
]


def grouped(iban: str) -> str:
    return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))


@pytest.mark.parametrize("iban", TEST_IBANS)
def test_iban_finds_compact_and_grouped_ibans(iban):
    assert iban_is_valid(iban)
    assert_finds(IBAN, f"IBAN: {iban}.", iban)
    assert_finds(IBAN, f"IBAN {grouped(iban)} BIC ABCDEFGH", grouped(iban))


@pytest.mark.parametrize("text", [
    "DE88370400440532013000",                # wrong check digits
    "DE89 3704 0044 0532 0130 01",
    "GB82WEST12345698765433",
    "DE8937040044053201300",                 # one short
    "DE893704004405320130000",               # one long
    "XX89370400440532013000",                # no such country
    "de89370400440532013000",                # lower case
    "DE00370400440532013000",
    "DE89 37040 04405 32013 000",            # not in groups of four
    "DE89  3704 0044 0532 0130 00",
    "ID DE89370400440532013000X",            # runs on
    "ADE89370400440532013000",
    "ORDER AB12345678901234567 and SKU XY99 1234 5678 9012",
])
def test_iban_rejects_wrong_check_digits_lengths_and_shapes(text):
    assert values(IBAN, text) == []


def test_iban_lengths_cover_the_registry():
    assert len(IBAN_LENGTHS) == 89 and IBAN_LENGTHS["DE"] == 22 and IBAN_LENGTHS["NO"] == 15
    assert min(IBAN_LENGTHS.values()) == 15 and max(IBAN_LENGTHS.values()) == 33


def iban_with_check_digits(country: str, bban: str) -> str:
    n = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    return f"{country}{98 - n % 97:02d}{bban}"


@st.composite
def ibans(draw):
    country = draw(st.sampled_from(sorted(IBAN_LENGTHS)))
    bban = draw(st.text(string.digits + string.ascii_uppercase,
                        min_size=IBAN_LENGTHS[country] - 4,
                        max_size=IBAN_LENGTHS[country] - 4))
    return iban_with_check_digits(country, bban)


@given(ibans(), st.booleans())
def test_any_iban_with_its_check_digits_is_found(iban, group):
    shown = grouped(iban) if group else iban
    assert_finds(IBAN, f"pay to {shown} by Friday", shown)


@given(ibans(), st.integers(4, 40), st.integers(1, 9))
def test_changing_one_digit_of_an_iban_makes_it_invalid(iban, position, delta):
    digits = [i for i, c in enumerate(iban) if c.isdigit() and i >= 4]
    if not digits:
        return
    i = digits[position % len(digits)]
    changed = iban[:i] + str((int(iban[i]) + delta) % 10) + iban[i + 1:]
    assert values(IBAN, f"pay to {changed}") == []


# --------------------------------------------------------------------------- ssn

SSN = SSNDetector()


@pytest.mark.parametrize(("text", "value"), [
    ("my number is 536-90-4399", "536-90-4399"),
    ("536 90 4399 is it", "536 90 4399"),
    ("SSN: 536904399", "536904399"),
    ("ssn#536904399", "536904399"),
    ("Social Security Number 536904399.", "536904399"),
    ("536904399 (my social security no.)", "536904399"),
    ("SSN list, see below (one per line):        SSN 536904399", "536904399"),
    ("SSN 772-12-3456", "772-12-3456"),       # areas 773-899 are issued since 2011
    ("(665-01-0001)", "665-01-0001"),
])
def test_ssn_finds_numbers_that_follow_the_ssa_rules(text, value):
    assert_finds(SSN, text, value)


@pytest.mark.parametrize("number", [
    "000-12-3456", "666-12-3456", "900-12-3456", "999-12-3456",    # area
    "536-00-4399",                                                 # group
    "536-90-0000",                                                 # serial
    "078-05-1120", "219-09-9999", "457-55-5462", "123-45-6789",    # published
    "111-11-1111", "987-65-4321",
])
def test_ssn_rejects_numbers_the_ssa_rules_out(number):
    assert not ssn_is_valid(number.replace("-", ""))
    assert values(SSN, f"SSN: {number}") == []


@pytest.mark.parametrize("text", [
    "536904399",                             # bare digits without a keyword
    "order 536904399 shipped",
    "SSN appears far, far away from the number in this sentence: 536904399",
    "536-90-4399-1", "1536-90-4399", "536-90-43991", "536-90 4399", "536 90-4399",
    "call 415 536 90 4399", "on 2024-01-15", "v536-90-4399", "$536-90-4399",
    "5369-04-399",
])
def test_ssn_rejects_bare_digits_without_a_keyword_and_other_shapes(text):
    assert values(SSN, text) == []


def test_ssn_scores_by_shape_and_keyword():
    def score(text):
        (d,) = SSN.detect(text)
        return d.score
    assert score("SSN 536-90-4399") == 1.0
    assert score("id 536-90-4399") == 0.95
    assert score("id 536 90 4399") == 0.8
    assert score("SSN 536904399") == 0.9


@given(st.integers(1, 899).filter(lambda a: a != 666), st.integers(1, 99),
       st.integers(1, 9999), st.sampled_from(["{}-{}-{}", "{} {} {}"]))
def test_any_ssn_the_rules_allow_is_found(area, group, serial, shape):
    value = shape.format(f"{area:03d}", f"{group:02d}", f"{serial:04d}")
    if not ssn_is_valid(value.replace("-", "").replace(" ", "")):
        return  # the published numbers and 111-11-1111 and the like
    assert_finds(SSN, f"Her SSN is {value}.", value)


def test_ssn_a_field_of_a_table_is_found():
    text = ("id,phone,dob,ssn,street\n"
            "10442,918-742-3310,1983-02-11,119-50-6144,1419 Birch St\n"
            "10443;(405) 228-9014;1990-09-30;090-62-8332;88 Sooner Rd\n"
            "10444\t+81 90-3318-4027\t1996-07-08\t624-17-6293\n")
    assert values(SSN, text) == ["119-50-6144", "090-62-8332", "624-17-6293"]
    # a piece of a longer number is still none
    assert values(SSN, "ref 12,119-50-6144-7 and 1,119-50-6144.5") == []


# ---------------------------------------------------------------- date-of-birth

DOB = DateOfBirthDetector()


@pytest.mark.parametrize(("text", "value"), [
    ("I was born on 12 March 1985.", "12 March 1985"),
    ("born March 12, 1985 in Ohio", "March 12, 1985"),
    ("born on the 12th of March, 1985", "12th of March, 1985"),
    ("Born: Mar 3rd 1985", "Mar 3rd 1985"),
    ("DOB: 03/12/1985", "03/12/1985"),
    ("D.O.B. 31/12/1985", "31/12/1985"),
    ("date of birth 1985-03-12", "1985-03-12"),
    ("Date of Birth: 12-Mar-1985", "12-Mar-1985"),
    ("my birthday is 3/12/85", "3/12/85"),
    ("birthdate=1985.03.12", "1985.03.12"),
    ("geboren am 12.03.1985 in Köln", "12.03.1985"),
    ("geboren am 12. März 1985", "12. März 1985"),
    ("Geburtsdatum: 01.02.1970", "01.02.1970"),
    ("geb. 1.2.1970", "1.2.1970"),
    ("née le 12/03/1985", "12/03/1985"),
    ("fecha de nacimiento: 12/03/1985", "12/03/1985"),
    ("12.03.1985 is my date of birth", "12.03.1985"),     # keyword after the date
    ("B-day 29.02.2000!", "29.02.2000"),                  # a leap day
])
def test_dob_finds_dates_near_a_birth_keyword(text, value):
    assert_finds(DOB, text, value)


@pytest.mark.parametrize("text", [
    "the meeting is on 12 March 1985",                  # no keyword
    "deadline 03/12/1985",
    "born on 31.02.1985",                               # no such day
    "born 13/13/1985",
    "born 29.02.2001",
    "born 12.03.1699",                                  # before 1700
    "born 12.03.2999",                                  # in the future
    "born in 1985",                                     # a year is not a date
    "I was born, and then very many, many years later, on 12.03.1985, I moved",   # > 30 chars
    "reborn 12.03.1985", "stubborn 12.03.1985", "dobby 12.03.1985",
    "born 12.03.1985.4", "born 112.03.1985", "born 1985-03-12T10:00",
    "born at 12:03:1985",
])
def test_dob_rejects_dates_far_from_keywords_impossible_or_future(text):
    assert values(DOB, text) == []


def test_dob_reports_only_the_date_and_each_date_once():
    text = "Birthday / DOB / born: 12.03.1985; born 1.1.1990"
    assert values(DOB, text) == ["12.03.1985", "1.1.1990"]
    assert all(d.type == "date-of-birth" for d in DOB.detect(text))


def test_dob_two_digit_years_are_in_the_past():
    (d,) = DOB.detect("DOB 3/12/85")
    assert d.value == "3/12/85"
    yy = (datetime.date.today().year + 1) % 100
    assert values(DOB, f"DOB 01/01/{yy:02d}") == [f"01/01/{yy:02d}"]   # 19yy


@pytest.mark.parametrize("text", [
    "İstanbul, doğum: DOB 12.03.1985",     # lower-casing İ makes the text longer
    "🙂 Geburtsdatum: 12.03.1985 🙂",
    "Jörg, né le 12.03.1985 à Paris",
])
def test_dob_offsets_hold_in_non_ascii_text(text):
    assert_finds(DOB, text, "12.03.1985")


@given(st.dates(datetime.date(1900, 1, 1), datetime.date(2020, 12, 31)),
       st.sampled_from(["%d.%m.%Y", "%Y-%m-%d", "%d %B %Y", "%B %d, %Y", "%d-%b-%Y"]),
       st.sampled_from(["born on {}", "DOB: {}", "{} (date of birth)", "Geburtsdatum {}"]))
def test_any_past_date_near_a_keyword_is_found(date, fmt, template):
    value = date.strftime(fmt)
    assert_finds(DOB, template.format(value), value)


# ------------------------------------------------------------------ all together

@pytest.mark.parametrize("detection_type", OURS)
def test_build_gives_a_detector_for_each_type(detection_type):
    (detector,) = build([detection_type])
    assert isinstance(detector, Detector)
    if detection_type in ("url", "url-credentials"):
        # one detector reads a URL and says whether it carries a password
        assert detector.types == ("url", "url-credentials") and detector.name == "url"
    else:
        assert detector.types == (detection_type,) and detector.name == detection_type
    assert detector.max_length > 0


def test_build_makes_one_url_detector_for_both_url_types():
    (detector,) = build(["url", "url-credentials"])
    assert detector.types == ("url", "url-credentials")


def test_build_passes_each_detector_only_its_options():
    phone, email = build(["phone", "email"], regions=["GB"], unused=1)
    assert phone.regions == ("GB",)
    assert isinstance(email, EmailDetector)
    with pytest.raises(ValueError, match="unknown detection type.*valid: email, phone"):
        build(["e-mail"])


SAMPLE = (
    "Hi, I'm Ada (ada.lovelace@example.org); call (415) 555-2671 or +44 20 7946 0958.\n"
    "Card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, SSN 536-90-4399,\n"
    "born on 12 March 1985. Server 192.168.1.10, request 550e8400-e29b-41d4-a716-446655440000,\n"
    "docs at https://example.com/guide?page=2).\n"
    "Not these: order #10023344, v1.2.3.4, ISBN 978-0-306-40615-7, 2024-01-15 10:30:00,\n"
    "4111 1111 1111 1112, 078-05-1120, DE88370400440532013000, icon@2x.png, 1.2.3.4.5.\n"
)


def test_detect_all_finds_every_type_once_in_a_chat_message():
    found = detect_all(SAMPLE, build(OURS))
    assert [(d.type, d.value) for d in found] == [
        ("email", "ada.lovelace@example.org"),
        ("phone", "(415) 555-2671"),
        ("phone", "+44 20 7946 0958"),
        ("credit-card", "4111 1111 1111 1111"),
        ("iban", "DE89 3704 0044 0532 0130 00"),
        ("ssn", "536-90-4399"),
        ("date-of-birth", "12 March 1985"),
        ("ip-address", "192.168.1.10"),
        ("uuid", "550e8400-e29b-41d4-a716-446655440000"),
        ("url", "https://example.com/guide?page=2"),
    ]
    assert all(SAMPLE[d.start:d.end] == d.value for d in found)


def test_detect_all_merges_overlaps_keeping_the_longest():
    text = "open http://192.168.0.1/admin or https://example.com/u/ada@example.com"
    found = detect_all(text, build(["ip-address", "email", "url"]))
    assert [(d.type, d.value) for d in found] == [
        ("url", "http://192.168.0.1/admin"),
        ("url", "https://example.com/u/ada@example.com"),
    ]
    alone = detect_all(text, build(["ip-address", "email"]))
    assert [d.type for d in alone] == ["ip-address", "email"]


def test_detect_all_filters_by_type_and_threshold():
    detectors = build(OURS)
    assert [d.type for d in detect_all(SAMPLE, detectors, types=["ssn", "iban"])] == [
        "iban", "ssn"]
    assert {d.type for d in detect_all("www.example.org 4155552671", detectors,
                                       threshold=0.9)} == {"url"}


# ------------------------------------------------------------ property: contract

BEFORE = st.sampled_from(["", " ", "Hi, ", "my number is ", "\n", "(", ": ", "see ", "-> "])
AFTER = st.sampled_from(["", " ", " thanks!", "\n", ")", ", and more", ". Next", "; ", "!"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(
    list(string.digits + string.ascii_letters + " .:-/@()+#,\n") + ["ü", "🙂", "İ"]),
    max_size=200))
def test_every_detector_keeps_its_contract_on_any_text(text):
    for detector in build(OURS):
        for d in detector.detect(text):
            assert isinstance(d, Detection)
            assert 0 <= d.start < d.end <= len(text)
            assert d.value == text[d.start:d.end]
            assert d.end - d.start <= detector.max_length
            assert 0 <= d.score <= 1
            assert d.type in detector.types and d.detector == detector.name


def card_with_luhn(prefix: str, body: str, length: int) -> str:
    digits = (prefix + body)[:length - 1]
    for check in "0123456789":
        if luhn_is_valid(digits + check):
            return digits + check
    raise AssertionError("unreachable")


@st.composite
def cards(draw):
    prefix, length = draw(st.sampled_from([
        ("4", 16), ("4", 13), ("4", 19), ("51", 16), ("55", 16), ("2221", 16), ("2720", 16),
        ("34", 15), ("37", 15), ("6011", 16), ("65", 19), ("3528", 16), ("3589", 17),
        ("36", 14), ("300", 14), ("62", 18), ("6759", 16), ("5018", 13), ("2204", 16),
    ]))
    body = draw(st.text(string.digits, min_size=length, max_size=length))
    return card_with_luhn(prefix, body, length)


def shape_card(number: str, sep: str) -> str:
    if not sep:
        return number
    if len(number) == 15:
        return sep.join((number[:4], number[4:10], number[10:]))
    return sep.join(number[i:i + 4] for i in range(0, len(number), 4))


@given(cards(), st.sampled_from(["", " ", "-"]), BEFORE, AFTER)
def test_any_valid_card_is_found_exactly(number, sep, before, after):
    shown = shape_card(number, sep)
    assert card_issuer(number) is not None
    text = before + shown + after
    assert_finds(CARD, text, shown)


@given(st.ip_addresses(v=4), BEFORE, AFTER)
@example(ipaddress.IPv4Address("1.0.0.0"), "", "")
@example(ipaddress.IPv4Address("2.1.3.4"), "see ", ".")
def test_any_ipv4_address_is_found(address, before, after):
    shown = str(address)
    if all(int(octet) <= 31 for octet in shown.split(".")):
        # Small numbers only read as a section, a version or an OID unless a network
        # word says a host is meant (documented in the detector); with one, it is found.
        before += "ping "
    assert_finds(IP, before + shown + after, shown)


@given(st.ip_addresses(v=6), st.booleans(), BEFORE, AFTER)
def test_any_ipv6_address_is_found(address, exploded, before, after):
    shown = address.exploded if exploded else address.compressed
    if shown.count(":") < 2 or len([g for g in shown.split(":") if g]) < 2:
        return  # "::", "::1", "a::": too short to report (documented)
    assert ipaddress.IPv6Address(shown) == address
    assert_finds(IP, before + shown + after, shown)


@given(st.uuids(), st.booleans(), BEFORE, AFTER)
def test_any_uuid_is_found(value: uuid.UUID, upper, before, after):
    shown = str(value).upper() if upper else str(value)
    assert_finds(UUID, before + shown + after, shown)


@given(st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=20),
       st.lists(st.text(string.ascii_lowercase, min_size=1, max_size=12), min_size=1,
                max_size=3),
       st.sampled_from(["com", "org", "de", "io", "museum", "co.uk"]), BEFORE, AFTER)
def test_any_plain_address_is_found(local, labels, tld, before, after):
    value = f"{local}@{'.'.join(labels)}.{tld}"
    assert_finds(EMAIL, before + value + after, value)


PHONE_REGIONS = ("US", "GB", "DE", "FR", "IN", "JP", "BR", "AU", "ES", "IT", "NL", "CH")


@settings(max_examples=150)
@given(st.sampled_from(PHONE_REGIONS), st.sampled_from(["MOBILE", "FIXED_LINE"]),
       st.sampled_from(["NATIONAL", "INTERNATIONAL", "E164"]), BEFORE, AFTER)
def test_example_numbers_of_each_region_are_found(region, kind, fmt, before, after):
    import phonenumbers

    number = phonenumbers.example_number_for_type(
        region, getattr(phonenumbers.PhoneNumberType, kind))
    shown = phonenumbers.format_number(number, getattr(phonenumbers.PhoneNumberFormat, fmt))
    assert_finds(PhoneDetector(regions=[region]), before + shown + after, shown)


# ------------------------------------------------------------ shared views of a text


@given(st.text(string.ascii_letters + string.digits + "+/=_~-  .:é", max_size=200))
def test_token_runs_are_the_long_runs_of_token_characters(text):
    from tripwire.detectors import _views

    expected = [m.span() for m in re.finditer(r"[A-Za-z0-9+/=_~-]{20,}", text)]
    assert _views.token_runs(text) == expected


def test_views_belong_to_the_text_they_were_made_of():
    from tripwire.detectors import _views

    first, second = "Card 4111 1111 1111 1111, DOB", "IBAN DE89 3704 0044 0532 0130 00"
    assert _views.classes(first) == b"Aard 0000 0000 0000 0000, AAA"
    assert _views.lower(first) == b"card 4111 1111 1111 1111, dob"
    assert _views.classes(second) == b"AAAA AA00 0000 0000 0000 0000 00"
    assert _views.lower(second) == b"iban de89 3704 0044 0532 0130 00"
    assert _views.classes("née 1985") == b"n?e 0000"


def test_detectors_find_the_same_whether_or_not_other_texts_come_between():
    detectors = build(BUILTIN_TYPES)
    texts = ["mail ana@example.com, card 4111 1111 1111 1111, born 12/03/1985",
             "key: sk-proj-" + "a1B2c3D4e5F6g7H8i9J0" * 2 + " from 192.168.10.20",
             "IBAN DE89 3704 0044 0532 0130 00, SSN 123-45-6780"]
    alone = [[sorted(map(repr, d.detect(t))) for d in detectors] for t in texts]
    interleaved = [[sorted(map(repr, d.detect(t))) for t in texts] for d in detectors]
    assert alone == [list(row) for row in zip(*interleaved, strict=True)]
    assert all(any(row) for row in alone)


def test_cards_side_by_side_with_two_spaces_are_each_found():
    text = "  4111111111111111  4111111111111111  4111111111111111  "
    found = detect_all(text, build(["credit-card"]))
    assert [(d.start, d.end) for d in found] == [(2, 18), (20, 36), (38, 54)]
