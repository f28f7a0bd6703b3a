"""Build the English and German PII evaluation records from the hand-written sources.

The records themselves are written by hand in ``pii_en.py`` and ``pii_de.py`` as a list of
``(genre, text)`` pairs with inline markup:

* ``[[type|value]]`` marks an entity, e.g. ``[[email|anna.weber@posteo.de]]``;
  a phone may carry the region it is dialled from: ``[[phone/GB|020 3318 4470]]``
  (default: US for English, DE for German).
* ``{{kind|value}}`` marks a hard negative, e.g. ``{{order-number|A-2291-7781}}``;
  ``{{other=what it is|value}}`` records an ``other`` negative with its kind in ``comment``.

This script only strips the markup, computes offsets, checks every value (checksums, phone
numbering plans, overlaps, duplicates across the set) and writes the dev / held-out halves.

    python bench/evalsets/src/build_pii_en_de.py [en|de ...]      # build and check
    python bench/evalsets/src/build_pii_en_de.py --check en        # check only, print stats
"""

from __future__ import annotations

import base64
import collections
import hashlib
import importlib.util
import ipaddress
import json
import random
import re
import sys
from pathlib import Path

import phonenumbers

HERE = Path(__file__).resolve().parent
EVALSETS = HERE.parent

TYPES = (
    "email", "phone", "credit-card", "ssn", "api-key", "url-credentials", "url", "ip-address",
    "uuid", "crypto-wallet", "iban", "date-of-birth", "name", "address",
)
KINDS = (
    "order-number", "tracking-number", "invoice-number", "product-code", "digit-run",
    "account-number", "card-like", "iban-like", "oid", "section-number", "version", "date", "time",
    "hash", "example-key", "file-name", "math", "coordinates", "isbn", "postal-code-alone",
    "organisation", "place-name", "handle", "money", "percentage", "other",
)
GENRES = ("chat", "email", "ticket", "log", "document")
GENRE_QUOTA = {"chat": 25, "email": 25, "ticket": 25, "log": 20, "document": 25}
DEFAULT_REGION = {"en": "US", "de": "DE"}

ENT_RE = re.compile(r"\[\[(" + "|".join(map(re.escape, TYPES)) + r")(?:/([A-Z]{2}))?\|(.*?)\]\]", re.S)
NEG_RE = re.compile(
    r"\{\{(" + "|".join(map(re.escape, KINDS)) + r")(?:=([^|{}]+))?\|(.*?)\}\}", re.S)
ANY_RE = re.compile(ENT_RE.pattern + "|" + NEG_RE.pattern, re.S)


# ----------------------------------------------------------------------------------------------
# checksums and formats

def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def card_issuer(digits: str) -> str | None:
    n = len(digits)
    p2, p3, p4, p6 = int(digits[:2]), int(digits[:3]), int(digits[:4]), int(digits[:6])
    if digits[0] == "4" and n in (13, 16, 19):
        return "visa"
    if (51 <= p2 <= 55 or 2221 <= p4 <= 2720) and n == 16:
        return "mastercard"
    if p2 in (34, 37) and n == 15:
        return "amex"
    if (p4 == 6011 or p2 == 65 or 644 <= p3 <= 649 or 622126 <= p6 <= 622925) and n in (16, 19):
        return "discover"
    if 3528 <= p4 <= 3589 and 16 <= n <= 19:
        return "jcb"
    if (p2 in (36, 38, 39) or 300 <= p3 <= 305 or p4 == 3095) and 14 <= n <= 19:
        return "diners"
    if p2 == 62 and 16 <= n <= 19:
        return "unionpay"
    if p4 in (5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763) and 12 <= n <= 19:
        return "maestro"
    return None


IBAN_LEN = {
    "DE": 22, "AT": 20, "CH": 21, "GB": 22, "IE": 22, "FR": 27, "NL": 18, "BE": 16, "ES": 24,
    "IT": 27, "LU": 20, "PL": 28, "DK": 18, "SE": 24, "NO": 15, "FI": 18, "PT": 25, "CZ": 24,
    "LI": 21, "MT": 31, "GR": 27, "HU": 28, "HR": 21, "SI": 19, "SK": 24, "EE": 20, "LT": 20,
}


def iban_mod97(compact: str) -> int:
    s = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in s)) % 97


def iban_ok(value: str) -> bool:
    compact = value.replace(" ", "").upper()
    return (re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", compact) is not None
            and IBAN_LEN.get(compact[:2]) == len(compact) and iban_mod97(compact) == 1)


def ssn_ok(value: str) -> bool:
    m = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})|(\d{3})(\d{2})(\d{4})|(\d{3}) (\d{2}) (\d{4})", value)
    if not m:
        return False
    a, g, s = [x for x in m.groups() if x is not None]
    return a not in ("000", "666") and a[0] != "9" and g != "00" and s != "0000"


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58decode_check(value: str) -> bytes | None:
    n = 0
    for ch in value:
        if ch not in B58:
            return None
        n = n * 58 + B58.index(ch)
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(value) - len(value.lstrip("1"))) + raw
    if len(raw) < 5:
        return None
    body, check = raw[:-4], raw[-4:]
    if hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] != check:
        return None
    return body


def b58encode_check(body: bytes) -> str:
    raw = body + hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4]
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values):
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (b >> i) & 1 else 0
    return chk


def _hrp_expand(hrp):
    return [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]


def _convertbits(data, frombits, tobits, pad=True):
    acc = bits = 0
    out = []
    maxv = (1 << tobits) - 1
    for value in data:
        acc = (acc << frombits) | value
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & maxv)
    if pad and bits:
        out.append((acc << (tobits - bits)) & maxv)
    elif not pad and (bits >= frombits or ((acc << (tobits - bits)) & maxv)):
        return None
    return out


def segwit_decode(value: str) -> tuple[str, int, bytes] | None:
    if value.lower() != value and value.upper() != value:
        return None
    v = value.lower()
    pos = v.rfind("1")
    hrp, data = v[:pos], v[pos + 1:]
    if hrp not in ("bc", "ltc") or len(data) < 7 or any(c not in BECH32 for c in data):
        return None
    d = [BECH32.index(c) for c in data]
    const = _polymod(_hrp_expand(hrp) + d)
    witver = d[0]
    if (witver == 0 and const != 1) or (witver > 0 and const != 0x2BC830A3):
        return None
    prog = _convertbits(d[1:-6], 5, 8, False)
    if prog is None or not 2 <= len(prog) <= 40:
        return None
    if witver == 0 and len(prog) not in (20, 32):
        return None
    return hrp, witver, bytes(prog)


def segwit_encode(hrp: str, witver: int, prog: bytes) -> str:
    data = [witver] + _convertbits(prog, 8, 5)
    const = 1 if witver == 0 else 0x2BC830A3
    pm = _polymod(_hrp_expand(hrp) + data + [0] * 6) ^ const
    data += [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in data)


# Keccak-256 (the pre-standard padding Ethereum uses; hashlib.sha3_256 differs)
_RC = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
]
_ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56],
        [27, 20, 39, 8, 14]]
_M = (1 << 64) - 1


def _rol(x, n):
    return ((x << n) | (x >> (64 - n))) & _M if n else x


def _keccak_f(a):
    for rc in _RC:
        c = [a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4] for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        a = [[a[x][y] ^ d[x] for y in range(5)] for x in range(5)]
        b = [[0] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                b[y][(2 * x + 3 * y) % 5] = _rol(a[x][y], _ROT[x][y])
        a = [[b[x][y] ^ ((~b[(x + 1) % 5][y]) & b[(x + 2) % 5][y]) for y in range(5)]
             for x in range(5)]
        a[0][0] ^= rc
    return a


def keccak256(data: bytes) -> bytes:
    rate = 136
    msg = bytearray(data) + b"\x01"
    while len(msg) % rate:
        msg += b"\0"
    msg[-1] |= 0x80
    a = [[0] * 5 for _ in range(5)]
    for off in range(0, len(msg), rate):
        block = msg[off:off + rate]
        for i in range(rate // 8):
            x, y = i % 5, i // 5
            a[x][y] ^= int.from_bytes(block[8 * i:8 * i + 8], "little")
        a = _keccak_f(a)
    out = b""
    for i in range(4):
        out += a[i % 5][i // 5].to_bytes(8, "little")
    return out


def eip55(hex40: str) -> str:
    h = keccak256(hex40.lower().encode()).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h[i], 16) >= 8 else c
                          for i, c in enumerate(hex40.lower()))


# version bytes: BTC P2PKH 0x00 / P2SH 0x05, LTC 0x30 (L) / 0x32 (M), DOGE 0x1e (D) / 0x16 (9/A)
WALLET_VERSIONS = {0x00: "btc", 0x05: "btc", 0x30: "ltc", 0x32: "ltc", 0x1E: "doge", 0x16: "doge"}


def wallet_kind(value: str) -> str | None:
    if re.fullmatch(r"0x[0-9a-fA-F]{40}", value):
        return "eth" if eip55(value[2:]) == value else None
    if value.lower().startswith(("bc1", "ltc1")):
        dec = segwit_decode(value)
        return None if dec is None else {"bc": "btc", "ltc": "ltc"}[dec[0]]
    body = b58decode_check(value)
    if body is None or len(body) != 21:
        return None
    return WALLET_VERSIONS.get(body[0])


def jwt_ok(value: str) -> bool:
    parts = value.split(".")
    if len(parts) != 3:
        return False
    try:
        for p in parts[:2]:
            json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))
    except Exception:
        return False
    return True


def phone_ok(value: str, region: str) -> bool:
    try:
        num = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(num)


def phone_key(value: str, region: str) -> str:
    num = phonenumbers.parse(value, region)
    return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.E164)


URL_CRED_RE = re.compile(r"[a-z][a-z0-9+.-]*://[^\s:/@]*:[^\s@]+@[^\s]+", re.I)
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")


def domain_of(typ: str, value: str) -> str | None:
    if typ == "email":
        host = value.rsplit("@", 1)[1]
    elif typ in ("url", "url-credentials"):
        v = value
        if "://" in v:
            v = v.split("://", 1)[1]
        v = re.split(r"[/?#]", v, maxsplit=1)[0]
        host = v.rsplit("@", 1)[-1]
        if host.startswith("["):
            return None
        host = host.split(":")[0]
    else:
        return None
    host = host.lower()
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    if "." not in host:
        return None
    labels = host.split(".")
    # registrable domain: last two labels, or three for co.uk-style suffixes
    if len(labels) >= 3 and labels[-2] in ("co", "org", "ac", "gov", "com", "net") and len(labels[-1]) == 2:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def check_entity(typ: str, value: str, region: str) -> str | None:
    """Return an error message if value is not a valid instance of typ."""
    if value != value.strip() or not value:
        return "surrounding whitespace"
    if typ == "email":
        if not EMAIL_RE.fullmatch(value):
            return "bad e-mail"
    elif typ == "phone":
        if not phone_ok(value, region):
            return f"phone not valid for {region}"
        if re.search(r"(?:^|\D)555[ .-]?01\d\d(?:\D|$)", value):
            return "fictional 555-01xx"
    elif typ == "credit-card":
        digits = re.sub(r"[ -]", "", value)
        if not digits.isdigit() or not 13 <= len(digits) <= 19:
            return "card: not 13-19 digits"
        if not luhn_ok(digits):
            return "card: Luhn fails"
        if card_issuer(digits) is None:
            return "card: unknown issuer prefix"
    elif typ == "ssn":
        if not ssn_ok(value):
            return "bad SSN"
    elif typ == "api-key":
        if value.count(".") == 2 and value.startswith("eyJ") and not jwt_ok(value):
            return "JWT does not decode"
        if "BEGIN" in value and not (value.startswith("-----BEGIN") and value.endswith("-----")):
            return "PEM block not whole"
        if len(value) < 16:
            return "too short for a key"
    elif typ == "url-credentials":
        if not URL_CRED_RE.fullmatch(value):
            return "not scheme://user:password@host"
    elif typ == "url":
        if not re.match(r"(https?://|ftp://|www\.)", value):
            return "url must start http(s)://, ftp:// or www."
        if re.match(r"[a-z]+://[^/\s]*:[^/\s]*@", value):
            return "url carries credentials"
        if value[-1] in ".,;:)!?'\"":
            return "url ends in punctuation"
    elif typ == "ip-address":
        try:
            ipaddress.ip_address(value)
        except ValueError:
            return "bad IP"
    elif typ == "uuid":
        if not re.fullmatch(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", value):
            return "bad UUID"
    elif typ == "crypto-wallet":
        if wallet_kind(value) is None:
            return "wallet checksum fails"
    elif typ == "iban":
        if not iban_ok(value):
            return "IBAN fails mod-97 or length"
    elif typ == "name":
        if re.match(r"(Mr|Mrs|Ms|Dr|Prof|Herr|Frau|Mme|Sir)\b\.?", value):
            return "title inside name span"
    return None


def check_negative(kind: str, value: str) -> str | None:
    if value != value.strip() or not value:
        return "surrounding whitespace"
    digits = re.sub(r"[ -]", "", value)
    if kind == "card-like":
        if not digits.isdigit() or not 13 <= len(digits) <= 19:
            return "card-like: not 13-19 digits"
        if luhn_ok(digits):
            return "card-like passes Luhn"
    elif kind == "iban-like":
        compact = value.replace(" ", "").upper()
        if iban_ok(compact):
            return "iban-like is a valid IBAN"
    elif kind == "ip-address":
        pass
    return None


# ----------------------------------------------------------------------------------------------
# parsing

def parse(marked: str, lang: str):
    text_parts, entities, negatives = [], [], []
    pos = out_len = 0
    for m in ANY_RE.finditer(marked):
        chunk = marked[pos:m.start()]
        text_parts.append(chunk)
        out_len += len(chunk)
        if m.group(1):
            typ, region, value = m.group(1), m.group(2), m.group(3)
            entities.append({"start": out_len, "end": out_len + len(value), "type": typ,
                             "text": value, "_region": region or DEFAULT_REGION[lang]})
        else:
            kind, comment, value = m.group(4), m.group(5), m.group(6)
            neg = {"start": out_len, "end": out_len + len(value), "kind": kind, "text": value}
            if kind == "other":
                if not comment:
                    raise ValueError(f"other negative without a comment: {value!r}")
                neg["comment"] = comment.strip()
            elif comment:
                raise ValueError(f"comment only allowed on 'other': {value!r}")
            negatives.append(neg)
        text_parts.append(value)
        out_len += len(value)
        pos = m.end()
    text_parts.append(marked[pos:])
    text = "".join(text_parts)
    bad = re.search(r"\[\[[a-z-]+[|/]|\{\{[a-z-]+[|=]|\|[^|\s]*\]\]", text)
    if bad:
        raise ValueError(f"unparsed markup {bad.group(0)!r} in: {text[:80]!r}")
    return text, entities, negatives


# things that look like entities but sit outside every span: printed for review
LINT = [
    ("email?", EMAIL_RE),
    ("url?", re.compile(r"(?:https?|ftp)://\S+|www\.\S+")),
    ("ipv4?", re.compile(r"(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.])")),
    ("uuid?", re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")),
    ("digits?", re.compile(r"(?<![\w.])\+?\d[\d ./()-]{7,}\d(?![\w])")),
    ("key?", re.compile(r"\b(?:sk-|sk_live_|pk_live_|ghp_|xox[bpa]-|AKIA|AIza|eyJ)\S+")),
    ("wallet?", re.compile(r"\b(?:bc1|ltc1)[a-z0-9]{20,}|\b0x[0-9a-fA-F]{40}\b")),
    ("iban?", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}")),
]


def lint(text, spans):
    covered = [False] * len(text)
    for s in spans:
        for i in range(s["start"], s["end"]):
            covered[i] = True
    found = []
    for label, rx in LINT:
        for m in rx.finditer(text):
            if not any(covered[m.start():m.end()]):
                if label == "digits?" and re.match(r"(?:19|20)\d\d-\d\d-\d\d", m.group(0)):
                    continue  # a log timestamp
                found.append(f"{label} {m.group(0)!r}")
    return found


def load_source(lang: str):
    path = HERE / f"pii_{lang}.py"
    spec = importlib.util.spec_from_file_location(f"pii_{lang}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.RECORDS


def build(lang: str, seen_values: dict, seen_domains: dict, *, lint_out: bool = True):
    """Parse and check one language; seen_values / seen_domains are shared across languages."""
    records, errors = [], []
    for n, (genre, marked) in enumerate(load_source(lang), 1):
        rid = f"pii-{lang}-{n:04d}"
        if genre not in GENRES:
            errors.append(f"{rid}: unknown genre {genre}")
        try:
            text, ents, negs = parse(marked.strip("\n"), lang)
        except ValueError as exc:
            errors.append(f"{rid}: {exc}")
            continue
        spans = sorted(ents + negs, key=lambda s: s["start"])
        for a, b in zip(spans, spans[1:], strict=False):
            if b["start"] < a["end"]:
                errors.append(f"{rid}: overlap {a['text']!r} / {b['text']!r}")
        record_keys = set()
        record_domains = set()
        for e in ents:
            err = check_entity(e["type"], e["text"], e["_region"])
            if err:
                errors.append(f"{rid}: {e['type']} {e['text']!r}: {err}")
                continue
            if e["type"] == "phone":
                key = ("phone", phone_key(e["text"], e["_region"]))
            elif e["type"] in ("credit-card", "iban", "ssn"):
                key = (e["type"], re.sub(r"[ -]", "", e["text"]).upper())
            elif e["type"] in ("date-of-birth",):
                key = None
            else:
                key = (e["type"], e["text"].lower())
            if key and key not in record_keys:
                record_keys.add(key)
                if key in seen_values:
                    errors.append(f"{rid}: {e['type']} {e['text']!r} already used in {seen_values[key]}")
                seen_values[key] = rid
            dom = domain_of(e["type"], e["text"])
            if dom and dom not in record_domains:
                record_domains.add(dom)
                if dom in seen_domains:
                    errors.append(f"{rid}: domain {dom} already used in {seen_domains[dom]}")
                seen_domains[dom] = rid
        for g in negs:
            err = check_negative(g["kind"], g["text"])
            if err:
                errors.append(f"{rid}: negative {g['kind']} {g['text']!r}: {err}")
        for s in spans:
            assert text[s["start"]:s["end"]] == s["text"]
        if lint_out:
            for w in lint(text, spans):
                print(f"  lint {rid}: {w}")
        for e in ents:
            del e["_region"]
        records.append({"id": rid, "lang": lang, "genre": genre, "text": text,
                        "entities": sorted(ents, key=lambda s: s["start"]),
                        "negatives": sorted(negs, key=lambda s: s["start"])})
    return records, errors


def split(records):
    rng = random.Random(2026)
    dev, held = [], []
    odd = 0
    for genre in GENRES:
        group = [r for r in records if r["genre"] == genre]
        rng.shuffle(group)
        # an odd-sized genre gives its extra record to dev and held-out in turn
        n_dev = len(group) // 2
        if len(group) % 2:
            n_dev += 1 - odd % 2
            odd += 1
        dev += group[:n_dev]
        held += group[n_dev:]
    key = lambda r: r["id"]  # noqa: E731
    return sorted(dev, key=key), sorted(held, key=key)


def stats(records, title):
    genres = collections.Counter(r["genre"] for r in records)
    types = collections.Counter(e["type"] for r in records for e in r["entities"])
    kinds = collections.Counter(g["kind"] for r in records for g in r["negatives"])
    empty = sum(1 for r in records if not r["entities"])
    print(f"{title}: {len(records)} records, {empty} without entities, "
          f"{sum(types.values())} entities, {sum(kinds.values())} negatives")
    print("  genres:", dict(sorted(genres.items())))
    print("  types: ", dict(sorted(types.items())))
    print("  kinds: ", dict(sorted(kinds.items())))
    return genres, types, kinds, empty


def requirements(records):
    problems = []
    genres, types, kinds, empty = stats(records, "all")
    for g, q in GENRE_QUOTA.items():
        if genres[g] != q:
            problems.append(f"genre {g}: {genres[g]} records, want {q}")
    for t in TYPES:
        want = 50 if t in ("name", "address") else 20
        if types[t] < want:
            problems.append(f"type {t}: {types[t]}, want >= {want}")
    for k in KINDS:
        if kinds[k] < 2:
            problems.append(f"negative kind {k}: {kinds[k]}, want several")
    if sum(kinds.values()) < 60:
        problems.append(f"negatives: {sum(kinds.values())}, want >= 60")
    if not 30 <= empty <= 50:
        problems.append(f"records without entities: {empty}, want about a third")
    return problems


def main(argv):
    check_only = "--check" in argv
    quiet = "--quiet" in argv
    langs = [a for a in argv if not a.startswith("-")] or ["en", "de"]
    # values and domains must be unique across the whole set: check against every source present
    seen_values: dict = {}
    seen_domains: dict = {}
    ok = True
    for lang in ("en", "de"):
        if lang in langs or not (HERE / f"pii_{lang}.py").exists():
            continue
        build(lang, seen_values, seen_domains, lint_out=False)
    for lang in langs:
        print(f"== {lang}")
        records, errors = build(lang, seen_values, seen_domains, lint_out=not quiet)
        errors += requirements(records)
        for e in errors:
            print("  ERROR", e)
        if errors:
            ok = False
            continue
        dev, held = split(records)
        stats(dev, "dev")
        stats(held, "heldout")
        if not check_only:
            for part, rows in (("dev", dev), ("heldout", held)):
                out = EVALSETS / part / f"pii-{lang}.jsonl"
                out.parent.mkdir(parents=True, exist_ok=True)
                with out.open("w", encoding="utf-8") as fh:
                    for r in rows:
                        fh.write(json.dumps(r, ensure_ascii=False) + "\n")
                print(f"  wrote {out.relative_to(EVALSETS.parent.parent)} ({len(rows)})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
