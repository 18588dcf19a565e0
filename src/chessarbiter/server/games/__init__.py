"""The game room: every live game acted on, ruled, recorded and flagged in one sequence per
game (:mod:`.hub`), its engines, its repository (:mod:`.db`, :mod:`.pgdb`) and its views in
lichess' JSON (:mod:`.shapes`, :mod:`.table`, :mod:`.presence`, :mod:`.chat`)."""
