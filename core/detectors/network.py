"""Network identifiers: IP addresses and UUIDs.

- ``IPAddressDetector`` (``ip-address``): IPv4 and IPv6 addresses that ``ipaddress``
  accepts, standing alone: not a part of ``1.2.3.4.5`` (an OID), ``v2.1.0.3``,
  ``1.2.3.4-beta`` or ``std::vector``; and not a dotted number that its words make a
  version, a section or an OID: right after "version", "build", "release", "update
  to", "APP_VERSION=", "Version", "versión", "mise à jour", ... or "section", "§",
  "article", "chapter", "lot", "Abschnitt", "apartado", "OID", ... (one word, such as
  a product's name, may stand between, unless it names a host: "server", "host",
  "IP", ...), or right before "on Android", "(build", "beta", ...; nor a numbered
  heading (``2.1.3.4 Scope`` at the start of a line); and a quad of small numbers
  only (every octet 31 or less, ``2.1.3.4``: far more often a section or a version
  than anyone's address) only with a network word, a port, a CIDR suffix or brackets
  around it;
- ``UUIDDetector`` (``uuid``): ``8-4-4-4-12`` hex UUIDs of any version.

Both anchor on punctuation (``.``, ``:``, ``-``) that the regex engine finds in C, then
look around each hit.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from tripwire.detectors import _views
from tripwire.guards.verdicts import Detection
from tripwire.guards.window_start import trailing_run

__all__ = ["IPAddressDetector", "UUIDDetector"]

# An IPv4 address has ".N.N." inside it: find that, then back up to the first octet.
_V4_ANCHOR = re.compile(r"\.[0-9]{1,3}\.[0-9]{1,3}\.")
_V4 = re.compile(r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}")
# An IPv6 address has ":h:" or "::" inside it.
_V6_ANCHOR = re.compile(r":[0-9A-Fa-f]{0,4}:")
_V6 = re.compile(r"[0-9A-Fa-f:]{2,29}?(?<=:)[0-9]{1,3}(?:\.[0-9]{1,3}){3}"  # ::ffff:192.0.2.1
                 r"|[0-9A-Fa-f:]{2,39}")
_HEX = frozenset("0123456789abcdefABCDEF")
_HEX_GROUP = re.compile(r"[0-9A-Fa-f]{1,4}")
# Words after which a dotted number is a version, a section or an OID, not an address
# (in English, German, French and Spanish; "app_version" and "APP_VERSION" too); one word
# may stand between ("Building agent 2.4.0.17", "upgrade to 10.2.0.1"), unless it names
# a host.
_VERSION_WORDS = frozenset("""
    version versions ver vers release released releases rel build builds building baue
    firmware fw rev revision patch update updated upgrade upgraded downgrade downgraded
    updating upgrading installed install installing python node nodejs java jdk chrome
    firefox safari edge windows android ios macos kernel linux sdk library lib package pkg
    plugin driver bios app v versión versiön aktualisierung actualización actualizacion
    actualizado oid section sect sec § chapter chap clause article art paragraph para lot
    item point step annex appendix abschnitt kapitel ziffer absatz anhang punkt paket
    chapitre paragraphe annexe étape etape apartado sección seccion capítulo capitulo
    cláusula clausula artículo articulo anexo punto paquete paso note nota notes anmerkung
    remarque rule regla règle regel requirement req anforderung exigence requisito figure
    fig abbildung abb table tabelle tableau tabla schritt nr n° nº
""".split())
_HOST_WORDS = frozenset("""
    server serveur servidor host hostname node ip address adresse dirección direccion
    gateway router proxy dns machine rechner vm from von de desde at on
""".split())
# What separates the words before a dotted number.
_WORD_BREAKS = re.compile(r"[\s\"'`=:(\[{,;]+")


def _named_version(text: str, start: int) -> bool:
    """Whether the words right before ``start`` make the dotted number there a version,
    a section or an OID (``_VERSION_WORDS``): the last word, or the one before it when
    the last is not a host word (``_HOST_WORDS``)."""
    window = text[max(0, start - 64):start].lower()
    if window[-1:].isalnum():
        return False
    words = [w.rstrip(".").rpartition("_")[2] for w in _WORD_BREAKS.split(window) if w]
    if "jour" in words[-2:] and "mise" in words[-4:]:
        return True  # "mise à jour", "mise a jour vers"
    if words and words[-1] in _VERSION_WORDS:
        return True
    return len(words) > 1 and words[-2] in _VERSION_WORDS and words[-1] not in _HOST_WORDS


# Words after a dotted number that make it a version: "4.12.0.3 on Android", "(build".
_VERSION_AFTER = re.compile(
    r"(?i)[\s,(]*(?:(?:on|sur|auf|unter|en|for|für|pour|para)\s+)?"
    r"(?:android|ios|ipados|macos|windows|build|beta|alpha|rc|lts)\b")
# A numbered heading: a dotted number that starts a line, then a capitalised word.
_HEADING_AFTER = re.compile(r"[ \t]+[^\W\d_][^\W\d_]")
#: The characters of an address (either kind).
_ADDRESS_CHARS = "0123456789abcdefABCDEF.:"


class IPAddressDetector:
    """IPv4 and IPv6 addresses (type ``ip-address``)."""

    name = "ip-address"
    types = ("ip-address",)
    max_length = 45  # the longest IPv6 text form (with an embedded IPv4 address)
    #: Before an address: its first character's neighbour and a "version" word.
    lookbehind = 32

    @staticmethod
    def hold_from(text: str) -> int:
        """An address not complete yet, or whose next two characters may still rule it
        out (``1.2.3.4.5``, ``1.2.3.4-rc``), lies in the run of hex digits, dots and
        colons that ends ``text`` (and a last "-" or "+")."""
        n = len(text)
        tail = _views.fold(text[max(0, n - 48):])
        end = len(tail) - 1 if tail.endswith(("-", "+")) else len(tail)
        return n - len(tail) + trailing_run(tail[:end], _ADDRESS_CHARS, 46)

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        found = list(self._v6(text)) if ":" in text else []
        if b"0" not in _views.classes(text):
            return found  # no digit (every digit is "0" in the view): no IPv4 address
        taken = [(d.start, d.end) for d in found]  # ::ffff:192.0.2.1 is one address
        found.extend(d for d in self._v4(text)
                     if all(d.end <= s or d.start >= e for s, e in taken))
        return found

    def _v4(self, text: str) -> Iterable[Detection]:
        covered = 0
        for anchor in _V4_ANCHOR.finditer(text):
            dot = anchor.start()
            start = dot
            while start > max(0, dot - 3) and text[start - 1].isdigit():
                start -= 1
            if start == dot or start < covered:
                continue
            m = _V4.match(text, start)
            if m is None:
                continue
            end = m.end()
            before = text[start - 1] if start else " "
            after = text[end] if end < len(text) else " "
            nxt = text[end + 1:end + 2]
            if (before.isalnum() or before in "._" or after.isalnum() or after == "_"
                    or (after == "." and nxt.isdigit()) or (after in "-+" and nxt.isalpha())):
                continue  # part of something longer: 1.2.3.4.5, v1.2.3.4, 1.2.3.4-rc1 (not :port)
            try:
                ipaddress.IPv4Address(m.group())
            except ValueError:
                continue
            if (_named_version(text, start) or _VERSION_AFTER.match(text, end, end + 24)
                    or (_line_start(text, start) and text[end:end + 1] in " \t"
                        and _HEADING_AFTER.match(text, end) and text[end:].lstrip()[:1].isupper())):
                continue  # a version, a section, an OID or a heading
            if _section_like(m.group()) and not _networked(text, start, end):
                continue  # "2.1.3.4", "4.12.0.3" with no word of a network near
            covered = end
            yield Detection("ip-address", start, end, 1.0, self.name, m.group())

    def _v6(self, text: str) -> Iterable[Detection]:
        covered = 0
        for anchor in _V6_ANCHOR.finditer(text):
            start = anchor.start()
            while start > max(0, anchor.start() - 4) and text[start - 1] in _HEX:
                start -= 1
            if start < covered:
                continue
            before = text[start - 1] if start else " "
            if before.isalnum() or before in "_:.":
                continue
            m = _V6.match(text, start)
            if m is None:
                continue
            value = m.group()
            if value.endswith(":") and not value.endswith("::"):
                value = value[:-1]  # "fe80::1: it" ends a clause
            end = start + len(value)
            after = text[end] if end < len(text) else " "
            if after.isalnum() or after == "_" or (after in ".:" and text[end + 1:end + 2].isalnum()):
                continue  # Foo::Bar, 12:30:45:67abc, ...
            if len(_HEX_GROUP.findall(value.split(".")[0])) < 2:
                continue  # "::", "::1", "a::": too little to be anyone's address
            if "::" not in value and value.count(":") != (6 if "." in value else 7):
                continue  # without "::", eight groups (six and an IPv4 address): what
                # ``ipaddress`` says too, at a tenth of the cost of its error
            try:
                ipaddress.IPv6Address(value)
            except ValueError:
                continue
            covered = end
            yield Detection("ip-address", start, end, 1.0, self.name, value)


# Addresses whose octets are all small that people write all the time: the public
# resolvers (Cloudflare, Google, Quad9 and the like: one octet four times, or these).
_WELL_KNOWN = frozenset({"1.0.0.1", "8.8.4.4", "4.2.2.1", "4.2.2.2"})


def _section_like(value: str) -> bool:
    """Whether a dotted quad is made of small numbers only, as section numbers,
    versions and OIDs are (``2.1.3.4``, ``4.12.0.3``) and few hosts' addresses: every
    octet 31 or less, the first not 0, 10 or 127 (a private or loopback address), not a
    well-known resolver (``1.1.1.1``, ``8.8.4.4``)."""
    octets = value.split(".")
    if any(len(o) > 2 or int(o) > 31 for o in octets):
        return False
    return (octets[0] not in ("0", "10", "127") and len(set(octets)) > 1
            and value not in _WELL_KNOWN)


# Words that say a number among the next few words is a host's address: the tools,
# fields and parts of a network people write it with (and _HOST_WORDS right before it).
_NETWORK_WORDS = _HOST_WORDS - {"from", "von", "de", "desde", "at", "on"} | frozenset("""
    ip ips ipv4 ip-adresse ip-address ip-addresse adresse-ip addr address addresses
    adressen adresses direcciones ping pinged pingt ssh curl wget telnet nslookup dig
    traceroute tracert connect connected connecting connection verbindung connexion
    conexión conexion client src dst source destination remote peer origin lan wan vpn
    wlan wifi subnet netmask cidr firewall nameserver resolver dhcp nat route routes
    allow deny allowed blocked bloqué bloquée bloqueado gesperrt listen bind upstream
    backend endpoint device gerät appareil dispositivo drucker imprimante impresora
    printer nas switch ap access-point
""".split())


def _networked(text: str, start: int, end: int) -> bool:
    """Whether a dotted quad at ``start:end`` reads as a host's address by what is
    around it: a port or a CIDR suffix after it (``:8080``, ``/24``), brackets around
    it (``relay=mx[2.1.3.4]``), ``@`` or ``//`` before it, or a network word
    (``_NETWORK_WORDS``) among the few words before it on its line."""
    after = text[end:end + 2]
    if after[:1] in ":/" and after[1:].isdigit():
        return True
    before = text[max(0, start - 2):start]
    if before.endswith(("@", "//", "[")):
        return True
    lo = max(0, start - 64)
    line = text[text.rfind("\n", lo, start) + 1 or lo:start].lower()
    words = [w.strip(".-").rpartition("_")[2] for w in _WORD_BREAKS.split(line) if w]
    if words and words[-1] in _HOST_WORDS:
        return True  # "from 2.1.3.4", "at 4.2.2.3": a preposition right before it
    return any(w in _NETWORK_WORDS for w in words[-6:])


def _line_start(text: str, at: int) -> bool:
    """Whether only spaces and tabs stand between the start of ``at``'s line and it."""
    i = at
    while i and text[i - 1] in " \t":
        i -= 1
    return not i or text[i - 1] in "\r\n"



_UUID_CHARS = "0123456789abcdefABCDEF-"
_UUID_ANCHOR = re.compile(r"-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-")
_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")


class UUIDDetector:
    """UUIDs (type ``uuid``): ``8-4-4-4-12`` hex digits, any version or variant."""

    name = "uuid"
    types = ("uuid",)
    max_length = 36
    lookbehind = 1  # the character before

    @staticmethod
    def hold_from(text: str) -> int:
        """A UUID not complete yet (or whose next character is still to come) is the
        run of hex digits and dashes that ends ``text``, if that run is no longer than
        a UUID: one that starts further back is followed by a hex digit or a dash."""
        n = len(text)
        tail = _views.fold(text[max(0, n - 37):])
        start = n - len(tail) + trailing_run(tail, _UUID_CHARS, 37)
        return start if n - start <= 36 else n

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        found: list[Detection] = []
        if "-" not in text:
            return found
        for anchor in _UUID_ANCHOR.finditer(text):
            start = anchor.start() - 8
            if start < 0:
                continue
            m = _UUID.match(text, start)
            if m is None:
                continue
            end = m.end()
            before = text[start - 1] if start else " "
            after = text[end] if end < len(text) else " "
            if before.isalnum() or before in "_-" or after.isalnum() or after in "_-":
                continue
            found.append(Detection("uuid", start, end, 1.0, self.name, m.group()))
        return found
