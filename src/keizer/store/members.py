"""The club's members: their names, ratings and federation and FIDE ids."""

from __future__ import annotations

import re
from typing import Any

from keizer.limits import FED_ID, fold_name, name_order
from keizer.store.database import Database, StoreError, _rowid
from keizer.store.names import _clean_name, _id_number, pick_by_name

#: A member row as the store gives it.
_MEMBER = "id, name, rating, fed_id, fide_id, fide_rating, birth_year, fide_k, career_public"


class Members(Database):
    """The members of the club."""

    def add_member(self, name: str, rating: int | None = None, fed_id: str | None = None, *,
                   allow_duplicate: bool = True, fide_id: str | None = None, fide_rating: int | None = None) -> int:
        """Add a member; without ``allow_duplicate``, refuse a name that equals an existing
        member's up to case, accents and spaces (importers of past seasons do add namesakes)."""
        name = _clean_name(name)
        _check_rating(rating)
        _check_rating(fide_rating)
        fed_id = _clean_fed_id(fed_id)
        fide_id = _clean_fide_id(fide_id)
        if not allow_duplicate:
            self._refuse_namesake(name)
        self._refuse_taken_ids(fed_id, fide_id)
        cur = self.conn.execute(
            "INSERT INTO members (name, rating, fed_id, fide_id, fide_rating) VALUES (?, ?, ?, ?, ?)",
            (name, rating, fed_id, fide_id, fide_rating)
        )
        return _rowid(cur)

    def update_member(self, member_id: int, *, allow_duplicate: bool = True, **fields: Any) -> None:
        allowed = {"name", "rating", "fed_id", "fide_id", "fide_rating", "birth_year", "fide_k", "career_public"}
        sets = {k: v for k, v in fields.items() if k in allowed}
        if "name" in sets:
            sets["name"] = _clean_name(sets["name"])
            if not allow_duplicate:
                self._refuse_namesake(sets["name"], member_id)
        for key in ("rating", "fide_rating"):
            if key in sets:
                _check_rating(sets[key])
        if sets.get("birth_year") is not None and not 1900 <= sets["birth_year"] <= 2100:
            raise StoreError("year of birth %(year)s is out of range (1900 to 2100)", year=sets["birth_year"])
        if sets.get("fide_k") is not None and not 1 <= sets["fide_k"] <= 40:
            raise StoreError("K %(k)s is out of range (1 to 40)", k=sets["fide_k"])
        if "career_public" in sets:
            sets["career_public"] = int(bool(sets["career_public"]))
        if "fed_id" in sets:
            sets["fed_id"] = _clean_fed_id(sets["fed_id"])
        if "fide_id" in sets:
            sets["fide_id"] = _clean_fide_id(sets["fide_id"])
        current = self.member(member_id)
        sets = {k: v for k, v in sets.items() if current[k] != v}  # an unchanged value is no change to undo
        self._refuse_taken_ids(sets.get("fed_id"), sets.get("fide_id"), member_id)
        if sets:
            assignments = ", ".join(f"{k} = ?" for k in sets)
            self.conn.execute(f"UPDATE members SET {assignments} WHERE id = ?", (*sets.values(), member_id))

    def namesakes(self, name: str, exclude: int | None = None) -> list[dict[str, Any]]:
        """Members whose name equals ``name`` up to case, accents and spaces."""
        want = fold_name(name)
        return [m for m in self.members() if m["id"] != exclude and fold_name(m["name"]) == want]

    def _refuse_taken_ids(self, fed_id: str | None, fide_id: str | None, exclude: int | None = None) -> None:
        """A federation or FIDE id names one person: a second member with it is refused (an
        import that matches by id would otherwise pick one of the two at random)."""
        for column, value in (("fed_id", fed_id), ("fide_id", fide_id)):
            if not value:
                continue
            other = self._row(f"SELECT id, name FROM members WHERE {column} = ? AND id IS NOT ?", (value, exclude))
            if other and column == "fed_id":
                raise StoreError("federation id %(value)s is already %(name)s's (member #%(id)s); each member has an "
                                 "id of their own", value=value, name=other["name"], id=other["id"])
            if other:
                raise StoreError("FIDE id %(value)s is already %(name)s's (member #%(id)s); each member has an id of "
                                 "their own", value=value, name=other["name"], id=other["id"])

    def _refuse_namesake(self, name: str, exclude: int | None = None) -> None:
        same = self.namesakes(name, exclude)
        if same:
            raise StoreError("%(name)s is already a member: %(other)s (id %(id)s); to have both", hint="store_namesake",
                             name=repr(name), other=same[0]["name"], id=same[0]["id"])

    def members(self) -> list[dict[str, Any]]:
        rows = self._rows(f"SELECT {_MEMBER} FROM members ORDER BY id")
        return sorted(rows, key=lambda m: name_order(m["name"]))  # stable: namesakes by id

    def member(self, member_id: int) -> dict[str, Any]:
        row = self._row(f"SELECT {_MEMBER} FROM members WHERE id = ?", (member_id,))
        if row is None:
            raise StoreError("no member with id %(id)s", id=member_id)
        return row

    def find_member(self, ref: str) -> dict[str, Any]:
        """A member by id (``#12`` or ``12``), federation id, FIDE id (``fide:1503014``, or the
        number alone when no member has it as id or federation id), or name (see :func:`pick_by_name`)."""
        text = ref.strip()
        if text[:5].lower() == "fide:":
            row = self._row(f"SELECT {_MEMBER} FROM members WHERE fide_id = ?", (text[5:].strip(),))
            if row:
                return row
            raise StoreError("no member has FIDE id %(value)s", hint="store_see_members", value=repr(text[5:].strip()[:20]))
        number = _id_number(text.removeprefix("#"))
        if number is not None:
            row = self._row(f"SELECT {_MEMBER} FROM members WHERE id = ?", (number,))
            if row:
                return row
        if text.startswith("#"):
            raise StoreError("there is no member %(ref)s", hint="store_see_members", ref=text[:20])
        row = self._row(f"SELECT {_MEMBER} FROM members WHERE fed_id = ?", (text,))
        if row:
            return row
        row = self._row(f"SELECT {_MEMBER} FROM members WHERE fide_id = ?", (text,))
        if row:
            return row
        return pick_by_name(self.members(), text, "member")


def _clean_fed_id(fed_id: str | None) -> str | None:
    """A federation id as stored: None when empty; letters, digits and . / - only."""
    if fed_id is None or not fed_id.strip():
        return None
    fed_id = fed_id.strip()
    if not FED_ID.fullmatch(fed_id):
        raise StoreError("federation id %(value)s is not valid: use up to 32 letters, digits, '.', '/' or '-'",
                         value=repr(fed_id[:40]))
    return fed_id


def _clean_fide_id(fide_id: str | None) -> str | None:
    """A FIDE id as stored: None when empty; ASCII digits only (FIDE ids are numbers)."""
    if fide_id is None or not fide_id.strip():
        return None
    fide_id = fide_id.strip()
    if not re.fullmatch(r"[0-9]{1,12}", fide_id):
        raise StoreError("FIDE id %(value)s is not valid: use the number FIDE gives, up to 12 digits",
                         value=repr(fide_id[:40]))
    return fide_id


def _check_rating(rating: int | None) -> None:
    if rating is not None and not 0 <= rating <= 4000:
        raise StoreError("rating %(rating)s is out of range (0 to 4000)", rating=rating)
