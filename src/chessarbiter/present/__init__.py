"""Text and speech for people: board diagrams, clock readings, moves in words, the arbiter's
messages made readable, the session's typed results as lines. Used by the interfaces; the
rules and the session hold no such text."""
