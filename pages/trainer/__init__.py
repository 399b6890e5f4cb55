"""/trainer's pieces: what only pages/trainer.py uses."""
