"""Several processes serving the same games: one owner per game (:mod:`.lease`), the shared
accounts, and forwarding to the owner (:mod:`.cluster`)."""
