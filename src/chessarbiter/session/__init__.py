"""Games played live: the arbiter's game with a running time source, its players (people,
the built-in engine, UCI engines) and the store keeping its events. Typed commands in, typed
results out (:mod:`chessarbiter.session.results`), never text. The terminal and the server
use it."""
