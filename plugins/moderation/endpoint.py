"""``moderation``'s client of OpenAI's moderation endpoint (``POST /v1/moderations``):
which router ids name a moderation model, and one request that scores a list of
texts. The verdict on one text, ``Scores``, is what both ways of judging give."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from typing import Any

import attrs

from tripwire.guards.judge import JudgeError
from tripwire.models.retry import MAX_RETRY_AFTER, RETRYABLE_STATUSES, parse_retry_after

__all__ = ["ENDPOINT_MODEL", "ModerationsEndpoint", "Scores", "endpoint_model_id"]

#: Model ids of OpenAI's moderation endpoint (``POST /v1/moderations``).
ENDPOINT_MODEL = re.compile(r"(omni|text)-moderation-[A-Za-z0-9._-]+")
_OPENAI_URL = "https://api.openai.com/v1"


@attrs.frozen
class Scores:
    """One text's verdict: every category's score (those reported) and the reason."""

    scores: dict[str, float]
    reason: str | None = None


def endpoint_model_id(model: Any) -> str | None:
    """The moderation model's id when ``model`` is a router id naming one."""
    if not isinstance(model, str):
        return None
    provider, _, model_id = model.partition("/")
    return model_id if provider == "openai" and ENDPOINT_MODEL.fullmatch(model_id) else None


class ModerationsEndpoint:
    """A small client of OpenAI's ``POST /v1/moderations``, with the OpenAI router's
    settings (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``, read when it is built).

    One ``aiohttp`` session per event loop (``LoopSession``, as the providers have),
    closed by ``aclose()`` or the end of its loop; at most ``max_concurrency`` requests
    at a time; each request limited to ``timeout`` seconds, retries included; 408, 409,
    429, 5xx and network failures retried ``max_retries`` times (``Retry-After``
    honoured). Every failure is a ``JudgeError`` (``kind`` ``"api-error"``,
    ``"timeout"`` or ``"invalid"``), never quoting the texts.
    """

    def __init__(self, model_id: str, *, timeout: float = 30.0, max_retries: int = 2,
                 max_concurrency: int = 8) -> None:
        # aiohttp is imported by the first endpoint built, not with the processor
        from tripwire.models.session import LoopSession

        self.model_id = model_id
        self.label = f"openai/{model_id}"
        self.url = (os.environ.get("OPENAI_BASE_URL") or _OPENAI_URL).rstrip("/") + "/moderations"
        self._api_key = os.environ.get("OPENAI_API_KEY") or None
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_concurrency = max_concurrency
        self._sessions = LoopSession(lambda: f"moderation endpoint {self.label}")
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    async def aclose(self) -> None:
        await self._sessions.close()

    def _error(self, kind: str, message: str, status_code: int | None = None) -> JudgeError:
        return JudgeError(message, judge="moderation", model=self.label, kind=kind,
                          status_code=status_code)

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.max_concurrency))
        return self._slots[1]

    async def score(self, texts: list[str]) -> list[Scores]:
        """Every category's score for each text, in one request."""
        async with self._semaphore():
            limit = asyncio.timeout(self.timeout)
            try:
                async with limit:
                    data = await self._post({"model": self.model_id, "input": texts})
            except TimeoutError:
                if not limit.expired():
                    raise
                raise self._error(
                    "timeout", f"no answer within the timeout of {self.timeout:g} s") from None
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list) or len(results) != len(texts):
            raise self._error("invalid", f"the response has no 'results' list of "
                                         f"{len(texts)} item(s)")
        out = []
        for result in results:
            scores = result.get("category_scores") if isinstance(result, dict) else None
            if not isinstance(scores, dict) or not all(
                    isinstance(v, int | float) and not isinstance(v, bool)
                    for v in scores.values()):
                raise self._error("invalid", "a result has no 'category_scores' mapping of "
                                             "numbers")
            out.append(Scores({str(k): float(v) for k, v in scores.items()}))
        return out

    async def _post(self, body: dict[str, Any]) -> Any:
        import aiohttp

        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        data = json.dumps(body).encode()
        retries = 0
        while True:
            session = await self._sessions.get()
            try:
                async with session.post(self.url, data=data, headers=headers) as response:
                    text = await response.text(errors="replace")
                    status, wait = response.status, parse_retry_after(response.headers)
            except aiohttp.ClientError as e:
                error = self._error("api-error", f"the request failed: {type(e).__name__}")
                error.__cause__ = e
                status, wait, text = 0, None, ""
            else:
                if 200 <= status < 300:
                    try:
                        return json.loads(text)
                    except ValueError:
                        raise self._error("invalid", "the response is not JSON") from None
                error = self._error(
                    "api-error", f"the request failed (HTTP {status}): {_message(text)}",
                    status_code=status)
            retryable = status == 0 or status in RETRYABLE_STATUSES or status >= 500
            if not retryable or retries >= self.max_retries:
                raise error
            retries += 1
            if wait is None or wait > MAX_RETRY_AFTER:
                wait = min(8.0, 0.5 * 2 ** (retries - 1)) * random.uniform(0.5, 1.0)
            await asyncio.sleep(wait)


def _message(body: str) -> str:
    """The error message of an OpenAI error body (or its first 200 characters)."""
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        message = data["error"].get("message")
        if isinstance(message, str):
            return message[:200]
    return body.strip()[:200] or "(no body)"
