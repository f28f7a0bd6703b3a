"""Embedders turn texts into vectors for ``semantic-recall``.

An embedder is any object with ``async embed(texts: list[str]) -> list[list[float]]``
(one vector per text, in order) and a ``name`` (it names the vector index, so vectors
of two embedders are never compared). Embedders are plugins: the entry point group
``tripwire.embedders`` maps a provider name to a factory ``(model_id) -> Embedder``, and
``resolve_embedder("openai/text-embedding-3-small")`` builds one from a router id, as
models are built. Built in:

- ``openai/<model>``: ``OpenAIEmbedder``, any OpenAI-compatible ``/v1/embeddings``
  endpoint over aiohttp (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``);
- ``hashing`` / ``hashing/<dimensions>``: ``HashingEmbedder``, deterministic feature
  hashing of words and character trigrams; offline, no model download, good enough to
  find messages that share words.

``CachedEmbedder`` wraps any of them with an in-process cache keyed by a hash of the
text's content, so a text is embedded once per process.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from tripwire.errors import APICallError, ConfigurationError
from tripwire.memory.store import check_vector


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors (one per text, in order)."""

    name: str

    async def embed(self, texts: list[str]) -> list[list[float]]: ...


_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Deterministic feature hashing: each lower-cased word (weight 1) and character
    trigram (weight 0.5) adds a signed weight to one of ``dimensions`` buckets; the
    vector is L2-normalised. Texts that share words score high; nothing is downloaded."""

    def __init__(self, dimensions: int = 256) -> None:
        if isinstance(dimensions, bool) or not isinstance(dimensions, int) or dimensions < 8:
            raise ConfigurationError(
                f"HashingEmbedder dimensions must be an integer >= 8, got {dimensions!r}")
        self.dimensions = dimensions
        self.name = f"hashing-{dimensions}"

    def vector(self, text: str) -> list[float]:
        out = [0.0] * self.dimensions
        for word in _WORD.findall(text.lower()):
            self._add(out, "w:" + word, 1.0)
            padded = f" {word} "
            for i in range(len(padded) - 2):
                self._add(out, "t:" + padded[i:i + 3], 0.5)
        norm = math.sqrt(sum(x * x for x in out))
        return [x / norm for x in out] if norm else out

    def _add(self, out: list[float], feature: str, weight: float) -> None:
        digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        out[value % self.dimensions] += weight if value >> 63 else -weight

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return [self.vector(t) for t in texts]

    def __repr__(self) -> str:
        return f"<HashingEmbedder {self.dimensions}>"


class OpenAIEmbedder:
    """An OpenAI-compatible ``POST {base_url}/embeddings`` client over aiohttp.

    ``dimensions`` is sent when given (text-embedding-3 models can shorten vectors).
    Errors are ``tripwire.APICallError`` with the status and the server's message.
    """

    def __init__(
        self, model: str, *, base_url: str = "https://api.openai.com/v1",
        api_key: str | None = None, dimensions: int | None = None, timeout: float = 60.0,
        batch_size: int = 512,
    ) -> None:
        if not isinstance(model, str) or not model:
            raise ConfigurationError(f"OpenAIEmbedder needs a model name, got {model!r}")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.dimensions = dimensions
        self.timeout = timeout
        self.batch_size = batch_size
        self.name = f"openai-{model}" + (f"-{dimensions}" if dimensions else "")
        from tripwire.models.session import LoopSession

        self._session = LoopSession(lambda: f"embedder {self.name}")

    @classmethod
    def from_router(cls, model_id: str) -> OpenAIEmbedder:
        """``openai/<model>``: ``OPENAI_API_KEY`` and ``OPENAI_BASE_URL``, read now."""
        return cls(model_id, base_url=os.environ.get("OPENAI_BASE_URL")
                   or "https://api.openai.com/v1", api_key=os.environ.get("OPENAI_API_KEY"))

    async def embed(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            out.extend(await self._batch(texts[start:start + self.batch_size]))
        return out

    async def _batch(self, texts: list[str]) -> list[list[float]]:
        import aiohttp

        body: dict[str, Any] = {"model": self.model, "input": texts}
        if self.dimensions:
            body["dimensions"] = self.dimensions
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        session = await self._session.get()
        url = f"{self.base_url}/embeddings"
        try:
            async with session.post(url, json=body, headers=headers,
                                    timeout=aiohttp.ClientTimeout(total=self.timeout)) as resp:
                text = await resp.text()
                status = resp.status
        except (aiohttp.ClientError, TimeoutError) as e:
            raise APICallError(f"embeddings request to {url} failed: {type(e).__name__}: {e}",
                               is_retryable=True) from e
        if status >= 300:
            raise APICallError(f"embeddings request to {url} failed with HTTP {status}: "
                               f"{text[:300]}", status_code=status,
                               is_retryable=status in (408, 409, 429) or status >= 500)
        return _parse(text, len(texts), url)

    async def aclose(self) -> None:
        await self._session.close()

    def __repr__(self) -> str:
        return f"<OpenAIEmbedder {self.model} at {self.base_url}>"


def _parse(text: str, count: int, url: str) -> list[list[float]]:
    import json

    try:
        data = json.loads(text)["data"]
        items = sorted(data, key=lambda d: d["index"])
        vectors = [check_vector(d["embedding"], f"embedding {d['index']}") for d in items]
    except (ValueError, KeyError, TypeError) as e:
        raise APICallError(f"malformed embeddings response from {url}: {e}: {text[:200]}") \
            from e
    if len(vectors) != count:
        raise APICallError(f"embeddings response from {url} has {len(vectors)} vectors for "
                           f"{count} texts")
    return vectors


class CachedEmbedder:
    """An embedder whose vectors are cached by a hash of the text (BLAKE2b), at most
    ``size`` of them, least recently used dropped first. Only the texts not cached are
    sent, in one call."""

    def __init__(self, embedder: Any, size: int = 10_000) -> None:
        self.embedder = embedder
        self.name = embedder.name
        self.size = size
        self._cache: OrderedDict[bytes, list[float]] = OrderedDict()
        self.calls = 0

    @staticmethod
    def key(text: str) -> bytes:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()

    async def embed(self, texts: list[str]) -> list[list[float]]:
        keys = [self.key(t) for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in self._cache))
        if missing:
            by_key = {k: t for k, t in zip(keys, texts, strict=True)}
            self.calls += 1
            vectors = await self.embedder.embed([by_key[k] for k in missing])
            if not isinstance(vectors, list) or len(vectors) != len(missing):
                raise ValueError(
                    f"embedder {self.name!r} returned {len(vectors) if isinstance(vectors, list) else type(vectors).__name__} "  # noqa: E501
                    f"vectors for {len(missing)} texts")
            for k, v in zip(missing, vectors, strict=True):
                self._cache[k] = check_vector(v, f"embedder {self.name!r}")
        out = []
        for k in keys:
            self._cache.move_to_end(k)
            out.append(self._cache[k])
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return out


def hashing(model_id: str = "") -> HashingEmbedder:
    """The ``hashing`` / ``hashing/<dimensions>`` entry point."""
    if not model_id:
        return HashingEmbedder()
    try:
        return HashingEmbedder(int(model_id))
    except ValueError:
        raise ConfigurationError(
            f"hashing embedder: {model_id!r} is not a number of dimensions (hashing/256)"
        ) from None


def resolve_embedder(spec: Any) -> Any:
    """An embedder from a router id (``"openai/text-embedding-3-small"``,
    ``"hashing"``, ``"hashing/512"``), or the object itself when it has ``embed``."""
    if not isinstance(spec, str):
        if callable(getattr(spec, "embed", None)) and isinstance(getattr(spec, "name", None), str):
            return spec
        raise ConfigurationError(
            f"embedder must be a router id such as 'openai/text-embedding-3-small' or "
            f"'hashing', or an object with a name and async embed(texts), got {spec!r}")
    provider, _, model_id = spec.partition("/")
    from tripwire import registry

    reg = registry.current()
    names = reg.names(registry.EMBEDDERS)
    if provider not in names:
        raise ConfigurationError(
            f"unknown embedder provider {provider!r} in {spec!r}; available: "
            f"{', '.join(names) or 'none'}")
    plugin = reg.get(registry.EMBEDDERS, provider)
    if plugin.error is not None:
        raise plugin.failure()
    return plugin.target(model_id)


def texts_of(messages: Sequence[Any]) -> list[str]:
    return [m.text for m in messages]
