"""The one error every file format raises for a file it cannot read.

Kept apart from the formats themselves, so that reading one format (a TRF file for
``trf pair``) does not load another's model (the season format and its settings).
"""

from __future__ import annotations

from keizer.refusals import Refusal


class FormatError(Refusal, ValueError):
    """The file is not valid in its format; the message names where and why."""
