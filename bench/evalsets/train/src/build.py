"""Assemble the hand-written PII train records.

Source files src/pii-LANG.txt hold one record per block: a header line `=== GENRE`, then the text.
Inline markup: [[type|value]] marks an entity (phones may give a region: [[phone:GB|...]]),
{{kind|value}} marks a hard negative ({{other:what|value}} names the kind of an `other`).
This script only strips the markup, computes offsets and checks validity; it writes no text.
"""
import json, re, sys, collections, pathlib
from urllib.parse import urlsplit
sys.path.insert(0, str(pathlib.Path(__file__).parent))
from checks import *
import phonenumbers

HERE = pathlib.Path(__file__).parent
OUT = HERE.parent
DEFAULT_REGION = {"en": "US", "de": "DE", "fr": "FR", "es": "ES"}
GENRES = {"chat", "email", "ticket", "log", "config", "document"}
ETYPES = {"email", "phone", "credit-card", "ssn", "api-key", "url-credentials", "url", "ip-address", "uuid",
          "crypto-wallet", "iban", "date-of-birth", "name", "address"}
NKINDS = {"order-number", "tracking-number", "invoice-number", "product-code", "digit-run", "account-number",
          "card-like", "iban-like", "oid", "section-number", "version", "date", "time", "hash", "example-key",
          "file-name", "math", "coordinates", "isbn", "postal-code-alone", "organisation", "place-name", "handle",
          "money", "percentage", "other"}
TOK = re.compile(r"\[\[([a-z-]+)(?::([A-Za-z-]+))?\|(.*?)\]\]|\{\{([a-z-]+)(?::([a-z-]+))?\|(.*?)\}\}", re.S)

def check_entity(t, v, region, errs):
    if t == "phone":
        try:
            n = phonenumbers.parse(v, region)
            if not phonenumbers.is_valid_number(n): errs.append(f"invalid phone {v!r} ({region})")
        except Exception as e: errs.append(f"unparsable phone {v!r}: {e}")
    elif t == "credit-card":
        d = re.sub(r"[ -]", "", v)
        if not (d.isdigit() and 13 <= len(d) <= 19 and luhn_ok(d)): errs.append(f"bad card {v!r}")
    elif t == "iban":
        if not iban_ok(v): errs.append(f"bad iban {v!r}")
    elif t == "ssn":
        if not ssn_ok(v): errs.append(f"bad ssn {v!r}")
    elif t == "crypto-wallet":
        if not wallet_ok(v): errs.append(f"bad wallet {v!r}")
    elif t == "uuid":
        if not UUID_RE.fullmatch(v): errs.append(f"bad uuid {v!r}")
    elif t == "email":
        if not EMAIL_RE.fullmatch(v): errs.append(f"bad email {v!r}")
    elif t == "ip-address":
        if not ip_ok(v): errs.append(f"bad ip {v!r}")
    elif t == "url":
        if not re.match(r"(https?://|ftp://|www\.)", v) or "@" in v.split("/")[2 if "://" in v else 0]: errs.append(f"bad url {v!r}")
    elif t == "url-credentials":
        if not re.match(r"[a-z][a-z0-9+.-]*://[^/@\s]*:[^/@\s]+@", v): errs.append(f"bad cred url {v!r}")
    if v != v.strip() or (v and v[-1] in ".,;:)\"'>" and t not in ("address", "api-key", "ip-address")):
        errs.append(f"span has edge punctuation/space: {t} {v!r}")

def check_neg(k, v, errs):
    if k == "card-like":
        d = re.sub(r"[ -]", "", v)
        if not d.isdigit() or luhn_ok(d): errs.append(f"card-like passes Luhn or not digits {v!r}")
    if k == "iban-like" and iban_ok(v): errs.append(f"iban-like is valid {v!r}")

def domain_of(t, v):
    if t == "email": return v.rsplit("@", 1)[1].lower()
    if t in ("url", "url-credentials"):
        u = v if "://" in v else "http://" + v
        h = (urlsplit(u).hostname or "").lower()
        return h[4:] if h.startswith("www.") else h
    return None

def build(lang, seen):
    src = (HERE / f"pii-{lang}.txt").read_text(encoding="utf-8")
    blocks = re.split(r"^=== ", src, flags=re.M)[1:]
    recs, errs = [], []
    for i, b in enumerate(blocks, 1):
        head, _, body = b.partition("\n")
        genre = head.strip()
        rid = f"pii-train-{lang}-{i:04d}"
        body = body.rstrip("\n")
        if genre not in GENRES: errs.append(f"{rid}: genre {genre}")
        text, ents, negs, pos = "", [], [], 0
        for m in TOK.finditer(body):
            text += body[pos:m.start()]
            s = len(text)
            if m.group(1):
                t, reg, v = m.group(1), m.group(2), m.group(3)
                if t not in ETYPES: errs.append(f"{rid}: type {t}")
                e = []
                check_entity(t, v, reg or DEFAULT_REGION[lang], e)
                errs += [f"{rid}: {x}" for x in e]
                text += v
                ents.append({"start": s, "end": len(text), "type": t, "text": v})
            else:
                k, what, v = m.group(4), m.group(5), m.group(6)
                if k not in NKINDS: errs.append(f"{rid}: kind {k}")
                e = []; check_neg(k, v, e); errs += [f"{rid}: {x}" for x in e]
                text += v
                n = {"start": s, "end": len(text), "kind": k, "text": v}
                if what: n["comment"] = what
                negs.append(n)
            pos = m.end()
        text += body[pos:]
        if "[[" in text or "{{" in text and "}}" in text and "|" in text: errs.append(f"{rid}: leftover markup?")
        nlines = text.count("\n") + 1
        if nlines > 12: errs.append(f"{rid}: {nlines} lines")
        for x in ents + negs:
            assert text[x["start"]:x["end"]] == x["text"]
        spans = sorted(ents + negs, key=lambda x: x["start"])
        for a, c in zip(spans, spans[1:]):
            if c["start"] < a["end"]: errs.append(f"{rid}: overlap")
        doms = set()
        for x in ents:
            key = (x["type"], re.sub(r"[\s.\-/()]", "", x["text"]).lower() if x["type"] != "name" else x["text"])
            if key in seen and seen[key] != rid: errs.append(f"{rid}: duplicate value {x['text']!r} (also {seen[key]})")
            seen[key] = rid
            d = domain_of(x["type"], x["text"])
            if d: doms.add(d)
        for d in doms:
            k = ("domain", d)
            if k in seen and seen[k] != rid: errs.append(f"{rid}: domain {d} reused (also {seen[k]})")
            seen[k] = rid
        recs.append({"id": rid, "lang": lang, "genre": genre, "text": text, "entities": ents, "negatives": negs})
    return recs, errs

def stats(lang, recs):
    et = collections.Counter(e["type"] for r in recs for e in r["entities"])
    nk = collections.Counter(n["kind"] for r in recs for n in r["negatives"])
    gn = collections.Counter(r["genre"] for r in recs)
    empty = sum(1 for r in recs if not r["entities"])
    print(f"[{lang}] records={len(recs)} no-entity={empty} genres={dict(gn)}")
    print(f"  entities={dict(sorted(et.items()))}")
    print(f"  negatives total={sum(nk.values())} {dict(sorted(nk.items()))}")
    low = [t for t in ETYPES if et[t] < (15 if t in ("name", "address") else 8)]
    if low: print(f"  BELOW TARGET: {low}")

if __name__ == "__main__":
    langs = sys.argv[1:] or ["en", "de", "fr", "es"]
    seen, bad = {}, False
    for lang in ["en", "de", "fr", "es"]:
        if not (HERE / f"pii-{lang}.txt").exists(): continue
        recs, errs = build(lang, seen)
        if lang not in langs: continue
        for e in errs: print("ERROR", e)
        bad |= bool(errs)
        stats(lang, recs)
        with open(OUT / f"pii-{lang}.jsonl", "w", encoding="utf-8") as f:
            for r in recs: f.write(json.dumps(r, ensure_ascii=False) + "\n")
    sys.exit(1 if bad else 0)
