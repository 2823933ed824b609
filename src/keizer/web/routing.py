"""The app's URL rules, whose URL builders werkzeug makes when a page first builds that URL.

Werkzeug compiles two small Python functions per rule as the rule is added (one builds the
URL, one builds it with unknown values appended as a query string): for the app's ninety-odd
rules that was 25 of the 31 ms of CPU that :func:`keizer.web.create_app` took, every time an
app is made (``keizer serve`` once, the tests some 270 times), although a page builds only the
few URLs it links to.  :class:`LazyBuilderRule` makes each of those functions the first time it
is called, with werkzeug's own code: the same function, built later.  A rule without defaults
is built from its path alone (werkzeug's parse of it, ``_trace``), so the function made for one
app's rule serves the same rule of every app the process makes after it.  Should werkzeug stop
compiling its builders through ``Rule._compile_builder``, the override is never called and
every rule works as werkzeug's own.

>>> from werkzeug.routing import Map
>>> urls = Map([LazyBuilderRule("/c/<int:cid>/round/<int:n>", endpoint="round")]).bind("club")
>>> urls.build("round", {"cid": 3, "n": 2})
'/c/3/round/2'
>>> urls.build("round", {"cid": 3, "n": 2, "print": 1})
'/c/3/round/2?print=1'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from werkzeug.routing import Rule

Builder = Callable[..., tuple[str, str]]

#: The builders made so far in this process, by what werkzeug makes them from (:func:`_key`).
_BUILT: dict[Hashable, Builder] = {}


def _key(rule: Rule, append_unknown: bool) -> Hashable | None:
    """What werkzeug's builder for ``rule`` is made of, or None where that is not the rule's
    path alone (a rule with defaults puts their values into it)."""
    trace = getattr(rule, "_trace", None)
    if rule.defaults or not isinstance(trace, list):
        return None
    return rule.rule, append_unknown, tuple(trace)


class LazyBuilderRule(Rule):
    """A werkzeug rule whose URL builders are compiled on their first use."""

    def _compile_builder(self, append_unknown: bool = True) -> Builder:
        compile_now = super()._compile_builder
        key = _key(self, append_unknown)
        built: list[Builder] = []

        def build(rule: Rule, *args: Any, **values: Any) -> tuple[str, str]:
            if not built:
                made = _BUILT.get(key) if key is not None else None
                if made is None:
                    made = compile_now(append_unknown)
                    if key is not None:
                        _BUILT[key] = made
                built.append(made)
            return built[0](rule, *args, **values)

        return build
