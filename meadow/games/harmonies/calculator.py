"""The score calculator for cardboard games: one board in, the breakdown out.

The input is the format of tests/games/harmonies/reference_cases.json (documented in
docs/harmonies-calculator.md). Every mistake is reported with where it is and what is wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from meadow.core.data import excerpt
from meadow.core.errors import MeadowError
from meadow.games.harmonies import components as c
from meadow.games.harmonies.scoring import CATEGORIES, breakdown

if TYPE_CHECKING:
    from meadow.games.harmonies.rules import HarmoniesState

COORDINATE_SET_ONLY = "coordinate set only"


class BoardError(MeadowError):
    """A board file the calculator cannot score, with the place and the reason."""


class _Cell(BaseModel):
    model_config = ConfigDict(extra="ignore")
    col: int
    row: int
    stack: list[str]
    cube: bool | int | str | None = None


class _Card(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: int
    cubes_remaining: int
    spirit: bool = False


class _Board(BaseModel):
    model_config = ConfigDict(extra="ignore")
    side: Literal["A", "B"]
    board_scope: str = "full"
    cells: list[_Cell]
    cards: list[_Card] | None = None
    animal_card_values: list[int] | None = None
    spirit_card: int | None = None


def score_board(data: Any) -> dict[str, int]:
    """Score one board: trees, mountains, fields, buildings, water, animals, spirit, total.

    Raises:
        BoardError: naming the field, cell or card at fault.
    """
    try:
        board = _Board.model_validate(data)
    except ValidationError as exc:
        raise BoardError(_describe(exc)) from None
    stacks = _stacks(board)
    animals, spirit = _cards(board)
    points = breakdown(stacks, board.side, animals, spirit)
    points["animals"] += sum(board.animal_card_values or [])
    points["total"] = sum(points[k] for k in CATEGORIES)
    return points


def _describe(exc: ValidationError) -> str:
    """The first problems, each with a short excerpt of what was there (never the whole input:
    a wrong file can be megabytes)."""
    problems = []
    errors = exc.errors(include_url=False)
    for err in errors[:3]:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".")
        got = "" if err["type"] == "missing" else f" (got {excerpt(err.get('input'))})"
        problems.append(f"{where or 'board'}: {err['msg']}{got}")
    if len(errors) > 3:
        problems.append(f"and {len(errors) - 3} more")
    return "; ".join(problems)


def _stacks(board: _Board) -> dict[c.Cell, tuple[str, ...]]:
    free_form = board.board_scope.lower().startswith(COORDINATE_SET_ONLY)
    side = c.board(board.side)
    stacks: dict[c.Cell, tuple[str, ...]] = {} if free_form else dict.fromkeys(side.cells, ())
    seen: set[c.Cell] = set()
    for i, cell in enumerate(board.cells):
        where = f"cells[{i}] (col {cell.col}, row {cell.row})"
        key = (cell.col, cell.row)
        if not free_form and key not in side.index:
            raise BoardError(f"{where}: not a space of board side {board.side}")
        if key in seen:
            raise BoardError(f"{where}: this space is listed twice")
        seen.add(key)
        for token in cell.stack:
            if token not in c.COLOURS:
                raise BoardError(
                    f"{where}: unknown colour {token!r}; colours are {', '.join(c.COLOURS)}"
                )
        stack = tuple(cell.stack)
        if stack not in c.LEGAL_STACKS:
            raise BoardError(
                f"{where}: {' on '.join(reversed(stack))} is not a legal stack "
                "(tokens stack only into Trees, Mountains and Buildings, rulebook p.4)"
            )
        stacks[key] = stack
    return stacks


def _cards(board: _Board) -> tuple[list[tuple[c.Card, int]], tuple[c.Card, int] | None]:
    animals: list[tuple[c.Card, int]] = []
    spirit: tuple[c.Card, int] | None = None
    for i, entry in enumerate(board.cards or []):
        where = f"cards[{i}] (id {entry.id})"
        card = c.cards().get(entry.id)
        if card is None:
            raise BoardError(f"{where}: no such card; animals are 1-32, spirits 33-42")
        if card.spirit != entry.spirit:
            kind = "a spirit (33-42)" if card.spirit else "an animal card (1-32)"
            raise BoardError(f"{where}: {card.name} is {kind}; set 'spirit' accordingly")
        if not 0 <= entry.cubes_remaining <= card.cubes:
            raise BoardError(
                f"{where}: cubes_remaining must be 0..{card.cubes} for {card.name}, "
                f"not {entry.cubes_remaining}"
            )
        placed = card.cubes - entry.cubes_remaining
        if card.spirit:
            if spirit is not None:
                raise BoardError(f"{where}: a player keeps only one Nature's Spirit")
            spirit = (card, placed)
        else:
            animals.append((card, placed))
    if board.spirit_card is not None:
        card = c.cards().get(board.spirit_card)
        if card is None or not card.spirit:
            raise BoardError(f"spirit_card: {board.spirit_card} is not a spirit card (33-42)")
        if spirit is not None:
            raise BoardError("spirit_card: a spirit is already listed under cards")
        spirit = (card, 1)
    return animals, spirit


def export_board(state: HarmoniesState, seat: int) -> dict[str, Any]:
    """One player's board in the calculator's format (to check or share a final board)."""
    player = state.seats[seat]
    cells = [
        {"col": col, "row": row, "stack": list(stack), "cube": bool(cube)}
        for (col, row), stack, cube in zip(
            state.board.cells, player.stacks, player.cubes, strict=True
        )
        if stack
    ]
    cards = [
        {"id": cid, "cubes_remaining": c.cards()[cid].cubes - placed, "spirit": cid in c.SPIRIT_IDS}
        for cid, placed in player.held + player.done
    ]
    return {"side": state.board.side, "board_scope": "full", "cells": cells, "cards": cards}
