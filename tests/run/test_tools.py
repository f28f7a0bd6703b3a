"""@tool: JSON Schema from type hints, argument conversion, injected services."""

from __future__ import annotations

from typing import Annotated, Literal

import attrs
import pytest

from tripwire import Tool, tool
from tripwire.tools import ToolArgumentError, coerce_tools


@attrs.define
class Address:
    city: str
    zip: str | None = None


@tool
def search(query: str, limit: int = 5, mode: Literal["fast", "deep"] = "fast",
           tags: list[str] | None = None) -> list[str]:
    """Search the knowledge base.

    :param query: what to look for
    """
    return [query] * limit


def test_schema_from_signature_and_docstring():
    assert search.name == "search"
    assert search.description == "Search the knowledge base."
    assert search.parameters == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "what to look for"},
            "limit": {"type": "integer", "default": 5},
            "mode": {"enum": ["fast", "deep"], "default": "fast"},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
                     "default": None},
        },
        "required": ["query"],
        "additionalProperties": False,
    }


async def test_arguments_are_converted_and_checked():
    assert await search.run({"query": "q", "limit": 2}) == ["q", "q"]
    with pytest.raises(ToolArgumentError, match="'limit'.*not a valid int"):
        await search.run({"query": "q", "limit": "2"})
    with pytest.raises(ToolArgumentError, match="unknown argument"):
        await search.run({"query": "q", "color": "red"})
    with pytest.raises(ToolArgumentError, match="missing required"):
        await search.run({})


async def test_attrs_parameters_and_annotated_descriptions():
    @tool(name="ship", description="Ship a parcel.")
    async def ship_parcel(to: Address, weight: Annotated[float, "kilograms"]) -> str:
        return f"{to.city}:{weight}"

    assert ship_parcel.parameters["properties"]["to"]["required"] == ["city"]
    assert ship_parcel.parameters["properties"]["weight"] == {"type": "number", "description": "kilograms"}
    assert await ship_parcel.run({"to": {"city": "Oslo"}, "weight": 2}) == "Oslo:2.0"


async def test_injected_services_are_hidden_from_the_model():
    @tool
    async def progress(step: int, writer) -> int:
        """Reports progress."""
        await writer.custom({"type": "data-progress", "data": step})
        return step

    assert list(progress.parameters["properties"]) == ["step"]
    sent = []

    class W:
        async def custom(self, chunk):
            sent.append(chunk)

    assert await progress.run({"step": 3}, writer=W()) == 3
    assert sent == [{"type": "data-progress", "data": 3}]


def test_bad_tool_definitions_are_clear_errors():
    with pytest.raises(ValueError, match="tool name"):
        Tool("has space", "d", {}, lambda: None)

    def varargs(*a):
        pass

    with pytest.raises(TypeError, match=r"\*args"):
        tool(varargs)
    with pytest.raises(ValueError, match="two tools are named 'search'"):
        coerce_tools([search, search])
    with pytest.raises(TypeError, match="expected a Tool or a function"):
        coerce_tools([42])
