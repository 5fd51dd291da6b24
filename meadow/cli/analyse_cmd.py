"""`meadow analyse`: each decision of a saved game judged as its seat could have judged it."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from meadow.analysis import Judgement, analyse
from meadow.cli.app import app, console
from meadow.core.errors import MeadowError, RecordError
from meadow.core.record import GameRecord

SWINGS = 3  # the biggest losses told per seat


@app.command("analyse")
def analyse_record(
    record_path: Path = typer.Argument(..., metavar="RECORD.json", help="A saved game record."),
    seconds_per_move: float = typer.Option(
        0.5, "--seconds-per-move", help="The most one decision is weighed for."
    ),
    worlds: int | None = typer.Option(
        None,
        "--worlds",
        help="Weigh each decision in this many sampled worlds, with no clock: the same "
        "judgements on every machine.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Every judgement as JSON, for programs."),
) -> None:
    """Judge every decision of a record from its seat's information at that moment: the
    move played, the best move found, the expected lead in points after each, and the
    loss. (The win chance and the marks are still to come: issue 45.)"""
    if not 0 < seconds_per_move <= 600:
        raise MeadowError(
            f"--seconds-per-move {seconds_per_move:g}: a decision is weighed for more than "
            "0 and at most 600 seconds"
        )
    if worlds is not None and not 1 <= worlds <= 10_000:
        raise MeadowError(f"--worlds {worlds}: from 1 to 10000 worlds a decision")
    budget = {"seconds_per_move": seconds_per_move, "worlds": 32}
    if worlds is not None:
        budget = {"worlds": worlds}
    found = []
    for record in read_records(record_path):
        judged = list(analyse(record, **budget))
        if as_json:
            seats = [_seat_summary(judged, seat) for seat in range(record.players)]
            found.append(
                {"game": record.game, "decisions": [j.to_json() for j in judged], "seats": seats}
            )
        else:
            _tell(record, judged)
    if as_json:  # one game: its object; an export of several: a list of them
        console.print_json(json.dumps(found[0] if len(found) == 1 else found))


def read_records(path: Path) -> list[GameRecord]:
    """The records in a file: one record (`meadow play --save`, the replay's download), or
    one a line (`meadow export games`).

    Raises:
        RecordError: the file cannot be read, or a record in it is broken (naming its line).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return [GameRecord.from_json(json.loads(text))]
    except json.JSONDecodeError:
        pass  # not one JSON document: maybe one a line
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(GameRecord.from_json(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}, line {number}: not JSON ({exc})") from None
        except RecordError as exc:
            raise RecordError(f"{path}, line {number}: {exc}") from None
    if not records:
        raise RecordError(f"{path} holds no game record")
    return records


def _tell(record: GameRecord, judged: list[Judgement]) -> None:
    console.print(f"[bold]{record.game}[/bold]: {len(judged)} decisions judged")
    for seat in range(record.players):
        summary = _seat_summary(judged, seat)
        console.print(
            f"seat {seat}: {summary['decisions']} decisions, "
            f"{summary['mean_loss']:.2f} points lost a decision on average"
        )
        for j in sorted((j for j in judged if j.seat == seat), key=lambda j: -j.loss)[:SWINGS]:
            if j.loss > 0:
                console.print(
                    f"  move {j.number}: played {j.played}; {j.best} kept {j.loss:.1f} points more",
                    markup=False,
                )


def _seat_summary(judged: list[Judgement], seat: int) -> dict[str, object]:
    own = [j for j in judged if j.seat == seat]
    mean = sum(j.loss for j in own) / len(own) if own else 0.0
    return {"seat": seat, "decisions": len(own), "mean_loss": round(mean, 3)}
