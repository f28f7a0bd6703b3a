"""Keeping credentials out of everything a provider shows: headers, URLs, messages.

``mask_headers`` and ``mask_url`` are public (``tripwire.models.mask_headers`` /
``mask_url``) so that whatever else records requests or responses (the agent's
``StepResult``, a tracing processor) masks them the same way. ``Secrets`` holds the
credentials of one provider and replaces them in any text or JSON value.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

#: What a masked value is replaced by.
MASK = "***"
#: Header names whose values are always credentials (compared in lower case).
CREDENTIAL_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"}
)
#: A header whose lower-cased name contains one of these is masked too.
CREDENTIAL_WORDS = ("key", "token", "secret", "auth")


@functools.lru_cache(maxsize=1024)  # the same few names come back on every response
def is_credential_header(name: str) -> bool:
    """True for a header whose value may be a credential: the ``CREDENTIAL_HEADERS``
    and any name containing ``key``, ``token``, ``secret`` or ``auth``."""
    lowered = name.lower()
    return lowered in CREDENTIAL_HEADERS or any(word in lowered for word in CREDENTIAL_WORDS)


def mask_headers(headers: Mapping[str, Any] | Iterable[tuple[str, Any]] | None) -> dict[str, Any]:
    """A copy of ``headers`` with every credential value replaced by ``"***"``.

    Names keep their spelling; a name given twice (``Set-Cookie``) keeps its last
    value. ``None`` gives ``{}``::

        >>> mask_headers({"Authorization": "Bearer sk-1", "x-ratelimit-remaining-tokens": "9",
        ...               "Content-Type": "application/json"})
        {'Authorization': '***', 'x-ratelimit-remaining-tokens': '***', 'Content-Type': 'application/json'}
    """
    if headers is None:
        return {}
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    return {str(k): (MASK if is_credential_header(str(k)) else v) for k, v in pairs}


def split_userinfo(url: str) -> tuple[str, str | None, str | None]:
    """``(url without userinfo, user, password)``; user and password are
    percent-decoded, ``None`` when absent."""
    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    bare = urlunsplit(parts._replace(netloc=hostport))
    if not userinfo:
        return bare, None, None
    user, colon, password = userinfo.partition(":")
    return bare, unquote(user), unquote(password) if colon else None


def basic_auth(user: str, password: str) -> str:
    """The ``Authorization`` header value for HTTP basic auth (RFC 7617, UTF-8)."""
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


def mask_url(url: str) -> str:
    """``url`` with the password of its userinfo replaced by ``***``
    (``http://user:***@host/v1``); a userinfo without a password (often a token
    given as the user name) is masked whole (``http://***@host/v1``). A URL without
    userinfo is returned as is."""
    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if not at:
        return url
    user, colon, _ = userinfo.partition(":")
    shown = f"{user}:{MASK}" if colon else MASK
    return urlunsplit(parts._replace(netloc=f"{shown}@{hostport}"))


class Secrets:
    """The credentials of one provider, and their replacement in what it shows.

    Besides each secret as given, its percent-encoded form (as it appears in a URL)
    is replaced; the provider adds the base64 of a basic-auth pair too (as it appears
    in an ``Authorization`` header a server echoes).
    """

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: list[str] = []

    def add(self, *values: str | None) -> None:
        for value in values:
            if not value:
                continue
            for form in (value, quote(value, safe="")):
                if form not in self._values:
                    self._values.append(form)
        # Longest first, so that a secret containing another is replaced whole.
        self._values.sort(key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._values)

    def redact(self, text: str) -> str:
        """``text`` with every secret replaced by ``***``."""
        if not text:
            return text
        for value in self._values:
            if value in text:
                text = text.replace(value, MASK)
        return text

    def redact_value(self, value: Any) -> Any:
        """A copy of a JSON-like value (mappings, lists, strings) with every secret
        replaced in every string, keys included; tuples become lists, other values
        stay as they are. Iterative, so deep nesting cannot exhaust the stack."""
        root = self._shell(value)
        pending = [root] if isinstance(root, dict | list) else []
        while pending:
            node = pending.pop()
            for key in list(node.keys()) if isinstance(node, dict) else range(len(node)):
                child = node[key] = self._shell(node[key])
                if isinstance(child, dict | list):
                    pending.append(child)
        return root

    def _shell(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, Mapping):
            return {(self.redact(k) if isinstance(k, str) else k): v for k, v in value.items()}
        if isinstance(value, list | tuple):
            return list(value)
        return value
