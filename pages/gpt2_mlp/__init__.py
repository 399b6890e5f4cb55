"""/gpt2-mlp's pieces: what only pages/gpt2-mlp.py uses."""
