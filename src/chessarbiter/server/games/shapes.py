"""The JSON the Board API speaks, in lichess' shapes (``gameFull``, ``gameState``, game
events, challenges), with chessarbiter's extensions: the full time control, the rule
profile, the arbiter's notes with their articles and how the game ended."""

from __future__ import annotations

from typing import Any, Final

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.controls import BonusMode, TimeControl
from chessarbiter.clock.correspondence import days_per_turn, deadline_ms
from chessarbiter.clock.errors import TimeControlError
from chessarbiter.clock.format import format_human, format_units
from chessarbiter.clock.records import Side
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.laws.endings import Outcome, Result, Termination
from chessarbiter.present.controls import control_words
from chessarbiter.server.accounts import Account
from chessarbiter.server.games.meta import GameMeta, Seat

NO_CLOCK_MS: Final = 2_147_483_647
"""``wtime``/``btime`` of a game without a clock (as lichess' correspondence games)."""
RATING: Final = 1500
"""Every account's rating: the server keeps none."""

STATUS: Final = {
    Termination.CHECKMATE: "mate",
    Termination.RESIGNATION: "resign",
    Termination.STALEMATE: "stalemate",
    Termination.TIME_FORFEIT: "outoftime",
    Termination.BOTH_FLAGS: "outoftime",
    Termination.ILLEGAL_MOVES: "cheat",
    Termination.FORFEIT: "unknownFinish",
    Termination.BOTH_LOSE: "unknownFinish",
    Termination.ARBITER_DECISION: "unknownFinish",
    Termination.ABANDONED: "timeout",
}
"""lichess' status names for the endings it has; the other endings are draws (``draw``).
A time forfeit drawn because the opponent cannot mate is ``outoftime`` without a winner."""


STATUS_IDS: Final = {"created": 10, "started": 20, "aborted": 25, "mate": 30, "resign": 31,
                     "stalemate": 32, "timeout": 33, "draw": 34, "outoftime": 35,
                     "cheat": 36, "noStart": 37, "unknownFinish": 38}
"""lichess' number of each status name (``GameStatus``)."""
SOURCES: Final = {"open": "friend"}
"""lichess' ``GameSource`` of the sources it has no name for (an open challenge's game)."""


def side_name(side: Side) -> str:
    return "white" if side is Side.WHITE else "black"


def status(outcome: Outcome | None, aborted: bool = False) -> str:
    if aborted:
        return "aborted"
    if outcome is None:
        return "started"
    return STATUS.get(outcome.termination, "draw")


def winner(outcome: Outcome | None) -> str | None:
    if outcome is None:
        return None
    if outcome.result is Result.WHITE_WINS:
        return "white"
    if outcome.result is Result.BLACK_WINS:
        return "black"
    return None


def clock(control: TimeControl | None) -> dict[str, int] | None:
    """lichess' ``clock``: the first period's time and per-move bonus, in ms (``None``
    without a clock or in correspondence)."""
    if control is None or deadline_ms(control) is not None:
        return None
    first = control.periods[0]
    bonus = first.bonus_ms if first.mode is BonusMode.INCREMENT else 0
    return {"initial": first.time_ms, "increment": bonus}


def speed(control: TimeControl | None) -> str:
    """lichess' speed from its estimate (time + 40 increments); ``correspondence`` for
    days per move (and, as lichess, without a clock)."""
    if control is None or deadline_ms(control) is not None:
        return "correspondence"
    first = control.periods[0]
    estimate = (first.time_ms + 40 * first.bonus_ms) // 1000
    for limit, name in ((29, "ultraBullet"), (179, "bullet"), (479, "blitz"), (1499, "rapid")):
        if estimate <= limit:
            return name
    return "classical"


def time_control(control: TimeControl | None) -> dict[str, Any] | None:
    """The extension ``timeControl``: every period, with its bonus mode (increment,
    Bronstein or simple delay, hourglass), as the game's clock runs it."""
    if control is None:
        return None
    return {
        "text": _text(control),
        "words": control_words(control),
        "periods": [{"timeMs": p.time_ms, "moves": p.moves, "bonusMs": p.bonus_ms,
                     "mode": p.mode.value} for p in control.periods],
    }


def _text(control: TimeControl) -> str | None:
    """The control in the human form (``5+3``), or with its units where minutes write it
    inexactly (``10s+0.1s``), when it has one."""
    if any(p.mode not in (BonusMode.NONE, BonusMode.INCREMENT) for p in control.periods):
        return None
    try:
        return format_human(control)
    except TimeControlError:  # a time no decimal of minutes writes (e.g. 10 s)
        return format_units(control)


VARIANTS: Final = {
    "standard": {"key": "standard", "name": "Standard", "short": "Std"},
    "chess960": {"key": "chess960", "name": "Chess960", "short": "960"},
    "fromPosition": {"key": "fromPosition", "name": "From Position", "short": "FEN"},
}
"""lichess' ``Variant`` objects of the variants played here."""
PERF_ICONS: Final = {"ultraBullet": "\ue059", "bullet": "\ue032", "blitz": "\ue033",
                     "rapid": "\ue035", "classical": "\ue034", "correspondence": "\ue036"}
"""The glyph of each speed in lichess' icon font (``perf.icon``)."""
DECLINE_REASONS: Final = {
    "generic": "I'm not accepting challenges at the moment.",
    "later": "This is not the right time for me, please ask again later.",
    "tooFast": "This time control is too fast for me, please challenge again with a slower game.",
    "tooSlow": "This time control is too slow for me, please challenge again with a faster game.",
    "timeControl": "I'm not accepting challenges with this time control.",
    "rated": "Please send me a rated challenge instead.",
    "casual": "Please send me a casual challenge instead.",
    "standard": "I'm not accepting variant challenges right now.",
    "variant": "I'm not willing to play this variant right now.",
    "noBot": "I'm not accepting challenges from bots.",
    "onlyBot": "I'm only accepting challenges from bots.",
}
"""The reasons a challenge may be declined for (the ``reason`` lichess takes), with the
sentence its ``declineReason`` says."""


def variant(game: Game) -> dict[str, str]:
    if game.setup.chess960:
        return VARIANTS["chess960"]
    if game.setup.fen != STARTING_FEN:
        return VARIANTS["fromPosition"]
    return VARIANTS["standard"]


def perf(control: TimeControl | None) -> dict[str, str]:
    """lichess' ``perf`` of a challenge: the speed's icon and name."""
    name = speed(control)
    return {"icon": PERF_ICONS[name], "name": name[0].upper() + name[1:]}


def challenge_user(account: Account) -> dict[str, Any]:
    """lichess' ``ChallengeUser`` (``title`` only for a BOT: lichess omits it when none)."""
    return {"id": account.id, "name": account.name, "rating": RATING, "provisional": True,
            "online": True, **({"title": "BOT"} if account.is_bot else {})}


def user(account: Account) -> dict[str, Any]:
    """lichess' ``User`` (the BOTs online, and the base of ``/api/account``)."""
    return {"id": account.id, "username": account.name, "perfs": {},
            "createdAt": account.created_ms, "seenAt": account.created_ms,
            **({"title": "BOT"} if account.is_bot else {})}


def player(seat: Seat) -> dict[str, Any]:
    """A side's player as lichess writes it in ``gameFull``."""
    if seat.engine is not None and seat.level is not None:
        return {"aiLevel": seat.level}
    if seat.account is not None:
        return {"id": seat.account, "name": seat.name, "title": None, "rating": RATING,
                "provisional": True}
    return {"id": None, "name": seat.name, "title": "BOT" if seat.is_engine else None,
            "rating": None}


def notes(decisions: tuple[Decision, ...]) -> list[dict[str, str]]:
    """The extension ``notes``: the arbiter's decisions on the last event."""
    return [{"article": d.article, "text": d.text} for d in decisions]


def termination(outcome: Outcome | None) -> dict[str, str] | None:
    """The extension ``termination``: how the game ended, with its article."""
    if outcome is None:
        return None
    return {"result": outcome.result.value, "name": outcome.termination.value,
            "article": outcome.termination.article, "reason": outcome.reason}


def game_state(game: Game, meta: GameMeta, moves: str, clocks: tuple[int, int] | None,
               decisions: tuple[Decision, ...] = ()) -> dict[str, Any]:
    """A ``gameState`` line: the moves in UCI, the clocks in ms (``clocks``), lichess'
    status, winner and draw offers, and the extensions ``notes``, ``termination``,
    ``pendingRuling``, ``toMove`` and ``clockRunning``."""
    outcome = game.outcome
    control = game.setup.control
    first = clock(control)
    inc = 0 if first is None else first["increment"]
    offer, takeback = game.pending_offer, game.pending_takeback
    state: dict[str, Any] = {
        "type": "gameState",
        "moves": moves,
        "wtime": NO_CLOCK_MS if clocks is None else clocks[0],
        "btime": NO_CLOCK_MS if clocks is None else clocks[1],
        "winc": inc,
        "binc": inc,
        "status": status(outcome, meta.aborted),
        "wdraw": offer is Side.WHITE,
        "bdraw": offer is Side.BLACK,
        "wtakeback": takeback is Side.WHITE,
        "btakeback": takeback is Side.BLACK,
        "toMove": side_name(game.to_move),
        "clockRunning": game.time_to_flag() is not None and outcome is None,
        "notes": notes(decisions),
        "pendingRuling": game.pending_ruling,
    }
    won = winner(outcome)
    if won is not None:
        state["winner"] = won
    if outcome is not None:
        state["termination"] = termination(outcome)
    return state


def game_full(game: Game, meta: GameMeta, state: dict[str, Any]) -> dict[str, Any]:
    """The ``gameFull`` line: lichess' fields plus ``timeControl`` and ``profile``."""
    control = game.setup.control
    fen = game.start_fen
    days = days_per_turn(control)  # a correspondence game: daysPerTurn, no clock (lichess)
    return {
        "type": "gameFull",
        "id": meta.id,
        "rated": meta.rated,
        "variant": variant(game),
        **({"clock": clock(control)} if days is None else {"daysPerTurn": days}),
        "speed": speed(control),
        "perf": {"name": speed(control).capitalize()},
        "createdAt": meta.created_ms,
        "white": player(meta.white),
        "black": player(meta.black),
        "initialFen": "startpos" if fen == STARTING_FEN else fen,
        "state": state,
        "timeControl": time_control(control),
        "profile": game.setup.profile.to_dict(),
        "source": meta.source,
    }


def status_object(name: str) -> dict[str, Any]:
    """lichess' ``GameStatus``: the status's number and name."""
    return {"id": STATUS_IDS[name], "name": name}


def game_event(game: Game, meta: GameMeta, moves: list[str],
               clocks: tuple[int, int] | None, side: Side) -> dict[str, Any]:
    """lichess' ``GameEventInfo`` (the ``game`` of ``gameStart`` and ``gameFinish``) for
    ``side``'s player; :func:`now_playing` makes it an ``/api/account/playing`` entry."""
    opponent = meta.seat(side.opponent)
    name = speed(game.setup.control)
    if opponent.account is not None:
        against: dict[str, Any] = {"id": opponent.account, "username": opponent.name,
                                   "rating": RATING}
    else:
        against = {"id": None, "username": opponent.name,
                   **({"ai": opponent.level} if opponent.level is not None else {})}
    data: dict[str, Any] = {
        "gameId": meta.id, "fullId": meta.id + "0000", "id": meta.id,
        "color": side_name(side), "fen": game.fen,
        "hasMoved": any(True for _ in moves[side.value::2]),
        "isMyTurn": game.outcome is None and not meta.aborted and game.to_move is side,
        "lastMove": moves[-1] if moves else "",
        "opponent": against, "perf": name, "rated": meta.rated,
        "secondsLeft": None if clocks is None else max(clocks[side.value], 0) // 1000,
        "source": SOURCES.get(meta.source, meta.source), "speed": name,
        "variant": variant(game), "compat": {"bot": True, "board": True},
        "status": status_object(status(game.outcome, meta.aborted)),
    }
    won = winner(game.outcome)
    if won is not None:
        data["winner"] = won
    return data


def now_playing(event: dict[str, Any]) -> dict[str, Any]:
    """An ``/api/account/playing`` entry from a :func:`game_event` object (the status by
    name)."""
    return {**event, "status": event["status"]["name"]}


def export_player(seat: Seat) -> dict[str, Any]:
    """A side's player in lichess' game JSON (``GamePlayerUser``)."""
    if seat.engine is not None and seat.level is not None:
        return {"aiLevel": seat.level}
    if seat.account is not None:
        return {"user": {"id": seat.account, "name": seat.name}, "rating": RATING,
                "provisional": True}
    return {"name": seat.name or "Anonymous"}


def export_clock(control: TimeControl | None) -> dict[str, int] | None:
    """The game JSON's ``clock``: in seconds, with lichess' estimate ``totalTime``."""
    first = clock(control)
    if first is None:
        return None
    initial, increment = first["initial"] // 1000, first["increment"] // 1000
    return {"initial": initial, "increment": increment, "totalTime": initial + 40 * increment}


def move_stream_game(game: Game, meta: GameMeta, moves: list[str]) -> dict[str, Any]:
    """The first (and, once the game has ended, the last) line of the spectators' stream
    ``/api/stream/game/{id}`` (lichess' ``MoveStreamEntry``, the game)."""
    name = speed(game.setup.control)
    data: dict[str, Any] = {
        "id": meta.id, "variant": variant(game), "speed": name, "perf": name,
        "rated": meta.rated, "initialFen": game.start_fen, "fen": game.fen,
        "player": side_name(game.to_move), "turns": len(moves), "startedAtTurn": 0,
        "source": SOURCES.get(meta.source, meta.source),
        "status": status_object(status(game.outcome, meta.aborted)),
        "createdAt": meta.created_ms,
        "players": {side_name(s): export_player(meta.seat(s)) for s in (Side.WHITE, Side.BLACK)},
    }
    if moves:
        data["lastMove"] = moves[-1]
    won = winner(game.outcome)
    if won is not None:
        data["winner"] = won
    return data


def move_stream_move(game: Game, moves: list[str], clocks: tuple[int, int] | None
                     ) -> dict[str, Any]:
    """A move's line of the spectators' stream: the placement and side to move (``fen``),
    the move (``lm``) and both clocks in whole seconds (``wc``, ``bc``)."""
    board, turn = game.fen.split()[:2]
    shown = (NO_CLOCK_MS, NO_CLOCK_MS) if clocks is None else clocks
    data: dict[str, Any] = {"fen": f"{board} {turn}", "wc": max(shown[0], 0) // 1000,
                            "bc": max(shown[1], 0) // 1000}
    if moves:
        data["lm"] = moves[-1]
    return data


def user_status(account: Account, online: bool, playing: bool) -> dict[str, Any]:
    """An entry of ``/api/users/status``."""
    return {"id": account.id, "name": account.name, "online": online, "playing": playing,
            **({"title": "BOT"} if account.is_bot else {})}


def game_started(game: dict[str, Any]) -> dict[str, Any]:
    """An event stream's ``gameStart`` line (``game``: :func:`game_event`)."""
    return {"type": "gameStart", "game": game}


def game_finished(game: dict[str, Any]) -> dict[str, Any]:
    """An event stream's ``gameFinish`` line (``game``: :func:`game_event`)."""
    return {"type": "gameFinish", "game": game}


def opponent_gone(gone: bool, claim_in_s: int | None = None) -> dict[str, Any]:
    """A game stream's ``opponentGone`` line: the opponent gone (with the seconds before a
    win may be claimed, when a claim is possible) or back."""
    line: dict[str, Any] = {"type": "opponentGone", "gone": gone}
    if claim_in_s is not None:
        line["claimWinInSeconds"] = claim_in_s
    return line


def chat_line(room: str, username: str, text: str) -> dict[str, Any]:
    """A game stream's ``chatLine`` (``room``: ``player`` or ``spectator``)."""
    return {"type": "chatLine", "room": room, "username": username, "text": text}


def exported(game: Game, meta: GameMeta, moves: list[str], pgn: str) -> dict[str, Any]:
    """A game as lichess' export writes it in JSON (``GET /game/export/{id}``, without the
    chat, which the route adds: who may read which room is its question)."""
    data: dict[str, Any] = {
        "id": meta.id, "rated": meta.rated, "variant": variant(game)["key"],
        "speed": speed(game.setup.control), "perf": speed(game.setup.control),
        "createdAt": meta.created_ms, "lastMoveAt": meta.created_ms,
        "status": status(game.outcome, meta.aborted),
        "players": {side_name(s): export_player(meta.seat(s))
                    for s in (Side.WHITE, Side.BLACK)},
        "moves": " ".join(moves), "pgn": pgn, "source": meta.source,
    }
    timed = export_clock(game.setup.control)
    if timed is not None:
        data["clock"] = timed
    days = days_per_turn(game.setup.control)
    if days is not None:
        data["daysPerTurn"] = days
    won = winner(game.outcome)
    if won is not None:
        data["winner"] = won
    return data


def ai_game(game: Game, meta: GameMeta, turns: int, side: Side, secret: str | None,
            url: str) -> dict[str, Any]:
    """The answer to ``POST /api/challenge/ai`` (lichess' ``GameJson`` of the new game, for
    the player of ``side``; ``secret``: an anonymous player's game secret)."""
    return {
        "id": meta.id, "fullId": meta.id + "0000", "variant": variant(game),
        "speed": speed(game.setup.control), "perf": speed(game.setup.control),
        "rated": False, "fen": game.fen, "turns": turns, "source": "ai",
        "status": {"id": 20, "name": "started"}, "createdAt": meta.created_ms,
        "player": side_name(side), "url": url,
        **({"secret": secret} if secret is not None else {}),
    }
