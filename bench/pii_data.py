"""A labelled set of chat texts with personal data and secrets, and hard negatives.

``samples(seed, n)`` makes ``n`` texts, each a chat-like sentence holding zero or more
labelled values ``(type, start, end)``: every type ``pii-detector`` finds
deterministically, generated valid (Luhn and issuer prefixes for cards, mod-97 for
IBANs, the SSA rules for SSNs, real numbering plans for phones, Base58Check and
bech32 for wallets, ...), and hard negatives that look like them but are not (order
numbers, ISBNs, version strings, Luhn-invalid 16-digit numbers, timestamps, hashes,
invalid SSNs and IBANs). Fixed seed: the same set every run.
"""

from __future__ import annotations

import hashlib
import random
import string
import uuid
from collections.abc import Iterator

import attrs

Label = tuple[str, int, int]


@attrs.frozen
class Sample:
    text: str
    labels: tuple[Label, ...]


# ---------------------------------------------------------------- valid values


def luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + "".join(rng.choice(string.digits) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def card(rng: random.Random) -> str:
    prefix, length = rng.choice([("4", 16), ("51", 16), ("55", 16), ("2221", 16),
                                 ("34", 15), ("37", 15), ("6011", 16), ("3530", 16)])
    digits = luhn_complete(prefix, length, rng)
    style = rng.random()
    if length == 15:
        groups = [digits[:4], digits[4:10], digits[10:]]
    else:
        groups = [digits[i:i + 4] for i in range(0, 16, 4)]
    if style < 0.4:
        return " ".join(groups)
    if style < 0.7:
        return "-".join(groups)
    return digits


def luhn_invalid(rng: random.Random) -> str:
    good = luhn_complete("4", 16, rng)
    return good[:-1] + str((int(good[-1]) + rng.randint(1, 9)) % 10)


_IBAN_LENGTHS = {"DE": 22, "GB": 22, "FR": 27, "NL": 18, "ES": 24, "IT": 27, "CH": 21,
                 "BE": 16, "AT": 20}


def iban(rng: random.Random, *, valid: bool = True) -> str:
    country = rng.choice(sorted(_IBAN_LENGTHS))
    n = _IBAN_LENGTHS[country] - 4
    if country in ("GB", "NL"):
        bban = "".join(rng.choice(string.ascii_uppercase) for _ in range(4)) + \
            "".join(rng.choice(string.digits) for _ in range(n - 4))
    elif country in ("FR", "IT"):
        bban = (rng.choice(string.ascii_uppercase) if country == "IT" else "") + \
            "".join(rng.choice(string.digits) for _ in range(n - (1 if country == "IT" else 0)))
    else:
        bban = "".join(rng.choice(string.digits) for _ in range(n))
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    if not valid:
        check = (check + rng.randint(1, 50)) % 97 + 2
    raw = f"{country}{check:02d}{bban}"
    if rng.random() < 0.5:
        return " ".join(raw[i:i + 4] for i in range(0, len(raw), 4))
    return raw


def ssn(rng: random.Random) -> str:
    while True:
        area = rng.randint(1, 899)
        if area != 666:
            break
    sep = rng.choice(["-", "-", " "])
    return f"{area:03d}{sep}{rng.randint(1, 99):02d}{sep}{rng.randint(1, 9999):04d}"


def invalid_ssn(rng: random.Random) -> str:
    return rng.choice([f"000-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}",
                       f"666-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}",
                       f"9{rng.randint(0, 99):02d}-{rng.randint(1, 99):02d}-1234",
                       f"123-00-{rng.randint(1, 9999):04d}", "078-05-1120"])


def phone(rng: random.Random) -> str:
    area = rng.choice(["212", "415", "617", "312", "206", "503", "646", "818"])
    exchange = f"{rng.randint(2, 9)}{rng.randint(0, 9)}{rng.randint(0, 9)}"
    line = f"{rng.randint(0, 9999):04d}"
    fmt = rng.random()
    if fmt < 0.3:
        return f"({area}) {exchange}-{line}"
    if fmt < 0.55:
        return f"{area}-{exchange}-{line}"
    if fmt < 0.75:
        return f"+1 {area} {exchange} {line}"
    return rng.choice([f"+44 20 7{rng.randint(100, 999)} {rng.randint(1000, 9999)}",
                       f"+49 30 {rng.randint(1000000, 9999999)}",
                       f"+33 1 {rng.randint(10, 99)} {rng.randint(10, 99)} "
                       f"{rng.randint(10, 99)} {rng.randint(10, 99)}"])


def email(rng: random.Random) -> str:
    user = rng.choice(["ada", "j.smith", "maria_garcia", "wei.chen", "o.okafor", "sam+news"])
    domain = rng.choice(["example.com", "mail.example.org", "corp.example.co.uk", "uni.edu"])
    return f"{user}{rng.randint(1, 99)}@{domain}"


def ip(rng: random.Random) -> str:
    if rng.random() < 0.75:
        return ".".join(str(rng.randint(1, 254)) for _ in range(4))
    return "2001:db8:" + ":".join(f"{rng.randint(0, 65535):x}" for _ in range(6))


def url(rng: random.Random) -> str:
    host = rng.choice(["www.example.com", "docs.example.org", "shop.example.net"])
    path = "/".join(rng.choice(["orders", "account", "help", "a", "view"]) for _ in range(2))
    return f"https://{host}/{path}?id={rng.randint(1, 99999)}"


def api_key(rng: random.Random) -> str:
    alphabet = string.ascii_letters + string.digits
    kind = rng.random()
    if kind < 0.25:
        return "sk-proj-" + "".join(rng.choice(alphabet) for _ in range(48))
    if kind < 0.45:
        return "ghp_" + "".join(rng.choice(alphabet) for _ in range(36))
    if kind < 0.65:
        return "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits)
                                for _ in range(16))
    if kind < 0.8:
        return "sk-ant-api03-" + "".join(rng.choice(alphabet + "-_") for _ in range(93))
    return "AIza" + "".join(rng.choice(alphabet + "-_") for _ in range(35))


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58check(version: int, payload: bytes) -> str:
    raw = bytes([version]) + payload
    raw += hashlib.sha256(hashlib.sha256(raw).digest()).digest()[:4]
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = _B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def wallet(rng: random.Random) -> str:
    return base58check(rng.choice([0x00, 0x05]), bytes(rng.getrandbits(8) for _ in range(20)))


def dob(rng: random.Random) -> tuple[str, str]:
    """A sentence prefix with a birth keyword, and the date."""
    y, m, d = rng.randint(1940, 2005), rng.randint(1, 12), rng.randint(1, 28)
    date = rng.choice([f"{m:02d}/{d:02d}/{y}", f"{y}-{m:02d}-{d:02d}",
                       f"{d} {['January', 'March', 'July', 'October'][m % 4]} {y}"])
    return rng.choice(["I was born on ", "DOB: ", "my date of birth is "]), date


# ---------------------------------------------------------------- hard negatives


def hard_negative(rng: random.Random) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        return f"Order #{rng.randint(100, 999)}-{rng.randint(1000000, 9999999)}-" \
               f"{rng.randint(1000000, 9999999)}"
    if kind == 1:
        return f"ISBN 978-{rng.randint(0, 9)}-{rng.randint(10, 99)}-" \
               f"{rng.randint(100000, 999999)}-{rng.randint(0, 9)}"
    if kind == 2:
        return f"version {rng.randint(1, 20)}.{rng.randint(0, 9)}.{rng.randint(0, 99)}." \
               f"{rng.randint(1000, 9999)}"
    if kind == 3:
        return f"reference {luhn_invalid(rng)}"
    if kind == 4:
        return f"at 2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T" \
               f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z (epoch " \
               f"{rng.randint(1_600_000_000, 1_800_000_000)})"
    if kind == 5:
        return f"commit {rng.getrandbits(160):040x}"
    if kind == 6:
        return f"sha256 {rng.getrandbits(256):064x}"
    if kind == 7:
        return f"ticket {invalid_ssn(rng)}"
    return f"account {iban(rng, valid=False)}"


# ---------------------------------------------------------------- texts


_MAKERS = {
    "email": email, "phone": phone, "credit-card": card, "ssn": ssn, "api-key": api_key,
    "ip-address": ip, "url": url, "crypto-wallet": wallet, "iban": iban,
}
_TEMPLATES = [
    "Hi, can you help me? My {label} is {value}, thanks.",
    "Please update the record: {value}.",
    "The customer wrote: \"reach me at {value} any time\"",
    "{value} — that's what the form says.",
    "Got it. I've noted {value} and will follow up tomorrow.",
]
_LABEL_WORDS = {"email": "email", "phone": "number", "credit-card": "card",
                "ssn": "social security number", "api-key": "key", "ip-address": "IP",
                "url": "link", "crypto-wallet": "wallet", "iban": "IBAN",
                "uuid": "id", "date-of-birth": "birthday"}


def samples(seed: int = 7, n: int = 2000) -> Iterator[Sample]:
    rng = random.Random(seed)
    types = [*_MAKERS, "uuid", "date-of-birth"]
    for i in range(n):
        if i % 4 == 3:
            yield Sample(f"FYI: {hard_negative(rng)}. Nothing else to add.", ())
            continue
        kind = types[i % len(types)]
        if kind == "date-of-birth":
            prefix, value = dob(rng)
            head = f"For the insurance form: {prefix}"
            text = f"{head}{value}."
            yield Sample(text, ((kind, len(head), len(head) + len(value)),))
            continue
        value = str(uuid.UUID(int=rng.getrandbits(128), version=4)) if kind == "uuid" \
            else _MAKERS[kind](rng)
        template = rng.choice(_TEMPLATES)
        before, after = template.split("{value}")
        before = before.format(label=_LABEL_WORDS[kind])
        text = before + value + after.format(label=_LABEL_WORDS[kind])
        yield Sample(text, ((kind, len(before), len(before) + len(value)),))


def chat_text(size: int, seed: int = 11) -> str:
    """About ``size`` characters of chat: mostly plain prose, with a value now and then."""
    rng = random.Random(seed)
    words = ("the order was shipped yesterday and should arrive within three business "
             "days please let me know if there is anything else I can help you with "
             "we apologise for the delay our team is looking into it").split()
    parts: list[str] = []
    total = 0
    pool = list(samples(seed, 400))
    while total < size:
        if rng.random() < 0.05:
            piece = rng.choice(pool).text
        else:
            piece = " ".join(rng.choice(words) for _ in range(rng.randint(6, 20))) + ". "
        parts.append(piece)
        total += len(piece)
    return "".join(parts)[:size]
