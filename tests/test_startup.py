"""The CLI imports a command's module only when it runs: 'keizer trf pair' starts without
the database layer, and the list of lazily loaded commands matches the modules."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from keizer.cli.commands import TOPICS, cli

DATA = Path(__file__).parent / "data" / "swiss"


def test_every_topic_command_is_listed_where_it_lives():
    for module, names in TOPICS.items():
        assert tuple(c.name for c in importlib.import_module(module).COMMANDS) == names
    assert set(cli.list_commands(None)) >= {name for names in TOPICS.values() for name in names}  # type: ignore[arg-type]


def test_trf_pair_loads_no_database_code():
    file = next(iter(sorted(DATA.glob("next/*.trf"))))
    probe = ("import sys; from keizer.cli import main\n"
             f"sys.argv = ['keizer', 'trf', 'pair', {str(file)!r}, '--format', 'json']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlite_utils', 'networkx', 'jinja2', "
             "'flask') or m in ('keizer.store', 'keizer.operations.competition'))\n"
             "print('LOADED', heavy)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "LOADED []"
