"""Web hardening (docs/server.md, "Browsers"): cookie-signed requests from other sites
refused, the security headers on every answer, pages without inline script, ``Secure``
cookies behind TLS, browser sessions instead of tokens in URLs, 401 for tokens that are no
one's, time controls within the maxima, and lag compensation with a quota per player."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from chessarbiter.server.accounts import DAY_MS, SESSION_DAYS, Role, Sessions, hash_secret
from chessarbiter.server.games import table
from chessarbiter.server.http import guard
from chessarbiter.server.lobby import requests
from tests.clock.fake_time import FakeTime
from tests.server.helpers import InProcess, in_process, memory_lobby
from tests.server.test_api import friendly_game, run

HERE = "http://test"
"""The test app's own origin (httpx' base URL)."""
PAGES = Path(guard.__file__).parents[1]


async def _anonymous_game(s: InProcess) -> tuple[str, str]:
    """An open challenge whose White page was visited: the game id and White's secret (the
    client now holds the game's cookie)."""
    made = (await s.post("/api/challenge/open", data={"timeControl": "5+0"})).json()
    page = await s.client.get(f"/{made['id']}?secret={made['secretWhite']}")
    assert page.status_code == 303 and page.headers["location"] == f"/{made['id']}"
    assert s.client.cookies.get(f"chessarbiter-{made['id']}") == made["secretWhite"]
    return made["id"], made["secretWhite"]


def test_a_cookie_signed_request_from_another_site_is_refused(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, _ = await _anonymous_game(s)
        resign = f"/api/board/game/{game_id}/resign"
        forged = await s.post(resign, {"Origin": "https://evil.example",
                                       "Content-Type": "text/plain"}, content=b"")
        assert forged.status_code == 403, forged.text
        assert "evil.example" in forged.json()["error"]
        bare = await s.post(resign)  # neither Origin nor Referer: refused too
        assert bare.status_code == 403
        referred = await s.post(f"/api/board/game/{game_id}/move/e2e4",
                                {"Referer": f"{HERE}/{game_id}"})
        assert referred.status_code == 200, referred.text
        assert json.loads((await s.game(game_id)).line)["status"] == "started"
        own = await s.post(resign, {"Origin": HERE})
        assert own.status_code == 200, own.text
        assert json.loads((await s.game(game_id)).line)["status"] == "resign"

    run(tmp_path, scenario)


def test_a_browser_session_instead_of_the_token(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        await s.account("bob")
        signed = await s.post("/api/session", alice)
        assert signed.status_code == 200 and signed.json()["username"] == "alice"
        cookie = signed.headers["set-cookie"]
        assert cookie.startswith("chessarbiter-session=chs_")
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Secure" not in cookie
        assert alice["Authorization"].split()[1] not in cookie
        me = await s.client.get("/api/account")  # by the cookie alone
        assert me.status_code == 200 and me.json()["username"] == "alice"
        forged = await s.post("/api/challenge/bob", {"Origin": "https://evil.example"})
        assert forged.status_code == 403
        assert not memory_lobby(s.services).challenges
        made = await s.post("/api/challenge/bob", {"Origin": HERE}, data={"color": "white"})
        assert made.status_code == 200, made.text
        bob = await s.account("carol")
        accepted = await s.post(f"/api/challenge/{made.json()['id']}/accept", bob)
        assert accepted.status_code == 403  # carol is not bob
        out = await s.client.delete("/api/session", headers={"Origin": HERE})
        assert out.status_code == 200
        assert (await s.client.get("/api/account")).status_code == 401
        bogus = await s.post("/api/session", {"Authorization": "Bearer cha_nope"})
        assert bogus.status_code == 401

    run(tmp_path, scenario)


def test_the_session_plays_the_accounts_games(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, _ = await friendly_game(s)
        await s.post("/api/session", alice)
        seen = (await s.client.get(f"/api/game/{game_id}")).json()
        assert seen["you"] == "white"
        moved = await s.post(f"/api/board/game/{game_id}/move/e2e4", {"Origin": HERE})
        assert moved.status_code == 200, moved.text
        assert (await s.game(game_id)).moves == ["e2e4"]

    run(tmp_path, scenario)


def test_security_headers_on_every_answer(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, _ = await _anonymous_game(s)
        for path in ("/", "/arbiter", f"/{game_id}", "/tournaments", "/static/site.css",
                     "/api/account", "/api/openapi.json"):
            answer = await s.client.get(path)
            headers = answer.headers
            csp = headers["content-security-policy"]
            assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp, path
            assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["x-frame-options"] == "DENY"
            assert headers["referrer-policy"] == "same-origin"
            if headers["content-type"].startswith("text/html"):
                _no_inline_script(answer.text, path)

    run(tmp_path, scenario)


def _no_inline_script(page: str, where: str) -> None:
    """Every script is a file (or a JSON data block), no element has an event handler."""
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert 'src="' in tag or 'type="application/json"' in tag, (where, tag)
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", page), where
    assert "javascript:" not in page, where


def test_templates_hold_no_inline_script() -> None:
    templates = [*PAGES.glob("web/templates/*.html"),
                 *PAGES.glob("tournaments/templates/*.html")]
    assert len(templates) >= 4
    for path in templates:
        _no_inline_script(path.read_text(encoding="utf-8"), path.name)


def test_secure_cookies_behind_a_tls_proxy(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = (await s.post("/api/challenge/open")).json()
        page = f"/{made['id']}?secret={made['secretWhite']}"
        tls = await s.client.get(page, headers={"X-Forwarded-Proto": "https"})
        assert "; secure" in tls.headers["set-cookie"].lower()
        plain = await s.client.get(page)
        assert "secure" not in plain.headers["set-cookie"].lower()
        alice = await s.account("alice")
        session = await s.post("/api/session", {**alice, "X-Forwarded-Proto": "https"})
        assert "; secure" in session.headers["set-cookie"].lower()
        # behind the proxy, the page's origin is https: a form of the page is its own
        moved = await s.post(f"/api/board/game/{made['id']}/move/e2e4",
                             {"Origin": "https://test", "X-Forwarded-Proto": "https",
                              "Cookie": f"chessarbiter-{made['id']}={made['secretWhite']}"})
        assert moved.status_code == 200, moved.text

    run(tmp_path, scenario, behind_proxy=True)


def test_forwarded_proto_is_not_trusted_without_the_option(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = (await s.post("/api/challenge/open")).json()
        page = await s.client.get(f"/{made['id']}?secret={made['secretWhite']}",
                                  headers={"X-Forwarded-Proto": "https"})
        assert "secure" not in page.headers["set-cookie"].lower()

    run(tmp_path, scenario)


def test_401_for_tokens_that_are_no_ones(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        bogus = {"Authorization": "Bearer cha_not_a_token"}
        for path in ("/api/challenge/open", "/api/challenge/ai", "/api/board/seek",
                     "/api/challenge/alice", "/api/session"):
            answer = await s.post(path, bogus)
            assert answer.status_code == 401, (path, answer.text)
        game_id, _, _ = await friendly_game(s)
        other = (await s.post("/api/challenge/open")).json()
        move = f"/api/board/game/{game_id}/move/e2e4"
        for token in ("cha_not_a_token", "anything", other["secretWhite"]):
            answer = await s.post(move, {"Authorization": f"Bearer {token}"})
            assert answer.status_code == 401, (token, answer.text)
        carol = await s.account("carol")  # an account, not a player here: 403
        assert (await s.post(move, carol)).status_code == 403
        assert (await s.post(f"/api/board/game/{game_id}/resign", carol)).status_code == 403
        assert (await s.game(game_id)).moves == []
        for stream in (f"/api/board/game/stream/{game_id}", f"/api/stream/game/{game_id}"):
            for token in ("cha_not_a_token", other["secretWhite"]):  # anyone may watch, but
                answer = await s.client.get(  # a wrong token is refused, not taken for none
                    stream, headers={"Authorization": f"Bearer {token}"})
                assert answer.status_code == 401, (stream, token, answer.text)
                assert "no such token" in answer.json()["error"]

    run(tmp_path, scenario)


def test_time_controls_beyond_the_maxima_are_refused(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        await s.account("bob")
        limit, increment = requests.MAX_LIMIT_S, requests.MAX_INCREMENT_S
        for written in ("999999999+999999999", f"{limit // 60 + 1}+0",
                        f"1+{increment + 1}", f"40/{limit // 60 + 1}, 30+30"):
            for path, headers in (("/api/challenge/open", None),
                                  ("/api/challenge/bob", alice)):
                answer = await s.post(path, headers, data={"timeControl": written})
                assert answer.status_code == 400, (written, answer.text)
                assert answer.json()["error"].startswith("timeControl:")
            made = await s.post("/api/tournament/new", alice,
                                data={"name": "t", "system": "roundrobin", "timeControl": written})
            assert made.status_code == 400 and "timeControl" in made.json()["error"]
        most = f"{limit // 60}+{increment}"
        assert (await s.post("/api/challenge/open", data={"timeControl": most})
                ).status_code == 200
        assert len(s.hub.games) == 1

    run(tmp_path, scenario)


LINE = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6",
        "b1d2", "a7a6", "a2a4", "c8e6", "e1g1", "e8g8", "h2h3", "h7h6", "f1e1", "f8e8"]


def test_lag_compensation_has_a_quota(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        judge = await s.account("judge", Role.ARBITER)
        entry = await s.game(game_id)
        assert entry.lag_ms == 300
        set_clocks = await s.post(f"/api/arbiter/game/{game_id}/set-clocks", judge,
                                  data={"wtime": 60, "btime": 60})
        assert set_clocks.status_code == 200, set_clocks.text
        reply_ms = 250  # each reply within the 300 ms allowance
        for ply, move in enumerate(LINE):
            s.clock.advance(reply_ms)
            answer = await s.post(f"/api/board/game/{game_id}/move/{move}",
                                  alice if ply % 2 == 0 else bob)
            if answer.status_code != 200:
                break
        state = json.loads(entry.line)
        assert state["status"] == "outoftime" and state["winner"] == "black", state
        # the quota (three allowances) lasts a few replies, then most of each is charged
        assert 2 <= ply < len(LINE) - 1, ply
        assert entry.lag_quota[1] < table.LAG_QUOTA * 300

    run(tmp_path, scenario)


def test_a_session_outlives_a_restart_until_signed_out(tmp_path: Path) -> None:
    async def main() -> None:
        db = tmp_path / "games.sqlite"
        async with in_process(db) as s:
            alice = await s.account("alice")
            secret = (await s.post("/api/session", alice)).cookies["chessarbiter-session"]
        cookie = {"Cookie": f"chessarbiter-session={secret}"}
        async with in_process(db) as s:
            me = await s.client.get("/api/account", headers=cookie)
            assert me.status_code == 200 and me.json()["username"] == "alice"
            out = await s.client.delete("/api/session", headers={**cookie, "Origin": HERE})
            assert out.status_code == 200
            assert (await s.client.get("/api/account", headers=cookie)).status_code == 401
        async with in_process(db) as s:
            assert (await s.client.get("/api/account", headers=cookie)).status_code == 401

    asyncio.run(main())


def test_a_session_expires() -> None:
    clock = FakeTime()
    sessions = Sessions(clock)
    sessions.remember(hash_secret("chs_x"), "alice", clock())
    clock.advance(SESSION_DAYS * DAY_MS - 1)
    assert sessions.account_id("chs_x") == "alice"
    clock.advance(1)
    assert sessions.account_id("chs_x") is None
