"""Home: what each lesson teaches, with a link to each."""

import streamlit as st

from ui.nav import LESSONS, facts

st.title("Layer Lab")
st.markdown(
    "A neural-network layer is one line of algebra, **y = xW + b**. These lessons take it "
    "apart with sliders: what the matrix holds, why stacking layers needs a bend between "
    "them, how bends add up to curves, where GPT-2's parameters live, and a network that "
    "learns in front of you. Every number on every page is computed live, and every "
    "page's address reproduces what you see, so a link is a ready-made slide."
)

numbers = facts()
cols = st.columns(3)
for i, lesson in enumerate(LESSONS):
    with cols[i % 3].container(border=True, height="stretch"):
        st.page_link(lesson.file, label=f"**{lesson.title}**", icon=lesson.icon)
        st.caption(f"`/{lesson.url_path}`")
        st.write(lesson.blurb.format(**numbers))
