"""What a move's news weighs and costs, per game: the bytes one recipient (a seat, a
spectator) is sent a move with the whole view and with the view's patch, and the
microseconds of building and encoding one recipient's news, through the server's own code
(`Telling`'s `_Told`, `outbound`), without HTTP or sockets.

    python -m bench.news [--games 20] [--repeat 3] [--game topiary]

`--whole` times the news with the whole view instead, as the server built it before
patches; to time it on an earlier commit's code:

    git archive 61471f4 meadow | tar -x -C /tmp/before
    cd /tmp && PYTHONPATH=/tmp/before:/work/main python -m bench.news --whole

Random 2-player games with the default options; the time is the least of `--repeat` runs
(the machine's other work only ever adds to it), in this thread's CPU time, not the wall's:
on a shared machine the wall clock counts the others' work too. On top of the patches, what
permessage-deflate would save: each recipient's messages through one zlib stream with the
settings uvicorn gives websockets (window bits 15, memory level 8, the context kept between
messages), flushed after each message as the extension does. Figures go to
docs/benchmarks.md ("A move's news").
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import time
import tracemalloc
import zlib

from meadow import games
from meadow.core.rng import Rng
from meadow.server import outbound
from meadow.server.live import Entry, encode

RECIPIENTS: tuple[int | None, ...] = (0, 1, None)


def whole(game_id: str, games_played: int) -> float:
    """µs of one recipient's news with the whole view, as the server built it before
    patches: runs on any earlier commit's `meadow` (see the module's docstring)."""
    rng = Rng(2026)
    spent, built = 0.0, 0
    for seed in range(games_played):
        state = games.get(game_id).setup(2, seed=seed)
        number = 0
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            mover = state.to_move
            events = state.apply(action)
            number += 1
            gc.disable()
            started = time.thread_time()
            for r in RECIPIENTS:
                encode(outbound.move_message(state, r, number, mover, str(action), events))
            spent += time.thread_time() - started
            gc.enable()
            built += len(RECIPIENTS)
    return spent / built * 1e6


def measure(game_id: str, games_played: int) -> dict[str, float]:
    from meadow.server.tables.telling import _Told  # patches: this commit's server only

    game = games.get(game_id)
    rng = Rng(2026)
    full: list[int] = []
    patched: list[int] = []
    deflated: list[int] = []
    built_s = 0.0
    built = 0
    for seed in range(games_played):
        state = game.setup(2, seed=seed)
        before: dict[int | None, tuple[int, dict]] = {}
        streams = {r: zlib.compressobj(wbits=-15, memLevel=8) for r in RECIPIENTS}
        for r in RECIPIENTS:
            before[r] = (0, state.view(r))
        number = 0
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            mover = state.to_move
            assert mover is not None
            events = state.apply(action)
            number += 1
            entry = Entry(number, mover, str(action), events)
            # The server's way: each recipient's news built in turn from the same state (a
            # game may share the work of one move's views among them), timed together.
            gc.disable()
            started = time.thread_time()
            told = {r: _Told(state, r, entry, before[r]) for r in RECIPIENTS}
            texts = {r: told[r].text(True) for r in RECIPIENTS}
            built_s += time.thread_time() - started
            gc.enable()
            built += len(RECIPIENTS)
            for r in RECIPIENTS:
                message = outbound.move_message(state, r, number, mover, str(action), events)
                full.append(len(encode(message)))
                before[r] = (number, told[r].view)
                data = texts[r].encode()
                patched.append(len(data))
                stream = streams[r]
                squeezed = stream.compress(data) + stream.flush(zlib.Z_SYNC_FLUSH)
                deflated.append(len(squeezed) - 4)  # the extension drops the flush's tail
    return {
        "full_mean": statistics.fmean(full),
        "full_max": max(full),
        "patch_mean": statistics.fmean(patched),
        "patch_max": max(patched),
        "deflate_mean": statistics.fmean(deflated),
        "us_news": built_s / built * 1e6,
        "moves": len(full) / len(RECIPIENTS) / games_played,
    }


def deflate_memory(window_bits: int = 15, mem_level: int = 8, sockets: int = 100) -> float:
    """KiB a socket holds for permessage-deflate: a compressor and a decompressor kept
    between messages, as websockets keeps them (zlib allocates through Python's raw
    allocator, which tracemalloc follows)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = []
        for _ in range(sockets):
            squeeze = zlib.compressobj(wbits=-window_bits, memLevel=mem_level)
            unsqueeze = zlib.decompressobj(wbits=-window_bits)
            sent = squeeze.compress(b'{"kind": "move"}') + squeeze.flush(zlib.Z_SYNC_FLUSH)
            unsqueeze.decompress(sent)
            kept.append((squeeze, unsqueeze))
        return (tracemalloc.get_traced_memory()[0] - before) / sockets / 1024
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--whole", action="store_true", help="only the whole view's time")
    parser.add_argument("--game", choices=games.ids(), action="append")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.games} games each")
    if args.whole:
        for game_id in args.game or games.ids():
            spent = min(whole(game_id, args.games) for _ in range(args.repeat))
            print(f"{game_id:12} {spent:6.1f} us news/recipient, whole view")
        return
    print(
        f"permessage-deflate per socket: {deflate_memory():.0f} KiB as uvicorn sets it up"
        f" (window 15 bits, memory level 8), {deflate_memory(12, 5):.0f} KiB at (12, 5)"
    )
    print(
        "game          moves  full mean/max B  patch mean/max B  +deflate mean B  us news/recipient"
    )
    for game_id in args.game or games.ids():
        runs = [measure(game_id, args.games) for _ in range(args.repeat)]
        r = {**runs[0], "us_news": min(run["us_news"] for run in runs)}
        print(
            f"{game_id:12} {r['moves']:6.0f}  {r['full_mean']:7.0f} {r['full_max']:7.0f}"
            f"  {r['patch_mean']:7.0f} {r['patch_max']:8.0f}  {r['deflate_mean']:14.0f}"
            f"  {r['us_news']:17.1f}"
        )


if __name__ == "__main__":
    main()
