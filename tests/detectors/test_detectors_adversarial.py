"""The detectors' fast paths for adversarial text (``bench/pii_adversarial.py``) find
exactly what the code before them found: each is checked against that code, kept here
as the oracle, on generated texts made of the pieces such inputs repeat."""

from __future__ import annotations

import ipaddress
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tripwire.detectors import contact, financial, network, secrets
from tripwire.detectors.contact import EmailDetector, PhoneDetector, UrlDetector
from tripwire.detectors.financial import CreditCardDetector
from tripwire.detectors.network import IPAddressDetector

pytest.importorskip("phonenumbers")

# ------------------------------------------------------------------ the oracles


def old_body_start(text: str, footer: int) -> int:
    lo = max(0, footer - secrets.MAX_LENGTH)
    breaks = list(secrets._PEM_LINE_BREAK.finditer(text, lo, footer))
    line_starts = [lo] + [b.end() for b in breaks]
    line_ends = [b.start() for b in breaks] + [footer]
    start = footer
    for ls, le in zip(reversed(line_starts), reversed(line_ends), strict=True):
        line = text[ls:le]
        stripped = line.lstrip(" \t")
        if secrets._NOT_BASE64.search(stripped.rstrip(" \t")):
            break
        if stripped:
            start = le - len(stripped)
    return start


def old_trim(url: str) -> str:
    while url:
        last = url[-1]
        if last in contact._TRAILING:
            url = url[:-1]
        elif last in contact._CLOSERS and url.count(last) > url.count(contact._CLOSERS[last]):
            url = url[:-1]
        else:
            break
    return url


def old_luhn(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        n = ord(c) - 48
        if i % 2:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return total % 10 == 0


class OldCards(CreditCardDetector):
    """Every sequence of groups handed to ``_is_card`` (no count of digits first)."""

    def _cards(self, text, groups):
        i, k = 0, len(groups)
        while i < k:
            first = groups[i][1] - groups[i][0]
            if first != 4 and not 13 <= first <= 19:
                i += 1
                continue
            for j in range(min(k, i + 5) if first == 4 else i + 1, i, -1):
                start, end = groups[i][0], groups[j - 1][1]
                if self._is_card(text, groups[i:j]):
                    value = text[start:end]
                    score = 0.5 if financial._ID_CONTEXT.search(text, max(0, start - 32), start) else (
                        0.99 if j - i > 1 else 0.95)
                    yield financial.Detection("credit-card", start, end, score, self.name, value)
                    i = j
                    break
            else:
                i += 1


_OLD_AT = re.compile(r"@(?=[^\W_])")


class OldEmail(EmailDetector):
    """Every "@" with a letter or digit after it looked at in Python."""

    def detect(self, text):
        found = []
        if "@" not in text:
            return found
        covered = 0
        for m in _OLD_AT.finditer(text):
            at = m.start()
            if at < covered or not at or contact._LOCAL_CHAR.match(text, at - 1) is None:
                continue
            hit = self._at(text, at)
            if hit is not None:
                start, covered = hit
                found.append(contact.Detection("email", start, covered, 1.0, self.name,
                                               text[start:covered]))
        return found


class OldPhone(PhoneDetector):
    """Every parsed candidate checked by ``is_valid_number`` (no length check first, no
    cache); the shape of every candidate checked again each time it is met."""

    def _plausible(self, text, start, end, value):
        if not value[-1].isdigit() or value[0] not in "+(0123456789":
            return False
        groups = contact._GROUPS.findall(value)
        digits = sum(len(g) for g in groups)
        if not (7 if value.startswith(("+", "00", "(00")) else self._min_digits) <= digits <= 15:
            return False
        if len(groups) > 1 and len(groups[-1]) == 1:
            return False
        if len(groups) > 7 or sum(len(g) == 1 for g in groups) > 1:
            return False
        national = groups[1:] if value.startswith("+") else groups
        if "." in value and (any(len(g) < 2 for g in national) or (
                len(groups) == 4 and value.count(".") == 3 and all(len(g) <= 3 for g in groups))):
            return False
        if contact._YEAR_RANGE.match(value):
            return False
        if value.count("(") != value.count(")"):
            return False
        if any(contact._DATE.match(tok) for tok in value.split()):
            return False
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if (before.isalnum() or before in contact._BAD_BEFORE or after.isalnum()
                or after in contact._BAD_AFTER):
            return False
        if after in ".-/" and text[end + 1:end + 2].isdigit():
            return False
        if not value.startswith("+") and contact._is_isbn13(groups):
            return False
        if contact._SSN_SHAPE.match(value):
            return False
        if contact.in_grouped_iban(text, start):
            return False
        if not value.startswith("+") and (
                (after == " " and text[end + 1:end + 2].isdigit())
                or (before == " " and start > 1 and text[start - 2].isdigit())):
            return False
        return (value.startswith("+")
                or not contact._after_identifier(text, start))

    def _check(self, value, region):
        pn = self._pn
        if region is None:
            compact = value.lstrip("(")
            for idd in ("00", "011"):
                if compact.startswith(idd):
                    value = "+" + compact[len(idd):]
                    break
            if not value.startswith("+"):
                return False
        else:
            prefix = contact._trunk_prefix(pn, region)
            if prefix and not value.lstrip("(").startswith(prefix):
                return False
            if region in contact._NANP and contact._group_sizes(value) not in contact._NANP_GROUPS:
                return False
        try:
            parsed = pn.parse(value, region)
        except pn.NumberParseException:
            return False
        return bool(pn.is_valid_number(parsed))


def pieces(*parts: str, max_size: int = 40) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(parts), max_size=max_size).map("".join)


# ------------------------------------------------------------------ private keys

PEM_TEXT = pieces(
    "-----END PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----",
    "QUJDREVG", "MIIEvQ", "a+/=", "\n", "\r\n", "\r", "\\n", "\\r\\n", "\\", "n", " ", "\t",
    "-", "x:y", "é", "٣", "#")


@settings(deadline=None, max_examples=400)
@given(PEM_TEXT, st.data())
def test_the_body_before_an_end_line_starts_where_it_did(text, data):
    footer = data.draw(st.integers(0, len(text)))
    assert secrets._body_start(text, footer) == old_body_start(text, footer)


@settings(deadline=None, max_examples=200)
@given(PEM_TEXT)
def test_private_keys_are_found_as_before(text):
    assert list(secrets._private_keys(text)) == list(_old_private_keys(text))


def _old_private_keys(text):
    original = secrets._body_start
    secrets._body_start = old_body_start
    try:
        return list(secrets._private_keys(text))
    finally:
        secrets._body_start = original


def test_end_lines_with_a_body_far_back_keep_their_body():
    body = "\n".join(["QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo="] * 150)  # > 4096 characters
    text = "intro -\n" + body + "\n-----END PRIVATE KEY-----"
    footer = text.index("-----END")
    assert secrets._body_start(text, footer) == old_body_start(text, footer)
    assert footer - secrets._body_start(text, footer) <= secrets.MAX_LENGTH
    short = "x-y QUJD\n  QUJDREVG\n-----END PRIVATE KEY-----"
    assert secrets._body_start(short, short.index("-----")) == short.index("QUJD\n  Q") + 5 + 2


# ------------------------------------------------------------------ URLs

@settings(deadline=None, max_examples=500)
@given(st.text(alphabet="()[]{}.,;:!?*'\"~_a/-", max_size=60))
def test_a_url_is_trimmed_as_before(url):
    assert contact._trim(url) == old_trim(url)


@settings(deadline=None, max_examples=200)
@given(pieces("https://a.bc/", "www.x.org/", "(", ")", "]", "[", "}", ".", ",", "a", " ", "_",
              "'", "x_(y)"))
def test_urls_are_found_as_before(text):
    original = contact._trim
    contact._trim = old_trim
    try:
        expected = list(UrlDetector().detect(text))
    finally:
        contact._trim = original
    assert list(UrlDetector().detect(text)) == expected


def test_a_url_ending_in_many_brackets_keeps_its_balanced_ones():
    url = "https://x.org/Foo_(bar)" + ")" * 3000
    assert contact._trim(url) == "https://x.org/Foo_(bar)"
    assert contact._trim("https://x.org/(a)(b))].,") == "https://x.org/(a)(b)"


# ------------------------------------------------------------------ cards

CARD_TEXT = pieces("4111", "1111", "4111 1111 1111 1111", "3782 822463 10005", "378282246310005",
                   "5500-0000-0000-0004", "4222222222222", "0", "12", "123", " ", "-", "  ", ".", "#",
                   "order no. ", "DE75 ", "a")


@settings(deadline=None, max_examples=400)
@given(CARD_TEXT)
def test_cards_are_found_as_before(text):
    assert list(CreditCardDetector().detect(text)) == list(OldCards().detect(text))


@settings(deadline=None)
@given(st.text(alphabet="0123456789", max_size=25))
def test_the_luhn_check_is_the_same(digits):
    assert financial.luhn_is_valid(digits) == old_luhn(digits)


# ------------------------------------------------------------------ email

EMAIL_TEXT = pieces("a", "b.cc", "@", ".", "-", "_", "+", "%", ":", "/", "://", "x.png", "ex.com",
                    " ", "٣", "é", "xn--p1ai", "1", "a" * 70)


@settings(deadline=None, max_examples=500)
@given(EMAIL_TEXT)
def test_addresses_are_found_as_before(text):
    # (but an image's scale in other digits, "a@٣x.png", is read as one now: the text is
    # read folded)
    assume(not re.search(r"@[^\x00-\x7f]x\.", text))
    assert list(EmailDetector().detect(text)) == list(OldEmail().detect(text))


@pytest.mark.parametrize("text", [
    "mail a@b.cc now", "a@a@b.cc", "x.y+z@mail.example.org.", "icon@2x.png", "@b.cc@b.cc",
    "https://u:p@host.com/x", "ann@xn--p1ai", "ann@ex-ample.com-x", "a@b.c", "٣@b.cc"])
def test_these_addresses_are_found_as_before(text):
    assert list(EmailDetector().detect(text)) == list(OldEmail().detect(text))


# ------------------------------------------------------------------ phone

_REGIONS = ["US", "GB", "DE", "IT", "FR", "IN"]
_NEW_PHONE = PhoneDetector(regions=_REGIONS)
_OLD_PHONE = OldPhone(regions=_REGIONS)


@settings(deadline=None, max_examples=400)
@given(st.sampled_from(["", "+", "00", "011", "(", "+1 ", "+44 ", "+39 0", "+7 "]),
       st.lists(st.text(alphabet="0123456789", min_size=1, max_size=5), min_size=1, max_size=6),
       st.sampled_from([" ", "-", ".", ""]))
def test_a_phone_number_is_valid_as_before(prefix, groups, sep):
    value = prefix + sep.join(groups)
    assert _NEW_PHONE._is_number(value, 0, len(value)) == _OLD_PHONE._is_number(value, 0, len(value))


def test_valid_numbers_of_every_length_stay_valid():
    for value in ["+1 212 555 0100", "020 7946 0958", "+44 20 7946 0958", "+39 06 6982 1234",
                  "+49 30 901820", "+91 98765 43210", "(415) 555-2671", "+7 495 123-45-67"]:
        assert _NEW_PHONE._is_number(value, 0, len(value)) == _OLD_PHONE._is_number(value, 0, len(value))
    assert _NEW_PHONE._is_number("+1 212 555 0100", 0, 15)


# ------------------------------------------------------------------ IPv6


@settings(deadline=None, max_examples=500)
@given(pieces("a", "ff", "1", "12", "::", ":", ".", "1.2.3.4", "fe80", " ", "/", "x", max_size=24))
def test_ip_addresses_are_found_as_before(text):
    assert list(IPAddressDetector().detect(text)) == list(OldIP().detect(text))


def test_these_ip_addresses_are_found_as_before():
    for text in ["2001:db8:0:0:0:0:2:1", "2001:db8::2:1", "::ffff:192.0.2.1",
                 "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "a://a:a://a:"]:
        assert list(IPAddressDetector().detect(text)) == list(OldIP().detect(text))
    assert [d.value for d in IPAddressDetector().detect("at 1:2:3:4:5:6:1.2.3.4 now")] == [
        "1:2:3:4:5:6:1.2.3.4"]


class OldIP(IPAddressDetector):
    """Every IPv6 candidate handed to ``ipaddress`` (no count of its colons first)."""

    def _v6(self, text):
        covered = 0
        for anchor in network._V6_ANCHOR.finditer(text):
            start = anchor.start()
            while start > max(0, anchor.start() - 4) and text[start - 1] in network._HEX:
                start -= 1
            if start < covered:
                continue
            before = text[start - 1] if start else " "
            if before.isalnum() or before in "_:.":
                continue
            m = network._V6.match(text, start)
            if m is None:
                continue
            value = m.group()
            if value.endswith(":") and not value.endswith("::"):
                value = value[:-1]
            end = start + len(value)
            after = text[end] if end < len(text) else " "
            if after.isalnum() or after == "_" or (after in ".:" and text[end + 1:end + 2].isalnum()):
                continue
            if len(network._HEX_GROUP.findall(value.split(".")[0])) < 2:
                continue
            try:
                ipaddress.IPv6Address(value)
            except ValueError:
                continue
            covered = end
            yield network.Detection("ip-address", start, end, 1.0, self.name, value)


PHONE_TEXT = pieces("212", "555", "0100", "020", "7946", "0958", "12", "1", "2015", "2020",
                    "978", "0306", "40615", "+1 ", "+44 ", "(", ")", " ", "-", ".", "/",
                    "order #", "DE18 ", "a", "x", max_size=30)


@settings(deadline=None, max_examples=300)
@given(PHONE_TEXT)
def test_phone_numbers_are_found_as_before(text):
    # (but a number that ends in a dash and one or two digits, an extension now: below)
    assume(not re.search(r"(?<=[0-9]{3})-[0-9]{1,2}(?![0-9])", text))
    # (nor a number right after a group of letters and digits: the rest of that code now,
    # "1Z 9W8 47E 03 4417 2285", "212a 0100212")
    assume(not re.search(r"(?<!\S)(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{2,8} [0-9(+]",
                         text))
    # (nor two numbers of eight digits or more joined by "/": two numbers now,
    # "06 12 34 56 78/07 12 34 56 78")
    assume(not re.search(r"(?:[0-9][ ().-]*){8}/ ?[0+](?:[ ().-]*[0-9]){7}", text))
    assert list(_NEW_PHONE.detect(text)) == list(_OLD_PHONE.detect(text))


def test_a_dash_and_one_or_two_digits_after_a_number_are_its_extension():
    assert [d.value for d in _NEW_PHONE.detect("Tel. 030 1234567-0")] == ["030 1234567"]
    assert [d.value for d in _OLD_PHONE.detect("Tel. 030 1234567-0")] == []


def test_these_phone_numbers_are_found_as_before():
    for text in ["call (212) 555-0100 or 020 7946 0958", "12 " * 40, "order #2125550100",
                 "ISBN 978-0-306-40615-7", "on 2015-2020", "DE18 1917 0482 3184 3129 95",
                 "v1.2.33.4567", "4111 1111 1111 1111", "+44 20 7946 0958.",
                 "born 12/03/1985 ok", "on 12.03.1985 at", "1985-03-12 x", "(12/03/1985)",
                 "9780306406157", "978 0306 406157", "978-0-306-40615-7 ", "+39 06 6982 1234"]:
        assert list(_NEW_PHONE.detect(text)) == list(_OLD_PHONE.detect(text))
    assert [d.value for d in _NEW_PHONE.detect("call (212) 555-0100 now")] == ["(212) 555-0100"]


@settings(deadline=None, max_examples=500)
@given(pieces("212", "555", "0100", "12", "1", "2015", "1985", "03", "978", "0306", "40615",
              "9780306406157", "+", "00", "(", ")", " ", "-", ".", "/", max_size=12))
def test_a_candidate_is_plausible_as_before(value):
    text = f" {value} "
    groups = re.findall(r"[0-9]+", value)
    # (but a switchboard's last digit after a country code, "0049 711 26 84 93 0", and
    # four dotted groups one of which is no octet, Spain's "91.563.84.20", are now)
    assume(not (value.lstrip("(").startswith(("+", "00")) and len(groups) > 1
                and len(groups[-1]) == 1))
    assume(not (value.count(".") == 3 and len(groups) == 4 and any(int(g) > 255 for g in groups)))
    if value:
        assert (_NEW_PHONE._plausible(text, 1, 1 + len(value), value)
                == _OLD_PHONE._plausible(text, 1, 1 + len(value), value))


@pytest.mark.parametrize("value", ["12/03/1985", "12.03.1985", "1985-03-12", "(12/03/85)",
                                   "12-03-1985 5", "9780306406157", "978 0306 406157",
                                   "2015-2020", "1.2.33.4567", "192.168.10.200", "(212) 555-0100"])
def test_these_candidates_are_plausible_as_before(value):
    text = f" {value} "
    assert (_NEW_PHONE._plausible(text, 1, 1 + len(value), value)
            == _OLD_PHONE._plausible(text, 1, 1 + len(value), value))


@settings(max_examples=300, deadline=None, database=None)
@given(digits=st.text("0123456789", min_size=1, max_size=60), data=st.data())
def test_a_runs_luhn_sums_check_any_stretch_of_it_as_the_luhn_check_does(digits, data):
    # (the card detector rules out a run's candidates with these before it looks at them)
    sums = financial._luhn_sums(digits)
    a = data.draw(st.integers(0, len(digits) - 1))
    b = data.draw(st.integers(a + 1, len(digits)))
    luhn = sums[(b - 1) & 1]
    assert ((luhn[b] - luhn[a]) % 10 == 0) == financial.luhn_is_valid(digits[a:b])


@settings(max_examples=200, deadline=None, database=None)
@given(groups=st.lists(st.sampled_from(["4111", "1111", "4012", "8888", "1881", "5555", "4444",
                                        "378282246310005", "4242", "0000", "12", "123"]),
                       min_size=1, max_size=14),
       sep=st.sampled_from([" ", "-"]))
def test_groups_ruled_out_by_their_luhn_sums_are_what_the_whole_check_rules_out(groups, sep):
    text = "pay " + sep.join(groups) + " now"
    found = [(d.start, d.end) for d in CreditCardDetector().detect(text)]
    # the same search with every candidate looked at (no sums: every stretch passes)
    everything = ([0] * (len(text) + 1), [0] * (len(text) + 1))
    slow = financial._luhn_sums
    try:
        financial._luhn_sums = lambda digits: everything
        assert [(d.start, d.end) for d in CreditCardDetector().detect(text)] == found
    finally:
        financial._luhn_sums = slow
