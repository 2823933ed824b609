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
    """Nor Babel (the site's languages) nor the tie-break ranking: the pairing needs neither."""
    file = next(iter(sorted(DATA.glob("next/*.trf"))))
    probe = ("import sys; from keizer.cli import main\n"
             f"sys.argv = ['keizer', 'trf', 'pair', {str(file)!r}, '--format', 'json']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlite_utils', 'networkx', 'jinja2', "
             "'flask', 'babel') or m in ('keizer.store', 'keizer.operations.competition', "
             "'keizer.tiebreaks.ranking', 'keizer.tiebreaks.advice', 'importlib.resources'))\n"
             "print('LOADED', heavy)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "LOADED []"


def test_help_lists_every_command_as_its_own_help_says():
    """'keizer --help' writes the lazily loaded commands' lines from a table of summaries: the
    table matches each command's own help, and the list reads exactly as click's own (which
    imports every command to ask it), at any width of terminal."""
    import click

    from keizer.cli.commands import _Commands

    lazily = {*_Commands.lazy, *_Commands.topic}
    assert set(_Commands.summaries) == lazily
    eager = type("Eager", (_Commands,), {"format_commands": click.Group.format_commands})
    for name in lazily:
        command = cli.get_command(click.Context(cli), name)
        assert command is not None and command.get_short_help_str(10**6) == _Commands.summaries[name], name
    for width in (50, 80, 120, 250):
        ours = cli.get_help(click.Context(cli, info_name="keizer", terminal_width=width, max_content_width=width))
        theirs = click.Context(cli, info_name="keizer", terminal_width=width, max_content_width=width)
        cli.__class__ = eager
        try:
            assert ours == cli.get_help(theirs), width
        finally:
            cli.__class__ = _Commands
        assert all(f"  {name} " in ours for name in lazily)


def test_help_imports_no_command_module():
    probe = ("import sys; from keizer.cli import main\n"
             "sys.argv = ['keizer', '--help']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "from keizer.cli.commands import TOPICS, _Commands\n"
             "modules = {*TOPICS, *(m.split(':')[0] for m in _Commands.lazy.values())}\n"
             "heavy = sorted(m for m in sys.modules if m in modules or m.split('.')[0] in ('sqlite_utils', "
             "'argon2', 'jinja2', 'flask') or m.startswith(('keizer.store', 'keizer.operations')))\n"
             "print('LOADED', heavy)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "Commands:" in out and "  trf " in out
    assert out.strip().splitlines()[-1] == "LOADED []"
