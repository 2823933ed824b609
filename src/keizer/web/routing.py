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

Werkzeug also parses each rule's path into the parts its matcher walks (regular expressions
and their weights), again for every app: ``create_app`` took 4.5 ms of CPU, 3.3 ms without.
:meth:`LazyBuilderRule._parse_rule` keeps what werkzeug's parse of a path gave (its parts, the
trace the builders are made of, the converters it asked for) per path and set of converters,
and gives a rule of the next app the same: new parts with the same values, and converters
made for that app's map by werkzeug's own ``get_converter``.

>>> from werkzeug.routing import Map
>>> urls = Map([LazyBuilderRule("/c/<int:cid>/round/<int:n>", endpoint="round")]).bind("club")
>>> urls.build("round", {"cid": 3, "n": 2})
'/c/3/round/2'
>>> urls.build("round", {"cid": 3, "n": 2, "print": 1})
'/c/3/round/2?print=1'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from werkzeug.routing import BaseConverter, Rule
from werkzeug.routing.rules import RulePart

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


@dataclass(frozen=True)
class _Parsed:
    """What werkzeug's parse of one path gave: the parts' fields, the entries it added to the
    rule's trace, and the converters it asked for (variable, converter, its arguments)."""

    parts: tuple[tuple[Any, ...], ...]
    trace: tuple[tuple[bool, str], ...]
    converters: tuple[tuple[str, str, tuple[Any, ...], tuple[tuple[str, Any], ...]], ...]


#: The paths parsed so far in this process, by path and the map's converters.
_PARSED: dict[Hashable, _Parsed] = {}


class LazyBuilderRule(Rule):
    """A werkzeug rule whose URL builders are compiled on their first use, and whose path is
    parsed once per process."""

    _asked: list[tuple[str, str, tuple[Any, ...], tuple[tuple[str, Any], ...]]] | None = None

    def get_converter(self, variable_name: str, converter_name: str, args: tuple[Any, ...],
                      kwargs: Mapping[str, Any]) -> BaseConverter:
        if self._asked is not None:
            self._asked.append((variable_name, converter_name, args, tuple(kwargs.items())))
        return super().get_converter(variable_name, converter_name, args, kwargs)

    def _parse_rule(self, rule: str) -> Iterable[RulePart]:
        assert self.map is not None
        key = (rule, frozenset(self.map.converters.items()))
        parsed = _PARSED.get(key)
        if parsed is None:
            start, self._asked = len(self._trace), []
            try:
                parts = tuple(super()._parse_rule(rule))
                parsed = _Parsed(tuple((p.content, p.final, p.static, p.suffixed, p.weight) for p in parts),
                                 tuple(self._trace[start:]), tuple(self._asked))
            finally:
                self._asked = None
            _PARSED[key] = parsed
            return parts
        self._trace.extend(parsed.trace)
        for variable, converter, args, kwargs in parsed.converters:
            self._converters[variable] = self.get_converter(variable, converter, args, dict(kwargs))
            self.arguments.add(variable)
        return [RulePart(content, final, static, suffixed, weight)
                for content, final, static, suffixed, weight in parsed.parts]

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
