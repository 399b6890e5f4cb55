"""Placeholder: this lesson is being written (see the open issue for /gpt2-params)."""

import streamlit as st

st.title("Coming soon")
st.info("This lesson is being written.")
