"""The Meadow server: accounts, lobby, tables and live play over HTTP and WebSocket (FastAPI).

No game rule lives here: the server reaches games only through `meadow.core`."""
