"""Tests of how a game ends (Laws Art. 5, 6.9, 9)."""
