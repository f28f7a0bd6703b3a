"""Build the French and Spanish PII evaluation records from the hand-written sources.

The sources (pii_fr.py, pii_es.py beside this file) hold one hand-written text per record with inline
markup; this script only strips the markup into offsets, checks every value and writes the split files.

Markup:
  ⟦type|value⟧          an entity of that type (types of RULES-pii.md)
  ⟦phone@GB|value⟧      a phone checked against another region than the language's own
  ⟪kind|value⟫          a hard negative of that kind
  ⟪other:what|value⟫    a hard negative of kind `other`, `what` saying which kind it is

Usage: python build_pii_fr_es.py [fr|es ...]   (default: both)
"""
import collections
import hashlib
import importlib.util
import ipaddress
import json
import os
import random
import re
import sys

import phonenumbers

HERE = os.path.dirname(os.path.abspath(__file__))
EVAL = os.path.dirname(HERE)
REGION = {"fr": "FR", "es": "ES"}
GENRES = ["chat", "email", "ticket", "log", "doc"]
TYPES = ["email", "phone", "credit-card", "ssn", "api-key", "url-credentials", "url", "ip-address",
         "uuid", "crypto-wallet", "iban", "date-of-birth", "name", "address"]
KINDS = ["order-number", "tracking-number", "invoice-number", "product-code", "digit-run",
         "account-number", "card-like", "iban-like", "oid", "section-number", "version", "date", "time",
         "hash", "example-key", "file-name", "math", "coordinates", "isbn", "postal-code-alone",
         "organisation", "place-name", "handle", "money", "percentage", "other"]
ENT = re.compile(r"⟦([a-z-]+)(?:@([A-Z]{2}))?\|(.*?)⟧", re.S)
NEG = re.compile(r"⟪([a-z-]+)(?::([^|⟫]+))?\|(.*?)⟫", re.S)
ANY = re.compile(ENT.pattern + "|" + NEG.pattern, re.S)

errors = []
DOMAINS, TOKENS = {}, {}  # per language, to check reuse across languages


def err(rid, msg):
    errors.append(f"{rid}: {msg}")


def parse(src):
    text, ents, negs, pos = [], [], [], 0
    out_len = 0
    for m in ANY.finditer(src):
        pre = src[pos:m.start()]
        text.append(pre)
        out_len += len(pre)
        if m.group(1) is not None:
            typ, region, val = m.group(1), m.group(2), m.group(3)
            ents.append({"start": out_len, "end": out_len + len(val), "type": typ, "text": val,
                         "_region": region})
        else:
            kind, what, val = m.group(4), m.group(5), m.group(6)
            n = {"start": out_len, "end": out_len + len(val), "kind": kind, "text": val}
            if what:
                n["comment"] = what
            negs.append(n)
        text.append(val)
        out_len += len(val)
        pos = m.end()
    text.append(src[pos:])
    return "".join(text), ents, negs


# ---- validity checks --------------------------------------------------------------------------
def luhn(d):
    t = 0
    for i, c in enumerate(reversed(d)):
        x = int(c)
        if i % 2:
            x *= 2
            if x > 9:
                x -= 9
        t += x
    return t % 10 == 0


def card_prefix_ok(d):
    n = len(d)
    if d[0] == "4":
        return n in (13, 16, 19)
    if d[:2] in ("51", "52", "53", "54", "55") or 2221 <= int(d[:4]) <= 2720:
        return n == 16
    if d[:2] in ("34", "37"):
        return n == 15
    if d[:4] == "6011" or d[:2] == "65" or 644 <= int(d[:3]) <= 649:
        return 16 <= n <= 19
    if 3528 <= int(d[:4]) <= 3589:
        return 16 <= n <= 19
    if d[:2] in ("36", "38", "39") or 300 <= int(d[:3]) <= 305:
        return 14 <= n <= 19
    if d[:4] in ("5018", "5020", "5038", "5893", "6304", "6759", "6761", "6762", "6763"):
        return 12 <= n <= 19
    if d[:2] == "62":
        return 16 <= n <= 19
    return False


IBAN_LEN = {"FR": 27, "ES": 24, "BE": 16, "DE": 22, "IT": 27, "PT": 25, "LU": 20, "CH": 21, "MC": 27,
            "NL": 18, "SE": 24, "GB": 22, "AT": 20, "IE": 22, "AD": 24, "LI": 21, "PL": 28, "RO": 24, "MA": 28}


def iban_ok(v):
    s = re.sub(r"[\s-]", "", v).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return False
    if IBAN_LEN.get(s[:2]) != len(s):
        return False
    r = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58check_ok(s):
    n = 0
    for c in s:
        if c not in B58:
            return None
        n = n * 58 + B58.index(c)
    raw = n.to_bytes(25, "big") if n.bit_length() <= 200 else None
    if raw is None:
        return None
    if hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()[:4] != raw[-4:]:
        return None
    return raw[0]


CH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def bech32_ok(s):
    hrp, _, data = s.lower().rpartition("1")
    if hrp not in ("bc", "ltc") or any(c not in CH for c in data):
        return False
    v = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp] + [CH.index(c) for c in data]
    G = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    c = 1
    for x in v:
        b = c >> 25
        c = (c & 0x1FFFFFF) << 5 ^ x
        for i in range(5):
            c ^= G[i] if (b >> i) & 1 else 0
    return c in (1, 0x2BC830A3)


def keccak256(data):
    RC = [0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
          0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
          0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
          0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
          0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
          0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008]
    ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56],
           [27, 20, 39, 8, 14]]
    M = (1 << 64) - 1

    def rol(x, n):
        return ((x << n) | (x >> (64 - n))) & M if n else x
    rate = 136
    p = bytearray(data) + b"\x01"
    while len(p) % rate:
        p.append(0)
    p[-1] |= 0x80
    S = [[0] * 5 for _ in range(5)]
    for off in range(0, len(p), rate):
        for i in range(rate // 8):
            S[i % 5][i // 5] ^= int.from_bytes(p[off + 8 * i:off + 8 * i + 8], "little")
        for rnd in range(24):
            C = [S[x][0] ^ S[x][1] ^ S[x][2] ^ S[x][3] ^ S[x][4] for x in range(5)]
            D = [C[(x - 1) % 5] ^ rol(C[(x + 1) % 5], 1) for x in range(5)]
            S = [[S[x][y] ^ D[x] for y in range(5)] for x in range(5)]
            B = [[0] * 5 for _ in range(5)]
            for x in range(5):
                for y in range(5):
                    B[y][(2 * x + 3 * y) % 5] = rol(S[x][y], ROT[x][y])
            S = [[B[x][y] ^ ((~B[(x + 1) % 5][y]) & B[(x + 2) % 5][y]) for y in range(5)] for x in range(5)]
            S[0][0] ^= RC[rnd]
    return b"".join(S[i % 5][i // 5].to_bytes(8, "little") for i in range(4))


def eip55_ok(s):
    h = s[2:]
    if not re.fullmatch(r"[0-9a-fA-F]{40}", h):
        return False
    if h == h.lower() or h == h.upper():
        return True  # not checksummed, still a well-formed address
    k = keccak256(h.lower().encode()).hex()
    return all((c.upper() if int(k[i], 16) >= 8 else c.lower()) == c for i, c in enumerate(h))


def wallet_ok(s):
    if s.startswith("0x"):
        return eip55_ok(s)
    if s.lower().startswith(("bc1", "ltc1")):
        return bech32_ok(s)
    return b58check_ok(s) in (0, 5, 0x30, 0x32, 0x05, 0x1E, 0x16)


def ssn_ok(s):
    m = re.fullmatch(r"(\d{3})[- ]?(\d{2})[- ]?(\d{4})", s)
    if not m:
        return False
    a, g, n = m.groups()
    return a not in ("000", "666") and a[0] != "9" and g != "00" and n != "0000"


def phone_ok(s, region):
    try:
        p = phonenumbers.parse(s, region)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(p)


def check_entity(rid, e, lang):
    t, v = e["type"], e["text"]
    def bad(why):
        return err(rid, f"bad {t} {v!r}: {why}")
    if v != v.strip() or not v:
        bad("spaces at the edge")
    if t not in TYPES:
        return bad("unknown type")
    if t == "email":
        if not re.fullmatch(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}", v):
            bad("not an address")
    elif t == "phone":
        if not phone_ok(v, e["_region"] or REGION[lang]):
            bad("not a valid number")
        if re.search(r"555[ .-]?01\d\d", v):
            bad("fictional 555-01xx")
    elif t == "credit-card":
        d = re.sub(r"[ -]", "", v)
        if not (d.isdigit() and 13 <= len(d) <= 19 and luhn(d) and card_prefix_ok(d)):
            bad("Luhn/prefix/length")
    elif t == "ssn":
        if not ssn_ok(v):
            bad("not a valid SSN")
    elif t == "iban":
        if not iban_ok(v):
            bad("mod-97 or length")
    elif t == "crypto-wallet":
        if not wallet_ok(v):
            bad("checksum")
    elif t == "uuid":
        if not re.fullmatch(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", v):
            bad("not 8-4-4-4-12")
    elif t == "ip-address":
        try:
            ipaddress.ip_address(v)
        except ValueError:
            bad("not an IP")
    elif t == "url":
        if not re.match(r"(https?://|ftp://|www\.)", v) or re.match(r"[a-z+]+://[^/@\s]*:[^/@\s]*@", v):
            bad("not a plain URL")
        if v[-1] in ".,;:)!?'\"":
            bad("trailing punctuation")
    elif t == "url-credentials":
        if not re.match(r"[a-z][a-z0-9+.-]*://[^/@\s]*:[^/@\s]+@\S+", v):
            bad("no user:password@")
    elif t == "api-key":
        if len(v) < 16 or " " in v.strip().split("\n")[0] and not v.startswith("-----BEGIN"):
            bad("too short or spaced")
    elif t == "name":
        if re.search(r"\d|@", v) or re.match(r"(M\.|Mme|Mr|Mrs|Dr|Sr\.|Sra\.|Herr|Frau)\b", v):
            bad("digits/handle/honorific")
    elif t == "address":
        if not re.search(r"\d", v):
            bad("no number in the address")


def check_negative(rid, n):
    k, v = n["kind"], n["text"]
    if k not in KINDS:
        err(rid, f"unknown negative kind {k}")
    if k == "other" and not n.get("comment"):
        err(rid, f"negative 'other' without a comment: {v!r}")
    d = re.sub(r"[ -]", "", v)
    if k == "card-like":
        if not (d.isdigit() and 13 <= len(d) <= 19) or luhn(d):
            err(rid, f"card-like {v!r} is not 13-19 digits failing Luhn")
    if k == "iban-like" and iban_ok(v):
        err(rid, f"iban-like {v!r} passes mod-97")
    if k == "example-key" and re.fullmatch(r"[0-9a-f-]{36}", v):
        pass


def host_of(v):
    m = re.match(r"(?:[a-z][a-z0-9+.-]*://)?(?:[^/@\s]*@)?([^/:?#\s]+)", v)
    h = m.group(1).lower() if m else ""
    try:
        ipaddress.ip_address(h)
        return None
    except ValueError:
        pass
    parts = h.split(".")
    if len(parts) < 2:
        return None
    if parts[-2] in ("co", "com", "org", "gouv", "gob", "net", "edu", "ac") and len(parts) >= 3:
        return ".".join(parts[-3:])
    return ".".join(parts[-2:])


LOOKS = [
    ("email", re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")),
    ("url", re.compile(r"(?:https?|ftp)://\S+|\bwww\.\S+")),
    ("uuid", re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")),
    ("ipv4", re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")),
    ("iban", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\b")),
    ("digits", re.compile(r"(?<![\w.])\d(?:[ -]?\d){8,}(?![\w.])")),
    ("eth", re.compile(r"\b0x[0-9a-fA-F]{40}\b")),
    ("btc", re.compile(r"\b(?:bc1|ltc1)[0-9a-z]{20,}\b|\b[13LMD][1-9A-HJ-NP-Za-km-z]{25,34}\b")),
    ("key", re.compile(r"\b(?:sk-|sk_live_|rk_live_|ghp_|github_pat_|xox[abp]-|AKIA|AIza|glpat-|hf_|npm_|SG\.|whsec_|eyJ)\S+")),
    ("ssn", re.compile(r"\b\d{3}-\d{2}-\d{4}\b")),
]


def covered(spans, s, e):
    return any(a <= s and e <= b for a, b in spans) or any(a < e and s < b for a, b in spans)


def check_record(rid, lang, text, ents, negs):
    spans = sorted([(x["start"], x["end"]) for x in ents + negs])
    for (a1, b1), (a2, b2) in zip(spans, spans[1:], strict=False):
        if a2 < b1:
            err(rid, f"overlapping spans at {a1}-{b1} and {a2}-{b2}")
    for x in ents + negs:
        assert text[x["start"]:x["end"]] == x["text"]
    for e in ents:
        check_entity(rid, e, lang)
    for n in negs:
        check_negative(rid, n)
    for what, rx in LOOKS:
        for m in rx.finditer(text):
            s, e = m.start(), m.end()
            while e > s and text[e - 1] in ".,;:)]}>'\"!?":
                e -= 1
            if what == "digits" and re.search(r"\d{4}-\d\d-\d\d[ T]\d\d", text[s:e + 4]):
                continue  # a timestamp
            if not covered(spans, s, e):
                err(rid, f"unlabelled {what}-like {text[s:e]!r}")
    for m in phonenumbers.PhoneNumberMatcher(text, REGION[lang], leniency=phonenumbers.Leniency.POSSIBLE):
        if not covered(spans, m.start, m.end):
            err(rid, f"unlabelled phone-like {m.raw_string!r}")
    for e in ents:
        if e["type"] == "phone":
            pass
    if "example.com" in text:
        print(f"note {rid}: example.com used", file=sys.stderr)


def load(lang):
    spec = importlib.util.spec_from_file_location(f"pii_{lang}", os.path.join(HERE, f"pii_{lang}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.RECORDS


def build(lang):
    recs = []
    for i, (genre, src) in enumerate(load(lang), 1):
        rid = f"pii-{lang}-{i:04d}"
        if genre not in GENRES:
            err(rid, f"unknown genre {genre}")
        text, ents, negs = parse(src.strip("\n"))
        if "⟦" in text or "⟧" in text or "⟪" in text or "⟫" in text:
            err(rid, "markup left in the text")
        check_record(rid, lang, text, ents, negs)
        recs.append({"id": rid, "lang": lang, "genre": genre, "text": text, "entities": ents,
                     "negatives": negs})
    # uniqueness across records: values, names, domains
    seen, tokens, domains = {}, collections.defaultdict(set), collections.defaultdict(set)
    for r in recs:
        for e in r["entities"]:
            v = e["text"]
            key = v.lower() if e["type"] in ("name", "email", "url", "address") else re.sub(r"[^0-9A-Za-z]", "", v)
            if e["type"] == "phone":
                p = phonenumbers.parse(v, e["_region"] or REGION[lang])
                key = phonenumbers.format_number(p, phonenumbers.PhoneNumberFormat.E164)
            k = (e["type"], key)
            if k in seen and seen[k] != r["id"]:
                err(r["id"], f"{e['type']} {v!r} already used in {seen[k]}")
            seen.setdefault(k, r["id"])
            if e["type"] == "name":
                for tok in re.split(r"[\s]+", v):
                    if len(tok) > 2 and tok.lower() not in ("de", "del", "la", "le", "van", "von", "der", "los", "las", "y", "da", "du", "des"):
                        tokens[tok.lower()].add(r["id"])
            if e["type"] in ("email", "url", "url-credentials"):
                h = host_of(v.split("@")[-1] if e["type"] == "email" else v)
                if h:
                    domains[h].add(r["id"])
        for n in r["negatives"]:
            if re.search(r"\d{5,}", n["text"]):
                k = ("neg", re.sub(r"[^0-9A-Za-z]", "", n["text"]))
                if k in seen and seen[k] != r["id"]:
                    err(r["id"], f"negative {n['text']!r} already used in {seen[k]}")
                seen.setdefault(k, r["id"])
    for tok, ids in sorted(tokens.items()):
        if len(ids) > 1:
            print(f"note {lang}: name token {tok!r} in {sorted(ids)}", file=sys.stderr)
    for d, ids in sorted(domains.items()):
        if len(ids) > 1:
            err(sorted(ids)[1], f"domain {d} reused in {sorted(ids)}")
    for r in recs:
        for e in r["entities"]:
            del e["_region"]
    DOMAINS[lang] = set(domains)
    TOKENS[lang] = set(tokens)
    return recs


def split(recs):
    rng = random.Random(2026)
    dev, held = [], []
    odd = 0
    for g in GENRES:
        group = [r for r in recs if r["genre"] == g]
        n = len(group) // 2
        if len(group) % 2:
            n += 1 - odd % 2
            odd += 1
        idx = list(range(len(group)))
        rng.shuffle(idx)
        chosen = set(idx[:n])
        for i, r in enumerate(group):
            (dev if i in chosen else held).append(r)
    def key(r):
        return r["id"]
    return sorted(dev, key=key), sorted(held, key=key)


def stats(name, recs):
    lines = [f"{name}: {len(recs)} records"]
    lines.append("  genres: " + ", ".join(f"{g} {sum(r['genre'] == g for r in recs)}" for g in GENRES))
    c = collections.Counter(e["type"] for r in recs for e in r["entities"])
    lines.append("  entities: " + ", ".join(f"{t} {c[t]}" for t in TYPES))
    lines.append(f"  records without entity: {sum(not r['entities'] for r in recs)}")
    k = collections.Counter(n["kind"] for r in recs for n in r["negatives"])
    lines.append(f"  negatives ({sum(k.values())}): " + ", ".join(f"{x} {k[x]}" for x in KINDS))
    return "\n".join(lines)


def main(langs):
    for lang in langs:
        recs = build(lang)
        if errors:
            print("\n".join(errors))
            sys.exit(1)
        dev, held = split(recs)
        for part, rs in (("dev", dev), ("heldout", held)):
            os.makedirs(os.path.join(EVAL, part), exist_ok=True)
            with open(os.path.join(EVAL, part, f"pii-{lang}.jsonl"), "w", encoding="utf-8") as f:
                for r in rs:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(stats(f"{lang} all", recs))
        print(stats(f"{lang} dev", dev))
        print(stats(f"{lang} heldout", held))
    if len(DOMAINS) > 1:
        a, b = list(DOMAINS)[:2]
        for d in sorted(DOMAINS[a] & DOMAINS[b]):
            print(f"error: domain {d} used in both {a} and {b}")
        print(f"note: name tokens in both {a} and {b}: {sorted(TOKENS[a] & TOKENS[b])}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:] or ["fr", "es"])
