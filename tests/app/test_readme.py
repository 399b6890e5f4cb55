"""The README's link tables are the pages' own declarations (tools/readme.py makes them)."""

from tools import readme


def test_readme_tables_match_the_pages_declarations():
    text = readme.README.read_text()
    made = readme.tables()
    assert made, "no page declares its link keys"
    assert readme.missing(text, made) == []
    assert readme.render(text, made) == text, "run: python -m tools.readme"


def test_every_lesson_declares_its_link_keys():
    made = readme.tables()
    for path in ("/recipe-card", "/activations", "/tax-bands", "/gpt2-params", "/gpt2-mlp", "/trainer"):
        assert path in made, path
