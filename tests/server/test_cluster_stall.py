"""A cluster process starved of CPU: the owner of games is stopped (SIGSTOP, starvation at its
most complete) for longer than a lease lasts while its games go on through the other
process, then let run again (SIGCONT). Its leases have lapsed: the other process took over
the game played through it meanwhile, and the stalled one gives that one up cleanly. A move
it had received just before the stall is either acknowledged and kept, or refused; every
acknowledged move is in the store, once, and the store is fenced for the lease's holder."""

from __future__ import annotations

import asyncio
import signal
import time

import httpx
import pytest

from tests.server.test_cluster import OPENING, Game, open_game, play, running, stored_moves

pytest.importorskip("redis", reason="redis (the Python client) is not installed")
import redis

from chessarbiter.server.cluster.lease import TTL_MS


def test_a_stalled_owner_gives_up_its_games_cleanly_and_no_acknowledged_move_is_lost(
) -> None:
    with running("cluster_stall", 2) as cluster:
        stalled, other = cluster.processes[0], cluster.urls[1]

        async def run() -> tuple[list[Game], int | None, float]:
            async with httpx.AsyncClient(timeout=30) as client:
                games = [await open_game(client, cluster.urls[0]) for _ in range(2)]
                for ply in range(4):
                    await asyncio.gather(*(play(client, cluster.urls[:1], g, ply)
                                           for g in games))
                first = games[0]
                caught = asyncio.create_task(client.post(  # in flight as the stall begins
                    f"{cluster.urls[0]}/api/board/game/{first.id}/move/{OPENING[4]}",
                    headers={"Authorization": f"Bearer {first.secrets[0]}"}))
                await asyncio.sleep(0.005)
                stalled.send_signal(signal.SIGSTOP)
                stopped = time.monotonic()
                try:
                    # the other game goes on through the other process meanwhile
                    await play(client, [other], games[1], 4)
                    taken = time.monotonic() - stopped
                finally:
                    stalled.send_signal(signal.SIGCONT)
                answer = await caught
                status = answer.status_code
                if status == 200:
                    first.acknowledged.append(OPENING[4])
                else:  # refused: made again, through either
                    await play(client, cluster.urls, first, 4)
                for ply in range(5, 10):  # through both, the woken one among them
                    await asyncio.gather(*(play(client, cluster.urls, g, ply)
                                           for g in games))
                return games, status, taken

        games, status, taken = asyncio.run(run())
        print(f"\nstall: the move in flight answered {status}; the other process took the "
              f"game over after {taken:.2f} s (a lease lasts {TTL_MS / 1000:.1f} s)")
        assert status in (200, 503), status
        assert taken >= (TTL_MS - 1000) / 1000  # not before the stalled lease could lapse
        leases = redis.Redis.from_url(cluster.bus, decode_responses=True)
        try:
            for game in games:
                moves, fence = stored_moves(cluster.dsn, game.id)
                assert moves == list(OPENING[:10]), f"game {game.id}: lost or extra moves"
                assert set(game.acknowledged) <= set(moves), f"game {game.id}: a move lost"
                holder = leases.get(f"chessarbiter:lease:{game.id}")
                assert holder is not None, f"game {game.id}: no owner"
                token = str(holder).partition(" ")[0]
                assert int(token) == fence, f"game {game.id}: the store is fenced for another"
            # the game the other process took over during the stall stays with it; the first
            # game's lease lapsed with no one to claim it, so the woken process may take it
            # again (a new lease, the store fenced for it: checked above) to answer the move
            # it had received
            holder = leases.get(f"chessarbiter:lease:{games[1].id}")
            assert str(holder).partition(" ")[2] == other.removeprefix("http://"), (
                "the stalled one took back a game the other process had taken over")
        finally:
            leases.close()
        assert stalled.poll() is None, "the stalled process died"
