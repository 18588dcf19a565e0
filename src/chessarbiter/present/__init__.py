"""Text and speech for people: board diagrams, clock readings, moves in words, the arbiter's
messages made readable. Used by the live game and the interfaces; the rules hold no such text."""
