"""Replacing stand-in card values with printed ones: `meadow mystic-vale import-cards`.

The CSV has a header row; the columns are documented in docs/mystic-vale-cards.md:

    kind,id,name,set,level,cost,mana,decay,growth,vp,beast,forest,sky,wild,guardian,end_vp,copies,ability

An empty cell keeps the current value; a filled one replaces it and clears its stand-in mark.
A row with an id Meadow does not know adds a card (then kind, name, set and level are needed).
For vale cards the four spirit columns are the card's COST.
"""

from __future__ import annotations

import copy
import csv
import io
from collections.abc import Iterator
from typing import Any

from meadow.core.data import excerpt
from meadow.core.errors import MeadowError

COLUMNS = (
    "kind",
    "id",
    "name",
    "set",
    "level",
    "cost",
    "mana",
    "decay",
    "growth",
    "vp",
    "beast",
    "forest",
    "sky",
    "wild",
    "guardian",
    "end_vp",
    "copies",
    "ability",
)
SYMBOLS = ("mana", "decay", "growth", "vp", "beast", "forest", "sky", "wild", "guardian", "end_vp")
SPIRITS = ("beast", "forest", "sky", "wild")
SETS = ("base", "vale_of_magic")


class CardImportError(MeadowError):
    """A CSV row that cannot be imported, named by row and column."""


def decode(raw: bytes) -> tuple[str, list[str]]:
    """The CSV's text and notes on how it was read. Spreadsheets save UTF-8 with a byte-order
    mark, or (German Excel's "CSV") Windows-1252, which is read as such with a note."""
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        bad = exc.start
    for encoding in ("cp1252", "latin-1"):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        return text, [
            f"the file is not UTF-8 (byte {raw[bad]:#04x} at offset {bad}); "
            f"read it as {'Windows-1252' if encoding == 'cp1252' else 'Latin-1'}: "
            "check the names with accents, or save it as 'CSV UTF-8'"
        ]
    raise AssertionError("latin-1 decodes every byte")  # pragma: no cover


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    """Comma, semicolon (spreadsheets where the comma is the decimal mark) or tab, told
    from the header row."""
    header = text.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(header, delimiters=",;\t")
    except csv.Error:
        return csv.excel


def import_cards(
    text: str, advancements: dict[str, Any], vales: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """New card documents with the CSV's values, and a report line per card changed.

    Raises:
        CardImportError: naming the first bad row and why; nothing is changed then.
    """
    adv_doc, vale_doc = copy.deepcopy(advancements), copy.deepcopy(vales)
    text = text.removeprefix("\ufeff")
    reader = csv.DictReader(io.StringIO(text, newline=""), dialect=_dialect(text))
    try:
        header = reader.fieldnames
    except csv.Error as exc:
        raise CardImportError(f"row 1: not readable as CSV: {exc}") from None
    if header is not None:
        reader.fieldnames = [name.strip().lower() for name in header]
    missing = [col for col in ("kind", "id") if col not in (reader.fieldnames or [])]
    if missing:
        raise CardImportError(
            f"the CSV needs a header row with at least: kind, id (missing {missing})"
        )
    unknown = sorted(set(reader.fieldnames or []) - set(COLUMNS))
    if unknown:
        raise CardImportError(
            f"unknown columns {excerpt(unknown)}; the columns are: {', '.join(COLUMNS)}"
        )
    abilities = _known_abilities(adv_doc, vale_doc)
    report = []
    seen: dict[tuple[str, str], int] = {}
    for number, row in _rows(reader):
        extra = [cell for cell in row.pop(None, []) if cell.strip()]  # type: ignore[call-overload]
        if extra:
            raise CardImportError(
                f"row {number}: more cells than the header has columns "
                f"({excerpt(extra[0])} has none)"
            )
        row = {k: (v or "").strip() for k, v in row.items() if k}
        if not any(row.values()):
            continue  # a blank line, as spreadsheets leave at the end
        kind = row.get("kind", "")
        key = (kind, row.get("id", ""))
        if key in seen:
            raise CardImportError(
                f"row {number}: {kind} {excerpt(key[1])} is listed twice (first in row {seen[key]})"
            )
        seen[key] = number
        if kind == "advancement":
            cards = adv_doc["advancements"]
        elif kind == "vale":
            cards = vale_doc["vales"]
        else:
            raise CardImportError(
                f"row {number}: kind {excerpt(kind)} is neither 'advancement' nor 'vale'"
            )
        report.append(_import_row(number, row, kind, cards, abilities))
    return adv_doc, vale_doc, report


def _rows(reader: csv.DictReader[str]) -> Iterator[tuple[int, dict[Any, Any]]]:
    """Each row with the number of the line it ends on; a line the csv module cannot read (a
    stray carriage return, a NUL byte) is a CardImportError naming it."""
    try:
        for row in reader:
            yield reader.line_num, row
    except csv.Error as exc:
        raise CardImportError(f"row {reader.line_num}: not readable as CSV: {exc}") from None


def _known_abilities(adv_doc: dict[str, Any], vale_doc: dict[str, Any]) -> dict[str, str]:
    found = {}
    for card in adv_doc["advancements"] + vale_doc["vales"]:
        if card["ability"]:
            found[card["ability"]] = card["timing"]
    return found


def _whole(number: int, row: dict[str, str], column: str, low: int, high: int) -> int | None:
    value = row.get(column, "")
    if value == "":
        return None
    if not value.isdigit() or not low <= int(value) <= high:
        raise CardImportError(
            f"row {number} ({row['id']}): {column} {value!r} is not a whole number {low}-{high}"
        )
    return int(value)


def _import_row(
    number: int,
    row: dict[str, str],
    kind: str,
    cards: list[dict[str, Any]],
    abilities: dict[str, str],
) -> str:
    card_id = row["id"]
    if not card_id:
        raise CardImportError(f"row {number}: the id is empty")
    card = next((c for c in cards if c["id"] == card_id), None)
    if card is None:
        card = _new_card(number, row, kind)
        cards.append(card)
        action = "added"
    else:
        action = "updated"
    flags = card["standin"]
    if row.get("name"):
        card["name"] = row["name"]
    if row.get("set"):
        if row["set"] not in SETS:
            raise CardImportError(f"row {number} ({card_id}): set must be one of {SETS}")
        card["set"] = row["set"]
        if "set" in flags:  # a set Meadow inferred (S19 names none) is now printed
            flags["set"] = False
    level = _whole(number, row, "level", 1, 3 if kind == "advancement" else 2)
    if level is not None:
        card["level"], flags["level"] = level, False
    if kind == "advancement":
        cost = _whole(number, row, "cost", 0, 20)
        if cost is not None:
            card["cost"], flags["cost"] = cost, False
        for symbol in SYMBOLS:
            value = _whole(number, row, symbol, 0, 9)
            if value is not None:
                card["symbols"][symbol] = value
                flags["symbols"] = False
        card["symbols"] = {k: v for k, v in card["symbols"].items() if v}
    else:
        for spirit in SPIRITS:
            value = _whole(number, row, spirit, 0, 9)
            if value is not None:
                card["cost"][spirit] = value
                flags["cost"] = False
        for column in ("end_vp", "growth"):
            value = _whole(number, row, column, 0, 9)
            if value is not None:
                card[column] = value
                flags["symbols"] = False
        copies = _whole(number, row, "copies", 1, 9)
        if copies is not None:
            card["copies"], flags["copies"] = copies, False
    if row.get("ability"):
        if row["ability"] not in abilities:
            known = ", ".join(sorted(abilities))
            raise CardImportError(
                f"row {number} ({card_id}): ability {row['ability']!r} is not one Meadow "
                f"implements; known: {known}"
            )
        card["ability"], card["timing"] = row["ability"], abilities[row["ability"]]
        flags["ability"] = False
    return f"{action} {kind} {card_id}"


def _new_card(number: int, row: dict[str, str], kind: str) -> dict[str, Any]:
    for column in ("name", "set", "level"):
        if not row.get(column):
            raise CardImportError(
                f"row {number}: no card {row['id']!r} yet; a new card needs name, set and level"
            )
    common = {
        "id": row["id"],
        "name": row["name"],
        "named": True,
        "set": row["set"],
        "level": 0,
        "ability": None,
        "timing": None,
        "source": "imported",
    }
    if kind == "advancement":
        return {
            **common,
            "cost": 0,
            "symbols": {},
            "vertical": False,
            "standin": {"cost": True, "symbols": True, "level": True, "ability": False},
        }
    return {
        **common,
        "copies": 1,
        "cost": {},
        "end_vp": 0,
        "growth": 0,
        "standin": {"cost": True, "symbols": True, "copies": True, "level": True, "ability": False},
    }


def count_report(adv_doc: dict[str, Any], vale_doc: dict[str, Any]) -> list[str]:
    """Where the cards per set and level differ from the real game's counts."""
    expected_adv = {
        ("base", 1): 33,
        ("base", 2): 30,
        ("base", 3): 33,
        ("vale_of_magic", 1): 18,
        ("vale_of_magic", 2): 21,
        ("vale_of_magic", 3): 15,
    }
    expected_vale = {
        ("base", 1): 18,
        ("base", 2): 18,
        ("vale_of_magic", 1): 9,
        ("vale_of_magic", 2): 9,
    }
    problems = []
    for (set_, level), n in expected_adv.items():
        have = 3 * sum(
            1 for a in adv_doc["advancements"] if a["set"] == set_ and a["level"] == level
        )
        if have != n:
            problems.append(f"{set_} level-{level} advancements: {have}, the game has {n}")
    for (set_, level), n in expected_vale.items():
        have = sum(
            v["copies"] for v in vale_doc["vales"] if v["set"] == set_ and v["level"] == level
        )
        if have != n:
            problems.append(f"{set_} level-{level} vale cards: {have}, the game has {n}")
    return problems
