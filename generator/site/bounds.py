"""What one operation of a keeper's template may make: a template is anyone's pull request, and the sandbox
bounds `range` alone. Each operation that makes text or a list larger than what it was given (a product, a
power, a sum, `~`, a width, a replacement, a join, a fill) is measured BEFORE it is done, and refused beyond
the caps, an OverflowError the build reports at the template's line (exit 2): never gigabytes; and a page whose
drawing goes on past MAX_DRAW_SECONDS stops at its next call (TimeoutError): never hours."""
from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable
from typing import Any

from jinja2.runtime import markup_join, str_join
from markupsafe import soft_str

MAX_POWER = 1024            # an exponent
MAX_REPEAT = 1_000_000      # the items of a sequence repeated by `*`
MAX_MADE = 10_000_000       # the characters (or items) one other operation makes
# The seconds drawing one page may take: a loop within a loop of a keeper's template (each bounded by `range`'s cap
# alone) stops here, at its next call (`past_deadline`), not in hours. The largest page of 10,000 proposals draws in
# under a second.
MAX_DRAW_SECONDS = 10.0

_NUMBER = re.compile(r"[0-9]+")
_NESTED_FIELD = re.compile(r"\{[^{}]*\{")  # `{:{}}`: a width given by an argument


def past_deadline(deadline: float) -> None:
    """A TimeoutError when the page being drawn is past its `deadline` (time.monotonic's)."""
    if time.monotonic() > deadline:
        raise TimeoutError(f"drawing the page took over {MAX_DRAW_SECONDS:g} s, too long for a template")


def refuse_beyond(what: str, size: int, unit: str = "characters") -> None:
    if size > MAX_MADE:
        raise OverflowError(f"{what} would make {size:,} {unit}, too many for a template (at most {MAX_MADE:,})")


def _widest(text: str) -> int:
    """The largest number written in a format string (a width or a precision): a run of ten digits or more is
    past any cap, and is not turned into an int (Python refuses those of over 4,300 digits)."""
    return max((10 ** 10 if len(run) > 9 else int(run) for run in _NUMBER.findall(text)), default=0)


def _largest_int(values) -> int:
    return max((abs(v) for v in values if isinstance(v, int) and not isinstance(v, bool)), default=0)


def format_size(text: str, args: tuple, kwargs: dict, *, percent: bool) -> int:
    """At most what `text % args` (`percent`) or `text.format(*args, **kwargs)` makes: the text, and each field
    padded to the widest width written or, where a width is an argument (`%*s`, `{:{}}`), passed."""
    fields = text.count("%") if percent else text.count("{")
    given = percent and "*" in text or not percent and _NESTED_FIELD.search(text)
    width = max(_widest(text), _largest_int((*args, *kwargs.values())) if given else 0)
    return len(text) + fields * width + sum(len(v) for v in (*args, *kwargs.values()) if isinstance(v, str))


def _joined_size(items: list, separator: str) -> int:
    return sum(len(item) if isinstance(item, str) else 0 for item in items) + len(separator) * len(items)


def _replaced_size(text: str, old: str, new: str, count: Any = -1) -> int:
    found = len(text) + 1 if old == "" else text.count(old)
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(text) + found * len(new)


def _method_size(method: Callable, args: tuple, kwargs: dict) -> int | None:
    """What a string's method (or a list's `extend`) would make, where it can make more than it was given: None for
    any other call."""
    text, name = getattr(method, "__self__", None), getattr(method, "__name__", "")
    if isinstance(text, list) and name == "extend" and args and hasattr(args[0], "__len__"):
        return len(text) + len(args[0])  # (a list extended by itself in a loop doubles)
    if not isinstance(text, str):
        return None
    if name in ("center", "ljust", "rjust", "zfill") and args and isinstance(args[0], int):
        return max(len(text), args[0])
    if name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        return len(text) + text.count("\t") * size if isinstance(size, int) else None
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        return _replaced_size(text, *args[:3])
    if name == "join" and args:
        return None  # measured by `call`, which must make the items a list first
    if name in ("format", "format_map"):
        return format_size(text, args if name == "format" else (), kwargs if name == "format" else
                           (args[0] if args and isinstance(args[0], dict) else {}), percent=False)
    return None


def checked_call(call: Callable, obj: Any, args: tuple, kwargs: dict) -> Any:
    """A call from a template (`call(obj, *args, **kwargs)`), measured first where it is a string's method."""
    method = getattr(obj, "__wrapped__", obj)  # the sandbox wraps str.format to check the fields it reads
    if getattr(method, "__name__", "") == "join" and isinstance(getattr(method, "__self__", None), str) and args:
        items = list(args[0])
        refuse_beyond("join", _joined_size(items, method.__self__))
        return call(obj, items, *args[1:], **kwargs)
    size = _method_size(method, args, kwargs)
    if size is not None:
        refuse_beyond(method.__name__, size, "items" if isinstance(method.__self__, list) else "characters")
    return call(obj, *args, **kwargs)


def check_binop(operator: str, left: Any, right: Any) -> None:
    """A power, a product or a sum a template asks for, refused where it is too large to make."""
    if operator == "**" and isinstance(left, (int, float)) and isinstance(right, (int, float)) \
            and abs(left) > 1 and right > MAX_POWER:
        raise OverflowError(f"{left!r} ** {right!r} is too large for a template (a power of at most {MAX_POWER})")
    if operator == "*":
        for sequence, times in ((left, right), (right, left)):
            if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) \
                    and len(sequence) * times > MAX_REPEAT:
                raise OverflowError(f"a sequence of {len(sequence):,} repeated {times:,} times is too long for "
                                    f"a template (at most {MAX_REPEAT:,} items)")
    if operator == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
        refuse_beyond("+", len(left) + len(right))  # (doubled in a loop, a value would reach gigabytes)


def bounded_filters(filters: dict[str, Callable]) -> None:
    """The built-in filters that can make more than they are given, each measured first (in place)."""
    def measured(name: str, size: Callable[..., int], unit: str = "characters") -> None:
        original = filters[name]

        @functools.wraps(original)  # (keeps Jinja2's mark that it is passed the eval context)
        def bounded(*args, **kwargs):
            given = args[1:] if getattr(original, "jinja_pass_arg", None) else args
            refuse_beyond(name, size(*given, **kwargs), unit)
            return original(*args, **kwargs)
        filters[name] = bounded

    measured("center", lambda value, width=80: max(len(soft_str(value)), width if isinstance(width, int) else 0))
    measured("indent", lambda s, width=4, *_, **__: len(soft_str(s)) + (soft_str(s).count("\n") + 1) * (
        width if isinstance(width, int) else len(soft_str(width))))
    measured("replace", lambda s, old, new, count=None: _replaced_size(soft_str(s), soft_str(old), soft_str(new),
                                                                       -1 if count is None else count))
    measured("format", lambda value, *args, **kwargs: format_size(soft_str(value), args, kwargs, percent=True))
    measured("batch", lambda value, linecount, fill_with=None: linecount if fill_with is not None else 0, "items")
    measured("slice", lambda value, slices, fill_with=None: slices if isinstance(slices, int) else 0, "lists")
    join = filters["join"]

    @functools.wraps(join)
    def bounded_join(eval_ctx, value, d="", attribute=None):
        items = list(value)  # (measured, then joined: an iterator is read once)
        if attribute is None:
            refuse_beyond("join", _joined_size(items, soft_str(d)))
        return join(eval_ctx, items, d, attribute)
    filters["join"] = bounded_join


def bounded_markup_join(seq) -> str:
    """jinja2.runtime.markup_join (the `~` of an autoescaped template), measured first."""
    parts = list(map(soft_str, seq))
    refuse_beyond("~", sum(map(len, parts)))
    return markup_join(parts)


def bounded_str_join(seq) -> str:
    """jinja2.runtime.str_join (the `~` of a template not autoescaped), measured first."""
    parts = list(map(str, seq))
    refuse_beyond("~", sum(map(len, parts)))
    return str_join(parts)

