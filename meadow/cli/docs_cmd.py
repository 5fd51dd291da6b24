"""`meadow docs`: the documentation, as shipped in the package (meadow/docs in a wheel, the
repository's docs/ in a checkout), for help texts that name a document to point at."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from meadow.cli.app import app, console

PACKAGE = Path(__file__).resolve().parent.parent


def folder() -> Path | None:
    """Where the documents are: the wheel's copy first, then a checkout's docs/."""
    for candidate in (PACKAGE / "docs", PACKAGE.parent / "docs"):
        if any(candidate.glob("*.md")):
            return candidate
    return None


def topics() -> dict[str, Path]:
    """Each document by its topic: the file name without `.md` (`docs/server.md`: server)."""
    found = folder()
    return {page.stem: page for page in sorted(found.glob("*.md"))} if found else {}


def title(page: Path) -> str:
    with page.open(encoding="utf-8") as text:
        for line in text:
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return ""


@app.command("docs")
def docs(
    topic: str = typer.Argument(None, help="A document: server, operations, ai, ..."),
) -> None:
    """Print a document of Meadow's (without TOPIC: the list of them)."""
    found = topics()
    if topic is None:
        width = max(map(len, found), default=0)
        for name, page in found.items():
            console.print(f"{name:<{width}}  {title(page)}", markup=False)
        return
    # The forms a help text or the README uses name the same document: docs/server.md.
    name = Path(topic).name.removesuffix(".md")
    if name not in found:
        from meadow.core.errors import MeadowError

        raise MeadowError(f"no document {topic!r}; there are: {', '.join(found) or 'none'}")
    sys.stdout.write(found[name].read_text(encoding="utf-8"))
