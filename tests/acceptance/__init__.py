"""Acceptance tests: the README's commands as a user runs them, from a wheel of this checkout
installed into fresh virtual environments (no extras, and ``[scale]``), as processes and
through a real terminal."""
