"""Assemble the hand-written records of src2/LANG.txt into ../pii-LANG-2.jsonl.

Markup (written by hand in the source files):
  ### genre                      starts a record (chat, email, ticket, log, config, document)
  ⟦type|value⟧                   an entity; ⟦phone@BE|value⟧ gives the phone's region
  ⟪kind|value⟫                   a hard negative
The script only strips the markup, computes offsets and checks validity.
"""
import hashlib, json, re, sys, pathlib
import phonenumbers

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_REGION = {"fr": "FR", "es": "ES", "de": "DE", "en": "US"}
MARK = re.compile(r"⟦([a-z-]+)(?:@([A-Z]{2}))?\|(.*?)⟧|⟪([a-z-]+)\|(.*?)⟫", re.S)
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def luhn(n):
    s = 0
    for i, ch in enumerate(reversed(n)):
        d = int(ch)
        if i % 2:
            d *= 2
            d -= 9 if d > 9 else 0
        s += d
    return s % 10 == 0


def iban_ok(v):
    v = v.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d\d[A-Z0-9]{10,30}", v):
        return False
    x = v[4:] + v[:4]
    return int("".join(str(int(c, 36)) for c in x)) % 97 == 1


def b58check(v):
    n = 0
    for c in v:
        n = n * 58 + B58.index(c)
    b = n.to_bytes(25, "big")
    return hashlib.sha256(hashlib.sha256(b[:-4]).digest()).digest()[:4] == b[-4:]


def bech32_ok(v):
    CH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    hrp, _, data = v.lower().rpartition("1")
    G = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    c = 1
    for x in [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp] + [CH.index(d) for d in data]:
        b = c >> 25
        c = (c & 0x1FFFFFF) << 5 ^ x
        for i in range(5):
            c ^= G[i] if (b >> i) & 1 else 0
    return c == 1


def phone_ok(v, region):
    s = v.replace("(0)", "").strip()
    if s.startswith("00"):
        s = "+" + s[2:]
    try:
        p = phonenumbers.parse(s, None if s.startswith("+") else region)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(p)


def check_entity(t, v, region, where):
    ok = True
    if t == "phone":
        ok = phone_ok(v, region)
    elif t == "credit-card":
        d = re.sub(r"[ -]", "", v)
        ok = d.isdigit() and 13 <= len(d) <= 19 and luhn(d)
    elif t == "iban":
        ok = iban_ok(v)
    elif t == "ssn":
        m = re.fullmatch(r"(\d{3})-?(\d{2})-?(\d{4})", v)
        ok = bool(m) and m[1] not in ("000", "666") and m[1][0] != "9" and m[2] != "00" and m[3] != "0000"
    elif t == "crypto-wallet":
        if v.startswith("0x"):
            ok = bool(re.fullmatch(r"0x[0-9a-fA-F]{40}", v))
        elif v.lower().startswith(("bc1", "ltc1")):
            ok = bech32_ok(v)
        else:
            ok = b58check(v)
    elif t == "uuid":
        ok = bool(re.fullmatch(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", v))
    elif t == "email":
        ok = bool(re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", v)) and "example." not in v
    elif t in ("url", "url-credentials"):
        ok = v.startswith(("http://", "https://", "ftp://", "www.")) or "://" in v
    if not ok:
        raise SystemExit(f"{where}: invalid {t}: {v!r}")
    if v != v.strip() or v.endswith((".", ",", ";")) and t != "address":
        raise SystemExit(f"{where}: span edge {t}: {v!r}")


def check_negative(k, v, where):
    if k == "card-like":
        d = re.sub(r"[ -]", "", v)
        if luhn(d):
            raise SystemExit(f"{where}: card-like passes Luhn: {v!r}")
    if k == "iban-like" and iban_ok(v):
        raise SystemExit(f"{where}: iban-like passes mod-97: {v!r}")


def parse(lang):
    src = (HERE / f"{lang}.txt").read_text(encoding="utf-8")
    chunks = re.split(r"^### ", src, flags=re.M)[1:]
    out = []
    for i, ch in enumerate(chunks, 1):
        genre, _, body = ch.partition("\n")
        genre = genre.strip()
        body = body.rstrip("\n")
        rid = f"pii-train2-{lang}-{i:04d}"
        text, ents, negs, pos = "", [], [], 0
        for m in MARK.finditer(body):
            text += body[pos:m.start()]
            if m.group(1):
                t, region, v = m.group(1), m.group(2) or DEFAULT_REGION[lang], m.group(3)
                check_entity(t, v, region, rid)
                ents.append({"start": len(text), "end": len(text) + len(v), "type": t, "text": v})
            else:
                k, v = m.group(4), m.group(5)
                check_negative(k, v, rid)
                negs.append({"start": len(text), "end": len(text) + len(v), "kind": k, "text": v})
            text += v
            pos = m.end()
        text += body[pos:]
        if "⟦" in text or "⟧" in text or "⟪" in text or "⟫" in text:
            raise SystemExit(f"{rid}: stray markup")
        spans = sorted(ents + negs, key=lambda s: s["start"])
        for a, b in zip(spans, spans[1:]):
            if a["end"] > b["start"]:
                raise SystemExit(f"{rid}: overlap {a} {b}")
        for s in spans:
            assert text[s["start"]:s["end"]] == s["text"]
        out.append({"id": rid, "lang": lang, "genre": genre, "text": text, "entities": ents, "negatives": negs})
    return out


def norm(e):
    return re.sub(r"\D", "", e["text"])[-9:] if e["type"] == "phone" else e["text"].lower()


def main(langs):
    seen = {}
    for lang in ["fr", "es", "de", "en"]:
        if not (HERE / f"{lang}.txt").exists():
            continue
        recs = parse(lang)
        for r in recs:
            for e in r["entities"]:
                if e["type"] in ("address",):
                    continue
                key = (e["type"], norm(e))
                if key in seen and seen[key] != (r["id"], e["start"]):
                    raise SystemExit(f"duplicate {key} in {r['id']} and {seen[key][0]}")
                seen[key] = (r["id"], e["start"])
        if lang in langs:
            with open(HERE.parent / f"pii-{lang}-2.jsonl", "w", encoding="utf-8") as f:
                for r in recs:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
            stats(lang, recs)


def stats(lang, recs):
    from collections import Counter
    g = Counter(r["genre"] for r in recs)
    t = Counter(e["type"] for r in recs for e in r["entities"])
    k = Counter(n["kind"] for r in recs for n in r["negatives"])
    empty = sum(1 for r in recs if not r["entities"])
    print(lang, len(recs), "records;", "no-entity:", empty)
    print("  genres:", dict(g))
    print("  types:", dict(t))
    print("  negatives:", sum(k.values()), dict(k))


if __name__ == "__main__":
    main(sys.argv[1:] or ["fr", "es", "de", "en"])
