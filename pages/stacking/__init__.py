"""/stacking's pieces: what only pages/stacking.py uses."""
