"""Checksum helpers for the hand-written PII train set (stdlib only)."""
import hashlib, re, ipaddress

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

def luhn_ok(digits):
    d = [int(c) for c in digits][::-1]
    s = 0
    for i, x in enumerate(d):
        if i % 2:
            x *= 2
            if x > 9: x -= 9
        s += x
    return s % 10 == 0

def iban_ok(iban):
    s = iban.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", s): return False
    r = s[4:] + s[:4]
    n = "".join(str(int(c, 36)) for c in r)
    return int(n) % 97 == 1

def b58decode(s):
    n = 0
    for c in s: n = n * 58 + B58.index(c)
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    pad = len(s) - len(s.lstrip("1"))
    return b"\x00" * pad + b

def b58encode(b):
    n = int.from_bytes(b, "big"); out = ""
    while n: n, r = divmod(n, 58); out = B58[r] + out
    pad = len(b) - len(b.lstrip(b"\x00"))
    return "1" * pad + out

def b58check_ok(s):
    try: b = b58decode(s)
    except ValueError: return False
    if len(b) != 25: return False
    return hashlib.sha256(hashlib.sha256(b[:-4]).digest()).digest()[:4] == b[-4:]

# bech32 (BIP-173) / bech32m (BIP-350)
CH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
def _polymod(values):
    g = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]; chk = 1
    for v in values:
        b = chk >> 25; chk = (chk & 0x1ffffff) << 5 ^ v
        for i in range(5): chk ^= g[i] if ((b >> i) & 1) else 0
    return chk
def _hrpexp(h): return [ord(x) >> 5 for x in h] + [0] + [ord(x) & 31 for x in h]
def bech32_ok(s):
    s = s.lower(); hrp, _, data = s.rpartition("1")
    if not hrp or any(c not in CH for c in data) or len(data) < 6: return False
    pm = _polymod(_hrpexp(hrp) + [CH.index(c) for c in data])
    return pm in (1, 0x2bc830a3)
def bech32_encode(hrp, witver, prog, m=False):
    def conv(data):
        acc = 0; bits = 0; out = []
        for v in data:
            acc = (acc << 8) | v; bits += 8
            while bits >= 5: bits -= 5; out.append((acc >> bits) & 31)
        if bits: out.append((acc << (5 - bits)) & 31)
        return out
    d = [witver] + conv(prog)
    const = 0x2bc830a3 if m else 1
    pm = _polymod(_hrpexp(hrp) + d + [0] * 6) ^ const
    d += [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(CH[x] for x in d)

# Keccak-256 (pre-NIST padding) for EIP-55
RC = [0x0000000000000001,0x0000000000008082,0x800000000000808A,0x8000000080008000,0x000000000000808B,0x0000000080000001,0x8000000080008081,0x8000000000008009,0x000000000000008A,0x0000000000000088,0x0000000080008009,0x000000008000000A,0x000000008000808B,0x800000000000008B,0x8000000000008089,0x8000000000008003,0x8000000000008002,0x8000000000000080,0x000000000000800A,0x800000008000000A,0x8000000080008081,0x8000000000008080,0x0000000080000001,0x8000000080008008]
ROT = [[0,36,3,41,18],[1,44,10,45,2],[62,6,43,15,61],[28,55,25,21,56],[27,20,39,8,14]]
M64 = (1 << 64) - 1
def _rol(x, n): return ((x << n) | (x >> (64 - n))) & M64 if n else x
def _f(A):
    for rc in RC:
        C = [A[x][0] ^ A[x][1] ^ A[x][2] ^ A[x][3] ^ A[x][4] for x in range(5)]
        D = [C[(x - 1) % 5] ^ _rol(C[(x + 1) % 5], 1) for x in range(5)]
        A = [[A[x][y] ^ D[x] for y in range(5)] for x in range(5)]
        B = [[0] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5): B[y][(2 * x + 3 * y) % 5] = _rol(A[x][y], ROT[x][y])
        A = [[B[x][y] ^ ((~B[(x + 1) % 5][y]) & B[(x + 2) % 5][y]) for y in range(5)] for x in range(5)]
        A[0][0] ^= rc
    return A
def keccak256(data):
    rate = 136
    p = bytearray(data) + b"\x01"
    while len(p) % rate: p += b"\x00"
    p[-1] |= 0x80
    A = [[0] * 5 for _ in range(5)]
    for off in range(0, len(p), rate):
        blk = p[off:off + rate]
        for i in range(rate // 8):
            x, y = i % 5, i // 5
            A[x][y] ^= int.from_bytes(blk[8 * i:8 * i + 8], "little")
        A = _f(A)
    out = b""
    for i in range(4):
        out += A[i % 5][i // 5].to_bytes(8, "little")
    return out
assert keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"

def eip55(addr_hex40):
    a = addr_hex40.lower(); h = keccak256(a.encode()).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h[i], 16) >= 8 else c for i, c in enumerate(a))

def wallet_ok(s):
    if s.startswith("0x"):
        h = s[2:]
        if not re.fullmatch(r"[0-9a-fA-F]{40}", h): return False
        if h == h.lower() or h == h.upper(): return True
        return eip55(h) == s
    if s.lower().startswith(("bc1", "ltc1")): return bech32_ok(s)
    if s[0] in "13LMD": return b58check_ok(s)
    return False

def ssn_ok(s):
    d = s.replace("-", "").replace(" ", "")
    if not re.fullmatch(r"\d{9}", d): return False
    a, g, n = d[:3], d[3:5], d[5:]
    return a not in ("000", "666") and a[0] != "9" and g != "00" and n != "0000"

def ip_ok(s):
    try: ipaddress.ip_address(s); return True
    except ValueError: return False

UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
