"""Members: add and edit one, import a member list or a rating list.

The CLI (``keizer member add/edit/import``, ``keizer ratings import``) and the web app's
members page call these, so both check the same things and say the same.  An import is
planned first (:func:`plan_member_import`, :func:`plan_rating_import`: what changes,
nothing written) and then written in the caller's one transaction.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Mapping

from keizer.formats.members_csv import ImportPlan, MemberRow
from keizer.formats.rating_lists import COLUMNS, RatingList, RatingPlan
from keizer.formats.errors import FormatError
from keizer.refusals import Message, Word, Words
from keizer.store import Store, StoreError

#: How the change log and the messages call a member's fields.
LABELS = {"rating": Word("rating"), "fed_id": Word("federation id"), "fide_id": Word("FIDE id"),
          "fide_rating": Word("FIDE rating"), "birth_year": Word("year of birth"), "fide_k": Word("FIDE K"),
          "career_public": Word("career on the site")}
FIELDS = ("name", "rating", "fed_id", "fide_id", "fide_rating", "birth_year", "fide_k", "career_public")


def _or_none(value: Any, key: str = "") -> Any:
    if key == "career_public":
        return Word("published") if value else Word("not published")
    return Word("none") if value is None else value


def add_member(store: Store, name: str, rating: int | None = None, fed_id: str | None = None,
               fide_id: str | None = None, fide_rating: int | None = None,
               allow_duplicate: bool = False) -> dict[str, Any]:
    """Add a member (refused when one with the same name exists, unless ``allow_duplicate``)."""
    member_id = store.add_member(name, rating, fed_id, allow_duplicate=allow_duplicate, fide_id=fide_id,
                                 fide_rating=fide_rating)
    return store.member(member_id)


def edit_member(store: Store, ref: str, fields: Mapping[str, Any],
                allow_duplicate: bool = False) -> tuple[dict[str, Any], Message]:
    """Change a member's name, ratings or ids; returns the member as it is now and what
    changed ("renamed: A → B; rating 1800 → 1850", or "nothing changed"), which is also
    the change's summary in the log."""
    fields = {k: v for k, v in fields.items() if k in FIELDS}
    if not fields:
        raise StoreError("nothing to change", hint="su_member_fields")
    old = store.find_member(ref)
    store.update_member(old["id"], allow_duplicate=allow_duplicate, **fields)
    new = store.member(old["id"])
    changed = Message("nothing changed")
    for n, key in enumerate(k for k in FIELDS if old[k] != new[k]):
        line = Message("renamed: %(old)s → %(new)s", old=old["name"], new=new["name"]) if key == "name" else \
            Message("%(label)s %(old)s → %(new)s", label=LABELS[key], old=_or_none(old[key], key),
                    new=_or_none(new[key], key))
        changed = line if n == 0 else Message("%(said)s; %(more)s", said=changed, more=line)
    store.describe(Message("edit member #%(id)s %(name)s: %(changed)s", id=new["id"], name=new["name"], changed=changed))
    return new, changed


# -- a member list --------------------------------------------------------------


@dataclass(frozen=True)
class MemberImport:
    """What importing a member list changes (see :func:`keizer.formats.members_csv.plan`)."""

    file_name: str
    plan: ImportPlan

    @property
    def counts(self) -> Message:
        said: dict[str, Any] = dict(n=self.plan.added, updated=self.plan.updated, unchanged=self.plan.unchanged)
        return Message("%(n)s member added, %(updated)s updated, %(unchanged)s unchanged", **said) \
            if self.plan.added == 1 else Message("%(n)s members added, %(updated)s updated, %(unchanged)s unchanged",
                                                 **said)

    @property
    def summary(self) -> Message:
        """The change log's summary."""
        return Message("import members from %(file)s: %(counts)s", file=self.file_name, counts=self.counts)

    @property
    def lines(self) -> list[Message]:
        """One line per change: "added: …", "Anna: rating 1850 → 1875", "name: A → B"."""
        return [line for change in self.plan.changes for line in change.report]

    @property
    def added(self) -> list[Message]:
        return [line for c in self.plan.changes if c.member_id is None for line in c.report]

    @property
    def changed(self) -> list[Message]:
        return [line for c in self.plan.changes if c.member_id is not None for line in c.report]


def member_rows(path: Path, raw: bytes | None = None) -> list[MemberRow]:
    """The rows of a member list: a CSV file, or a KeizerForClubs database's players."""
    from keizer.formats.kfc import looks_like_kfc
    from keizer.formats.kfc import member_rows as kfc_rows
    from keizer.formats.members_csv import parse

    raw = path.read_bytes() if raw is None else raw
    if looks_like_kfc(raw, path):  # KeizerForClubs' players
        return kfc_rows(path)
    return parse(raw)


def plan_member_import(members: list[dict[str, Any]], path: Path, update_names: bool = False,
                       allow_duplicate: bool = False, file_name: str | None = None) -> MemberImport:
    """What importing the member list ``path`` into ``members`` changes; nothing is written."""
    from keizer.formats.members_csv import plan

    rows = member_rows(path)
    return MemberImport(file_name or path.name, plan(rows, members, update_names, allow_duplicate))


def write_member_import(store: Store, todo: MemberImport) -> None:
    """Write an import's changes (inside the caller's transaction); a refusal names the line."""
    for change in todo.plan.changes:
        try:
            if change.member_id is None:
                store.add_member(**change.fields)
            else:
                store.update_member(change.member_id, **change.fields)
        except StoreError as e:
            raise StoreError("%(file)s line %(line)s: %(why)s", file=todo.file_name, line=change.line, why=e) from None


# -- a rating list --------------------------------------------------------------


@dataclass(frozen=True)
class RatingImport:
    """What a rating list (the KNSB's or FIDE's) changes (see :func:`keizer.formats.rating_lists.plan`)."""

    file_name: str
    plan: RatingPlan

    @property
    def id_label(self) -> str:
        return COLUMNS[self.plan.kind][2]

    @property
    def list_name(self) -> str:
        return "FIDE" if self.plan.kind == "fide" else "national"

    @property
    def counts(self) -> Message:
        p = self.plan
        return Message("%(changed)s members changed, %(unchanged)s unchanged, %(missing)s not found, %(without)s "
                       "without a %(label)s", changed=len(p.updates), unchanged=p.unchanged, missing=len(p.not_found),
                       without=len(p.without_id), label=Words((self.id_label,)))

    @property
    def summary(self) -> Message:
        """The change log's summary."""
        return Message("import the %(list)s rating list %(file)s: %(counts)s", list=Words((self.list_name,)),
                       file=self.file_name, counts=self.counts)

    @property
    def changed(self) -> list[Message]:
        return [u.report for u in self.plan.updates]


def read_rating_list(stream: IO[bytes], file_name: str, members: list[dict[str, Any]], match_names: bool = False,
                     progress: Callable[[int], None] | None = None) -> RatingList:
    """The entries of a rating list (zipped or not) that the members need; a file that is
    not one is refused in one line that names it."""
    from keizer.formats.rating_lists import name_keys, read, wanted

    names = set().union(*(name_keys(m["name"]) for m in members)) if match_names else None
    try:
        return read(stream, wanted(members), names, progress)
    except FormatError as e:  # say which file: the officer may have several lists at hand
        raise FormatError("%(file)s: %(why)s", file=file_name, why=e) from None


def plan_rating_import(found: RatingList, members: list[dict[str, Any]], file_name: str,
                       match_names: bool = False) -> RatingImport:
    from keizer.formats.rating_lists import plan

    return RatingImport(file_name, plan(found, members, match_names))


def write_rating_import(store: Store, todo: RatingImport) -> None:
    for update in todo.plan.updates:
        store.update_member(update.member_id, **update.fields)


# -- members in a season JSON file -------------------------------------------------


def season_member_data(store: Store, comp_id: int) -> Any:
    """The FIDE ids and ratings of a competition's players' members and its rating list,
    for ``keizer export`` (:func:`keizer.formats.season_json.dump`)."""
    from keizer.formats.season_json import MemberData

    members = {m["id"]: m for m in store.members()}
    fide_ids, fide_ratings = {}, {}
    for row in store.players(comp_id):
        member = members[row["member_id"]]
        if member["fide_id"]:
            fide_ids[row["key"]] = member["fide_id"]
        if member["fide_rating"]:
            fide_ratings[row["key"]] = member["fide_rating"]
    return MemberData(store.rating_list(comp_id), fide_ids, fide_ratings)


def store_season_member_data(store: Store, comp_id: int, data: Any) -> list[str]:
    """Give the members of an imported season's players the file's FIDE ids and ratings
    (:class:`keizer.formats.season_json.MemberData`), inside the caller's transaction.
    A member keeps an id or a FIDE rating he has (the club's may be newer); an id another
    member has is not stored.  Returns one line for each value not stored, and why."""
    members = {m["id"]: m for m in store.members()}
    owner = {m["fide_id"]: m for m in members.values() if m["fide_id"]}
    notes = []
    for row in store.players(comp_id):
        member = members[row["member_id"]]
        fields: dict[str, Any] = {}
        fide = data.fide_ids.get(row["key"])
        if fide is not None and fide != member["fide_id"]:
            if member["fide_id"] is not None:
                notes.append(f"{row['name']}: FIDE id {fide} not stored, the member has {member['fide_id']}")
            elif fide in owner:
                notes.append(f"{row['name']}: FIDE id {fide} not stored, member {owner[fide]['name']} "
                             f"(id {owner[fide]['id']}) has it")
            else:
                fields["fide_id"] = fide
                owner[fide] = member
        rating = data.fide_ratings.get(row["key"])
        if rating is not None and member["fide_rating"] is None:
            fields["fide_rating"] = rating
        if fields:
            store.update_member(member["id"], **fields)
            member.update(fields)
    return notes


# -- trying a write ---------------------------------------------------------------


class _Trial(Exception):
    pass


@contextmanager
def trial(store: Store) -> Iterator[Store]:
    """Make writes and roll them back: a preview that meets every refusal the real write
    would meet, and leaves the database as it was."""
    try:
        with store.change("preview", "preview"):
            yield store
            raise _Trial()
    except _Trial:
        pass
