"""Event handlers are module-level functions whose first parameters are what they work on (the
tab's components, the app context); ``bind`` fixes those for one built page.

``functools.partial`` cannot be used for this: Gradio finds the parameters it fills itself
(``gr.Request``, ``gr.SelectData``, ``gr.Progress``) from the function's type hints and tells a
streaming handler by ``inspect.isgeneratorfunction``, and a partial hides both.
"""
from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from radscope.ui.runtime import ModelGate


def bind(fn: Callable[..., Any], *context: Any) -> Callable[..., Any]:
    """``fn`` with its first ``len(context)`` parameters fixed, seen by Gradio as a plain
    function (or generator function) of the remaining ones."""
    signature = inspect.signature(fn)
    rest = list(signature.parameters.values())[len(context):]
    hints = {k: v for k, v in typing.get_type_hints(fn).items()
             if k in {p.name for p in rest} or k == "return"}

    check = _type_check(rest, hints)

    if inspect.isgeneratorfunction(fn):
        def stream(*args: Any, **kwargs: Any) -> Iterator[Any]:
            check(args)
            yield from fn(*context, *args, **kwargs)
        bound: Callable[..., Any] = stream
    else:
        def call(*args: Any, **kwargs: Any) -> Any:
            check(args)
            return fn(*context, *args, **kwargs)
        bound = call
    functools.update_wrapper(bound, fn)
    del bound.__wrapped__  # type: ignore[attr-defined]  # Gradio must see the trimmed signature
    bound.__signature__ = signature.replace(parameters=rest)  # type: ignore[attr-defined]
    bound.__annotations__ = hints
    return bound


# What an input of each plain type may be, as the API receives it (a checkbox: true or false, not
# an object that happens to be truthy); other annotations (gr.Request, data frames, Any) are
# Gradio's to check.
_PLAIN: dict[Any, tuple[tuple[type, ...], str]] = {
    bool: ((bool,), "true or false"), str: ((str,), "a string"),
    int: ((int,), "a whole number"), float: ((int, float), "a number"),
}


def _expected(annotation: Any) -> tuple[tuple[type, ...], str, bool] | None:
    """The types a parameter accepts, their name in words, and whether None is allowed; None for
    an annotation this check leaves alone."""
    args = typing.get_args(annotation)
    optional = type(None) in args
    if optional:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            return None
        annotation = rest[0]
    if annotation in _PLAIN:
        types, words = _PLAIN[annotation]
        return types, words, optional
    if typing.get_origin(annotation) is list and typing.get_args(annotation) == (str,):
        return (list,), "a list of strings", optional
    return None


def _type_check(parameters: list[inspect.Parameter], hints: dict[str, Any]) -> Callable[[tuple[Any, ...]], None]:
    """A check of the positional arguments Gradio passes a handler against its plain type hints:
    a value of another type (a dict for a checkbox) is refused with a message naming the input."""
    import gradio as gr

    checks = [(i, p.name, expected) for i, p in enumerate(parameters)
              if p.kind is not inspect.Parameter.VAR_POSITIONAL
              and (expected := _expected(hints.get(p.name))) is not None]

    def check(args: tuple[Any, ...]) -> None:
        for i, name, (types, words, optional) in checks:
            if i >= len(args):
                continue
            value = args[i]
            if value is None and optional:
                continue
            wrong = (not isinstance(value, types) or (bool not in types and isinstance(value, bool))
                     or (isinstance(value, list) and not all(isinstance(v, str) for v in value)))
            if wrong:
                raise gr.Error(f"input {name!r} must be {words}, not {type(value).__name__}")
    return check


def holding(gate: ModelGate, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (a bound handler) run while holding the model gate, for events that only ever
    use a model; Gradio sees the same signature and streaming kind."""
    if inspect.isgeneratorfunction(fn):
        def stream(*args: Any, **kwargs: Any) -> Iterator[Any]:
            with gate.held():
                yield from fn(*args, **kwargs)
        wrapped: Callable[..., Any] = stream
    else:
        def call(*args: Any, **kwargs: Any) -> Any:
            with gate.held():
                return fn(*args, **kwargs)
        wrapped = call
    functools.update_wrapper(wrapped, fn)
    return wrapped
