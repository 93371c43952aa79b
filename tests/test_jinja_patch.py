"""site/jinja_patch.py, the one patch of a library's internals, against the stock library: quick_escape gives
markupsafe.escape's answers, and a template compiled with it draws what stock Jinja2 draws."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import DictLoader, Environment, select_autoescape
from markupsafe import Markup, escape

from generator.site.jinja_patch import QuickEscapeTemplate, quick_escape


class Shown:
    """An object a template shows by its str, with HTML in it."""

    def __str__(self) -> str:
        return "<b>&'\"</b>"


VALUES = st.one_of(st.text(), st.text().map(Markup), st.integers(), st.floats(allow_nan=False), st.none(),
                   st.booleans(), st.just(Shown()), st.lists(st.text(), max_size=3))


@settings(max_examples=500)
@given(VALUES)
def test_quick_escape_gives_what_markupsafe_escape_gives(value):
    quick, stock = quick_escape(value), escape(value)
    assert type(quick) is type(stock) is Markup
    assert quick == stock


TEMPLATE = "{{ a }}|{{ b }}|{% for x in c %}{{ x }},{% endfor %}|{{ d | e }}|{{ a ~ b }}"


@settings(max_examples=200)
@given(st.text(), VALUES, st.lists(VALUES, max_size=4), st.text())
def test_a_template_compiled_with_the_patch_draws_what_stock_jinja2_draws(a, b, c, d):
    def environment(patched: bool) -> Environment:
        env = Environment(loader=DictLoader({"page.html": TEMPLATE}), autoescape=select_autoescape(("html",)))
        if patched:
            env.template_class = QuickEscapeTemplate
        return env
    context = {"a": a, "b": b, "c": c, "d": d}
    assert (environment(True).get_template("page.html").render(context)
            == environment(False).get_template("page.html").render(context))
