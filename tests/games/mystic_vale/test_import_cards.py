"""`meadow mystic-vale import-cards FILE.csv`: printed values replace stand-ins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadow.cli import main
from meadow.games.mystic_vale import components as c


def _run(capsys, tmp_path: Path, csv_text: str) -> tuple[int, str, str]:
    path = tmp_path / "cards.csv"
    path.write_text(csv_text)
    with pytest.raises(SystemExit) as exited:
        main(["mystic-vale", "import-cards", str(path), "--out", str(tmp_path / "data")])
    out, err = capsys.readouterr()
    return exited.value.code or 0, out, err


def test_imported_values_are_used_and_lose_their_stand_in_mark(capsys, tmp_path, monkeypatch):
    csv_text = (
        "kind,id,level,cost,mana,decay,growth,vp,beast,forest,sky,wild,guardian,end_vp,copies\n"
        "advancement,aurora,3,8,0,0,0,0,0,0,2,0,0,1,\n"
        "vale,azurblauer_see,1,,,,,,1,0,1,0,,0,2\n"
    )
    code, out, _ = _run(capsys, tmp_path, csv_text)
    assert code == 0 and "updated advancement aurora" in out
    written = json.loads((tmp_path / "data" / "mystic_vale" / "advancements.json").read_text())
    aurora = next(a for a in written["advancements"] if a["id"] == "aurora")
    assert aurora["cost"] == 8 and aurora["symbols"] == {"sky": 2, "end_vp": 1}
    assert aurora["standin"] == {"cost": False, "symbols": False, "level": False, "ability": True}
    monkeypatch.setenv("MEADOW_GAME_DATA", str(tmp_path / "data"))
    c.advancements.cache_clear()
    c.vales.cache_clear()
    try:
        assert c.advancements()["aurora"].cost == 8
        assert c.vales()["azurblauer_see"].cost == {"beast": 1, "sky": 1}
    finally:
        monkeypatch.delenv("MEADOW_GAME_DATA")
        c.advancements.cache_clear()
        c.vales.cache_clear()


def test_a_new_card_needs_name_set_and_level_and_counts_are_reported(capsys, tmp_path):
    csv_text = "kind,id,name,set,level,cost,vp\nadvancement,real_card,Real Card,base,2,5,1\n"
    code, out, _ = _run(capsys, tmp_path, csv_text)
    assert code == 0 and "added advancement real_card" in out
    assert "base level-2 advancements: 33, the game has 30" in out


@pytest.mark.parametrize(
    ("csv_text", "message"),
    [
        ("id,cost\naurora,3\n", "header row with at least: kind, id"),
        ("kind,id,colour\nadvancement,aurora,red\n", "unknown columns ['colour']"),
        ("kind,id,cost\ncard,aurora,3\n", "row 2: kind 'card'"),
        ("kind,id,cost\nadvancement,aurora,x\n", "row 2 (aurora): cost 'x' is not a whole"),
        ("kind,id,level\nvale,azurblauer_see,3\n", "level '3' is not a whole number 1-2"),
        ("kind,id\nadvancement,nope\n", "no card 'nope' yet"),
        ("kind,id,ability\nadvancement,aurora,fly\n", "ability 'fly' is not one Meadow"),
        ("kind,id,cost\nadvancement,,3\n", "row 2: the id is empty"),
    ],
)
def test_bad_rows_are_named_and_nothing_is_written(capsys, tmp_path, csv_text, message):
    code, _, err = _run(capsys, tmp_path, csv_text)
    assert code == 2 and message in err
    assert not (tmp_path / "data").exists()
