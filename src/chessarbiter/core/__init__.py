"""The rules core (Laws Art. 2-3): squares, attacks, positions, legal moves, keys, FEN."""
