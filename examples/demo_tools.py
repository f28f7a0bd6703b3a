"""The demo agent's one tool (referenced from demo.toml as ``demo_tools:lookup_order``)."""

from tripwire import tool

ORDERS = {
    "42": {"status": "shipped", "shipped_on": "Monday", "eta": "Thursday",
           "warehouse": "Rotterdam"},
}


@tool
def lookup_order(order_id: str) -> dict:
    """Look up an order by its number."""
    order = ORDERS.get(order_id)
    if order is None:
        raise KeyError(f"no order {order_id}")
    return {"order_id": order_id, **order}
