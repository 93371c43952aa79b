import math
from decimal import ROUND_CEILING, ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_EVEN, ROUND_HALF_UP
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.model.formula import (
    MAX_TEXT_LENGTH,
    ROUNDING_MODES,
    SCORING_NAMES,
    Formula,
    FormulaError,
    compile_formula,
    round_fraction,
)

SEED_FORMULA = "round((proposal - 291) * for_fraction)"

# Decimal's rounding modes are an independent oracle for ours.
DECIMAL_ROUNDING = {
    "half-up": ROUND_HALF_UP,
    "half-even": ROUND_HALF_EVEN,
    "down": ROUND_DOWN,
    "floor": ROUND_FLOOR,
    "ceiling": ROUND_CEILING,
}


def evaluate(text: str, rounding: str = "half-up", **values: int | float | Fraction):
    return compile_formula(text, frozenset(values) | {"x", "y"}).evaluate(values, rounding)


def error_of(text: str, names: frozenset[str] = frozenset({"x", "y"})) -> FormulaError:
    with pytest.raises(FormulaError) as info:
        compile_formula(text, names).evaluate({"x": 1, "y": 2})
    return info.value


# --- the seed case and exactness -----------------------------------------------------


def test_seed_formula() -> None:
    formula = compile_formula(SEED_FORMULA, SCORING_NAMES)
    values = {"proposal": 304, "for_fraction": Fraction(1, 2)}
    assert formula.evaluate(values) == 7
    assert formula.evaluate(values, "half-up") == 7
    assert formula.evaluate(values, "half-even") == 6
    assert formula.text == SEED_FORMULA
    assert formula.names_used == frozenset({"proposal", "for_fraction"})


def test_exact_rationals() -> None:
    half = evaluate("(proposal - 291) * for_fraction", proposal=304, for_fraction=0.5)
    assert half == Fraction(13, 2)
    assert evaluate("0.9") == Fraction(9, 10)
    assert evaluate("0.1 + 0.2") == Fraction(3, 10)
    assert evaluate("0.9 * 10") == 9
    assert evaluate("1e3 + 1_000") == 2000


def test_result_types() -> None:
    result = evaluate("6 / 3")
    assert result == 2 and type(result) is int
    assert evaluate("7 / 2") == Fraction(7, 2)
    assert type(evaluate("x", x=Fraction(4, 2))) is int


def test_input_values() -> None:
    assert evaluate("x * 3", x=0.1) == Fraction(3, 10)  # floats are read by their decimal text
    assert evaluate("x", x=Fraction(1, 3)) == Fraction(1, 3)
    with pytest.raises(FormulaError, match="no value given for 'x'"):
        compile_formula("x", frozenset({"x"})).evaluate({})
    with pytest.raises(FormulaError, match="too large"):
        evaluate("x", x=10**13)
    with pytest.raises(FormulaError, match="not a finite number"):
        evaluate("x", x=math.inf)
    with pytest.raises(TypeError):
        evaluate("x", x=True)
    with pytest.raises(TypeError):
        compile_formula("x", frozenset({"x"})).evaluate({"x": "3"})


def test_unused_values_are_ignored() -> None:
    assert compile_formula("1", SCORING_NAMES).evaluate({"die": "not even a number"}) == 1


def test_evaluate_int() -> None:
    formula = compile_formula("x / 2", frozenset({"x"}))
    assert formula.evaluate_int({"x": 13}) == 7
    assert formula.evaluate_int({"x": 13}, "half-even") == 6
    assert formula.evaluate_int({"x": -13}, "floor") == -7
    assert formula.evaluate_int({"x": 12}, "ceiling") == 6


# --- rounding ------------------------------------------------------------------------

ROUNDING_CASES = {
    # value:            half-up, half-even, down, floor, ceiling
    Fraction(13, 2): (7, 6, 6, 6, 7),
    Fraction(15, 2): (8, 8, 7, 7, 8),
    Fraction(-13, 2): (-7, -6, -6, -7, -6),
    Fraction(-15, 2): (-8, -8, -7, -8, -7),
    Fraction(27, 4): (7, 7, 6, 6, 7),
    Fraction(-27, 4): (-7, -7, -6, -7, -6),
    Fraction(25, 4): (6, 6, 6, 6, 7),
    Fraction(-25, 4): (-6, -6, -6, -7, -6),
    Fraction(1, 2): (1, 0, 0, 0, 1),
    Fraction(-1, 2): (-1, 0, 0, -1, 0),
    Fraction(5): (5, 5, 5, 5, 5),
    Fraction(-5): (-5, -5, -5, -5, -5),
    Fraction(0): (0, 0, 0, 0, 0),
}


@pytest.mark.parametrize("value", list(ROUNDING_CASES))
@pytest.mark.parametrize("mode", ROUNDING_MODES)
def test_rounding_modes(value: Fraction, mode: str) -> None:
    expected = ROUNDING_CASES[value][ROUNDING_MODES.index(mode)]
    assert round_fraction(value, mode) == expected
    assert evaluate("round(x)", mode, x=value) == expected


@given(
    st.integers(-(10**6), 10**6),
    st.sampled_from([1, 2, 4, 5, 8, 10]),
    st.sampled_from(ROUNDING_MODES),
)
def test_rounding_matches_decimal(numerator: int, denominator: int, mode: str) -> None:
    # These denominators make every value an exact Decimal.
    exact = Decimal(numerator) / Decimal(denominator)
    expected = int(exact.quantize(Decimal(1), rounding=DECIMAL_ROUNDING[mode]))
    assert round_fraction(Fraction(numerator, denominator), mode) == expected


def test_unknown_rounding_mode() -> None:
    with pytest.raises(ValueError, match="unknown rounding mode 'up'"):
        round_fraction(Fraction(1, 2), "up")
    with pytest.raises(ValueError, match="unknown rounding mode 'up'"):
        compile_formula("1", frozenset()).evaluate({}, "up")


# --- operators and functions ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("-x + +y", 1),
        ("--x", 1),
        ("7 / 2", Fraction(7, 2)),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 % 3", 1),
        ("-7 % 3", 2),
        ("7.5 // 2", 3),
        ("7.5 % 2", Fraction(3, 2)),
        ("round(2.5)", 3),
        ("round(-2.5)", -3),
        ("floor(2.7)", 2),
        ("floor(-2.2)", -3),
        ("ceil(2.2)", 3),
        ("ceil(-2.7)", -2),
        ("min(3, x, 2)", 1),
        ("max(3, x, y)", 3),
        ("min(x, y)", 1),
        ("max(0.5, 1/3)", Fraction(1, 2)),
        ("abs(-2.5)", Fraction(5, 2)),
        ("abs(y)", 2),
        ("0x10 + 0b1", 17),
        ("  (x +\n y)", 3),
        ("x  # a comment", 1),
    ],
)
def test_operations(text: str, expected: int | Fraction) -> None:
    result = evaluate(text, x=1, y=2)
    assert result == expected
    assert type(result) is type(expected)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("round()", r"round\(\) takes exactly 1 argument \(0 given\)"),
        ("round(x, 2)", r"round\(\) takes exactly 1 argument \(2 given\)"),
        ("floor(x, y)", r"floor\(\) takes exactly 1 argument \(2 given\)"),
        ("ceil()", r"ceil\(\) takes exactly 1 argument \(0 given\)"),
        ("abs(x, y)", r"abs\(\) takes exactly 1 argument \(2 given\)"),
        ("min(x)", r"min\(\) takes at least 2 arguments \(1 given\)"),
        ("max()", r"max\(\) takes at least 2 arguments \(0 given\)"),
    ],
)
def test_arity_errors(text: str, message: str) -> None:
    with pytest.raises(FormulaError, match=message):
        compile_formula(text, frozenset({"x", "y"}))


# --- rejected input -------------------------------------------------------------------


def test_unknown_name() -> None:
    error = error_of("proposal + bonus", SCORING_NAMES)
    assert str(error) == (
        "unknown name 'bonus' (known: abstentions, die, for_fraction, proposal, votes,"
        " votes_against, votes_for)"
    )
    assert error.column == 12


def test_unknown_name_without_names() -> None:
    assert str(error_of("x", frozenset())) == "unknown name 'x' (known: none)"


def test_function_used_as_name() -> None:
    assert "'round' is a function" in str(error_of("round + 1"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("__import__('os')", "function '__import__' is not allowed"),
        ("().__class__", "attribute access is not allowed"),
        ("x.real", "attribute access is not allowed"),
        ("x[0]", "indexing is not allowed"),
        ("lambda: 1", "lambda is not allowed"),
        ("1 if 1 else 2", "conditional expressions ('if ... else') are not allowed"),
        ("2**10", "'**' is not allowed"),
        ("x << 1", "'<<' is not allowed"),
        ("x & 1", "'&' is not allowed"),
        ("~x", "'~' is not allowed"),
        ("not x", "'not' is not allowed"),
        ('"s"', "strings are not allowed"),
        ("b's'", "strings are not allowed"),
        ("True", "'True' is not allowed"),
        ("None", "'None' is not allowed"),
        ("...", "'...' is not allowed"),
        ("1j", "complex numbers are not allowed"),
        ("x < 1", "comparisons ('<') are not allowed"),
        ("x == y", "comparisons ('==') are not allowed"),
        ("x and y", "'and' is not allowed"),
        ("x or y", "'or' is not allowed"),
        ("round(x=1)", "keyword arguments are not allowed"),
        ("max(**x)", "'**' arguments are not allowed"),
        ("max(*x)", "'*' arguments are not allowed"),
        ("(x := 1)", "':=' is not allowed"),
        ("f'{x}'", "f-strings are not allowed"),
        ("print(x)", "function 'print' is not allowed"),
        ("x(1)", "function 'x' is not allowed"),
        ("round(x)(1)", "only calls of round, floor, ceil, abs, min, max are allowed"),
        ("(x, y)", "tuples are not allowed"),
        ("[x]", "lists are not allowed"),
        ("{x: y}", "dicts are not allowed"),
        ("{x}", "sets are not allowed"),
        ("[x for x in y]", "comprehensions are not allowed"),
        ("(yield)", "'yield' is not allowed"),
        ("x +", "syntax error"),
        ("x; y", "syntax error"),
        ("import os", "syntax error"),
        ("", "formula is empty"),
        ("   ", "formula is empty"),
    ],
)
def test_disallowed(text: str, message: str) -> None:
    error = error_of(text)
    assert isinstance(error, ValueError)
    assert error.message == str(error)
    assert message in str(error)


def test_nul_byte() -> None:
    error_of("x\x00")  # the parser's message differs between Python releases


def test_disallowed_inside_allowed() -> None:
    assert "'**' is not allowed" in str(error_of("round(1 + max(x, 2**y))"))


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("x + y.real", 5),
        ("  x + 2**y", 7),
        ("max(x, y=1)", 8),
        ("é + z", 5),  # columns count characters, not UTF-8 bytes
        ("(x +\n 2**y)", 7),  # counted across lines
    ],
)
def test_error_columns(text: str, column: int) -> None:
    assert error_of(text, frozenset({"x", "y", "é"})).column == column


@pytest.mark.parametrize(
    "text",
    [
        "99999999*99999999*99999999",
        "1000000000000 + 1",
        "10000000000000",
        "1e13",
        "1e999",
        "0.0000000000001",
        "1 / 3 / 1000000 / 1000000",
        "max(1000000000000, 1) * 2",
    ],
)
def test_number_too_large(text: str) -> None:
    assert str(error_of(text)) == "number too large"


def test_bounds_are_inclusive() -> None:
    assert evaluate("1000000 * 1000000") == 10**12
    assert evaluate("-1000000 * 1000000") == -(10**12)
    assert evaluate("1 / 1000000 / 1000000") == Fraction(1, 10**12)


@pytest.mark.parametrize(
    ("text", "column"), [("1 / 0", 1), ("x / (y - 2)", 1), ("x // 0", 1), ("1 + x % 0", 5)]
)
def test_division_by_zero(text: str, column: int) -> None:
    error = error_of(text)
    assert str(error) == "division by zero"
    assert error.column == column


def test_too_long() -> None:
    text = "+".join(["x"] * 300)
    assert len(text) > MAX_TEXT_LENGTH
    assert "formula is too long" in str(error_of(text))


def test_too_many_nodes() -> None:
    text = "max(" + ",".join(["1"] * 200) + ")"
    assert len(text) <= MAX_TEXT_LENGTH
    assert str(error_of(text)) == "formula is too complex (more than 200 parts)"


def test_long_flat_sum_is_fine() -> None:
    assert evaluate("+".join(["x"] * 100), x=1) == 100


@pytest.mark.parametrize(
    "text",
    [
        "-(" * 110 + "x" + ")" * 110,
        "(" * 110 + "x" + "+1)" * 110,
        "-" * 499 + "x",
    ],
)
def test_deep_nesting(text: str) -> None:
    assert len(text) <= MAX_TEXT_LENGTH
    assert "formula is too complex" in str(error_of(text))


def test_parenthesis_nesting_beyond_the_parser() -> None:
    text = "(" * 240 + "x" + ")" * 240
    assert "syntax error: too many nested parentheses" in str(error_of(text))


def test_formula_is_reusable() -> None:
    formula = compile_formula(SEED_FORMULA, SCORING_NAMES)
    assert isinstance(formula, Formula)
    assert formula.evaluate({"proposal": 301, "for_fraction": Fraction(3, 4)}) == 8
    assert formula.evaluate({"proposal": 305, "for_fraction": 1}) == 14


# --- property: agrees with plain Python arithmetic ------------------------------------

Expr = tuple[str, Fraction]  # (formula text, exact value)


def _round_half_up(x: Fraction) -> int:
    exact = Decimal(x.numerator) / Decimal(x.denominator)  # exact: denominators are 1 or 2
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    def binary(symbol: str, op):
        return st.tuples(children, children).map(
            lambda pair: (f"({pair[0][0]} {symbol} {pair[1][0]})", op(pair[0][1], pair[1][1]))
        )

    def unary(name: str, fn):
        return children.map(lambda c: (f"{name}({c[0]})", Fraction(fn(c[1]))))

    def variadic(name: str, fn):
        return st.lists(children, min_size=2, max_size=3).map(
            lambda cs: (f"{name}({', '.join(c[0] for c in cs)})", fn(c[1] for c in cs))
        )

    return st.one_of(
        binary("+", lambda a, b: a + b),
        binary("-", lambda a, b: a - b),
        binary("*", lambda a, b: a * b),
        children.map(lambda c: (f"-({c[0]})", -c[1])),
        # Halving makes round/floor/ceil see real fractions, including exact halves.
        children.map(lambda c: (f"round({c[0]} / 2)", Fraction(_round_half_up(c[1] / 2)))),
        unary("floor", math.floor),
        unary("ceil", math.ceil),
        unary("abs", abs),
        variadic("min", min),
        variadic("max", max),
    )


LEAVES: st.SearchStrategy[Expr] = st.one_of(
    st.integers(0, 9).map(lambda n: (str(n), Fraction(n))),
    st.just(("x", Fraction(3))),
)
# With at most 12 leaves of at most 9, no value can leave the bounds (9**12 < 10**12).
EXPRESSIONS = st.recursive(LEAVES, _extend, max_leaves=12)


@given(EXPRESSIONS)
def test_agrees_with_python(expr: Expr) -> None:
    text, expected = expr
    result = compile_formula(text, frozenset({"x"})).evaluate({"x": 3})
    assert result == expected
    assert type(result) is (int if expected.denominator == 1 else Fraction)


@pytest.mark.parametrize("text, words", [
    ("round((proposal - 291) * for_fraction)", "proposal number minus 291, times the share of votes for, rounded"),
    ("votes_for", "votes for"),
    ("die + 2 * votes_against", "the die plus 2 times votes against"),
    ("proposal - (votes - 1)", "proposal number minus (votes cast minus 1)"),
    ("floor(votes / 2)", "votes cast divided by 2, rounded down"),
    ("ceil(die)", "the die rounded up"),
    ("max(1, 2, die)", "the greatest of 1, 2 and the die"),
    ("min(die, 3)", "the least of the die and 3"),
    ("abs(-die) * 0.5", "the size of minus the die times 0.5"),
])
def test_in_words(text, words):
    assert compile_formula(text, SCORING_NAMES).in_words() == words
