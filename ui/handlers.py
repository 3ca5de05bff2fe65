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

    if inspect.isgeneratorfunction(fn):
        def stream(*args: Any, **kwargs: Any) -> Iterator[Any]:
            yield from fn(*context, *args, **kwargs)
        bound: Callable[..., Any] = stream
    else:
        def call(*args: Any, **kwargs: Any) -> Any:
            return fn(*context, *args, **kwargs)
        bound = call
    functools.update_wrapper(bound, fn)
    del bound.__wrapped__  # type: ignore[attr-defined]  # Gradio must see the trimmed signature
    bound.__signature__ = signature.replace(parameters=rest)  # type: ignore[attr-defined]
    bound.__annotations__ = hints
    return bound


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
