"""Exhaustive exploration of every position reachable from the analysed one.

Depth-first, each position once. A position whose material can never mate, or that the
static analysis proves unwinnable, is not expanded: no mate follows it. The static analysis
runs again only after a pawn move or capture: after any other move the pieces only moved
within the regions it computed before, so it seldom helps, and skipping it only forgoes a
pruning. For the same reason it backs off while it does not pay: each call that prunes
nothing doubles the number of structural moves skipped before the next (up to
:data:`MAX_GAP`), each that prunes resets it (in a caged-king pawn ending it never prunes
and would cost nine tenths of the time). If the exploration ends within its cap without
meeting the winner's checkmate, no series of legal moves leads to one: unwinnable.

Most moves lead to a position already seen; their key is computed from the parent's without
making the move (:func:`child_key`), exactly as :meth:`Position.push` updates it.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.movegen import legal_moves
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BACK_RANKS, KING, PAWN
from chessarbiter.core.zobrist import PIECE_KEYS, TURN_KEY, castling_key
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.static import statically_unwinnable
from chessarbiter.laws.deadpos.verdict import Winnability

MAX_GAP: Final = 255
"""The most structural moves the static analysis skips between two calls."""


class Exploration:
    """A depth-first exploration from a root position that pauses at a cap on the positions
    seen and can go on later with a larger one (nothing is explored twice)."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.winner = winner
        self.seen = {pos.key()}
        self.line: list[Move] = []
        self.moves = [pos.legal_moves()]
        self.next = [0]
        self.bases = [_base(pos)]
        self.found: tuple[Move, ...] = ()
        self.gap = self.skip = 0

    def run(self, pos: Position, cap: int, deadline: Deadline = NEVER) -> Winnability:
        """Go on until ``cap`` positions are seen in all: WINNABLE with a helpmate in
        :attr:`found`, UNWINNABLE when every reachable position was seen without one, else
        UNDETERMINED. ``pos`` is the root position, restored afterwards (not when
        ``deadline`` raises)."""
        for move in self.line:
            pos.push(move)
        outcome = self._run(pos, cap, deadline)
        for _ in self.line:
            pos.pop()
        return outcome

    def _run(self, pos: Position, cap: int, deadline: Deadline) -> Winnability:
        if self.found:
            return Winnability.WINNABLE
        winner, loser, seen, line = self.winner, self.winner ^ 1, self.seen, self.line
        stack, index, bases = self.moves, self.next, self.bases
        board, pieces = pos.board, pos.pieces
        while stack:
            moves, i = stack[-1], index[-1]
            if i == len(moves):
                stack.pop()
                index.pop()
                bases.pop()
                if line:
                    line.pop()
                    pos.pop()
                continue
            move = moves[i]
            base = bases[-1]
            if base is not None and (key := child_key(pos, base, move)) is not None:
                if key in seen:
                    index[-1] = i + 1
                    continue
                if len(seen) >= cap:
                    return Winnability.UNDETERMINED
                structural = board[(move >> 6) & 63] or board[move & 63] & 7 == PAWN
                pos.push(move)
            else:
                structural = board[(move >> 6) & 63] or board[move & 63] & 7 == PAWN
                pos.push(move)
                key = pos.key()
                if key in seen:
                    pos.pop()
                    index[-1] = i + 1
                    continue
                if len(seen) >= cap:
                    pos.pop()
                    return Winnability.UNDETERMINED
            seen.add(key)
            index[-1] = i + 1
            deadline.tick()
            static = structural
            if structural and self.skip:
                self.skip -= 1
                static = False
            replies = legal_moves(pos)
            if not replies:
                if pos.turn == loser and pos.is_check():
                    self.found = (*line, move)
                    pos.pop()
                    return Winnability.WINNABLE
            # only a capture or a pawn move (a promotion) changes the material
            elif not (structural and cannot_mate_by_material(pieces, winner)):
                if static:
                    if statically_unwinnable(pos, winner):
                        self.gap = self.skip = 0
                        pos.pop()
                        continue
                    self.gap = self.skip = min(MAX_GAP, 2 * self.gap + 1)
                line.append(move)
                stack.append(replies)
                index.append(0)
                bases.append(key if pos.ep_square < 0 else None)  # as _base, key known
                continue
            pos.pop()
        return Winnability.UNWINNABLE

def _base(pos: Position) -> int | None:
    """The key :func:`child_key` starts from: the position's, when it has no en-passant
    square (else None: its children's keys are taken after the move)."""
    return pos.key() if pos.ep_square < 0 else None


def child_key(pos: Position, base: int, move: Move) -> int | None:
    """The key of the position after ``move``, legal in ``pos`` (which has no en-passant
    square and the key ``base``), without making it: the same updates as
    :meth:`Position.push`. None for castling and double steps (the latter may give an
    en-passant square, which the key counts only when a capture is legal)."""
    if move & CASTLE_FLAG:
        return None
    fr, to = move & 63, (move >> 6) & 63
    board = pos.board
    moved, captured = board[fr], board[to]
    key = base ^ TURN_KEY ^ PIECE_KEYS[moved][fr]
    kind = moved & 7
    if kind == PAWN:
        if to - fr == 16 or fr - to == 16:
            return None
        promoted = move >> 12 & 7
        key ^= PIECE_KEYS[moved & 8 | promoted if promoted else moved][to]
    else:
        key ^= PIECE_KEYS[moved][to]
    if captured:
        key ^= PIECE_KEYS[captured][to]
    rights = pos.castling_rights
    if rights:
        after = rights & ~(1 << fr | 1 << to)
        if kind == KING:
            after &= ~BACK_RANKS[pos.turn]
        if after != rights:
            key ^= castling_key(rights ^ after)
    return key


def explore(
    pos: Position, winner: int, cap: int, deadline: Deadline = NEVER
) -> tuple[Winnability, tuple[Move, ...], int]:
    """Explore up to ``cap`` positions: WINNABLE with a helpmate, UNWINNABLE when every
    reachable position was seen without one, else UNDETERMINED; and the positions seen.
    ``pos`` is restored afterwards (not when ``deadline`` raises)."""
    exploration = Exploration(pos, winner)
    outcome = exploration.run(pos, cap, deadline)
    return outcome, exploration.found, len(exploration.seen)
