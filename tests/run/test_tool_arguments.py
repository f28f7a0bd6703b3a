"""A tool's arguments are checked by the same checker as options
(tripwire.option_checks.conform): strictly, at every depth, with bounds from Range."""

from __future__ import annotations

from typing import Annotated

import attrs
import pytest

from tripwire import tool
from tripwire.option_checks import PositiveInt, Range
from tripwire.tools import ToolArgumentError


@attrs.define
class Parcel:
    weight: float
    tags: list[str] = attrs.field(factory=list)


@tool
def ship(parcels: list[Parcel], copies: PositiveInt = 1,
         discount: Annotated[float, Range(min=0, max=1), "a fraction"] = 0.0) -> int:
    """Ship parcels."""
    return len(parcels) * copies


def test_a_bound_is_in_the_schema():
    props = ship.parameters["properties"]
    assert props["copies"] == {"type": "integer", "minimum": 1, "default": 1}
    assert props["discount"] == {
        "type": "number", "minimum": 0, "maximum": 1, "description": "a fraction", "default": 0.0,
    }


async def test_arguments_inside_the_bounds_are_converted():
    assert await ship.run({"parcels": [{"weight": 2}], "copies": 3, "discount": 1}) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"parcels": [], "copies": 0},
         "argument 'copies' of tool 'ship': 0 is not a valid int >= 1 "
         "(expected an integer >= 1, got 0)"),
        ({"parcels": [], "discount": 1.5},
         "argument 'discount' of tool 'ship': 1.5 is not a valid float between 0 and 1 "
         "(expected a number between 0 and 1, got 1.5)"),
        ({"parcels": [{"weight": "2"}]},
         "argument 'parcels' of tool 'ship': [{'weight': '2'}] is not a valid list[Parcel] "
         "(invalid value for type, expected float @ value[0].weight)"),
        ({"parcels": [{"weight": 1, "tags": [3]}]},
         "argument 'parcels' of tool 'ship': [{'weight': 1, 'tags': [3]}] is not a valid "
         "list[Parcel] (invalid value for type, expected str @ value[0].tags[0])"),
    ],
)
async def test_a_bad_argument_names_the_tool_the_argument_and_the_path(args, message):
    with pytest.raises(ToolArgumentError) as e:
        await ship.run(args)
    assert str(e.value) == message
