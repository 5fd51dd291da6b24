"""The shared encoding: a fixed, stable action space and observations from the view alone."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from meadow import games
from meadow.core.errors import MeadowError, OptionError, SetupError, UnknownGame
from meadow.core.rng import Rng
from meadow.games.topiary.actions import PlaceVisitor, TakeTile
from meadow.rl.encoding import encoding
from tests.contract.conftest import CONFIGS, Config
from tests.rl.helpers import HIDING, hidden

GAMES = games.ids()


def _play(config: Config, seed: int):
    """(state, legal actions) at each decision of a random game, then (final state, [])."""
    state = config.setup(seed)
    rng = Rng(seed + 1000)
    while not state.is_over:
        legal = state.legal_actions()
        yield state, legal
        state.apply(legal[rng.below(len(legal))])
    yield state, []


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_every_legal_action_has_an_index_that_maps_back(config):
    coding = encoding(config.game, config.players, config.options)
    assert len(set(coding.actions)) == coding.size  # one index per action
    for seed in (1, 2):
        for step, (state, legal) in enumerate(_play(config, seed)):
            indices = coding.legal_indices(legal)
            assert len(set(indices)) == len(legal)
            assert [coding.action(i) for i in indices] == sorted(legal, key=coding.index)
            mask = coding.mask(legal)
            assert mask.dtype == np.int8 and mask.shape == (coding.size,)
            assert np.flatnonzero(mask).tolist() == indices
            if step % 5 == 0 or state.is_over:  # observations are the costly part
                for seat in range(config.players):
                    observation = coding.observation(state.view(seat))
                    assert observation.shape == (coding.observation_size,)
                    assert observation.dtype == np.float32
                    inside = (observation >= coding.low) & (observation <= coding.high)
                    assert inside.all(), _outside(coding, observation)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_an_observation_read_from_the_state_is_the_one_of_its_view(config):
    """`observe(state, seat)` reads the state directly, for speed; it must write exactly what
    the seat's view says, no more (a hidden fact) and no less, at every moment of a game."""
    coding = encoding(config.game, config.players, config.options)
    for seed in (3, 4):
        for state, _ in _play(config, seed):
            for seat in range(config.players):
                direct = coding.observe(state, seat)
                expected = coding.observation(state.view(seat))
                assert direct.dtype == np.float32
                if not np.array_equal(direct, expected):
                    pytest.fail(_differ(coding, direct, expected, state, seat))


def _differ(coding, direct, expected, state, seat) -> str:
    where = np.flatnonzero(direct != expected)
    blocks = sorted({b["name"] for b in coding.layout() for i in where if b["offset"] <= i})
    names = [b["name"] for b in coding.layout() if b["offset"] <= where[0]]
    return (
        f"seat {seat} at ply {state.ply}: {len(where)} numbers differ, first at "
        f"{where[0]} in block {names[-1]!r} (state {direct[where[0]]}, view "
        f"{expected[where[0]]}); blocks touched up to there: {blocks[-3:]}"
    )


def _outside(coding, observation) -> str:
    bad = np.flatnonzero((observation < coding.low) | (observation > coding.high))
    names = [b["name"] for b in coding.layout() for i in bad[:3] if b["offset"] <= i]
    return f"values {observation[bad[:3]]} at {bad[:3]} ({names[-1:]}) outside the bounds"


def _midgame(game_id: str, players: int, seed: int, plies: int, options=None):
    state = games.get(game_id).setup(players, options, seed=seed)
    rng = Rng(seed)
    for _ in range(plies):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_an_observation_depends_only_on_what_the_seat_knows(game_id):
    coding = encoding(game_id, 2, HIDING.get(game_id))
    differed = 0
    for seed, plies in ((1, 9), (2, 25), (3, 60)):
        state = _midgame(game_id, coding.players, seed, plies, HIDING.get(game_id))
        for seat in range(coding.players):
            observation = coding.observation(state.view(seat))
            for k in range(3):
                world = state.sample_hidden(seat, Rng(100 * seed + k))
                differed += hidden(world) != hidden(state)
                assert np.array_equal(coding.observation(world.view(seat)), observation)
                assert np.array_equal(
                    coding.mask(world.legal_actions() if world.to_move == seat else []),
                    coding.mask(state.legal_actions() if state.to_move == seat else []),
                )
    assert differed  # the worlds really hid something different, or the test shows nothing


@pytest.mark.parametrize("game_id", GAMES)
def test_an_observation_tells_seats_and_moments_apart(game_id):
    coding = encoding(game_id, 2)
    state = _midgame(game_id, 2, seed=5, plies=20)
    first = coding.observation(state.view(0))
    assert not np.array_equal(first, coding.observation(state.view(1)))
    state.apply(state.legal_actions()[0])
    assert not np.array_equal(first, coding.observation(state.view(0)))


def test_seats_are_counted_from_the_observer():
    coding = encoding("topiary", 2)
    state = _midgame("topiary", 2, seed=4, plies=1)  # seat 0 placed one visitor
    mine = coding.unflatten(coding.observation(state.view(0)))["visitors"]
    theirs = coding.unflatten(coding.observation(state.view(1)))["visitors"]
    assert mine[:, 0].sum() == 1 and mine[:, 1].sum() == 0
    assert theirs[:, 0].sum() == 0 and theirs[:, 1].sum() == 1


# Size and a digest of every action's text, per game with 2 players and default options. A
# trained agent depends on them: change them only with the game's data, and say so. Mystic
# Vale's changed with the vale cards of a public list (S19: base vales renamed).
STABLE = {
    "topiary": (1081, "6267a0390d93cb13"),
    "harmonies": (912, "05ec8f0bb37708ab"),
    "renature": (18869, "d6b9dadc980e0b00"),
    "mystic_vale": (4305, "7525a3357b065864"),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_action_space_is_stable(game_id):
    coding = encoding(game_id, 2)
    digest = hashlib.sha256("\n".join(map(str, coding.actions)).encode()).hexdigest()
    assert (coding.size, digest[:16]) == STABLE[game_id]
    rebuilt = type(coding)(coding.game, 2, coding.options, type(coding.encoder)(2, coding.options))
    assert rebuilt.actions == coding.actions


def test_indices_follow_the_documented_order():
    coding = encoding("topiary", 2)
    assert coding.index(PlaceVisitor("O-N0")) == 0
    assert coding.index(TakeTile("r0c0")) == 56
    assert str(coding.action(81)) == "place t_rex_1 at r0c0"
    narrow = encoding("topiary", 2, {"one_tile_diagonals": False})
    assert narrow.size == coding.size - 8


@pytest.mark.parametrize("game_id", GAMES)
def test_relabelling_tells_the_same_position_by_other_labels(game_id):
    """`relabelled` reorders each seat's labels (Mystic Vale's cards c1-c20) in every block
    that carries them alike, and nothing else: each card keeps its advancements, its band
    and where it is. A game without labels gets its batch back as it was."""
    coding = encoding(game_id, 2)
    state = games.get(game_id).setup(2, seed=5)
    rng = Rng(5)
    rows = []
    for _ in range(40):
        if state.is_over:
            break
        rows += [coding.observe(state, seat) for seat in range(2)]
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    batch = np.stack(rows)
    shown = coding.relabelled(batch, np.random.default_rng(1))
    names = coding.encoder.labelled_blocks
    if not names:
        assert shown is batch
        return
    assert not np.array_equal(shown, batch)  # reordered, on a copy
    for before, after in zip(batch, shown, strict=True):
        old, new = coding.unflatten(before), coding.unflatten(after)
        for name in old:
            if name not in names:
                assert np.array_equal(old[name], new[name]), name
        for seat in range(2):
            # each label's entries in every labelled block, taken together
            cards_before = np.hstack([old[n][seat].reshape(len(old[n][seat]), -1) for n in names])
            cards_after = np.hstack([new[n][seat].reshape(len(new[n][seat]), -1) for n in names])
            assert sorted(map(tuple, cards_before.tolist())) == sorted(
                map(tuple, cards_after.tolist())
            )


def test_options_shape_the_space():
    assert encoding("topiary", 2, {"take": "optional"}).size == 1082  # plus `skip`
    assert encoding("harmonies", 1).size == 942  # 3 central spaces, plus 32 solo swaps
    assert encoding("renature", 2, {"board": "valley"}).size != encoding("renature", 2).size
    with_expansion = encoding("mystic_vale", 2, {"vale_of_magic": True})
    assert with_expansion.size > encoding("mystic_vale", 2).size


def test_bad_input_is_explained():
    with pytest.raises(UnknownGame, match="no game 'chess'"):
        encoding("chess", 2)
    with pytest.raises(SetupError, match="2-4 players, not 5"):
        encoding("topiary", 5)
    with pytest.raises(OptionError, match="no option 'colour'"):
        encoding("harmonies", 2, {"colour": "red"})
    coding = encoding("topiary", 2)
    with pytest.raises(MeadowError, match=r"index 1081 is outside 0..1080"):
        coding.action(1081)
    with pytest.raises(MeadowError, match="not an integer"):
        coding.action("3")  # type: ignore[arg-type]
    with pytest.raises(MeadowError, match="can never be legal"):
        encoding("topiary", 2).index(PlaceVisitor("nowhere"))
    with pytest.raises(RuntimeError, match=r"missing from the action space .+topiary/encoding\.py"):
        coding.mask([PlaceVisitor("nowhere")])  # a legal action the encoder missed: a bug
    harmonies = games.get("harmonies").setup(2, seed=1)
    with pytest.raises(MeadowError, match="a seat's view of Topiary"):
        coding.observation(harmonies.view(0))
    with pytest.raises(MeadowError, match="a seat's view"):
        coding.observation(games.get("topiary").setup(2, seed=1).view(None))
    with pytest.raises(MeadowError, match="for 2 players"):
        coding.observation(games.get("topiary").setup(3, seed=1).view(0))


def test_the_engines_do_not_depend_on_the_research_api():
    root = Path(__file__).parents[2] / "meadow"
    for package in ("core", "games"):
        for path in (root / package).rglob("*.py"):
            text = path.read_text("utf-8")
            assert "meadow.rl" not in text and "from meadow import rl" not in text, path


def test_a_valley_area_joined_by_mushrooms_stays_inside_its_bound():
    """Found by PettingZoo's api_test in CI: mushrooms joined Valley areas into one of 4.7
    times the largest printed area, past the bound of 4 (3 players, seed 8, random play
    from Rng(8), ply 89). The bound is now every space a plant can go on."""
    options = {"board": "valley"}
    state = _midgame("renature", 3, 8, 89, options)
    coding = encoding("renature", 3, options)
    sizes = [area["size"] for area in state.view(0)["areas"]]
    assert max(sizes) / coding.encoder.max_area > 4  # the position that broke the old bound
    observation = coding.observation(state.view(0))
    inside = (observation >= coding.low) & (observation <= coding.high)
    assert inside.all(), _outside(coding, observation)
