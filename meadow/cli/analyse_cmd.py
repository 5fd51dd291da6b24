"""`meadow analyse`: each decision of a saved game judged as its seat could have judged it."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from meadow.analysis import Analysis, analyse_game
from meadow.cli.app import app, console
from meadow.core.errors import MeadowError, RecordError
from meadow.core.record import GameRecord, backup_kind


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
    move played and the best found, each as the expected lead in points and as a win chance;
    a mark for each decision and each turn, each seat's accuracy and its biggest swings.
    Records from `meadow play --save`, the replay's download and `meadow export games`."""
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
        analysis = analyse_game(record, **budget)
        if as_json:
            found.append(analysis.to_json())
        else:
            _tell(analysis)
    if as_json:  # one game: its object; an export of several: a list of them
        console.print_json(json.dumps(found[0] if len(found) == 1 else found))


def read_records(path: Path) -> list[GameRecord]:
    """The records in a file: one record (`meadow play --save`, the replay's download), or
    one a line (`meadow export games`).

    Raises:
        RecordError: the file cannot be read, or a record in it is broken (naming its line).
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    known = backup_kind(raw)
    if known is not None:
        raise RecordError(f"{path} is {known}, not game records")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path} holds no game record (not UTF-8 text)") from None
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


def _tell(analysis: Analysis) -> None:
    console.print(
        f"[bold]{analysis.game}[/bold], {analysis.players} players: "
        f"{len(analysis.decisions)} decisions judged of {analysis.moves} moves"
    )
    for seat in analysis.seats:
        marks = ", ".join(f"{count} {name}" for name, count in seat.marks.items() if count)
        console.print(
            f"seat {seat.seat}: accuracy {seat.accuracy:.1f}, {seat.decisions} decisions "
            f"({marks or 'none'}), {seat.mean_loss:.2f} points lost a decision on average"
        )
        for swing in seat.swings:
            console.print(f"  {swing.words}", markup=False)
        if seat.worst_turn is not None:
            turn = analysis.turns[seat.worst_turn]
            console.print(
                f"  worst turn: move {turn.first_move} ({', '.join(turn.played)}): "
                f"{turn.mark.value}, {turn.loss:.1f} points and {turn.chance_loss:.0%} of win "
                "chance given away",
                markup=False,
            )
