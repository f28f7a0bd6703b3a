"""Assemble the hand-written, marked-up records of src3/<lang>.txt into ../pii-<lang>-3.jsonl.

Markup (chosen for this set):  ⟦type|value⟧ marks an entity, ⟪kind|value⟫ a hard negative.
Phone entities may carry a region hint: ⟦phone@BE|0470 ...⟧ (default: the language's country);
⟦phone@+|336...⟧ means the digits already start with the country code (wa.me links).
Each record starts with a line `### genre`. The script only computes offsets and checks validity.
"""
import sys, re, json, os, ipaddress, hashlib, collections
sys.path.insert(0, os.path.dirname(__file__))
import phonenumbers
from pool import B58, polymod, CH, keccak256

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
ABBR = {'ph': 'phone', 'dob': 'date-of-birth', 'key': 'api-key', 'em': 'email', 'cc': 'credit-card',
        'uc': 'url-credentials', 'ip': 'ip-address', 'w': 'crypto-wallet', 'n': 'name', 'addr': 'address'}
TYPES = {'email', 'phone', 'credit-card', 'ssn', 'api-key', 'url-credentials', 'url', 'ip-address', 'uuid',
         'crypto-wallet', 'iban', 'date-of-birth', 'name', 'address'}
KINDS = set('''order-number tracking-number invoice-number product-code digit-run account-number card-like
iban-like oid section-number version date time hash example-key file-name math coordinates isbn
postal-code-alone organisation place-name handle money percentage other'''.split())
DEFREG = {'fr': 'FR', 'es': 'ES', 'de': 'DE', 'en': 'US'}
TOK = re.compile(r'⟦([^|⟧]+)\|(.*?)⟧|⟪([^|⟫]+)\|(.*?)⟫', re.S)

def luhn(d):
    t = 0
    for i, c in enumerate(reversed(d)):
        x = int(c)
        if i % 2: x = x * 2 - 9 if x > 4 else x * 2
        t += x
    return t % 10 == 0

def iban_ok(s):
    s = s.replace(' ', '').upper()
    if not re.fullmatch(r'[A-Z]{2}\d{2}[A-Z0-9]{10,30}', s): return False
    return int(''.join(str(int(c, 36)) for c in s[4:] + s[:4])) % 97 == 1

def b58ok(s):
    n = 0
    for c in s: n = n * 58 + B58.index(c)
    b = n.to_bytes(25, 'big')
    return hashlib.sha256(hashlib.sha256(b[:-4]).digest()).digest()[:4] == b[-4:]

def wallet_ok(s):
    if s.startswith('0x'):
        h = s[2:]
        if not re.fullmatch(r'[0-9a-fA-F]{40}', h): return False
        k = keccak256(h.lower().encode()).hex()
        return all((c.upper() if int(k[i], 16) >= 8 else c.lower()) == c for i, c in enumerate(h) if c.isalpha())
    if s.startswith(('bc1', 'ltc1')):
        hrp, data = s.rsplit('1', 1)
        e = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
        return polymod(e + [CH.index(c) for c in data]) == 1
    return s[0] in '13LMD' and b58ok(s)

def ssn_ok(s):
    m = re.fullmatch(r'(\d{3})-?(\d{2})-?(\d{4})', s)
    if not m: return False
    a, g, n = m.groups()
    return a not in ('000', '666') and a[0] != '9' and g != '00' and n != '0000'

def phone_ok(v, reg, lang):
    s = v
    if reg == '+': s, reg = '+' + v, None
    elif s.startswith('00'): s, reg = '+' + s[2:], None
    try:
        p = phonenumbers.parse(s, reg or DEFREG[lang])
    except Exception as ex:
        return False
    return phonenumbers.is_valid_number(p), phonenumbers.region_code_for_number(p), p

def check_entity(t, v, reg, lang):
    if t == 'phone':
        r = phone_ok(v, reg, lang)
        return bool(r and r[0])
    if t == 'credit-card':
        d = re.sub(r'[ -]', '', v); return d.isdigit() and 13 <= len(d) <= 19 and luhn(d)
    if t == 'iban': return iban_ok(v)
    if t == 'ssn': return ssn_ok(v)
    if t == 'crypto-wallet': return wallet_ok(v)
    if t == 'uuid': return bool(re.fullmatch(r'[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}', v))
    if t == 'ip-address':
        try: ipaddress.ip_address(v); return True
        except ValueError: return False
    if t == 'email': return bool(re.fullmatch(r'[^@\s]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}', v))
    if t == 'url': return v.startswith(('http://', 'https://', 'ftp://', 'www.')) and '@' not in v.split('/')[2 if '://' in v else 0]
    if t == 'url-credentials': return bool(re.match(r'[a-z+]+://[^/\s]*:[^@\s]+@', v))
    return True

def domain(t, v):
    if t == 'email': return v.split('@')[1].lower()
    if t in ('url', 'url-credentials'):
        h = re.sub(r'^[a-z+]+://', '', v).split('/')[0].split('@')[-1].split(':')[0].lower()
        return h[4:] if h.startswith('www.') else h
    return None

def norm(t, v):
    if t in ('phone', 'credit-card', 'iban', 'ssn'): return t, re.sub(r'\D', '', v)[-9:]
    return t, v.lower()

def parse(lang):
    src = open(os.path.join(HERE, lang + '.txt'), encoding='utf-8').read()
    chunks = re.split(r'^### ', src, flags=re.M)[1:]
    recs, errs = [], []
    for i, ch in enumerate(chunks, 1):
        genre, body = ch.split('\n', 1)
        body = body.rstrip('\n')
        text, ents, negs, pos = '', [], [], 0
        for m in TOK.finditer(body):
            text += body[pos:m.start()]
            if m.group(1):
                t, v = m.group(1), m.group(2)
                reg = None
                if '@' in t: t, reg = t.split('@')
                t = ABBR.get(t, t)
                if t not in TYPES: errs.append(f'{lang}#{i}: bad type {t}')
                if not check_entity(t, v, reg, lang): errs.append(f'{lang}#{i}: invalid {t}: {v!r}')
                ents.append({'start': len(text), 'end': len(text) + len(v), 'type': t, 'text': v})
            else:
                k, v = m.group(3), m.group(4)
                if k not in KINDS: errs.append(f'{lang}#{i}: bad kind {k}')
                if k == 'card-like' and luhn(re.sub(r'\D', '', v)): errs.append(f'{lang}#{i}: card-like passes Luhn {v}')
                if k == 'iban-like' and iban_ok(v): errs.append(f'{lang}#{i}: iban-like is valid {v}')
                negs.append({'start': len(text), 'end': len(text) + len(v), 'kind': k, 'text': v})
            text += v
            pos = m.end()
        text += body[pos:]
        if '⟦' in text or '⟧' in text or '⟪' in text or '⟫' in text: errs.append(f'{lang}#{i}: stray markup')
        nl = text.count('\n') + 1
        if nl > 12: errs.append(f'{lang}#{i}: {nl} lines')
        for s in ents + negs:
            assert text[s['start']:s['end']] == s['text']
            if s['text'] != s['text'].strip(): errs.append(f'{lang}#{i}: span whitespace {s["text"]!r}')
        recs.append({'id': f'pii-train3-{lang}-{i:04d}', 'lang': lang, 'genre': genre.strip(), 'text': text,
                     'entities': ents, 'negatives': negs})
    return recs, errs

def main(langs):
    allrecs, errs = {}, []
    seen, doms = {}, {}
    for lang in ['fr', 'es', 'de', 'en']:
        if not os.path.exists(os.path.join(HERE, lang + '.txt')): continue
        recs, e = parse(lang); errs += e; allrecs[lang] = recs
        for r in recs:
            for s in r['entities']:
                if s['type'] in ('address',): continue
                key = norm(s['type'], s['text'])
                if key in seen and seen[key] != r['id']: errs.append(f'duplicate value {s["text"]!r} in {r["id"]} and {seen[key]}')
                seen.setdefault(key, r['id'])
                d = domain(s['type'], s['text'])
                if d:
                    if d in doms and doms[d] != r['id']: errs.append(f'duplicate domain {d} in {r["id"]} and {doms[d]}')
                    doms.setdefault(d, r['id'])
                    if d.endswith('example.com') or d == 'example.com': errs.append(f'example.com in {r["id"]}')
    for e in errs: print('ERR', e)
    for lang in langs:
        recs = allrecs[lang]
        tc = collections.Counter(s['type'] for r in recs for s in r['entities'])
        kc = collections.Counter(s['kind'] for r in recs for s in r['negatives'])
        gc = collections.Counter(r['genre'] for r in recs)
        empty = sum(1 for r in recs if not r['entities'])
        print(lang, len(recs), 'records; empty', empty, '; genres', dict(gc))
        print('  types', dict(tc))
        print('  negatives', sum(kc.values()), dict(kc))
        if not errs:
            with open(os.path.join(OUT, f'pii-{lang}-3.jsonl'), 'w', encoding='utf-8') as f:
                for r in recs: f.write(json.dumps(r, ensure_ascii=False) + '\n')
    return 1 if errs else 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
