"""Templated strings in content (e.g. a tracker's `summary`), run in a bounded sandbox.

Content is untrusted (people share homebrew folders), so its expressions run in
Jinja's `ImmutableSandboxedEnvironment` with every resource bounded: integers
(power and multiplication checked before they are computed), repetition of
strings and lists, `range()` (one budget per expression), nested loops, every loop's
iterations (one budget over all loops, whatever they loop over), the expression's
own length, the length of what it writes and its time. The constructs that capture
output where the output bound cannot see it (`{% set %}...{% endset %}`, `{% filter %}`
blocks, macros and `{% call %}`) are refused when the expression is parsed, so every
character written passes the bound as it is written. Only a few harmless
filters exist and nothing can be called but `range`. A breach raises
`ValueError` with a readable reason; the model validator that calls us turns it
into a located problem (file, line, field).
"""
from __future__ import annotations

import functools
import time
from functools import lru_cache
from typing import Any

from sheets.base import limits


class ExpressionError(ValueError):
    """Content's expression is broken or breaks a limit."""


_SAFE_FILTERS = ("abs", "capitalize", "default", "first", "int", "float", "last", "length", "lower",
                 "max", "min", "round", "string", "sum", "title", "trim", "upper", "count")


def _check_int(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > limits.MAX_EXPR_BITS:
        raise ExpressionError(f"a number in the expression grows beyond {limits.MAX_EXPR_BITS} bits "
                              f"(about {int(limits.MAX_EXPR_BITS * 0.30103)} digits)")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_size(value: Any) -> Any:
    if isinstance(value, (str, list, tuple)) and len(value) > limits.MAX_EXPR_REPEAT:
        raise ExpressionError(f"a text or list in the expression grows beyond {limits.MAX_EXPR_REPEAT} items")
    return _check_int(value)


def _bounded(func):
    """A filter whose result is checked like every computed value."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return _check_size(func(*args, **kwargs))
    return wrapper


@lru_cache(maxsize=1)
def _environment():
    # lazy: loading content for --json and validate never imports Jinja (mission --json speed)
    import jinja2  # noqa: PLC0415
    from jinja2.sandbox import ImmutableSandboxedEnvironment  # noqa: PLC0415

    class Bounded(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["+", "-", "*", "/", "//", "%", "**"])

        def call_binop(self, context, operator_name, left, right):
            if operator_name == "**":
                if _is_int(right) or isinstance(right, float):
                    if abs(right) > limits.MAX_EXPR_BITS or (
                            _is_int(left) and abs(left) > 1 and
                            abs(right) * max(1, abs(int(left)).bit_length()) > limits.MAX_EXPR_BITS):
                        raise ExpressionError(f"{left!r} ** {right!r} is too large a power "
                                              f"(results stay within {limits.MAX_EXPR_BITS} bits)")
            elif operator_name == "*":
                if isinstance(left, (str, list, tuple)) or isinstance(right, (str, list, tuple)):
                    seq, times = (left, right) if isinstance(left, (str, list, tuple)) else (right, left)
                    if _is_int(times) and len(seq) * max(times, 0) > limits.MAX_EXPR_REPEAT:
                        raise ExpressionError(f"repeating {len(seq)} items {times} times is too long "
                                              f"(at most {limits.MAX_EXPR_REPEAT} in all)")
                elif _is_int(left) and _is_int(right) and \
                        left.bit_length() + right.bit_length() > limits.MAX_EXPR_BITS + 1:
                    raise ExpressionError(f"a number in the expression grows beyond {limits.MAX_EXPR_BITS} bits")
            elif operator_name == "%" and isinstance(left, str):
                raise ExpressionError("formatting strings with % is not allowed in content expressions")
            elif operator_name == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
                if len(left) + len(right) > limits.MAX_EXPR_REPEAT:
                    raise ExpressionError(f"a text in the expression grows beyond {limits.MAX_EXPR_REPEAT} characters")
            result = super().call_binop(context, operator_name, left, right)
            return _check_size(result)

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's signature
            if getattr(__obj, "__func__", None) not in (_Budget.range, _Budget.each):
                raise ExpressionError("content expressions may not call functions or methods (only range())")
            return super().call(__context, __obj, *args, **kwargs)

    env = Bounded(undefined=jinja2.StrictUndefined, autoescape=False)
    env.filters = {name: _bounded(env.filters[name]) for name in _SAFE_FILTERS if name in env.filters}
    env.tests = {name: env.tests[name] for name in ("defined", "undefined", "even", "odd", "divisibleby",
                                                      "number", "string", "eq", "ne", "lt", "le", "gt", "ge")
                 if name in env.tests}
    env.globals = {"range": range}  # replaced per render by a budgeted range
    return env


class _Budget:
    """One expression's budgets: numbers range() counts, loop iterations, and its time."""

    def __init__(self) -> None:
        self.left = limits.MAX_EXPR_RANGE
        self.steps = limits.MAX_EXPR_STEPS
        self.deadline = time.monotonic() + limits.MAX_EXPR_SECONDS

    def range(self, *args: Any) -> range:
        if not all(_is_int(a) for a in args):
            raise ExpressionError("range() takes whole numbers")
        r = range(*args)
        if len(r) > self.left:
            raise ExpressionError(f"range() would count {len(r):,} numbers; an expression may count at most "
                                  f"{limits.MAX_EXPR_RANGE:,} in all")
        self.left -= len(r)
        return r

    def each(self, items: Any):
        """A loop's items, each one counted against the expression's steps and time (every `for`
        is rewritten to loop over this when the expression is parsed)."""
        for item in items:
            self.steps -= 1
            if self.steps < 0:
                raise ExpressionError(f"its loops run more than {limits.MAX_EXPR_STEPS:,} times in all")
            if time.monotonic() > self.deadline:
                raise ExpressionError(f"it runs longer than {limits.MAX_EXPR_SECONDS:g} s")
            yield item


#: constructs that capture what they write into a value, out of the output bound's sight
_CAPTURING = {"AssignBlock": "{% set %}...{% endset %}", "FilterBlock": "{% filter %} blocks",
              "Macro": "macros", "CallBlock": "{% call %} blocks"}


def _loop_depth(node: Any, depth: int = 0) -> int:
    """How deep {% for %} loops nest; refuses `~` (it joins texts without a bound) and the capturing
    constructs, and makes every loop count its items (`_Budget.each`)."""
    from jinja2 import nodes  # noqa: PLC0415

    if isinstance(node, nodes.Concat):
        raise ExpressionError("joining texts with ~ is not allowed in content expressions; "
                              "write {{ a }}{{ b }} instead")
    if type(node).__name__ in _CAPTURING:
        raise ExpressionError(f"{_CAPTURING[type(node).__name__]} are not allowed in content expressions "
                              "(what they write escapes the output bound); write the text where it goes")
    if isinstance(node, nodes.For):
        node.iter = nodes.Call(nodes.Name("__each", "load"), [node.iter], [], None, None)
    here = depth + 1 if isinstance(node, nodes.For) else depth
    deepest = here
    for child in node.iter_child_nodes():
        deepest = max(deepest, _loop_depth(child, here))
    return deepest


def render(template: str, field: str, **values: int) -> str:
    """Render content's `template` over plain values; any failure or breach is an ExpressionError
    naming `field` (e.g. 'summary')."""
    import jinja2  # noqa: PLC0415
    from jinja2.sandbox import SecurityError  # noqa: PLC0415

    if len(template) > limits.MAX_EXPR_SOURCE:
        raise ExpressionError(f"{field}: {len(template):,} characters; an expression may have at most "
                              f"{limits.MAX_EXPR_SOURCE:,}")
    env = _environment()
    try:
        ast = env.parse(template)
        if _loop_depth(ast) > limits.MAX_EXPR_LOOP_DEPTH:
            raise ExpressionError(f"loops nested more than {limits.MAX_EXPR_LOOP_DEPTH} deep")
        compiled = env.from_string(ast)
        budget = _Budget()
        out: list[str] = []
        size = 0
        for chunk in compiled.generate(**values, range=budget.range, __each=budget.each):
            if time.monotonic() > budget.deadline:
                raise ExpressionError(f"it runs longer than {limits.MAX_EXPR_SECONDS:g} s")
            size += len(chunk)
            if size > limits.MAX_EXPR_OUTPUT:
                raise ExpressionError(f"it writes more than {limits.MAX_EXPR_OUTPUT:,} characters")
            out.append(chunk)
        return "".join(out)
    except ExpressionError as exc:
        message = str(exc)
        raise ExpressionError(message if message.startswith(f"{field}:") else f"{field}: {message}") from None
    except jinja2.TemplateSyntaxError as exc:
        raise ExpressionError(f"{field}: template syntax error: {exc.message}") from None
    except SecurityError as exc:
        raise ExpressionError(f"{field}: SecurityError: {exc} (not allowed in content)") from None
    except (RecursionError, MemoryError):
        raise ExpressionError(f"{field}: the expression is too complex") from None
    except Exception as exc:  # noqa: BLE001 - any failure of content's expression is a content error
        known = ", ".join(values)
        raise ExpressionError(f"{field}: {type(exc).__name__}: {exc} (the names known here are {known})") from None


__all__ = ["ExpressionError", "render"]
