"""The game streams' fan-out between processes: the Redis bus (:mod:`.bus`)."""
