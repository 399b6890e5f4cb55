"""/tax-bands's pieces: what only pages/tax-bands.py uses."""
