"""Several processes serving the same games: one owner per game (:mod:`.lease`), the shared
accounts, and forwarding to the owner (:mod:`.cluster`)."""

from typing import Final

RELAY_HEADER: Final = "x-chessarbiter-relay"
"""Sent by a cluster's process with its request for the first line of a game stream it
relays: the owner publishes the game's lines on the bus from then on."""
