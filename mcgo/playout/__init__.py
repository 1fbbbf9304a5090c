"""Playouts: simulated games to the end that score a position (thesis 8.4, 9.5)."""
