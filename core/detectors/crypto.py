"""Cryptocurrency wallet addresses, validated by their checksums (type ``crypto-wallet``).

What is reported, and how it is checked:

- **Base58Check** addresses (Bitcoin P2PKH ``1...`` and P2SH ``3...``; testnet ``m...``,
  ``n...``, ``2...``; Litecoin ``L...``, ``M...``; Dogecoin ``D...``, ``A...``, ``9...``):
  the Base58 string decodes to 25 bytes, a version byte the network uses, a 20-byte hash
  and a 4-byte checksum equal to the first 4 bytes of SHA-256(SHA-256(version + hash)).
- **Segwit** addresses (``bc1...``, testnet ``tb1...``, regtest ``bcrt1...``, Litecoin
  ``ltc1...``): the bech32 checksum of BIP-173 for witness version 0, bech32m of BIP-350
  for versions 1 to 16 (taproot ``bc1p...``), one case throughout, at most 90 characters,
  a program of 2 to 40 bytes (20 or 32 for version 0).
- **Ethereum** addresses (``0x`` and 40 hex digits): a mixed-case address must carry
  the EIP-55 checksum (the case of each letter is set by the Keccak-256 hash of the
  lowercase address; Keccak-256 is implemented here, as ``hashlib.sha3_256`` pads
  differently); an all-lowercase or all-uppercase one has no checksum to check and
  scores lower.

A candidate must stand alone: a letter or digit right before or after it (a longer
token, a hash, base64 data) rules it out. Scores: 0.99 for a checksummed mainnet
Bitcoin or Ethereum address, 0.95 for Litecoin and Dogecoin, 0.8 for an Ethereum
address without a checksum, 0.7 for testnets. ``Detection.detector`` names the chain
(``"crypto:bitcoin"``, ``"crypto:bitcoin-testnet"``, ``"crypto:litecoin"``,
``"crypto:dogecoin"``, ``"crypto:ethereum"``).

The codecs (``base58check_decode``, ``segwit_decode``, ``keccak256``, ...) are public
for tests and for other detectors.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

from tripwire.detectors import _views
from tripwire.guards.verdicts import Detection
from tripwire.guards.window_start import trailing_run

__all__ = [
    "CryptoWalletDetector",
    "base58_decode",
    "base58_encode",
    "base58check_decode",
    "base58check_encode",
    "bech32_decode",
    "bech32_encode",
    "eip55_checksum",
    "keccak256",
    "segwit_decode",
    "segwit_encode",
]

# --------------------------------------------------------------------------- Base58

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {c: i for i, c in enumerate(_B58)}


def base58_encode(data: bytes) -> str:
    """``data`` in Bitcoin's Base58 (each leading zero byte becomes a ``1``)."""
    n = int.from_bytes(data, "big")
    out = []
    while n:
        n, r = divmod(n, 58)
        out.append(_B58[r])
    zeros = len(data) - len(data.lstrip(b"\0"))
    return "1" * zeros + "".join(reversed(out))


def base58_decode(text: str) -> bytes | None:
    """The bytes ``text`` encodes in Base58, or None if it holds another character."""
    n = 0
    for c in text:
        digit = _B58_INDEX.get(c)
        if digit is None:
            return None
        n = n * 58 + digit
    zeros = len(text) - len(text.lstrip("1"))
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * zeros + body


def _checksum(payload: bytes) -> bytes:
    return hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]


def base58check_encode(payload: bytes) -> str:
    """``payload`` (version byte(s) and data) with its 4-byte checksum, in Base58."""
    return base58_encode(payload + _checksum(payload))


def base58check_decode(text: str) -> bytes | None:
    """The payload of a Base58Check string, or None if it is not valid Base58 or its
    checksum (double SHA-256) does not match."""
    raw = base58_decode(text)
    if raw is None or len(raw) < 5:
        return None
    payload, check = raw[:-4], raw[-4:]
    return payload if _checksum(payload) == check else None


# --------------------------------------------------------------------------- bech32

_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_INDEX = {c: i for i, c in enumerate(_BECH32)}
_BECH32_GEN = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
#: The checksum constants: BIP-173 (bech32) and BIP-350 (bech32m).
BECH32, BECH32M = 1, 0x2BC830A3


def _polymod(values: Sequence[int]) -> int:
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= _BECH32_GEN[i]
    return chk


def _hrp_expand(hrp: str) -> list[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def bech32_encode(hrp: str, data: Sequence[int], spec: int = BECH32) -> str:
    """``hrp`` + ``1`` + the 5-bit ``data`` values + their checksum (``spec`` is
    ``BECH32`` or ``BECH32M``)."""
    values = _hrp_expand(hrp) + list(data)
    mod = _polymod([*values, 0, 0, 0, 0, 0, 0]) ^ spec
    checksum = [(mod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_BECH32[d] for d in [*data, *checksum])


def bech32_decode(text: str) -> tuple[str, list[int], int] | None:
    """``(hrp, data, spec)`` of a bech32 or bech32m string (lowercased hrp, the 5-bit
    data without the checksum, ``BECH32`` or ``BECH32M``), or None if it is invalid:
    mixed case, a character out of range, no separator, longer than 90 characters,
    or a checksum that is neither."""
    if len(text) > 90 or (text.lower() != text and text.upper() != text):
        return None
    if any(not 33 <= ord(c) <= 126 for c in text):
        return None
    text = text.lower()
    pos = text.rfind("1")
    if pos < 1 or pos + 7 > len(text):
        return None
    hrp = text[:pos]
    data = [_BECH32_INDEX.get(c, -1) for c in text[pos + 1:]]
    if -1 in data:
        return None
    const = _polymod(_hrp_expand(hrp) + data)
    if const not in (BECH32, BECH32M):
        return None
    return hrp, data[:-6], const


def _convert_bits(data: Sequence[int], frombits: int, tobits: int, pad: bool) -> list[int] | None:
    acc = bits = 0
    out = []
    maxv = (1 << tobits) - 1
    for value in data:
        if value >> frombits:
            return None
        acc = (acc << frombits) | value
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & maxv)
    if pad:
        if bits:
            out.append((acc << (tobits - bits)) & maxv)
    elif bits >= frombits or (acc << (tobits - bits)) & maxv:
        return None
    return out


def segwit_encode(hrp: str, version: int, program: bytes) -> str:
    """The segwit address of a witness ``version`` and ``program`` (bech32 for
    version 0, bech32m above)."""
    data = _convert_bits(program, 8, 5, pad=True)
    assert data is not None
    return bech32_encode(hrp, [version, *data], BECH32 if version == 0 else BECH32M)


def segwit_decode(text: str, hrps: Collection[str] | None = None) -> tuple[str, int, bytes] | None:
    """``(hrp, witness version, program)`` of a segwit address, or None if it breaks
    BIP-173 / BIP-350 (checksum, checksum kind for the version, program length,
    padding) or its human-readable part is not one of ``hrps`` (when given)."""
    decoded = bech32_decode(text)
    if decoded is None:
        return None
    hrp, data, spec = decoded
    if hrps is not None and hrp not in hrps:
        return None
    if not data or data[0] > 16:
        return None
    program = _convert_bits(data[1:], 5, 8, pad=False)
    if program is None or not 2 <= len(program) <= 40:
        return None
    version = data[0]
    if version == 0 and len(program) not in (20, 32):
        return None
    if (version == 0) != (spec == BECH32):
        return None
    return hrp, version, bytes(program)


# --------------------------------------------------------------------------- Keccak-256


def _keccak_constants() -> tuple[list[int], list[int]]:
    """The round constants (from the LFSR of the Keccak reference) and the rotation
    offset of each lane (from the (x, y) -> (y, 2x + 3y) walk)."""
    rounds = []
    r = 1
    for _ in range(24):
        rc = 0
        for j in range(7):
            r = ((r << 1) ^ ((r >> 7) * 0x71)) % 256
            if r & 2:
                rc ^= 1 << ((1 << j) - 1)
        rounds.append(rc)
    rotations = [0] * 25
    x, y = 1, 0
    for t in range(24):
        rotations[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return rounds, rotations


_ROUNDS, _ROTATIONS = _keccak_constants()
_MASK64 = (1 << 64) - 1
# Where rho-pi moves lane x + 5y: to y + 5((2x + 3y) mod 5).
_PI = [y + 5 * ((2 * x + 3 * y) % 5) for y in range(5) for x in range(5)]


def _keccak_f(a: list[int]) -> list[int]:
    for rc in _ROUNDS:
        # theta
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ (((c[(x + 1) % 5] << 1) | (c[(x + 1) % 5] >> 63)) & _MASK64)
             for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        # rho and pi
        b = [0] * 25
        for i in range(25):
            n = _ROTATIONS[i]
            b[_PI[i]] = ((a[i] << n) | (a[i] >> (64 - n))) & _MASK64 if n else a[i]
        # chi
        a = [b[i] ^ (~b[(i + 1) % 5 + i // 5 * 5] & b[(i + 2) % 5 + i // 5 * 5])
             for i in range(25)]
        # iota
        a[0] ^= rc
    return a


# pycryptodome's Keccak (``tripwire[guardrails]`` installs it), when there: in C, a
# hundred times faster than the sponge above, which a text of random mixed-case "0x"
# addresses (one hash each) makes the cost of the whole search.
try:
    _FAST_KECCAK: Any = importlib.import_module("Crypto.Hash.keccak")
except ImportError:
    _FAST_KECCAK = None


def keccak256(data: bytes, *, _pad: int = 0x01) -> bytes:
    """Keccak-256 of ``data``, as Ethereum uses it (the original Keccak padding;
    ``hashlib.sha3_256`` is the same sponge with the FIPS-202 padding ``0x06``, which
    ``_pad=0x06`` selects: the tests check this function against hashlib that way).
    pycryptodome's when it is installed, this module's own otherwise."""
    if _FAST_KECCAK is not None and _pad == 0x01:
        digest: bytes = _FAST_KECCAK.new(digest_bits=256, data=data).digest()
        return digest
    rate = 136
    padded = bytearray(data)
    padded.append(_pad)
    padded.extend(b"\0" * (-len(padded) % rate))
    padded[-1] |= 0x80
    state = [0] * 25
    for block in range(0, len(padded), rate):
        for i in range(rate // 8):
            state[i] ^= int.from_bytes(padded[block + 8 * i: block + 8 * i + 8], "little")
        state = _keccak_f(state)
    return b"".join(lane.to_bytes(8, "little") for lane in state[:4])


def eip55_checksum(address: str) -> str:
    """``address`` (``0x`` + 40 hex digits, any case) in its EIP-55 mixed case."""
    hexdigits = address[2:].lower()
    digest = keccak256(hexdigits.encode("ascii")).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h, 16) >= 8 else c
                          for c, h in zip(hexdigits, digest[:40], strict=True))


# --------------------------------------------------------------------------- detector

#: Base58Check version byte -> (chain, score).
_VERSIONS: dict[int, tuple[str, float]] = {
    0x00: ("bitcoin", 0.99),           # P2PKH, 1...
    0x05: ("bitcoin", 0.99),           # P2SH, 3... (Litecoin's old P2SH too)
    0x6F: ("bitcoin-testnet", 0.7),    # m... / n...
    0xC4: ("bitcoin-testnet", 0.7),    # 2...
    0x30: ("litecoin", 0.95),          # L...
    0x32: ("litecoin", 0.95),          # M...
    0x1E: ("dogecoin", 0.95),          # D...
    0x16: ("dogecoin", 0.95),          # 9... / A...
}
#: Segwit human-readable part -> (chain, score).
_HRPS: dict[str, tuple[str, float]] = {
    "bc": ("bitcoin", 0.99),
    "tb": ("bitcoin-testnet", 0.7),
    "bcrt": ("bitcoin-testnet", 0.7),
    "ltc": ("litecoin", 0.95),
    "tltc": ("litecoin-testnet", 0.7),
}

# Candidates; only they are decoded. Each pattern starts with a literal or a small set of
# characters, which ``re`` skips to quickly (an alternation of all three would be tried
# at every position). A Base58 candidate starts with a character one of the version
# bytes above produces. A segwit candidate is found at its separator ``1`` (rarer than
# the letters of the prefixes), looking back for a known prefix; it starts there, and
# its case is checked when it is decoded.
_ETHEREUM = re.compile(r"0x[0-9a-fA-F]{40}")
_SEGWIT = re.compile(r"1(?:(?<=[bB][cC]1)|(?<=[tT][bB]1)|(?<=[lL][tT][cC]1)|(?<=[bB][cC][rR][tT]1))"
                     r"[02-9ac-hj-np-zAC-HJ-NP-Z]{6,87}")
_BASE58 = re.compile(r"[123mnLMDA9][1-9A-HJ-NP-Za-km-z]{24,34}")
_ALNUM_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ALNUM = frozenset(_ALNUM_CHARS)


class CryptoWalletDetector:
    """Bitcoin (Base58Check and segwit), Litecoin, Dogecoin and Ethereum addresses
    whose checksums hold (see the module's documentation)."""

    name = "crypto-wallet"
    types = ("crypto-wallet",)
    #: The longest address: a segwit address has at most 90 characters.
    max_length = 90
    lookbehind = 1  # the character before
    OPTIONS: tuple[str, ...] = ()

    @staticmethod
    def hold_from(text: str) -> int:
        """An address not complete yet (or whose next character is still to come) is
        the run of letters and digits that ends ``text``, if that run is no longer than
        an address: one that starts further back is followed by a letter or a digit."""
        n = len(text)
        tail = _views.fold(text[max(0, n - 91):])
        start = n - len(tail) + trailing_run(tail, _ALNUM_CHARS, 91)
        return start if n - start <= 90 else n

    @_views.reads_folded
    def detect(self, text: str) -> Iterator[Detection]:
        runs = _views.token_runs(text)
        whole = [(0, len(text))]
        for pattern, validate in _RULES:
            # Ethereum and Base58 addresses are long runs of token characters: only
            # those runs are searched (the same matches, see ``_views.token_runs``).
            # A segwit address has a "1" in it.
            if pattern is _SEGWIT:
                spans = whole if "1" in text else []
            else:
                spans = runs
            for m in (m for lo, hi in spans for m in pattern.finditer(text, lo, hi)):
                start, end = m.span()
                if pattern is _SEGWIT:
                    start = _segwit_start(text, start)
                if ((start and text[start - 1] in _ALNUM)
                        or (end < len(text) and text[end] in _ALNUM)):
                    continue
                found = validate(text[start:end])
                if found is not None:
                    chain, score = found
                    yield Detection("crypto-wallet", start, end, score, f"crypto:{chain}",
                                    text[start:end])


def _segwit_start(text: str, separator: int) -> int:
    """Where the segwit address whose separator ``1`` is at ``separator`` starts: the
    longest known prefix before it."""
    for size in (4, 3, 2):
        if separator >= size and text[separator - size:separator].lower() in _HRPS:
            return separator - size
    raise AssertionError("the pattern's look-behinds admit only known prefixes")


def _ethereum(value: str) -> tuple[str, float] | None:
    digits = value[2:]
    if digits.lower() == digits or digits.upper() == digits:
        return "ethereum", 0.8
    return ("ethereum", 0.99) if eip55_checksum(value) == value else None


def _segwit(value: str) -> tuple[str, float] | None:
    decoded = segwit_decode(value, _HRPS)
    return None if decoded is None else _HRPS[decoded[0]]


def _base58(value: str) -> tuple[str, float] | None:
    payload = base58check_decode(value)
    if payload is None or len(payload) != 21:
        return None
    return _VERSIONS.get(payload[0])


_RULES: tuple[tuple[re.Pattern[str], Callable[[str], tuple[str, float] | None]], ...] = (
    (_ETHEREUM, _ethereum),
    (_SEGWIT, _segwit),
    (_BASE58, _base58),
)
