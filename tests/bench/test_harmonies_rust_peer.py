"""bench/harmonies_rust_peer: the driver's report, the build command, the table, and the peer
left out with a clear message when it is not there.

Only the last test builds and runs the peer (our driver over miles2542/harmonies-bot's
harmonies-core); it is skipped unless MEADOW_HARMONIES_RUST_PEER names a checkout of that
repository (see the bench module's docstring for the recipe).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from bench import harmonies_rust_peer as hr

REPORT = {
    "engine": "miles2542/harmonies-bot harmonies-core",
    "players": 2,
    "side": "A",
    "spirits": True,
    "games": 3328,
    "seconds": 2.000084,
    "games_per_s": 1663.93,
    "decisions": 300175,
    "decisions_per_game": 90.197,
    "turns_per_game": 15.853,
    "mean_legal": 14.584,
    "mean_score": [19.853, 19.981],
    "stuck_tokens": 0,
}


def test_the_drivers_last_line_is_read_as_its_report() -> None:
    report = hr.parse_report("compiling...\n" + json.dumps(REPORT) + "\n\n")
    assert report == REPORT


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "printed nothing"),
        ("games: 3\n", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({k: v for k, v in REPORT.items() if k != "mean_score"}), "lacks mean_score"),
        (json.dumps(REPORT | {"games": 0}), "played no game"),
    ],
)
def test_a_report_the_table_cannot_use_is_refused(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        hr.parse_report(text)


def test_the_build_is_offline_against_debians_crates() -> None:
    command = hr.cargo_command(Path("/crates"))
    assert command[:4] == ["cargo", "build", "--release", "--offline"]
    assert 'source.crates-io.replace-with="debian-packages"' in command
    assert 'source.debian-packages.directory="/crates"' in command


def test_the_driver_names_the_peer_and_reaches_its_core_from_the_build_folder() -> None:
    manifest = (hr.DRIVER / "Cargo.toml").read_text()
    assert 'path = "../crates/harmonies-core"' in manifest  # BUILD_DIR sits in the checkout
    assert "[workspace]" in manifest  # the checkout's workspace stays out of the build
    source = (hr.DRIVER / "src" / "main.rs").read_text()
    for text in (manifest, source):
        assert "miles2542/harmonies-bot" in text
        assert "a5ffa20f4d6206632eec2c83e93c39cff79283c8" in text


def test_ranges_are_written_as_the_docs_write_them() -> None:
    assert hr.span([1663.9, 1702.2]) == "1,664-1,702"
    assert hr.span([90.21, 90.24], 1) == "90.2"


def test_the_table_puts_the_peer_beside_meadow_with_each_runs_ratio() -> None:
    meadow = REPORT | {"games_per_s": 800.0, "mean_score": [20.0, 19.5]}
    lines = hr.table([REPORT, REPORT | {"games_per_s": 1800.0}], [meadow, meadow])
    assert lines[2].startswith("| miles2542/harmonies-bot (Rust) | 2 | 6,656 | 1,664-1,800 |")
    assert lines[3].startswith("| meadow | 2 | 6,656 | 800 | 90.2 | 15.9 | 14.6 |")
    assert lines[3].endswith("| 20.0 / 19.5 |")
    assert lines[-1] == "peer/meadow: 2.08-2.25x random games/s"


def fake_checkout(root: Path) -> Path:
    (root / hr.CORE).parent.mkdir(parents=True)
    (root / hr.CORE).write_text("[package]\n")
    (root / hr.CATALOG).parent.mkdir(parents=True)
    (root / hr.CATALOG).write_text("{}")
    return root


def test_without_a_peer_meadow_is_measured_alone(capsys: pytest.CaptureFixture[str]) -> None:
    hr.main(["--seconds", "0.05"])
    out = capsys.readouterr().out
    assert "peer: skipped (no --peer CHECKOUT given" in out
    assert "spirits on" in out
    rows = [line for line in out.splitlines() if line.startswith("| meadow |")]
    assert len(rows) == 1 and "peer/meadow" not in out


def test_an_unbuilt_peer_is_skipped_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = fake_checkout(tmp_path)
    hr.main(["--peer", str(checkout), "--no-build", "--seconds", "0.05"])
    out = capsys.readouterr().out
    assert f"peer: skipped ({checkout / hr.BINARY} is not built" in out
    assert "| meadow |" in out and "harmonies-bot (Rust) |" not in out


def test_a_folder_that_is_not_the_peer_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="expected a miles2542/harmonies-bot checkout"):
        hr.main(["--peer", str(tmp_path), "--seconds", "0.05"])


def test_meadows_side_plays_with_spirits_and_reports_scores() -> None:
    figures = hr.run_meadow(0.05)
    assert figures["games"] >= 1 and len(figures["mean_score"]) == 2
    assert 70 < figures["decisions_per_game"] < 120  # a spirit's choice per seat included


PEER = os.environ.get("MEADOW_HARMONIES_RUST_PEER", "")


@pytest.mark.skipif(
    not PEER or not (Path(PEER) / hr.CORE).is_file() or shutil.which("cargo") is None,
    reason="MEADOW_HARMONIES_RUST_PEER names no miles2542/harmonies-bot checkout (or no cargo)",
)
def test_the_driver_builds_and_plays_whole_games_of_the_peer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    checkout = Path(PEER)
    binary = hr.build(checkout)  # quick once built: cargo finds nothing changed
    assert binary == checkout / hr.BINARY and binary.is_file()
    report = hr.run_peer(binary, checkout, 0.3, seed=7)
    assert report["spirits"] is True and report["side"] == "A" and report["players"] == 2
    assert report["stuck_tokens"] == 0
    assert 70 < report["decisions_per_game"] < 120 and 12 < report["turns_per_game"] < 20
    assert all(5 < score < 40 for score in report["mean_score"])
    hr.main(["--peer", PEER, "--no-build", "--seconds", "0.2", "--runs", "2"])
    out = capsys.readouterr().out
    assert "| miles2542/harmonies-bot (Rust) | 2 |" in out and "peer/meadow:" in out
