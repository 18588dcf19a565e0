"""How a game ends (Laws Art. 5, 6.9, 9): endings, rule profiles and dead positions."""
