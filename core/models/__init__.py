"""The model protocol, the request a model receives, and the router that turns an id
such as ``"openai/gpt-5-mini"`` into a model.

Providers register under the entry point group ``tripwire.models`` as
``name = module:factory``; ``factory(model_id)`` returns a ``Model``. tripwire's own
providers register the same way in its setup.cfg. They are read through the one plugin
registry (``tripwire.registry``), as processors are: scanned once, de-duplicated, a
provider that fails to load recorded (``available()``, ``tripwire models``) and
raised when used, hidden by ``TRIPWIRE_DISABLE_PLUGINS``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from tripwire import registry
from tripwire.errors import ConfigurationError
from tripwire.models._secrets import mask_headers, mask_url

if TYPE_CHECKING:
    from tripwire.chunks import Chunk
    from tripwire.tools import Tool

MODELS_GROUP = registry.MODELS.name


@attrs.define
class ModelRequest:
    """Everything one model call needs.

    ``prompt`` is the provider-facing list of dicts (see ``process_llm_request``);
    ``tools`` are the tools active for this step; ``run_id`` is the run the call is a
    step of (None: a call outside a run, such as a judge's).
    """

    prompt: list[dict[str, Any]]
    tools: list[Tool] = attrs.field(factory=list)
    tool_choice: Any = None
    model_settings: dict[str, Any] = attrs.field(factory=dict)
    provider_options: dict[str, Any] = attrs.field(factory=dict)
    structured_output: Any = None
    run_id: str | None = None


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


def register_provider(name: str, factory: ModelFactory) -> None:
    """Register a provider factory by name at run time (tests, notebooks). It wins over
    an installed provider of the same name; ``tripwire.registry.discovery.reset()`` (a fresh
    plugin registry) forgets it."""
    registry.current().register(registry.MODELS, name, factory)


class _EntryPointFactory:
    """An installed provider's factory: its entry point is imported on first use
    (``tripwire models`` imports them all, to show the broken ones), and a provider
    that failed to load raises its error, naming its distribution, when called."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, model_id: str) -> Model:
        plugin = registry.current().get(registry.MODELS, self.name)
        if plugin.error is not None:
            raise plugin.failure() from plugin.error
        return plugin.target(model_id)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"<provider {self.name!r} (entry point, loaded on first use)>"


def providers() -> dict[str, ModelFactory]:
    """Every visible provider name and its factory (nothing is imported until a
    factory is called). ``TRIPWIRE_DISABLE_PLUGINS`` hides installed providers."""
    reg = registry.current()
    registered = reg.registered(registry.MODELS)
    return {
        name: registered.get(name) or _EntryPointFactory(name)
        for name in reg.names(registry.MODELS)
    }


def available() -> dict[str, registry.Plugin]:
    """Every visible provider by name, loaded: ``distribution``, ``version``,
    ``value`` (the entry point), ``status`` (``"ok"`` or ``"broken"``) and ``error``;
    a provider registered at run time has no distribution."""
    return registry.current().plugins(registry.MODELS)


def hidden() -> dict[str, str]:
    """Installed provider names hidden by ``TRIPWIRE_DISABLE_PLUGINS``, with the reason."""
    return registry.current().hidden(registry.MODELS)


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
        why = hidden().get(provider)
        if why:
            raise ConfigurationError(f"model provider {provider!r} is {why}")
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
    "available",
    "hidden",
    "model_label",
    "mask_headers",
    "mask_url",
    "MODELS_GROUP",
]


# The HTTP providers import aiohttp; load them on first use, not with tripwire.
_LAZY_PROVIDERS = {
    "OpenAICompatible": "tripwire.models.openai",
    "OpenAIResponses": "tripwire.models.openai_responses",
    "Anthropic": "tripwire.models.anthropic",
    "Timeout": "tripwire.models._http",
    "Transport": "tripwire.models._http",
}


def __getattr__(name: str) -> Any:
    module = _LAZY_PROVIDERS.get(name)
    if module is None:
        raise AttributeError(f"module 'tripwire.models' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ += ["OpenAICompatible", "OpenAIResponses", "Anthropic", "Timeout", "Transport"]  # noqa: PLE0605
