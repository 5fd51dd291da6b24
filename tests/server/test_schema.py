"""Schemathesis against the served OpenAPI description, with every check it has
(`--checks all`): no 5xx, every answer documented with its body, schema-valid requests
accepted, schema-invalid ones refused, unsupported methods answered 405 with `Allow`.
Signed in, with a table to act on; bounded in examples and seeded, so a run is repeatable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.server.conftest import Server

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def test_the_api_does_what_its_description_says(server: Server):
    client = server.client().signup(f"fuzzer-{server.port}")
    client.post("/api/tables", json={"game": "topiary", "players": 2, "seats": [None, None]})
    session = client.http.cookies["meadow_session"]
    run = subprocess.run(
        [
            str(SCHEMATHESIS),
            "--config-file",
            str(Path(__file__).with_name("schemathesis.toml")),
            "run",
            f"{server.base}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            "8",
            "--seed",
            "20261123",
            "--header",
            f"X-CSRF-Token: {client.csrf}",
            "--header",
            f"Cookie: meadow_session={session}",
            # Logging out would end the session every later request is signed in with.
            "--exclude-path",
            "/api/accounts/logout",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-6000:]
    assert "POST /api/tables/{table_id}/moves" in report or "Tested: 2" in report
