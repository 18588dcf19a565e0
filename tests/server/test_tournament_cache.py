"""The desk's kept renderings (:class:`~chessarbiter.server.tournaments.cache.Kept`): one
computation per key and version whoever asks, a failure given to every asker and not kept,
an asker going away not stopping the others' computation, the least recently used key
dropped beyond the bound."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from chessarbiter.server.tournaments.cache import Kept


class Computations:
    """A computation per call, each waiting until the test lets it finish."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.go = asyncio.Event()

    def of(self, value: str, fail: bool = False) -> Callable[[], Awaitable[str]]:
        async def compute() -> str:
            self.started.append(value)
            await self.go.wait()
            if fail:
                raise ValueError(f"{value}: failed")
            return value
        return compute


def test_one_computation_per_version_for_every_asker() -> None:
    async def main() -> None:
        kept: Kept[str] = Kept(2)
        work = Computations()
        askers = [asyncio.ensure_future(kept.get("t1", (5,), work.of("five")))
                  for _ in range(20)]
        await asyncio.sleep(0)
        askers[0].cancel()  # one goes away: the others still get the result
        work.go.set()
        results = await asyncio.gather(*askers[1:])
        assert set(results) == {"five"} and work.started == ["five"]
        assert await kept.get("t1", (5,), work.of("again")) == "five"
        assert await kept.get("t1", (6,), work.of("six")) == "six"  # a new version
        assert work.started == ["five", "six"]

    asyncio.run(main())


def test_a_failure_reaches_every_asker_and_is_not_kept() -> None:
    async def main() -> None:
        kept: Kept[str] = Kept(2)
        work = Computations()
        askers = [asyncio.ensure_future(kept.get("t1", (1,), work.of("bad", fail=True)))
                  for _ in range(3)]
        await asyncio.sleep(0)
        work.go.set()
        for asker in askers:
            with pytest.raises(ValueError, match="bad: failed"):
                await asker
        assert len(kept) == 0
        assert await kept.get("t1", (1,), work.of("good")) == "good"
        assert work.started == ["bad", "good"]

    asyncio.run(main())


def test_the_least_recently_used_key_goes_beyond_the_bound() -> None:
    async def main() -> None:
        kept: Kept[str] = Kept(2)
        work = Computations()
        work.go.set()
        for key in ("a", "b", "a", "c"):  # "a" used again: "b" goes
            await kept.get(key, (1,), work.of(key))
        assert len(kept) == 2 and work.started == ["a", "b", "c"]
        await kept.get("a", (1,), work.of("a2"))
        await kept.get("b", (1,), work.of("b2"))
        assert work.started == ["a", "b", "c", "b2"]

    asyncio.run(main())
