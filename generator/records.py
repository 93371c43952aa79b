"""A cache record as data: a value of the model to JSON and back, read into the type its key stands for.

The cache's records are data only: reading one builds nothing but the values its type names (strings, numbers,
dates, tuples, the model's frozen dataclasses, a `Source`), each checked against that type, so that a record
cannot run code whoever wrote it, and one of another shape is a miss (`Mismatch`). What a record is worth is
the cache's affair (cache.py seals each with a key of the user's own).

A type is written as the annotations of the model write it: `tuple[SourceError, ...]`, `int | None`,
`Proposal | Judgment`; the converters for each are made once, from the dataclasses' own fields, so a field added
to the model is kept without a word here (and the program's digest, part of every key, makes older records
misses).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import re
import threading
import types
import typing
from fractions import Fraction
from typing import Any, Callable, Literal, Union

from .model import Amount, Cited, LineAnchor, Source, WrittenDecimal

Convert = Callable[[Any], Any]


class Mismatch(ValueError):
    """A record that is not of the type asked for."""


class JsonValue:
    """The type of a value made of JSON's own (objects, arrays, strings, numbers, true, false, null), kept as it
    is: the search index's pieces, which the site writes as JSON."""


def encoded(value: Any, kind: Any) -> bytes:
    """`value`, of type `kind`, as a record's bytes."""
    return json.dumps(_converters(kind)[0](value), ensure_ascii=False, separators=(",", ":"),
                      check_circular=False).encode("utf-8", "surrogatepass")


def decoded(data: bytes, kind: Any) -> Any:
    """The value of type `kind` a record holds; raises Mismatch when it holds none. The places in it that were
    held relative to one entry's first line share one LineAnchor again, as the parser made them."""
    try:
        tree = json.loads(data.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        raise Mismatch("not a record") from None
    _reading.anchors = {}
    try:
        return _converters(kind)[1](tree)
    except (TypeError, ValueError, KeyError, IndexError, OverflowError, RecursionError) as error:
        raise Mismatch(str(error)) from None
    finally:
        _reading.anchors = {}


# The LineAnchors of the record being read, by their line (in one file, one entry starts on a line): one a thread.
_reading = threading.local()


@functools.cache
def _converters(kind: Any) -> tuple[Convert, Convert]:
    """(to JSON's values, from them checked) for values of type `kind`."""
    if kind in _SCALARS:
        return _SCALARS[kind]
    if dataclasses.is_dataclass(kind):
        return _dataclass(kind)
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if origin is Literal:
        return _same, _member(frozenset(arguments), {type(a) for a in arguments})
    if origin in (Union, types.UnionType):
        return _union(arguments)
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis and arguments[0] in (str, int):
        return list, _scalars(arguments[0])  # (names, notes: most of a record's tuples)
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        encode, decode = _converters(arguments[0])
        return (lambda value: [encode(item) for item in value],
                lambda tree: tuple([decode(item) for item in _list(tree)]))
    if origin is tuple:
        return _fixed_tuple(arguments)
    if origin is list:
        encode, decode = _converters(arguments[0])
        return (lambda value: [encode(item) for item in value],
                lambda tree: [decode(item) for item in _list(tree)])
    if origin is dict and arguments[0] is str:  # a JSON object, whose keys are strings
        encode, decode = _converters(arguments[1])
        return (lambda value: {k: encode(v) for k, v in value.items()},
                lambda tree: {k: decode(v) for k, v in _object(tree).items()})
    raise TypeError(f"no record holds a {kind!r}")  # a bug: a type the cache was not taught


def _same(value: Any) -> Any:
    return value


def _exactly(*kinds: type) -> Convert:
    def decode(tree: Any) -> Any:
        if type(tree) not in kinds:
            raise Mismatch(f"{type(tree).__name__} where {kinds[0].__name__} belongs")
        return tree
    return decode


def _scalars(kind: type) -> Convert:
    def decode(tree: Any) -> tuple:
        if type(tree) is not list or tree and set(map(type, tree)) != {kind}:
            raise Mismatch(f"not a tuple of {kind.__name__}")
        return tuple(tree)
    return decode


def _member(values: frozenset, kinds: set[type]) -> Convert:
    def decode(tree: Any) -> Any:
        if type(tree) not in kinds or tree not in values:
            raise Mismatch(f"{tree!r} is none of {sorted(map(repr, values))}")
        return tree
    return decode


def _list(tree: Any) -> list:
    if type(tree) is not list:
        raise Mismatch(f"{type(tree).__name__} where a list belongs")
    return tree


def _object(tree: Any) -> dict:
    if type(tree) is not dict:
        raise Mismatch(f"{type(tree).__name__} where an object belongs")
    return tree


def _pair(tree: Any) -> list:
    if len(_list(tree)) != 2:
        raise Mismatch("not a pair")
    return tree


def _fraction(value: Fraction) -> list:
    """A fraction, and what it is beside one: an Amount (true), a power as written (its text), else false."""
    kind = value.written if type(value) is WrittenDecimal else type(value) is Amount
    return [value.numerator, value.denominator, kind]


def _read_fraction(tree: Any) -> Fraction:
    numerator, denominator, kind = _list(tree)
    if type(numerator) is not int or type(denominator) is not int or denominator < 1 or type(kind) not in (bool, str):
        raise Mismatch("not a fraction")
    if type(kind) is str:
        return WrittenDecimal(Fraction(numerator, denominator), _written_decimal(kind))
    return (Amount if kind else Fraction)(numerator, denominator)


def _written_decimal(text: str) -> str:
    if not re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", text):
        raise Mismatch(f"{text[:40]!r} is not a decimal as written")
    return text


def _read_date(tree: Any) -> dt.date:
    return dt.date.fromordinal(_exactly(int)(tree))


def _source(value: Source) -> list:
    """A place as its file and its line, or, held relative to its entry's first line (model.Source), as its file,
    its line in the entry and the entry's first line."""
    place = value._now()
    return [place.file, place._offset] if place._anchor is None else [place.file, place._offset, place._anchor.first]


def _read_source(tree: Any) -> Source:
    # (each type looked at alone: a record of 10,000 entries holds 65,000 places, and a set of their types made
    # for each was a sixth of reading them)
    size = len(tree) if type(tree) is list else 0
    if not 2 <= size <= 3 or type(tree[0]) is not str or type(tree[1]) is not int \
            or size == 3 and type(tree[2]) is not int:
        raise Mismatch("not a place")
    place = Source(tree[0], tree[1])
    if size == 3:
        anchor = _reading.anchors.get(tree[2])
        if anchor is None:
            anchor = _reading.anchors[tree[2]] = LineAnchor(tree[2])
        place._anchor = anchor
    return place


def _cited(value: Cited) -> list:
    """Words that name places (a finding's message): each part a string, [0, a place] or [1, words within]."""
    return [part if type(part) is str else [0, _source(part)] if isinstance(part, Source) else [1, _cited(part)]
            for part in value.parts]


def _read_cited(tree: Any) -> Cited:
    parts: list[str | Source | Cited] = []
    for part in _list(tree):
        if type(part) is not str:
            which, inner = _pair(part)
            if which not in (0, 1) or type(which) is not int:
                raise Mismatch("not a part of words that name places")
            part = _read_source(inner) if which == 0 else _read_cited(inner)
        parts.append(part)
    return Cited(*parts)


# A TOML value (an `Effect:` line's): each written with what it is, since JSON has no dates, and lists and
# tables of TOML hold any of them.
def _toml(value: Any) -> list:
    kind = type(value)
    if kind in (str, int, float, bool):
        return [kind.__name__, value]
    if kind in (dt.datetime, dt.date, dt.time):
        return [kind.__name__, value.isoformat()]
    if kind is list:
        return ["list", [_toml(item) for item in value]]
    if kind is dict:
        return ["dict", [[key, _toml(item)] for key, item in value.items()]]
    raise TypeError(f"no TOML value is a {kind.__name__}")


_TOML_SCALARS = {"str": str, "int": int, "float": float, "bool": bool}
_TOML_TIMES = {"datetime": dt.datetime, "date": dt.date, "time": dt.time}


def _read_toml(tree: Any) -> Any:
    name, value = _pair(tree)
    if name in _TOML_SCALARS:
        return _exactly(_TOML_SCALARS[name])(value)
    if name in _TOML_TIMES:
        return _TOML_TIMES[name].fromisoformat(_exactly(str)(value))
    if name == "list":
        return [_read_toml(item) for item in _list(value)]
    if name == "dict":
        return {_exactly(str)(key): _read_toml(item) for key, item in map(_pair, _list(value))}
    raise Mismatch(f"no TOML value is a {name!r}")


_SCALARS: dict[Any, tuple[Convert, Convert]] = {
    str: (_same, _exactly(str)), int: (_same, _exactly(int)), bool: (_same, _exactly(bool)),
    float: (_same, _exactly(float)), type(None): (_same, _exactly(type(None))),
    bytes: (bytes.hex, lambda tree: bytes.fromhex(_exactly(str)(tree))),
    Fraction: (_fraction, _read_fraction), dt.date: (dt.date.toordinal, _read_date),
    Source: (_source, _read_source), Cited: (_cited, _read_cited),
    object: (_toml, _read_toml),  # an Effect's value: any TOML value
    JsonValue: (_same, _same),
}


def _union(arguments: tuple) -> tuple[Convert, Convert]:
    """`X | None` as X's value or null; any other union as [which, value], `which` its place in the union."""
    others = [argument for argument in arguments if argument is not type(None)]
    if len(others) == 1 and len(arguments) == 2:
        encode, decode = _converters(others[0])
        return (lambda value: None if value is None else encode(value),
                lambda tree: None if tree is None else decode(tree))
    pairs = [_converters(argument) for argument in arguments]
    classes = [typing.get_origin(argument) or argument for argument in arguments]

    def encode(value: Any) -> list:
        # The first member the value is an instance of (a dataclass is tried before its bases)
        which = next(position for position, kind in enumerate(classes) if isinstance(value, kind))
        return [which, pairs[which][0](value)]

    def decode(tree: Any) -> Any:
        which, value = _pair(tree)
        if type(which) is not int or not 0 <= which < len(pairs):
            raise Mismatch("not a member of the union")
        return pairs[which][1](value)
    return encode, decode


def _dataclass(kind: type) -> tuple[Convert, Convert]:
    """A dataclass as the list of its fields' values, in order; read back without calling its __init__ (as
    pickle does), every field checked against its annotation."""
    hints = typing.get_type_hints(kind)
    names = [field.name for field in dataclasses.fields(kind)]
    fields = ", ".join(f"{name!r}: v{position}" for position, name in enumerate(names))
    return _written_out(kind.__name__, [hints[name] for name in names], [f"d[{name!r}]" for name in names],
                        f"made = new(kind)\n    made.__dict__.update({{{fields}}})\n    return made",
                        {"kind": kind, "new": object.__new__}, "d = value.__dict__")


def _fixed_tuple(arguments: tuple) -> tuple[Convert, Convert]:
    """A tuple of so many values, each of its own type (a manifest's rows: 18,000 at 10,000 proposals)."""
    values = "".join(f"v{position}, " for position in range(len(arguments)))
    return _written_out("tuple", list(arguments), [f"value[{p}]" for p in range(len(arguments))],
                        f"return ({values})", {},
                        f"if len(value) != {len(arguments)}: raise TypeError('not a tuple of {len(arguments)}')")


def _written_out(label: str, hints: list, getters: list[str], made: str, names: dict[str, Any],
                 reading: str) -> tuple[Convert, Convert]:
    """The two converters of a value made of len(hints) values (`getters`: where `reading` finds each in the
    value; `made`: the value made of v0, v1...), written out as Python (as `dataclasses` writes __init__), the
    checks of strings, numbers and truth values inline: reading 10,000 entries value by value through a
    converter each took twice as long."""
    scope: dict[str, Any] = {"Mismatch": Mismatch, **names}
    encode_items, decode_lines = [], []
    for position, (hint, getter) in enumerate(zip(hints, getters)):
        value = f"v{position}"
        optional = typing.get_origin(hint) in (Union, types.UnionType) and len(typing.get_args(hint)) == 2 \
            and type(None) in typing.get_args(hint)
        inner = next(a for a in typing.get_args(hint) if a is not type(None)) if optional else hint
        scope[f"c{position}"], scope[f"r{position}"] = _converters(inner)
        if inner in (str, int, bool):
            scope[f"t{position}"] = inner
            encode_items.append(getter)
            decode_lines.append(f"    if {f'{value} is not None and ' if optional else ''}type({value}) is not "
                                f"t{position}: raise Mismatch('{label} {position}')")
        else:
            encode_items.append(f"(None if {getter} is None else c{position}({getter}))" if optional
                                else f"c{position}({getter})")
            decode_lines.append(f"    {value} = None if {value} is None else r{position}({value})" if optional
                                else f"    {value} = r{position}({value})")
    values = "".join(f"v{position}, " for position in range(len(hints)))
    code = (f"def encode(value):\n    {reading}\n    return [{', '.join(encode_items)}]\n"
            f"def decode(tree):\n"
            f"    if type(tree) is not list or len(tree) != {len(hints)}: raise Mismatch('not a {label}')\n"
            f"    {values} = tree\n" + "\n".join(decode_lines) + f"\n    {made}\n")
    exec(compile(code, f"<record of {label}>", "exec"), scope)  # noqa: S102 - our own code, from the types
    return scope["encode"], scope["decode"]
