"""Hatch's build hook: the documentation goes into the wheel as `meadow/docs`, so that an
installed Meadow can show it (`meadow docs`) and the help texts that name a document point
somewhere an installed user can reach. Only the Markdown: the screenshots and learning curves
would make the wheel several megabytes larger, and `meadow docs` prints text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class DocsHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        docs = Path(self.root) / "docs"
        pages = sorted(docs.glob("*.md"))
        if not pages:
            # A wheel without them would leave `meadow docs` empty and the help texts pointing
            # nowhere; a container build must copy docs/ too (Dockerfile).
            raise FileNotFoundError(f"no documentation in {docs}: the wheel ships it")
        for page in pages:
            build_data["force_include"][str(page)] = f"meadow/docs/{page.name}"
