"""Placeholder: this lesson is being written (see the open issue for /recipe-card)."""

import streamlit as st

st.title("Coming soon")
st.info("This lesson is being written.")
