"""The second peer for bench/latency.py: bench/bare.py plus one small plotly chart the slider changes.

    streamlit run bench/bare_chart.py     # /?static=1: the same chart with config={"staticPlot": True}

What any Streamlit author would write: one slider, a go.Figure of one 200-point line
(y = relu(x - shift), the shift set by the slider), st.plotly_chart(fig). Every move changes the
figure, so Streamlit 1.67 sends it whole and the browser mounts a new chart (plotly.js draws it
from scratch). Its time over bench/bare.py's is what one changed chart costs a page at least; if
this page alone is over 2x the bare page, no lesson page with a chart can be under it.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

value = st.slider("A slider", 0, 100, 50, key="x")
st.write(f"The slider is at {value}.")

x = np.linspace(-5, 5, 200)
fig = go.Figure(go.Scatter(x=x, y=np.maximum(0.0, x - (value - 50) / 10), mode="lines"))
fig.update_layout(height=360, margin=dict(l=10, r=10, t=10, b=10))
static = st.query_params.get("static") == "1"
st.plotly_chart(fig, config={"staticPlot": True} if static else None)
