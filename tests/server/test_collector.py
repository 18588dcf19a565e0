"""The hub's collector policy: survivors frozen every second, one full sweep every ten
minutes, everything unfrozen when it stops (driven by a fake time source, no sleeping)."""

from __future__ import annotations

import asyncio

import pytest

from chessarbiter.server.games import collector


class FakeGc:
    """Records what the policy asks of the collector."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def freeze(self) -> None:
        self.calls.append("freeze")

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")

    def collect(self) -> int:
        self.calls.append("collect")
        return 0


def test_freezes_each_second_and_sweeps_every_ten_minutes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeGc()
    monkeypatch.setattr(collector, "gc", fake)
    clock = [0.0]
    ticks = int(collector.SWEEP_S / collector.FREEZE_S) + 2

    async def sleep(seconds: float) -> None:
        assert seconds == collector.FREEZE_S
        clock[0] += seconds
        if clock[0] > ticks * collector.FREEZE_S:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(collector.keep_pauses_short(sleep=sleep, now=lambda: clock[0]))
    assert fake.calls.count("collect") == 1  # one sweep in ten minutes and two seconds
    sweep = fake.calls.index("collect")
    assert fake.calls[sweep - 1:sweep + 2] == ["unfreeze", "collect", "freeze"]
    assert sweep == int(collector.SWEEP_S / collector.FREEZE_S)  # after 600 freezes
    assert fake.calls.count("freeze") == ticks
    assert fake.calls[-1] == "unfreeze"  # stopped: nothing left frozen
