"""Challenges and seeks before a game exists: what they ask for (:mod:`.requests`), kept in
memory (:mod:`.lobby`) or, in a cluster, in Redis (:mod:`.cluster_lobby`)."""
