"""Sample kernels (*.rs) and their NumPy references (reference.py)."""
