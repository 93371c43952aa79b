"""A small, safe arithmetic language for the formulas keepers write in game.toml.

A formula such as ``round((proposal - 291) * for_fraction)`` is untrusted text. It is parsed
with :func:`ast.parse` and then checked against a short whitelist; it is never handed to
``eval``, ``exec`` or ``compile``. Evaluation is exact: every number is a
:class:`fractions.Fraction`, so ``0.9`` means nine tenths, not the nearest binary float.

Allowed: numbers (int or decimal), the names the caller declares, ``+ - * / // %``, unary
``+``/``-``, parentheses and the functions ``round, floor, ceil, min, max, abs``.
"""
from __future__ import annotations

import ast
import math
import operator
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

ROUNDING_MODES = ("half-up", "half-even", "down", "floor", "ceiling")

# The names a scoring formula may use; the caller passes them to compile_formula.
SCORING_NAMES = frozenset(
    {"proposal", "votes_for", "votes_against", "abstentions", "votes", "for_fraction", "die"}
)

MAX_TEXT_LENGTH = 500
MAX_NODES = 200
MAX_DEPTH = 100  # also keeps the recursive compiler and evaluator far from the stack limit
# Bounds every number (numerator size and precision) so no formula can make arithmetic slow.
MAX_MAGNITUDE = 10**12

Number = int | float | Fraction


class FormulaError(ValueError):
    """A formula that cannot be compiled or evaluated.

    `column` is the 1-based position in the formula text of the part at fault (counted
    across lines if the text has several), or None when no single place is to blame.
    """

    def __init__(self, message: str, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.column = column


def round_fraction(x: Fraction, mode: str) -> int:
    """Round `x` to an integer.

    Modes: "half-up" rounds halves away from zero (6.5 -> 7, -6.5 -> -7); "half-even" rounds
    halves to the even neighbour (6.5 -> 6, 7.5 -> 8); "down" truncates toward zero; "floor"
    rounds toward minus infinity; "ceiling" toward plus infinity.
    Raises ValueError for an unknown mode.
    """
    if mode == "half-up":
        magnitude = math.floor(abs(x) + Fraction(1, 2))
        return -magnitude if x < 0 else magnitude
    if mode == "half-even":
        return round(x)  # Fraction.__round__ rounds halves to even
    if mode == "down":
        return math.trunc(x)
    if mode == "floor":
        return math.floor(x)
    if mode == "ceiling":
        return math.ceil(x)
    raise _unknown_rounding_mode(mode)


def _unknown_rounding_mode(mode: str) -> ValueError:
    return ValueError(f"unknown rounding mode {mode!r} (known: {', '.join(ROUNDING_MODES)})")


def _check_magnitude(x: Fraction, column: int | None) -> Fraction:
    if x.denominator > MAX_MAGNITUDE or abs(x.numerator) > MAX_MAGNITUDE * x.denominator:
        raise FormulaError("number too large", column)
    return x


# --- compiled form ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Env:
    values: Mapping[str, Fraction]
    rounding: str


@dataclass(frozen=True)
class _Number:
    value: Fraction

    def evaluate(self, env: _Env) -> Fraction:
        return self.value


@dataclass(frozen=True)
class _Variable:
    name: str

    def evaluate(self, env: _Env) -> Fraction:
        return env.values[self.name]


@dataclass(frozen=True)
class _Negate:
    operand: _Node

    def evaluate(self, env: _Env) -> Fraction:
        return -self.operand.evaluate(env)


_BINARY_OPERATIONS: dict[type[ast.operator], Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: lambda a, b: Fraction(a // b),  # Fraction // Fraction gives an int
    ast.Mod: operator.mod,
}


@dataclass(frozen=True)
class _Binary:
    operation: Callable[[Fraction, Fraction], Fraction]
    left: _Node
    right: _Node
    column: int
    operator: type[ast.operator] = ast.Add  # for words

    def evaluate(self, env: _Env) -> Fraction:
        left = self.left.evaluate(env)
        right = self.right.evaluate(env)
        try:
            result = self.operation(left, right)
        except ZeroDivisionError:
            raise FormulaError("division by zero", self.column) from None
        return _check_magnitude(result, self.column)


@dataclass(frozen=True)
class _FunctionSpec:
    variadic: bool  # False: exactly one argument; True: two or more
    apply: Callable[[Sequence[Fraction], str], Fraction]  # (arguments, rounding mode)


_FUNCTIONS: dict[str, _FunctionSpec] = {
    "round": _FunctionSpec(False, lambda args, mode: Fraction(round_fraction(args[0], mode))),
    "floor": _FunctionSpec(False, lambda args, mode: Fraction(math.floor(args[0]))),
    "ceil": _FunctionSpec(False, lambda args, mode: Fraction(math.ceil(args[0]))),
    "abs": _FunctionSpec(False, lambda args, mode: abs(args[0])),
    "min": _FunctionSpec(True, lambda args, mode: min(args)),
    "max": _FunctionSpec(True, lambda args, mode: max(args)),
}


@dataclass(frozen=True)
class _Call:
    spec: _FunctionSpec
    args: tuple[_Node, ...]
    name: str = ""  # for words

    def evaluate(self, env: _Env) -> Fraction:
        # No bounds check: none of the functions can leave the bounds of its arguments.
        return self.spec.apply([arg.evaluate(env) for arg in self.args], env.rounding)


_Node = _Number | _Variable | _Negate | _Binary | _Call


@dataclass(frozen=True)
class Formula:
    """A checked formula; build it with :func:`compile_formula`."""

    text: str
    names_used: frozenset[str]
    _root: _Node = field(repr=False, compare=False)

    def evaluate(self, values: Mapping[str, Number], rounding: str = "half-up") -> int | Fraction:
        """Evaluate exactly; an integer-valued result is returned as int, else as Fraction.

        `values` must give every name in `names_used` (ints, finite floats read by their
        decimal text, or Fractions). `rounding` is the mode for `round()`, see
        :func:`round_fraction`. Raises FormulaError for division by zero, for a number beyond
        the bounds ("number too large") and for a missing value; ValueError for an unknown
        rounding mode.
        """
        if rounding not in ROUNDING_MODES:  # fail even when the formula has no round()
            raise _unknown_rounding_mode(rounding)
        env = _Env({name: _input_value(name, values) for name in self.names_used}, rounding)
        result = self._root.evaluate(env)
        return int(result) if result.denominator == 1 else result

    def evaluate_int(self, values: Mapping[str, Number], rounding: str = "half-up") -> int:
        """Like :meth:`evaluate`, rounding a non-integer result with the `rounding` mode."""
        result = self.evaluate(values, rounding)
        return result if isinstance(result, int) else round_fraction(result, rounding)

    def in_words(self) -> str:
        """The formula as a player says it: ``round((proposal - 291) * for_fraction)`` is "proposal number
        minus 291, times the share of votes for, rounded"."""
        return _words(self._root)


# --- in words ---------------------------------------------------------------------------

NAME_WORDS = {"proposal": "proposal number", "votes_for": "votes for", "votes_against": "votes against",
              "abstentions": "abstentions", "votes": "votes cast", "for_fraction": "the share of votes for",
              "die": "the die", "ballots": "ballots"}
_OPERATOR_WORDS = {ast.Add: ("plus", 1), ast.Sub: ("minus", 1), ast.Mult: ("times", 2), ast.Div: ("divided by", 2),
                   ast.FloorDiv: ("divided by, rounded down,", 2), ast.Mod: ("modulo", 2)}
_CALL_WORDS = {"round": "rounded", "floor": "rounded down", "ceil": "rounded up"}


def _precedence(node: _Node) -> int:
    if isinstance(node, _Binary):
        return _OPERATOR_WORDS[node.operator][1]
    return 3


def _words(node: _Node) -> str:
    if isinstance(node, _Number):
        value = node.value
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    if isinstance(node, _Variable):
        return NAME_WORDS.get(node.name, node.name)
    if isinstance(node, _Negate):
        return f"minus {_words(node.operand)}"
    if isinstance(node, _Binary):
        word, precedence = _OPERATOR_WORDS[node.operator]
        left = _words(node.left)
        # A lower-precedence left side is said first and closed with a comma: "a plus b, times c".
        if _precedence(node.left) < precedence:
            left += ","
        right = _words(node.right)
        # A right side that would group differently said aloud keeps its parentheses: "a minus (b plus c)".
        if _precedence(node.right) < precedence or (_precedence(node.right) == precedence
                                                    and node.operator in (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod)):
            right = f"({right})"
        return f"{left} {word} {right}"
    if node.name in _CALL_WORDS:
        inner = _words(node.args[0])
        return f"{inner}, {_CALL_WORDS[node.name]}" if isinstance(node.args[0], _Binary) else \
            f"{inner} {_CALL_WORDS[node.name]}"
    if node.name == "abs":
        return f"the size of {_words(node.args[0])}"
    listed = [_words(arg) for arg in node.args]
    least = "the least" if node.name == "min" else "the greatest"
    return f"{least} of {', '.join(listed[:-1])} and {listed[-1]}"


def _input_value(name: str, values: Mapping[str, Number]) -> Fraction:
    if name not in values:
        raise FormulaError(f"no value given for '{name}'")
    value = values[name]
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise TypeError(f"value for '{name}' must be a number, not {type(value).__name__}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FormulaError(f"value for '{name}' is not a finite number")
        value = Fraction(str(value))  # the decimal a person would read, like formula constants
    try:
        return _check_magnitude(Fraction(value), None)
    except FormulaError:
        raise FormulaError(f"value for '{name}' is too large") from None


# --- compiling -------------------------------------------------------------------------

_FORBIDDEN_OPERATORS: dict[type[ast.AST], str] = {
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.BitAnd: "&",
    ast.Not: "not",
    ast.Invert: "~",
    ast.And: "and",
    ast.Or: "or",
}

_COMPARISON_SYMBOLS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}

_FORBIDDEN_EXPRESSIONS: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access is not allowed",
    ast.Subscript: "indexing is not allowed",
    ast.Lambda: "lambda is not allowed",
    ast.IfExp: "conditional expressions ('if ... else') are not allowed",
    ast.NamedExpr: "':=' is not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.Starred: "'*' unpacking is not allowed",
    ast.Tuple: "tuples are not allowed",
    ast.List: "lists are not allowed",
    ast.Dict: "dicts are not allowed",
    ast.Set: "sets are not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.Await: "'await' is not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.YieldFrom: "'yield' is not allowed",
}

_ALLOWED_FUNCTIONS = ", ".join(_FUNCTIONS)


def compile_formula(text: str, names: frozenset[str]) -> Formula:
    """Parse and check `text`, which may use the variables in `names`.

    Raises FormulaError (with a column where one part is to blame) for syntax errors, unknown
    names, anything outside the whitelist, wrong argument counts, constants beyond the number
    bounds, and text that is too long or too complex.
    """
    if len(text) > MAX_TEXT_LENGTH:
        raise FormulaError(
            f"formula is too long ({len(text)} characters; at most {MAX_TEXT_LENGTH})"
        )
    # ast.parse rejects leading indentation; remember the shift so columns stay true.
    source = text.lstrip(" \t\f")
    if not source.strip():
        raise FormulaError("formula is empty")
    locate = _Locator(source, len(text) - len(source))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. invalid escapes in string literals
            tree = ast.parse(source, mode="eval")
    except SyntaxError as error:
        column = locate.character(error.lineno, error.offset) if error.lineno else None
        raise FormulaError(f"syntax error: {error.msg}", column) from None
    except (ValueError, RecursionError, MemoryError):  # NUL bytes on some releases; parser limits
        raise FormulaError("formula cannot be parsed") from None
    _check_size(tree)
    compiler = _Compiler(names, locate)
    root = compiler.compile(tree.body)
    return Formula(text, frozenset(compiler.names_used), root)


def _check_size(tree: ast.Expression) -> None:
    """Limit node count and nesting before the recursive compiler walks the tree."""
    count = 0
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise FormulaError(f"formula is too complex (more than {MAX_NODES} parts)")
        if depth > MAX_DEPTH:
            raise FormulaError(f"formula is too complex (nested more than {MAX_DEPTH} levels)")
        stack.extend(
            (child, depth + 1)
            for child in ast.iter_child_nodes(node)
            if not isinstance(child, (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop))
        )


class _Locator:
    """Turns parser positions (line, offset) into 1-based positions in the original text."""

    def __init__(self, source: str, shift: int):
        self.shift = shift
        self.line_starts = [0]
        for index, char in enumerate(source):
            # Python ends lines at \n, \r\n and a lone \r.
            if char == "\n" or (char == "\r" and source[index + 1 : index + 2] != "\n"):
                self.line_starts.append(index + 1)
        self.source = source

    def character(self, lineno: int, offset: int | None) -> int:
        """`offset` is 1-based in characters (as SyntaxError gives it)."""
        line = min(max(lineno, 1), len(self.line_starts)) - 1
        position = self.line_starts[line] + max((offset or 1) - 1, 0)
        return self.shift + min(position, len(self.source)) + 1

    def node(self, node: ast.AST) -> int:
        """AST nodes give `col_offset` in UTF-8 bytes; count characters instead."""
        start = self.line_starts[min(node.lineno, len(self.line_starts)) - 1]
        line_bytes = self.source[start:].encode()
        chars = len(line_bytes[: node.col_offset].decode(errors="ignore"))
        return self.shift + start + chars + 1


class _Compiler:
    def __init__(self, names: frozenset[str], locate: _Locator):
        self.names = names
        self.locate = locate
        self.names_used: set[str] = set()

    def error(self, message: str, node: ast.AST) -> FormulaError:
        return FormulaError(message, self.locate.node(node))

    def compile(self, node: ast.expr) -> _Node:
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            if node.id not in self.names:
                if node.id in _FUNCTIONS:
                    message = f"'{node.id}' is a function: call it, e.g. {node.id}(x)"
                    raise self.error(message, node)
                known = ", ".join(sorted(self.names)) or "none"
                raise self.error(f"unknown name '{node.id}' (known: {known})", node)
            self.names_used.add(node.id)
            return _Variable(node.id)
        if isinstance(node, ast.UnaryOp):
            self.check_operator(node.op, node)
            operand = self.compile(node.operand)
            return _Negate(operand) if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp):
            self.check_operator(node.op, node)
            operation = _BINARY_OPERATIONS[type(node.op)]
            left, right = self.compile(node.left), self.compile(node.right)
            return _Binary(operation, left, right, self.locate.node(node), type(node.op))
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Compare):
            symbol = _COMPARISON_SYMBOLS[type(node.ops[0])]
            raise self.error(f"comparisons ('{symbol}') are not allowed", node)
        if isinstance(node, ast.BoolOp):
            raise self.error(f"'{_FORBIDDEN_OPERATORS[type(node.op)]}' is not allowed", node)
        message = _FORBIDDEN_EXPRESSIONS.get(type(node), f"{type(node).__name__} is not allowed")
        raise self.error(message, node)

    def check_operator(self, op: ast.AST, node: ast.AST) -> None:
        if type(op) in _FORBIDDEN_OPERATORS:
            raise self.error(f"'{_FORBIDDEN_OPERATORS[type(op)]}' is not allowed", node)

    def constant(self, node: ast.Constant) -> _Number:
        value = node.value
        # bool is a subclass of int, so test exact types.
        if type(value) is int:
            number = Fraction(value)
        elif type(value) is float:
            if not math.isfinite(value):
                raise self.error("number too large", node)
            # str() gives the shortest decimal for the float, i.e. what the keeper wrote.
            number = Fraction(str(value))
        elif isinstance(value, (str, bytes)):
            raise self.error("strings are not allowed", node)
        elif isinstance(value, complex):
            raise self.error("complex numbers are not allowed", node)
        else:  # True, False, None, ...
            raise self.error(f"'{'...' if value is Ellipsis else value}' is not allowed", node)
        return _Number(_check_magnitude(number, self.locate.node(node)))

    def call(self, node: ast.Call) -> _Call:
        if not isinstance(node.func, ast.Name):
            raise self.error(f"only calls of {_ALLOWED_FUNCTIONS} are allowed", node)
        name = node.func.id
        spec = _FUNCTIONS.get(name)
        if spec is None:
            raise self.error(
                f"function '{name}' is not allowed (allowed: {_ALLOWED_FUNCTIONS})", node
            )
        if node.keywords:
            keyword = node.keywords[0]
            message = "'**' arguments" if keyword.arg is None else "keyword arguments"
            raise self.error(f"{message} are not allowed", keyword)
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.error("'*' arguments are not allowed", arg)
        given = len(node.args)
        if spec.variadic and given < 2:
            raise self.error(f"{name}() takes at least 2 arguments ({given} given)", node)
        if not spec.variadic and given != 1:
            raise self.error(f"{name}() takes exactly 1 argument ({given} given)", node)
        return _Call(spec, tuple(self.compile(arg) for arg in node.args), name)
