"""/recipe-card's pieces: what only pages/recipe-card.py uses."""
