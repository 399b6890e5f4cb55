"""Streamlit- and plotly-aware helpers shared by the pages."""
