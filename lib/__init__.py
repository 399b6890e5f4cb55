"""Layer Lab's maths: pure NumPy (pandas where a table is the result).

Nothing in this package imports streamlit or plotly; a test proves it.
"""
