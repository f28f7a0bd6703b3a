"""``tripwire.per_loop.PerLoop``: one resource per event loop, opened once however many
tasks ask at the same time, opened again in a new loop with the old one handed over."""

from __future__ import annotations

import asyncio

import pytest

from tripwire.per_loop import PerLoop


class Opener:
    def __init__(self, fail: int = 0) -> None:
        self.opened: list[tuple[int, object]] = []
        self.fail = fail

    async def __call__(self, previous):
        await asyncio.sleep(0.01)
        if self.fail:
            self.fail -= 1
            raise ConnectionError("refused")
        self.opened.append((len(self.opened), previous))
        return f"conn-{len(self.opened)}"


def test_concurrent_first_uses_share_one_opening_and_a_new_loop_opens_again():
    opener = Opener()
    held = PerLoop(opener)

    async def many():
        return await asyncio.gather(*(held.get() for _ in range(20)))

    assert asyncio.run(many()) == ["conn-1"] * 20
    assert asyncio.run(many()) == ["conn-2"] * 20  # another loop: opened again
    assert opener.opened == [(0, None), (1, "conn-1")]  # the old one handed over
    assert held.value == "conn-2"
    assert held.take() == "conn-2" and held.value is None


def test_a_failed_opening_keeps_the_previous_one_and_is_tried_again():
    opener = Opener()
    held = PerLoop(opener)
    assert asyncio.run(held.get()) == "conn-1"
    opener.fail = 1

    async def twice():
        with pytest.raises(ConnectionError):
            await held.get()
        assert held.value == "conn-1"
        return await held.get()

    assert asyncio.run(twice()) == "conn-2"


def test_a_cancelled_caller_does_not_cancel_the_shared_opening():
    held = PerLoop(Opener())

    async def run():
        first = asyncio.ensure_future(held.get())
        second = asyncio.ensure_future(held.get())
        await asyncio.sleep(0)
        first.cancel()
        return await second

    assert asyncio.run(run()) == "conn-1"
