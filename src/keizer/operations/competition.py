"""The weekly loop on a stored competition, in one place for its callers (the CLI, the app,
scripts): attendance, pairing, results, the initial order, imports and draws.

Each verb lives in the module of what it does — :mod:`~keizer.operations.attendance`,
:mod:`~keizer.operations.pairing`, :mod:`~keizer.operations.results`,
:mod:`~keizer.operations.order`, :mod:`~keizer.operations.importing`,
:mod:`~keizer.operations.draws`, :mod:`~keizer.operations.state` — and reads what it needs
from the :class:`~keizer.store.Store`, asks the competition's system
(:mod:`keizer.systems`) and the engines for decisions, and writes the outcome back.
Callers wrap a verb in ``store.change(...)`` so that a command is one transaction; every
rule that can refuse raises before anything is written.  The operations' own modules never
import this one: it only gathers them.
"""

from __future__ import annotations

from keizer.operations.attendance import (MARKS, check_entry, check_joined, check_round_date, mark_attendance,
                                          prepare_attendance, reinstate)
from keizer.operations.draws import draw_round_robin, entrants_for_draw
from keizer.operations.importing import MemberFinder, import_season
from keizer.operations.order import final_ranking, initial_order_rows, set_initial_order
from keizer.operations.outcomes import Change
from keizer.operations.pairing import (add_latecomer, make_pairing, pairing_request, remove_noshow, swap_players,
                                       unpair)
from keizer.operations.results import enter_results
from keizer.operations.setup import change_system_settings, system_settings_view
from keizer.operations.state import current_standing, require_system, require_unpaired, require_weekly
from keizer.systems import Open, open_round

__all__ = ["MARKS", "Change", "MemberFinder", "Open", "add_latecomer", "change_system_settings", "check_entry",
           "check_joined", "check_round_date", "current_standing", "draw_round_robin", "entrants_for_draw",
           "enter_results", "final_ranking", "import_season", "initial_order_rows", "make_pairing",
           "mark_attendance", "open_round", "pairing_request", "prepare_attendance", "reinstate",
           "remove_noshow", "require_system", "require_unpaired", "require_weekly", "set_initial_order",
           "swap_players", "system_settings_view", "unpair"]
