"""The one place this program reaches into a library's internals (the names Jinja2's compiled templates import
from jinja2.runtime): they call markupsafe.escape for every value they show (some 1,000,000 times at 10,000 proposals), and `quick_escape`
gives the same answers quicker, through markupsafe's `_escape_inner` (3.0 on). Where that is missing, templates
keep the stock escape. tests/test_jinja_patch.py holds both to the stock library's output.
"""
from __future__ import annotations

from typing import Any

from jinja2 import Template
from markupsafe import Markup, escape

from .bounds import bounded_markup_join, bounded_str_join

try:
    from markupsafe import _escape_inner  # the C function markupsafe.escape (3.0 on) calls on a str
except ImportError:  # an older markupsafe, whose escape is all in C
    _escape_inner = None


def quick_escape(value: Any, _markup=Markup, _new=str.__new__) -> Markup:
    """markupsafe.escape, the same answers quicker: Markup as it is (it is immutable; escape would copy it) and a
    str escaped straight into a Markup (without Markup.__new__, a Python call). Templates call it for every
    value they show, some 1,000,000 times at 10,000 proposals."""
    kind = type(value)
    if kind is str:
        return _new(_markup, _escape_inner(value))
    if kind is _markup:
        return value
    if kind is int:  # digits and a sign: nothing to escape
        return _new(_markup, str(value))
    return escape(value)


class QuickEscapeTemplate(Template):
    """A template whose compiled code calls `quick_escape` for the `escape` it imports from jinja2.runtime, and
    for its `~` (markup_join, str_join) joins that measure what they would make first (bounds.py)."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        namespace = template.root_render_func.__globals__  # the namespace the code ran in
        if _escape_inner is not None:
            namespace["escape"] = quick_escape
        namespace["markup_join"], namespace["str_join"] = bounded_markup_join, bounded_str_join
        return template
