"""``national_valid`` says what ``phonenumbers`` says of a number written in a region's
own way, without parsing it, or leaves it to ``phonenumbers`` (``None``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire.detectors._numbering import international_valid, national_valid

pn = pytest.importorskip("phonenumbers")

#: Regions with one or many regions to their country code (NANP), national prefixes of
#: every kind, leading zeros kept (IT), transform rules (AR, BR, JP: left to a parse).
REGIONS = ["US", "CA", "JM", "GB", "IM", "DE", "FR", "IT", "ES", "NL", "CH", "AT", "SE",
           "NO", "PL", "RU", "KZ", "IN", "CN", "HK", "JP", "KR", "AU", "NZ", "BR", "AR",
           "MX", "ZA", "NG", "EG", "TR", "IL", "AE", "SG", "VA", "GG"]


def parsed_valid(digits: str, region: str | None) -> bool:
    try:
        return bool(pn.is_valid_number(pn.parse(digits, region)))
    except pn.NumberParseException:
        return False


@settings(max_examples=600, deadline=None, database=None)
@given(region=st.sampled_from(REGIONS), digits=st.text("0123456789", min_size=2, max_size=17))
def test_what_it_says_is_what_a_parse_says(region, digits):
    known = national_valid(pn, digits, region)
    assert known is None or known == parsed_valid(digits, region)


@pytest.mark.parametrize("region", REGIONS)
def test_numbers_of_every_length_agree_with_a_parse_and_most_need_none(region):
    rng = random.Random(region)
    meta = pn.PhoneMetadata.metadata_for_region(region)
    lengths = sorted(set(meta.general_desc.possible_length) | {7, 10, 11, 12})
    answered = 0
    for _ in range(400):
        n = rng.choice(lengths)
        digits = "".join(rng.choice("0123456789") for _ in range(n))
        # valid numbers too: an example of each type, with a digit changed or not
        if rng.random() < 0.3:
            example = pn.example_number_for_type(region, rng.choice(
                [pn.PhoneNumberType.FIXED_LINE, pn.PhoneNumberType.MOBILE,
                 pn.PhoneNumberType.TOLL_FREE]))
            if example is not None:
                digits = pn.national_significant_number(example)
                if rng.random() < 0.5:
                    at = rng.randrange(len(digits))
                    digits = digits[:at] + rng.choice("0123456789") + digits[at + 1:]
        known = national_valid(pn, digits, region)
        if known is not None:
            answered += 1
            assert known == parsed_valid(digits, region), digits
    if not pn.PhoneMetadata.metadata_for_region(region).national_prefix_transform_rule:
        assert answered > 200  # (the point: most numbers need no parse)


@settings(max_examples=600, deadline=None, database=None)
@given(region=st.sampled_from(REGIONS), prefix=st.sampled_from(["00", "011", "810", "010"]),
       digits=st.text("0123456789", min_size=2, max_size=15))
def test_a_number_with_an_international_prefix_is_read_as_a_parse_reads_it(region, prefix,
                                                                            digits):
    known = national_valid(pn, prefix + digits, region)
    assert known is None or known == parsed_valid(prefix + digits, region)


@pytest.mark.parametrize("region", REGIONS)
def test_numbers_with_a_plus_agree_with_a_parse(region):
    rng = random.Random(region)
    code = str(pn.country_code_for_region(region))
    answered = 0
    for _ in range(300):
        example = pn.example_number_for_type(region, rng.choice(
            [pn.PhoneNumberType.FIXED_LINE, pn.PhoneNumberType.MOBILE]))
        digits = (pn.national_significant_number(example) if example is not None
                  else "".join(rng.choice("0123456789") for _ in range(10)))
        at = rng.randrange(len(digits))
        if rng.random() < 0.6:
            digits = digits[:at] + rng.choice("0123456789") + digits[at + 1:]
        if rng.random() < 0.2:
            digits = digits[:rng.randrange(len(digits) + 1)]
        known = international_valid(pn, code + digits)
        if known is not None:
            answered += 1
            assert known == parsed_valid("+" + code + digits, None), code + digits
    if not pn.PhoneMetadata.metadata_for_region(region).national_prefix_transform_rule:
        assert answered > 100


def test_a_region_that_rewrites_its_numbers_is_left_to_a_parse():
    assert national_valid(pn, "91123456789", "AR") is None
