"""/gpt2-params's pieces: what only pages/gpt2-params.py uses."""
