"""The tournament pages, rendered on the server from the same JSON as the API gives: the
list (and a form to create one), a tournament (players, registration, the director's
actions), a round's pairings (game links, results entry) and the standings with the
crosstable. Forms post to the API in the browser session the visitor opens with their
token (``static/tournament.js``); no chess logic runs in the browser. A tournament's pages
are renderings of the desk (:meth:`~chessarbiter.server.tournaments.desk.Desk.render`):
each a function of the tournament's :class:`~chessarbiter.server.tournaments.view.Shown`
to its status and HTML, computed once per state of the tournament."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Hashable
from functools import partial
from pathlib import Path
from string import Template
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from chessarbiter.laws.profiles import PROFILES
from chessarbiter.server.errors import ApiError
from chessarbiter.server.http.share import off_the_loop
from chessarbiter.server.lobby.requests import EMPTY_CONTROL
from chessarbiter.server.tournaments.api import desk_of, tournament_id
from chessarbiter.server.tournaments.view import Shown, tournament_json
from chessarbiter.tournament.events import RESULTS

TEMPLATES: Final = Path(__file__).parent / "templates"
SYSTEM_NAMES: Final = {"swiss": "Swiss (FIDE Dutch system)", "roundrobin": "Round robin",
                       "double": "Double round robin"}
CODE_TEXT: Final = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "-", "F": "1 (bye)",
                    "H": "½ (bye)", "U": "1 (bye)", "Z": "0 (bye)", "": ""}
"""A crosstable cell's result as printed (forfeits as + and -)."""

e = html.escape


Page = tuple[int, bytes]
"""A page rendered: its status and its HTML (UTF-8)."""


def page_text(title: str, body: str, **config: object) -> str:
    text = Template((TEMPLATES / "page.html").read_text(encoding="utf-8"))
    return text.substitute(title=e(title), body=body,
                           config=e(json.dumps(config), quote=False))


def page(title: str, body: str, status: int = 200, **config: object) -> HTMLResponse:
    return HTMLResponse(page_text(title, body, **config), status_code=status,
                        headers={"Cache-Control": "no-store"})


def form(action: str, fields: str, button: str, label: str) -> str:
    return (f'<form class="action" data-post="{e(action)}" aria-label="{e(label)}" novalidate>'
            f'{fields} <button type="submit">{e(button)}</button></form>')


def field(name: str, label: str, kind: str = "text", value: str = "", **attrs: str) -> str:
    extra = "".join(f' {k}="{e(v)}"' for k, v in attrs.items())
    return (f'<label>{e(label)} <input name="{e(name)}" type="{kind}" value="{e(value)}"'
            f'{extra}></label>')


def table(caption: str, head: list[str], rows: list[list[str]], css: str = "") -> str:
    th = "".join(f'<th scope="col">{h}</th>' for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return (f'<table class="tournament {css}"><caption>{caption}</caption>'
            f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>")


def nav(data: dict[str, Any]) -> str:
    base = f"/tournament/{data['id']}"
    links = [f'<a href="{base}">Players</a>', f'<a href="{base}/standings">Standings</a>']
    links += [f'<a href="{base}/round/{r["round"]}">Round {r["round"]}</a>'
              for r in data["pairings"]]
    return f'<nav class="tournament-nav" aria-label="Tournament">{" · ".join(links)}</nav>'


def heading(data: dict[str, Any]) -> str:
    rounds = f"{data['paired']} of {data['rounds']} rounds paired"
    state = "finished" if data["finished"] else rounds
    return (f"<h1>{e(data['name'])}</h1><p class=\"facts\">"
            f"{e(SYSTEM_NAMES[data['system']])} · time control {e(data['timeControl'])} · "
            f"rules {e(data['profile'])} · {e(state)} · organiser {e(data['organiser'])}</p>"
            + nav(data))


async def shown(request: Request, kind: Hashable, render: Callable[[Shown], Page]
                ) -> Response:
    """The tournament's page ``kind`` (rendered by ``render``, kept by the desk)."""
    off_the_loop(request.scope)  # a new version is rendered in the rendering process
    try:
        status, body = await desk_of(request).render(tournament_id(request), kind, render)
    except ApiError as exc:
        return refused(exc)
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


def refusal(exc: ApiError) -> str:
    return page_text("chessarbiter: tournament", f'<p class="error">{e(exc.message)}</p>')


def refused(exc: ApiError) -> HTMLResponse:
    return HTMLResponse(refusal(exc), status_code=exc.status,
                        headers={"Cache-Control": "no-store"})


async def listing(request: Request) -> Response:
    """Every tournament, and the form that creates one."""
    found = await desk_of(request).listing()
    rows = [[f'<a href="/tournament/{t["id"]}">{e(t["name"])}</a>'] for t in found]
    systems = "".join(f'<option value="{k}">{e(v)}</option>' for k, v in SYSTEM_NAMES.items())
    profiles = '<option value="auto">auto (by the time control)</option>' + "".join(
        f'<option value="{e(name)}">{e(name)}</option>' for name in sorted(PROFILES))
    create = form("/api/tournament/new", (
        field("name", "Name", required="")
        + f'<label>System <select name="system">{systems}</select></label>'
        + field("rounds", "Rounds (Swiss)", "number", "5", min="1", max="99")
        + field("timeControl", "Time control", value="5+3", required="",
                **{"data-empty": f"Time control: {EMPTY_CONTROL}"})
        + f'<label>Rules <select name="profile">{profiles}</select></label>'
        + field("tiebreaks", "Tie-breaks (empty: the usual)")), "Create", "Create a tournament")
    body = ("<h1>Tournaments</h1>"
            + (table("Tournaments on this server", ["Name"], rows) if rows
               else "<p>No tournament yet.</p>")
            + f"<section><h2>Create a tournament</h2>{create}</section>")
    return page("chessarbiter: tournaments", body)


async def overview(request: Request) -> Response:
    """A tournament's players and registration, and the director's actions."""
    return await shown(request, "overview", overview_page)


def overview_page(tournament: Shown) -> Page:
    data = tournament_json(tournament)
    base = f"/api/tournament/{data['id']}"
    rows = [[str(p["start"]), e(p["name"]), str(p["rating"] or ""), e(p["title"]),
             "account" if p["account"] else "over the board",
             "" if p["withdrawnFrom"] is None else f"withdrawn from round {p['withdrawnFrom']}"]
            for p in data["players"]]
    players = table(f"Players ({len(rows)})", ["No.", "Name", "Rating", "Title", "Plays",
                                              "Status"], rows)
    join = form(base + "/join", field("rating", "Your rating", "number", min="0",
                                      max="4000"), "Join", "Join the tournament")
    add = form(base + "/player", field("name", "Name", required="")
               + field("rating", "Rating", "number", min="0", max="4000"),
               "Add player", "Add a player")
    out = form(base + "/withdraw", field("player", "Player (name or number)", required=""),
               "Withdraw", "Withdraw a player")
    leave = form(base + "/withdraw", "", "Withdraw myself", "Withdraw from the tournament")
    pair = form(base + "/pair", "", f"Pair round {data['paired'] + 1}", "Pair the next round")
    director = ("<section><h2>Organiser and arbiters</h2><p>A player whose name is an "
                "account's name plays their games here; pairing a round starts its games."
                f"</p>{add}{out}{'' if data['finished'] else pair}</section>")
    body = (heading(data) + players
            + f"<section><h2>Registration</h2><p>Join under your account's name.</p>{join}"
              f"{leave}</section>" + director)
    return 200, page_text(f"chessarbiter: {data['name']}", body,
                          tournament=data["id"]).encode()


async def pairings(request: Request) -> Response:
    """A round's boards: the players, their games and the results (entered by a
    director)."""
    round_no: int = request.path_params["round"]
    return await shown(request, ("round", round_no), partial(pairings_page, round_no))


def pairings_page(round_no: int, tournament: Shown) -> Page:
    data = tournament_json(tournament)
    if not 1 <= round_no <= len(data["pairings"]):
        return 404, refusal(ApiError(404, f"round {round_no}: not paired (rounds "
                                          f"1-{data['paired']})")).encode()
    game_round = data["pairings"][round_no - 1]
    choices = "".join(f'<option value="{e(r)}">{e(r)}</option>' for r in RESULTS)
    rows = []
    for board in game_round["boards"]:
        game = board["game"]
        players = e(json.dumps([board["white"]["name"].lower(),
                                board["black"]["name"].lower()]))
        link = (f'<a class="game" href="/{e(game)}" data-game="{e(game)}" '
                f'data-players="{players}">game {e(game)}</a>' if game else "over the board")
        enter = form(f"/api/tournament/{data['id']}/result",
                     f'<input type="hidden" name="round" value="{round_no}">'
                     f'<input type="hidden" name="board" value="{board["board"]}">'
                     f'<select name="result" aria-label="Result of board {board["board"]}">'
                     f"{choices}</select>", "Enter", f"Result of board {board['board']}")
        rows.append([str(board["board"]), _who(board["white"]), _who(board["black"]),
                     f'<span class="score">{e(board["result"] or "…")}</span>', link, enter])
    bye = game_round["bye"]
    text = "" if bye is None else f"<p>Bye (1 point): {_who(bye)}</p>"
    if data["clockStart"] == "black-starts-white" and round_no == data["paired"]:
        text += ("<section><h2>Start the round</h2><p>Under these rules the clocks start "
                 "when a director starts the round (Art. 6.5), not when it is paired.</p>"
                 + form(f"/api/tournament/{data['id']}/round/{round_no}/start", "",
                        f"Start round {round_no}", f"Start round {round_no}")
                 + "</section>")
    body = (heading(data) + table(f"Round {round_no}", ["Board", "White", "Black", "Result",
                                                        "Game", "Enter result (director)"],
                                  rows, "pairings") + text)
    return 200, page_text(f"chessarbiter: {data['name']}, round {round_no}", body,
                          tournament=data["id"], round=round_no).encode()


async def standings(request: Request) -> Response:
    """The standings with the tie-breaks, and the crosstable."""
    return await shown(request, "standings", standings_page)


def standings_page(tournament: Shown) -> Page:
    data = tournament_json(tournament)
    head = ["Place", "No.", "Name", "Rating", "Points", *map(e, data["tiebreaks"])]
    rows = [[str(s["place"]), str(s["start"]), e(s["name"]), str(s["rating"] or ""),
             _points(s["points"]), *(_points(v) for v in s["tiebreaks"])]
            for s in data["standings"]]
    cross_rows = []
    for line in data["crosstable"]:
        cells = []
        for cell in line["rounds"]:
            colour = {"white": "w", "black": "b", None: ""}[cell["color"]]
            opponent = "" if cell["opponent"] is None else str(cell["opponent"])
            shown = CODE_TEXT.get(cell["code"], e(cell["code"]))
            cells.append(f"{opponent}{colour} {shown}".strip() or "·")
        cross_rows.append([str(line["start"]), e(line["name"]), *cells,
                           _points(line["points"])])
    rounds = [f"R{r['round']}" for r in data["pairings"]]
    body = (heading(data)
            + table("Standings (complete rounds)", head, rows, "standings")
            + table("Crosstable", ["No.", "Name", *rounds, "Points"], cross_rows,
                    "crosstable")
            + "<p class=\"facts\">Each round: the opponent's number, the colour (w: White, "
              "b: Black) and the result.</p>")
    return 200, page_text(f"chessarbiter: {data['name']}, standings", body,
                          tournament=data["id"]).encode()


def _who(player: dict[str, Any]) -> str:
    return f"{e(player['name'])} ({player['start']})"


def _points(value: float) -> str:
    whole = int(value)
    if value == whole:
        return str(whole)
    if value - whole == 0.5:
        return f"{whole or ''}½"
    return f"{value:.2f}"
