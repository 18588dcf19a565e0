"""Zobrist keys: a 62-bit number per position, the identity of Laws Art. 9.2.3.

Two positions are the same when the same player has the move, the same pieces stand on the
same squares, and the possible moves are the same: the same castling rights and the same
en passant capture, counted only when that capture is actually legal.
"""

from __future__ import annotations

import random
from typing import Final

_rng = random.Random(0x5EED_C4E55)  # fixed seed: keys are the same in every process


def _key() -> int:
    """A random key below 2**62: compiled code (mypyc) keeps such ints unboxed, so making
    and unmaking moves allocates nothing for the key (larger ones are heap objects)."""
    return _rng.getrandbits(62)


PIECE_KEYS: Final = tuple(tuple(_key() for _ in range(64)) for _ in range(16))
"""``PIECE_KEYS[piece][sq]``."""
TURN_KEY: Final = _key()
"""XORed in when Black is to move."""
CASTLING_KEYS: Final = tuple(_key() for _ in range(64))
"""One per square of a rook that keeps a castling right."""
EN_PASSANT_KEYS: Final = tuple(_key() for _ in range(8))
"""One per file of a legal en passant capture."""


def castling_key(rights: int) -> int:
    """The key part of a set of castling rights (a bitboard of rook squares)."""
    key = 0
    while rights:
        low = rights & -rights
        key ^= CASTLING_KEYS[low.bit_length() - 1]
        rights ^= low
    return key
