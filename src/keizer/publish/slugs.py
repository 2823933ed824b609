"""Names of the site's files: readable, safe on every system, distinct, and kept from run to run."""

from __future__ import annotations

import re
from typing import Collection, Mapping, Sequence

from keizer.limits import fold_name

#: Names Windows keeps for devices, whatever the extension: a site copied there must still open.
_DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                           *(f"lpt{i}" for i in range(1, 10))})


def slugify(text: str) -> str:
    """A file-name-safe, readable form of a name: ASCII letters, digits and inner hyphens, at
    most 60 characters; never empty, never a path step (``..``), never a Windows device name.

    >>> slugify("Interne competitie 2025/2026"), slugify("Café <Noir>"), slugify("!!!"), slugify("Con")
    ('interne-competitie-2025-2026', 'cafe-noir', 'x', 'con-x')
    """
    folded = fold_name(text).encode("ascii", "ignore").decode()  # Łukasz is lukasz, not ukasz
    slug = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")[:60].rstrip("-") or "x"
    return f"{slug}-x" if slug in _DEVICE_NAMES else slug


def unique_slugs(names: Sequence[str], taken: Collection[str] = ()) -> list[str]:
    """Distinct slugs for names, given in a fixed order (start number, id): the first name with
    a slug keeps it; a later one gets the first free ``-2``, ``-3``, … that is neither taken
    nor another name's own slug, so "Jan de Vries 2" keeps ``jan-de-vries-2`` whoever came first.

    >>> unique_slugs(["Jan de Vries", "Jan de-Vries", "Jan de Vries 2"])
    ['jan-de-vries', 'jan-de-vries-3', 'jan-de-vries-2']
    """
    natural = [slugify(name) for name in names]
    avoid = set(taken) | set(natural)
    used = set(taken)
    result = []
    for base in natural:
        slug, k = base, 2
        while slug in used or (slug != base and slug in avoid):
            slug, k = f"{base}-{k}", k + 1
        used.add(slug)
        result.append(slug)
    return result


#: The site's folder of the members' career pages across seasons (no season is given it).
CAREERS = "careers"


def season_slugs(published: Mapping[str, str], names: Sequence[str]) -> dict[str, str]:
    """The folder of each season name: the one it was published under before (``published``:
    folder → name, from ``seasons.json``), else a new one that no other season has, nor
    ``static`` or :data:`CAREERS` (the site's own folders)."""
    known = {name: slug for slug, name in sorted(published.items(), reverse=True)}  # the first folder wins
    new = [name for name in names if name not in known]
    return {**{name: known[name] for name in names if name in known},
            **dict(zip(new, unique_slugs(new, taken={*published, "static", CAREERS})))}
