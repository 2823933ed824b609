"""The app's URL builders are made when first used (keizer.web.routing) and shared by the
apps of a process, and its paths parsed once a process: every address the app builds is the
one werkzeug's own rules build, and every address leads where werkzeug's own rules lead."""

from __future__ import annotations

import functools
from unittest import mock

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, MapAdapter, Rule

from conftest import examples
from keizer.web import create_app
from keizer.web.routing import LazyBuilderRule

#: A value for each part of the app's addresses: a row id, or any text (a token, a code, a
#: player's key, a file's path).
PARTS = st.fixed_dictionaries({
    **{part: st.integers(0, 2**63 - 1) for part in ("comp_id", "player_id", "member_id", "number")},
    **{part: st.text(max_size=12) for part in ("key", "code", "token")},
    "name": st.text(min_size=1, max_size=12)})
QUERY = st.dictionaries(st.sampled_from(["round", "print", "ü x", "next"]), st.text(max_size=6), max_size=2)


def werkzeugs_own(url_map: Map) -> Map:
    """The same rules as werkzeug's own Rule, compiled as werkzeug does when a rule is added."""
    return Map([Rule(rule.rule, endpoint=rule.endpoint, methods=rule.methods)
                for rule in url_map.iter_rules()], converters=url_map.converters)


@functools.cache
def apps() -> tuple[Flask, Flask, MapAdapter]:
    """Two apps (the second's builders are the first's) and werkzeug's own rules of the first."""
    first, second = create_app(":memory:"), create_app(":memory:")
    return first, second, werkzeugs_own(first.url_map).bind("club.example", script_name="/keizer")


@settings(max_examples=examples(50))
@given(PARTS, QUERY, st.booleans())
def test_every_address_of_every_app_is_werkzeugs(parts, query, external):
    """Values the rule does not name appended as a query (werkzeug's second builder) or left
    out (its first); ``external``: the address with its scheme and host."""
    *made, expected = apps()
    assert all(isinstance(rule, LazyBuilderRule) for app in made for rule in app.url_map.iter_rules())
    for app in made:
        urls = app.url_map.bind("club.example", script_name="/keizer")
        for rule in app.url_map.iter_rules():
            values = {part: parts[part] for part in rule.arguments}
            for extra in ({}, query):
                for unknown in (False, True):
                    asked = dict(values=dict(values, **extra), append_unknown=unknown, force_external=external)
                    assert urls.build(rule.endpoint, **asked) == expected.build(rule.endpoint, **asked)


@settings(max_examples=examples(10))  # each example matches every rule's address 6 times
@given(PARTS, st.sampled_from(["", "/", "x", "/x", ".json"]))
def test_every_address_leads_where_werkzeugs_rules_lead(parts, tail):
    """Each rule's address (and the address with something after it: a slash, another word) is
    matched by every app as by werkzeug's own rules: the same page and values, or the same
    refusal (not found, a redirect to the address with its slash, a method not allowed)."""
    *made, expected = apps()

    def led(urls: MapAdapter, path: str, method: str) -> object:
        try:
            return urls.match(path, method)
        except HTTPException as e:  # werkzeug's RequestRedirect, NotFound, MethodNotAllowed
            allowed = getattr(e, "valid_methods", None)   # from a set: its order is not the rule's
            return type(e).__name__, getattr(e, "new_url", None), sorted(allowed) if allowed else allowed

    for rule in made[0].url_map.iter_rules():
        path = expected.build(rule.endpoint, {part: parts[part] for part in rule.arguments}) + tail
        for method in ("GET", "POST"):
            wanted = led(expected, path.removeprefix("/keizer"), method)
            for app in made:
                assert led(app.url_map.bind("club.example", script_name="/keizer"), path.removeprefix("/keizer"),
                           method) == wanted, (path, method)


def test_a_builder_is_compiled_when_first_used_and_once_a_process():
    compiled = []
    werkzeugs = Rule._compile_builder

    def counted(rule, append_unknown=True):
        compiled.append((rule.rule, append_unknown))
        return werkzeugs(rule, append_unknown)

    with mock.patch.object(Rule, "_compile_builder", counted):
        first = Map([LazyBuilderRule("/test-only/<int:comp_id>/results", endpoint="results"),
                     LazyBuilderRule("/test-only/members", endpoint="members")]).bind("club")
        assert compiled == []
        assert first.build("results", {"comp_id": 7}) == "/test-only/7/results"
        assert first.build("results", {"comp_id": 8, "round": 2}) == "/test-only/8/results?round=2"
        assert first.build("results", {"comp_id": 9, "round": 3}) == "/test-only/9/results?round=3"
        assert compiled == [("/test-only/<int:comp_id>/results", True)]  # the members rule never built
        second = Map([LazyBuilderRule("/test-only/<int:comp_id>/results", endpoint="results")]).bind("club")
        assert second.build("results", {"comp_id": 10, "round": 4}) == "/test-only/10/results?round=4"
        assert compiled == [("/test-only/<int:comp_id>/results", True)]
        with_defaults = Map([LazyBuilderRule("/test-only/<int:comp_id>/results", endpoint="results",
                                             defaults={"round": "1"})]).bind("club")
        assert with_defaults.build("results", {"comp_id": 11}) == "/test-only/11/results"
        assert len(compiled) == 2  # its builder holds its defaults: its own
