"""Games played live: the arbiter's game with a running time source, a crash-safe journal,
text commands and players (people and engines). The terminal and the server use it."""
