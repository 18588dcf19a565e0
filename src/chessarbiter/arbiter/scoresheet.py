"""The scoresheet of a game (Laws Art. 8.1, 8.7, 12.2): moves, clock times, draw offers, claims,
penalties and the result, exported as PGN through the notation package."""

from __future__ import annotations

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.errors import TimeControlError
from chessarbiter.clock.format import format_pgn_tag
from chessarbiter.notation.game import RecordedGame, RecordedMove
from chessarbiter.notation.pgn_writer import write_pgn


def recorded_game(game: Game) -> RecordedGame:
    """The game as the notation package's :class:`RecordedGame`: the setup's tags plus
    ``Result``, ``Termination`` (PGN standard value), ``TimeControl`` (when PGN can write it)
    and ``Rules`` (the profile); every move with ``%clk``/``%emt`` and ``(=)``; every decision
    as a comment after the move it followed. A 0-0 result is written ``*`` with its comment."""
    setup = game.setup
    tags = dict(setup.tags)
    outcome = game.outcome
    if outcome is not None:
        tags["Termination"] = outcome.termination.pgn
    if setup.control is not None:
        try:
            tags["TimeControl"] = format_pgn_tag(setup.control)
        except TimeControlError:
            tags.pop("TimeControl", None)
    tags["Rules"] = setup.profile.name
    notes: dict[int, list[str]] = {}
    for ply, text in game.notes:
        notes.setdefault(ply, []).append(text)
    moves = [
        RecordedMove(
            record.move,
            comment=" ".join(notes.get(ply, [])),
            clock_ms=None if record.clock_ms is None else max(record.clock_ms, 0),
            emt_ms=record.used_ms,
            draw_offer=record.offers_draw,
        )
        for ply, record in enumerate(game.records, 1)
    ]
    return RecordedGame(
        tags=tags,
        moves=moves,
        start_fen=game.start_fen,
        chess960=setup.chess960,
        result="*" if outcome is None else outcome.result.pgn,
        comment=" ".join(notes.get(0, [])),
    )


def to_pgn(game: Game) -> str:
    """The complete PGN scoresheet of the game (export format)."""
    return write_pgn(recorded_game(game))
