"""chessarbiter: the Laws of Chess, executable."""
