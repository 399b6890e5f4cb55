"""The table of lessons: one record feeds the navigation in app.py and the home page cards.

The URL paths are a public promise (teachers paste them into slides); each page file
is named after its URL path so Streamlit's old pages/ discovery agrees with them.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

NAV_KEY = "layerlab_nav"   # the sidebar's menu: its container's class is st-key-layerlab_nav


@dataclass(frozen=True)
class Lesson:
    url_path: str   # "" for the home page
    title: str
    icon: str       # a Material icon, which headless browsers draw without emoji fonts
    section: str    # the navigation group
    blurb: str      # one sentence for the home page card; {names} are filled by facts()

    @property
    def file(self) -> str:
        return f"pages/{self.url_path or 'home'}.py"


HOME = Lesson("", "Layer Lab", ":material/home:", "Start", "What each lesson teaches.")

LESSONS: list[Lesson] = [
    Lesson("recipe-card", "A layer is a matrix", ":material/grid_on:", "Layers",
           "y = xW + b as a smoothie recipe card: every weight is a line in the diagram "
           "and a cell in the matrix, live."),
    Lesson("stacking", "Stacking layers", ":material/stacks:", "Layers",
           "Two layers with a ReLU between them, what depth does to the numbers, and one layer "
           "run on many tokens at once."),
    Lesson("activations", "Bends: ReLU, GELU, SiLU", ":material/show_chart:", "Layers",
           "Why two linear layers are only one straight line, and the {bends} bends "
           "(ReLU, GELU, SiLU ...) that real models put between them to make depth worth having."),
    Lesson("tax-bands", "Sums of ReLUs", ":material/stacked_line_chart:", "Layers",
           "Income tax is a sum of ramps; so is any curve, and so is a ring carved "
           "out of the plane."),
    Lesson("gpt2-params", "GPT-2's parameters", ":material/table_chart:", "Inside GPT-2",
           "Where all {gpt2_params:,} numbers of GPT-2 small live, beside Llama, "
           "Mistral and Qwen, counted exactly."),
    Lesson("gpt2-mlp", "GPT-2's MLP block", ":material/account_tree:", "Inside GPT-2",
           "Five tokens through W1, GELU and W2, step by step, and the same block "
           "at full size."),
    Lesson("trainer", "Live trainer", ":material/model_training:", "Train one",
           "Watch a tiny network learn a boundary that no straight line can draw."),
    Lesson("class", "Class challenge", ":material/groups:", "Train one",
           "One dataset for the whole class, test points nobody sees, and a live board that scores "
           "every student's network."),
]


def facts() -> dict[str, object]:
    """Numbers the blurbs quote, computed by lib (never typed into prose)."""
    from lib.activations import ACTIVATIONS
    from lib.transformer import PRESETS, count_params

    return {"gpt2_params": count_params(PRESETS["gpt2"]),
            "bends": sum(name != "identity" for name in ACTIVATIONS)}


def menu(sections: dict[str, list]) -> None:
    """The sidebar's menu, one st.page_link per page under its section's name.

    Streamlit's own menu (st.navigation in the sidebar) puts <div>s straight inside its <ul> and
    <li>s outside any list, which axe-core reports as serious on every page (issue 35; Streamlit's
    markup, not ours): app.py hides that menu and draws this one, plain links a screen reader lists.
    """
    with st.sidebar.container(key=NAV_KEY, gap="small"):
        for section, pages in sections.items():
            if section:
                st.markdown(f"**{section}**")
            for page in pages:
                st.page_link(page, label=page.title, icon=page.icon, width="stretch")
    st.sidebar.divider()   # the menu above, the page's own controls below
