"""The model protocol, the request a model receives, and the router that turns an id
such as ``"openai/gpt-5-mini"`` into a model.

Providers register under the entry point group ``tripwire.models`` as
``name = module:factory``; ``factory(model_id)`` returns a ``Model``. tripwire's own
providers register the same way in its setup.cfg.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from tripwire.errors import ConfigurationError
from tripwire.models._secrets import mask_headers, mask_url

if TYPE_CHECKING:
    from tripwire.chunks import Chunk
    from tripwire.tools import Tool

MODELS_GROUP = "tripwire.models"


@attrs.define
class ModelRequest:
    """Everything one model call needs.

    ``prompt`` is the provider-facing list of dicts (see ``process_llm_request``);
    ``tools`` are the tools active for this step.
    """

    prompt: list[dict[str, Any]]
    tools: list[Tool] = attrs.field(factory=list)
    tool_choice: Any = None
    model_settings: dict[str, Any] = attrs.field(factory=dict)
    provider_options: dict[str, Any] = attrs.field(factory=dict)
    structured_output: Any = None


@runtime_checkable
class Model(Protocol):
    """What the agent loop calls. ``stream`` yields chunks: ``text-delta``,
    ``reasoning-delta``, ``tool-call`` {tool_call_id, tool_name, args} and one final
    ``finish`` {finish_reason, usage} (optionally also provider_metadata, warnings,
    request, raw_response: credentials masked, see ``mask_headers``). It raises
    ``APICallError`` when the provider fails, also for data it cannot read."""

    provider: str
    model_id: str

    def stream(self, request: ModelRequest) -> AsyncIterator[Chunk]: ...


ModelFactory = Callable[[str], Model]

_lock = threading.Lock()
_factories: dict[str, ModelFactory] = {}
_loaded = False


def register_provider(name: str, factory: ModelFactory) -> None:
    """Register a provider factory by name at run time (tests, notebooks)."""
    with _lock:
        _factories[name] = factory


def _load_entry_points() -> None:
    global _loaded
    with _lock:
        if _loaded:
            return
        for ep in entry_points(group=MODELS_GROUP):
            _factories.setdefault(ep.name, _LazyFactory(ep))
        _loaded = True


class _LazyFactory:
    """Imports an entry point's factory on first use, not at discovery."""

    def __init__(self, ep: Any) -> None:
        self.ep = ep
        self.dist = getattr(getattr(ep, "dist", None), "name", None)

    def __call__(self, model_id: str) -> Model:
        return self.ep.load()(model_id)


def providers() -> dict[str, ModelFactory]:
    """Every known provider name and its factory."""
    _load_entry_points()
    return dict(_factories)


def resolve_model(model: str | Model) -> Model:
    """A ``Model`` from a router id ``"provider/model"`` (or a model, returned as is)."""
    if not isinstance(model, str):
        if not hasattr(model, "stream"):
            raise ConfigurationError(
                f"model must be a router id 'provider/model' or an object with a "
                f"stream(request) method, got {type(model).__name__}"
            )
        return model
    provider, sep, model_id = model.partition("/")
    if not sep or not provider or not model_id:
        raise ConfigurationError(
            f"model id {model!r} is not of the form 'provider/model' (e.g. 'openai/gpt-5-mini')"
        )
    factories = providers()
    factory = factories.get(provider)
    if factory is None:
        known = ", ".join(sorted(factories)) or "none installed"
        raise ConfigurationError(f"unknown model provider {provider!r}; known: {known}")
    return factory(model_id)


def model_label(model: Any) -> str:
    """``provider/model_id`` for messages and logs."""
    return f"{getattr(model, 'provider', '?')}/{getattr(model, 'model_id', '?')}"


__all__ = [
    "Model",
    "ModelRequest",
    "ModelFactory",
    "register_provider",
    "resolve_model",
    "providers",
    "model_label",
    "mask_headers",
    "mask_url",
    "MODELS_GROUP",
]


# The HTTP providers import aiohttp; load them on first use, not with tripwire.
_LAZY_PROVIDERS = {
    "OpenAICompatible": "tripwire.models.openai",
    "Anthropic": "tripwire.models.anthropic",
    "Timeout": "tripwire.models._http",
}


def __getattr__(name: str) -> Any:
    module = _LAZY_PROVIDERS.get(name)
    if module is None:
        raise AttributeError(f"module 'tripwire.models' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ += ["OpenAICompatible", "Anthropic", "Timeout"]  # noqa: PLE0605
