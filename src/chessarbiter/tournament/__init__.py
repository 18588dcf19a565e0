"""Tournaments and matches (the tournament director's work): engine matches today."""
