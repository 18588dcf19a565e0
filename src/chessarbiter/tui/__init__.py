"""The terminal game: a full-screen board with live clocks, and an accessible line mode."""
