"""Schemathesis against the served OpenAPI description: whatever a client sends that the
schema describes (or nearly), signed in, the answer is never a 5xx."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings

from tests.server.conftest import Server


def test_no_request_gets_a_server_error(server: Server):
    client = server.client().signup(f"fuzzer-{server.port}")
    client.post("/api/tables", json={"game": "topiary", "players": 2, "seats": [None, None]})
    schema = schemathesis.openapi.from_url(server.base + "/openapi.json")
    tried = []
    for found in schema.get_all_operations():
        operation = found.ok()
        if operation.path.endswith("/ws"):
            continue  # the WebSocket has its own tests

        @given(case=operation.as_strategy())
        @settings(
            max_examples=12,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def never_a_server_error(case: schemathesis.Case) -> None:
            response = case.call(
                base_url=server.base,
                headers={"X-CSRF-Token": client.csrf},
                cookies=dict(client.http.cookies),
                timeout=30,
            )
            assert response.status_code < 500, (
                f"{case.method} {case.formatted_path}: {response.status_code} {response.text}"
            )

        never_a_server_error()
        tried.append(f"{operation.method.upper()} {operation.path}")
    assert "POST /api/tables/{table_id}/moves" in tried and len(tried) >= 15
