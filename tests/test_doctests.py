"""The examples in the modules' docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["keizer.model", "keizer.settings", "keizer.scoring", "keizer.pairing.keizer", "keizer.pairing.roundrobin",
           "keizer.pairing.knockout", "keizer.pairing.teams", "keizer.store", "keizer.publish.charts",
           "keizer.publish.i18n", "keizer.publish.plan",
           "keizer.operations.teamevent", "keizer.output", "keizer.formats.season_json", "keizer.formats.members_csv",
           "keizer.formats.trf", "keizer.formats.text", "keizer.limits"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
