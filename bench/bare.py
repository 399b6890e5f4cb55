"""The peer for bench/latency.py: a bare one-slider Streamlit page, nothing else to run or draw.

    streamlit run bench/bare.py

A slider move here costs what any Streamlit page pays at least: the browser's message, a script
run, the new element and the end-of-run message. bench/latency.py divides every lesson's time by
this page's, measured in the same run, so a busy machine moves both.
"""

import streamlit as st

value = st.slider("A slider", 0, 100, 50, key="x")
st.write(f"The slider is at {value}.")
