"""`meadow mystic-vale ...`: tools for Mystic Vale's card data."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from meadow.cli.app import app, console
from meadow.cli.common import check_writable_folder
from meadow.core import data
from meadow.core.errors import MeadowError
from meadow.games.mystic_vale import cards_import, components

mystic_vale = typer.Typer(
    help="Mystic Vale tools: import printed card values.", no_args_is_help=True
)
app.add_typer(mystic_vale, name="mystic-vale")


@mystic_vale.command("import-cards")
def import_cards(
    csv_path: Path = typer.Argument(..., metavar="FILE.csv", help="Card values, one per row."),
    out: Path | None = typer.Option(
        None,
        help="The data directory: files go to OUT/mystic_vale/ (default: $MEADOW_GAME_DATA, "
        "or ./meadow-data).",
    ),
) -> None:
    """Replace stand-in card values with printed ones (columns: `meadow docs mystic-vale-cards`)."""
    root = out or data.folder() or Path("meadow-data")
    target = root / "mystic_vale"
    check_writable_folder(target, "--out" if out else f"{data.ENV} folder")
    try:
        raw = csv_path.read_bytes()
    except OSError as exc:
        raise MeadowError(f"cannot read {csv_path}: {exc.strerror}") from None
    text, notes = cards_import.decode(raw)
    package = "meadow.games.mystic_vale"
    adv_doc, vale_doc, report = cards_import.import_cards(
        text,
        data.load_json(package, "mystic_vale", "advancements.json"),
        data.load_json(package, "mystic_vale", "vales.json"),
    )
    # What is written is what a game will accept: checked as a game reads it.
    data.check("the imported advancements", adv_doc, components.ADVANCEMENT_FILE)
    data.check("the imported vales", vale_doc, components.VALE_FILE)
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name, doc in (("advancements.json", adv_doc), ("vales.json", vale_doc)):
            text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
            (target / name).write_text(text, "utf-8")
    except OSError as exc:
        raise MeadowError(f"cannot write in {target}: {exc.strerror}") from None
    for note in notes:
        console.print(f"[yellow]note:[/yellow] {note}")
    for line in report:
        console.print(line, markup=False)
    for problem in cards_import.count_report(adv_doc, vale_doc):
        console.print(f"[yellow]note:[/yellow] {problem}")
    console.print(
        f"wrote {target}/advancements.json and vales.json; use them with {data.ENV}={root}",
        markup=False,
    )
