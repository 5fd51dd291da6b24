"""Mystic Vale's rules: set-up, the four phases (Planting, Harvest, Cleanup, Prep), every
ability of the glossary, and the end of the game.

Rule source: seed 003 (Yucata's rules page: its deviations, the full rules, the glossary and
the interface notes); research notes in data/rules.json. Editions are options. A player's
cards are numbered 0..19 inside the engine and shown as c1..c20.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any, Self

from meadow.core.actions import JSON, Action, Event
from meadow.core.game import State
from meadow.core.result import Result, rank
from meadow.core.rng import Rng
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale import notation
from meadow.games.mystic_vale import view as views
from meadow.games.mystic_vale.actions import (
    BuyAdvancement,
    BuyVale,
    Choose,
    Decline,
    EndHarvest,
    Exchange,
    Pass,
    Prevent,
    Push,
    Reveal,
    Sleeve,
    Spoil,
    StopPrep,
    UseAbility,
)
from meadow.games.mystic_vale.druid import Druid, Harvest, shown_abilities
from meadow.games.mystic_vale.explain import why_illegal
from meadow.games.mystic_vale.options import MysticValeOptions
from meadow.games.mystic_vale.scoring import (
    card_decay,
    card_symbol,
    card_symbols,
    gaias_erwaehlte,
    pay_spirits,
    sporenverteiler,
)

PLANT, PREP, ABILITY, REVEAL, SPOILING, HARVEST, SLEEVE, NEST, OVER = (
    "plant",
    "prep",
    "ability",
    "reveal",
    "spoiling",
    "harvest",
    "sleeve",
    "nest",
    "over",
)
CATEGORIES = ("vp_tokens", "advancements", "vales", "abilities")
CHOIR = "chor_des_erdengesangs"  # buys sleeved onto its own card for 2 mana less
HARVEST_ABILITIES = ("aurora", "magischer_samen", "baumkronen_erkunder", "wachstumsueberlauf")


@cache
def _affordable(vid: str, spirits: tuple[tuple[str, int], ...]) -> bool:
    """Whether spirits on hand pay for a vale (asked for every vale at every harvest step)."""
    return pay_spirits(c.vales()[vid].cost, dict(spirits)) is not None


@lru_cache(maxsize=4096)  # bounded: markets and spirits make many keys over many games
def _vale_buys(
    market: tuple[tuple[str | None, ...], ...],
    spirits: tuple[tuple[str, int], ...],
    owns_roots: bool,
) -> tuple[BuyVale, ...]:
    """The vale purchases open, in market order, each vale once (the market and the spirits
    change rarely between two harvest decisions). `owns_roots`: Alte Lebenswurzeln owned,
    which may not be bought twice."""
    found: dict[str, BuyVale] = {}
    for level in market:
        for vid in level:
            if vid is None or vid in found:
                continue
            if vid == "alte_lebenswurzeln" and owns_roots:
                continue
            if _affordable(vid, spirits):
                found[vid] = BuyVale(vid)
    return tuple(found.values())


def _plain_buys(
    copies: tuple[str, ...], mana: int, room: tuple[bool, bool, bool]
) -> tuple[BuyAdvancement, ...]:
    """Purchases without a Chor des Erdengesangs: each copy once, if it is paid for and its
    position has room (`room` per position)."""
    found: dict[str, BuyAdvancement] = {}
    for copy in copies:
        if copy in found:
            continue
        adv, pos = c.split_copy(copy)
        if room[pos] and adv.cost <= mana:
            found[copy] = _buy_advancement(copy)
    return tuple(found.values())


@cache
def _card_decay_growth(slots: tuple[str | None, ...], band: int, aether: bool) -> tuple[int, int]:
    """(decay, growth) a card shows, its abilities applied."""
    active = {a for _, a in shown_abilities(slots, band)}
    return card_decay(slots, active, aether), card_symbol(slots, "growth")


@cache
def _on_play_positions(slots: tuple[str | None, ...], band: int) -> tuple[int, ...]:
    """Positions of the on-play abilities a card shows, in order (asked at every play)."""
    table = c.advancements()
    return tuple(
        pos
        for pos, _ in shown_abilities(slots, band)
        if table[slots[pos]].timing == "on_play"  # type: ignore[index]
    )


@cache
def _harvest_abilities(slots: tuple[str | None, ...], band: int) -> tuple[tuple[int, str], ...]:
    """(position, ability) of the harvest abilities a card shows."""
    return tuple((pos, a) for pos, a in shown_abilities(slots, band) if a in HARVEST_ABILITIES)


@cache
def _cheapest_vale() -> int:
    """The fewest spirit symbols any vale costs: with fewer on hand none can be bought
    (each symbol of a cost takes one symbol on hand)."""
    return min((sum(v.cost.values()) for v in c.vales().values()), default=0)


@cache
def _harvest_facts(
    slots: tuple[str | None, ...], band: int
) -> tuple[tuple[int, ...], tuple[tuple[int, str], ...], bool]:
    """What the Harvest's options ask of a field card: its free positions, its harvest
    abilities that show, and whether it shows Chor des Erdengesangs."""
    free = tuple(pos for pos, type_id in enumerate(slots) if type_id is None)
    return free, _harvest_abilities(slots, band), _shows(slots, band, CHOIR)


@cache
def _holders(abilities: tuple[str, ...]) -> frozenset[str]:
    """Advancement types with one of these abilities: a card that holds none of them cannot
    show them, which a set test tells without looking the card up."""
    return frozenset(a.id for a in c.advancements().values() if a.ability in abilities)


@cache
def _shows(slots: tuple[str | None, ...], band: int, ability: str) -> bool:
    """Whether a card shows this ability."""
    return any(a == ability for _, a in shown_abilities(slots, band))


# Actions are immutable values: the ones offered again and again are built once.
A_PUSH, A_PASS, A_REVEAL, A_DECLINE, A_SPOIL = Push(), Pass(), Reveal(), Decline(), Spoil()
A_STOP_PREP, A_EXCHANGE, A_END_HARVEST = StopPrep(), Exchange(), EndHarvest()
A_CHOOSE = tuple(Choose(x + 1) for x in range(20))  # by card index 0..19
_FERTILE_COPIES = tuple(f"{c.FERTILE_SOIL}@{p}" for p in c.POSITIONS)
_use_ability = cache(UseAbility)
_buy_advancement = cache(BuyAdvancement)
_buy_vale = cache(BuyVale)
_sleeve = cache(Sleeve)


class MysticValeState(State):
    """The markets, the VP pool and every druid's cards."""

    options: MysticValeOptions

    def __init__(
        self,
        *,
        players: int,
        options: MysticValeOptions,
        rng: Rng,
        ply: int,
        seats: list[Druid],
        seat: int | None,
        phase: str,
        stage: str,
        choice: dict[str, Any] | None,
        queue: list[list[int]],
        market: list[list[str | None]],
        piles: list[list[str]],
        box_l1: list[str],
        fertile: list[int],
        vale_market: list[list[str | None]],
        vale_piles: list[list[str]],
        pool: int,
        harvest: Harvest,
        end_triggered: bool,
        confirm_reveal: bool = False,
    ) -> None:
        self.players = players
        self.options = options
        self.rng = rng
        self.ply = ply
        self.seats = seats
        self.seat = seat
        self.phase = phase
        self.stage = stage  # "plant" or "prep": where an ability, reveal or spoil happens
        self.choice = choice  # the ability waiting for a choice
        self.queue = queue  # on-play abilities still to resolve: [card, position]
        self.market = market  # advancement market per level 1-3 (index 0-2)
        self.piles = piles  # face-down advancement piles per level
        self.box_l1 = box_l1  # level-1 advancements out of this game, unseen
        self.fertile = fertile  # Fertile Soil left per position
        self.vale_market = vale_market
        self.vale_piles = vale_piles
        self.pool = pool  # VP in the counted pool
        self.harvest = harvest
        self.end_triggered = end_triggered
        self.confirm_reveal = confirm_reveal  # Prep: an ability choice waits for `reveal`
        self._legal: list[Action] | None = None
        # The card catalog of the views of this ply, the same for every seat (`view.view`).
        self._catalog: tuple[int, dict[str, JSON]] | None = None

    # -- small queries ------------------------------------------------------------------

    @property
    def me(self) -> Druid:
        assert self.seat is not None
        return self.seats[self.seat]

    def active_turn(self, druid: Druid) -> int:
        """The turn an action belongs to: Prep already counts for the next one."""
        return druid.turn + (1 if self.stage == "prep" else 0)

    def vale_active(self, druid: Druid, ability: str) -> list[int]:
        """Indices of owned vales with this ability that work now (bought before)."""
        if not druid.vales:  # the usual case, asked several times per decision
            return []
        turn = self.active_turn(druid)
        return [
            i
            for i, (vid, bought) in enumerate(druid.vales)
            if c.vales()[vid].ability == ability and bought < turn
        ]

    def growth(self, druid: Druid) -> int:
        return self._decay_and_growth(druid)[1]

    def decay(self, druid: Druid) -> int:
        """Decay showing on the field and the on-deck card, growth subtracted."""
        shown, growth = self._decay_and_growth(druid)
        return shown - growth

    def _decay_and_growth(self, druid: Druid) -> tuple[int, int]:
        """Decay showing (before growth) and growth, on the field and the on-deck card."""
        cards, band, aether = druid.cards, druid.band, druid.aether
        shown = growth = 0
        for x in druid.field:
            d, g = _card_decay_growth(tuple(cards[x]), band[x], x in aether)
            shown += d
            growth += g
        x = druid.on_deck
        if x is not None:
            d, g = _card_decay_growth(tuple(cards[x]), band[x], x in aether)
            shown += d
            growth += g
        if druid.vales:
            growth += sum(c.vales()[vid].growth for vid, _ in druid.vales)
            growth += len(self.vale_active(druid, "alte_lebenswurzeln"))
        return shown, growth + druid.growth_bonus

    def mana_left(self) -> int:
        h = self.harvest
        return h.mana_earned - h.mana_spent + (h.token_mana if self.me.mana_token else 0)

    # -- contract -----------------------------------------------------------------------

    def _generate_legal(self) -> list[Action]:
        me = self.me
        if self.phase == PLANT:
            return [A_PUSH, A_PASS] if me.on_deck is not None else [A_PASS]
        if self.phase == REVEAL:
            return [A_REVEAL]
        if self.phase == PREP:
            return [A_PUSH, A_STOP_PREP]
        if self.phase == ABILITY:
            return self._choice_options()
        if self.phase == SPOILING:
            return [*self._preventions(), A_SPOIL]
        if self.phase == HARVEST:
            return self._harvest_options()
        if self.phase == SLEEVE:
            return self._sleeve_options()
        if self.phase == NEST:
            return [A_CHOOSE[x] for x in self._nest_candidates()] + [A_DECLINE]
        return []

    def _may_stop_prep(self) -> bool:
        """German edition: Prep may end early when the on-deck card shows 2+ decay."""
        if self.options.edition != "german":
            return False
        me = self.me
        if me.on_deck is None:
            return False
        x = me.on_deck
        return card_decay(me.cards[x], {a for _, a in me.abilities(x)}) >= 2

    # -- set-up, turns ------------------------------------------------------------------

    def _draw(self, druid: Druid) -> int | None:
        """The top card of the deck; an empty deck is first refilled from the discard pile."""
        if not druid.deck:
            if not druid.discard:
                return None
            druid.deck = druid.discard
            druid.discard = []
            self.rng.shuffle(druid.deck)
            druid.known_top = 0
        known = druid.known_top
        druid.known_top = known - 1 if known > 0 else 0
        return druid.deck.pop()

    def _start_turn(self, seat: int) -> list[Event]:
        self.seat = seat
        druid = self.seats[seat]
        druid.turn += 1
        self.harvest = Harvest()
        druid.fresh = []
        event = Event("turn", seat, {"turn": druid.turn})
        if druid.spoiled:  # spoiled in Prep: straight to Cleanup
            return [event, *self._cleanup()]
        self.phase, self.stage = PLANT, "plant"
        return [event]

    # -- planting and prep --------------------------------------------------------------

    def _play_on_deck(self, shown: tuple[int, int] | None = None) -> list[Event]:
        """The on-deck card goes into the field; its on-play abilities queue up. `shown`:
        `_decay_and_growth` before, if known; with no ability in between, it still holds
        once the card is in the field, for the reveal to come."""
        me = self.seats[self.seat]  # type: ignore[index]  # `me`, in Prep's every step
        card = me.on_deck
        assert card is not None
        me.on_deck = None
        me.field.append(card)
        events = [Event("play", self.seat, {"card": card + 1, "stage": self.stage})]
        positions = _on_play_positions(tuple(me.cards[card]), me.band[card])
        if positions:
            self.queue = [[card, pos] for pos in positions]
            events += self._next_on_play()
        else:
            self.queue = []
            events += self._next_on_play(shown)
        return events

    def _next_on_play(self, shown: tuple[int, int] | None = None) -> list[Event]:
        """Resolve queued on-play abilities; stop at the first that needs a choice. `shown`:
        `_decay_and_growth` of the field, if known (nothing is queued)."""
        events: list[Event] = []
        me = self.seats[self.seat]  # type: ignore[index]  # `me`, in Prep's every step
        while self.queue:
            card, pos = self.queue.pop(0)
            ability = c.advancements()[me.cards[card][pos]].ability  # type: ignore[index]
            if ability == "goldfluegel_greif":
                if not me.mana_token:
                    me.mana_token = True
                    events.append(Event("mana_token", self.seat, {"active": True}))
                continue
            if self._open_choice(ability, card, pos):  # type: ignore[arg-type]
                self.phase = ABILITY
                return events
        self.phase = REVEAL
        if self.stage == "plant":
            if self.options.auto_reveal and self.decay(me) < c.PREP_STOPS_AT:
                return events + self._reveal()
            return events
        if self.confirm_reveal:  # Prep waits after a choice, so that it can be taken back
            return events
        events += self._reveal(shown)
        return events

    def _open_choice(self, ability: str, card: int, pos: int) -> bool:
        """Set up the choice of an on-play ability; False if it has nothing to choose."""
        me = self.me
        if ability == "discard_from_field":
            if len(me.field) < 2:
                return False
            self.choice = {"ability": ability, "card": card, "left": 1}
        elif ability in ("ruhiges_wetter", "reinigender_regen", "lebenskraft_orakel"):
            if not me.deck and me.discard:
                me.deck, me.discard = me.discard, []
                self.rng.shuffle(me.deck)
                me.known_top = 0
            if not me.deck:
                return False
            left = card_symbol(me.cards[card], "guardian") if ability == "lebenskraft_orakel" else 1
            if left == 0:
                return False
            self.choice = {"ability": ability, "card": card, "left": left}
            if ability == "ruhiges_wetter":
                me.known_top = max(me.known_top, 1)
        else:
            return False
        return True

    def _choice_options(self) -> list[Action]:
        assert self.choice is not None
        me = self.me
        ability = self.choice["ability"]
        if ability == "discard_from_field":
            cards = [x for x in me.field if x != self.choice["card"]]
        elif ability == "ruhiges_wetter":
            cards = [me.deck[-1]]
        elif ability == "hort_der_waldgeister":
            cards = list(self.choice["cards"])
        else:
            cards = sorted(me.deck)
        return [A_CHOOSE[x] for x in cards] + [A_DECLINE]

    def _apply_choice(self, action: Choose | Decline) -> list[Event]:
        assert self.choice is not None
        me = self.me
        ability = self.choice["ability"]
        events: list[Event] = []
        if isinstance(action, Choose):
            card = action.card - 1
            private = {self.seat: {"card": action.card}}
            if ability == "discard_from_field":
                me.field.remove(card)
                me.discard.append(card)
                events.append(Event("discard_from_field", self.seat, {"card": action.card}))
            elif ability == "hort_der_waldgeister":
                me.deck.remove(card)
                me.discard.append(card)
                me.known_top -= 1
                self.choice["cards"].remove(card)
                events.append(Event("discard_from_deck", self.seat, {}, private))
            else:
                position = me.deck.index(card)
                if position >= len(me.deck) - me.known_top:
                    me.known_top -= 1
                me.deck.remove(card)
                me.discard.append(card)
                events.append(Event("discard_from_deck", self.seat, {}, private))
            self.choice["left"] -= 1
            if self.choice["left"] > 0 and self._choice_options() != [A_DECLINE]:
                return events
        elif ability == "ruhiges_wetter":
            events.append(Event("keep_on_top", self.seat))
        if ability in ("reinigender_regen", "lebenskraft_orakel"):
            self.rng.shuffle(me.deck)
            me.known_top = 0
            events.append(Event("shuffle_deck", self.seat, reveals=True))
        self.choice = None
        if ability == "hort_der_waldgeister":
            self.phase = HARVEST
            return events
        self.confirm_reveal = self.stage == "prep"
        return events + self._next_on_play()

    def _reveal(self, out: tuple[int, int] | None = None) -> list[Event]:
        """`out`: see `_after_reveal`."""
        me = self.seats[self.seat]  # type: ignore[index]  # `me`, in Prep's every step
        self.confirm_reveal = False
        me.on_deck = self._draw(me)
        public: dict[str, JSON] = {"card": None if me.on_deck is None else me.on_deck + 1}
        events = [Event("reveal", self.seat, public, reveals=True)]
        events += self._after_reveal(out)
        return events

    def _after_reveal(self, out: tuple[int, int] | None = None) -> list[Event]:
        """The spoil check (4+ decay: preventions, or spoil) whenever the shown cards change:
        a new on-deck card, a prevention, or the start of Prep. `out`: `_decay_and_growth`
        without the on-deck card, if the caller knows it (Prep's cascade: a decay sum per
        card played instead of one over the whole field)."""
        me = self.seats[self.seat]  # type: ignore[index]  # `me`, in Prep's every step
        if out is None:
            shown, growth = self._decay_and_growth(me)
        else:  # only the new on-deck card is to add
            shown, growth = out
            x = me.on_deck
            if x is not None:
                d, g = _card_decay_growth(tuple(me.cards[x]), me.band[x], x in me.aether)
                shown += d
                growth += g
        if shown - growth >= c.SPOIL_AT:
            if self._preventions():
                self.phase = SPOILING
                return []
            return self._spoil()
        if self.stage == "plant":
            self.phase = PLANT
            return []
        return self._continue_prep((shown, growth))

    def _preventions(self) -> list[Action]:
        me = self.me
        actions: list[Action] = []
        if "druide_des_friedens" not in me.used and me.on_deck is not None:
            for x in me.field:
                if _shows(tuple(me.cards[x]), me.band[x], "druide_des_friedens"):
                    actions.append(Prevent("druide_des_friedens", x + 1))
                    break
        if self.vale_active(me, "bluehende_lichtung"):
            actions.append(Prevent("bluehende_lichtung"))
        if self.vale_active(me, "aetherbaum"):
            targets = me.field + ([me.on_deck] if me.on_deck is not None else [])
            actions += [Prevent("aetherbaum", x + 1) for x in targets if x not in me.aether]
        if self.vale_active(me, "konklave_der_baumhirten"):
            actions.append(Prevent("konklave_der_baumhirten"))
        return actions

    def _apply_prevent(self, action: Prevent) -> list[Event]:
        me = self.me
        public: dict[str, JSON] = {"ability": action.source}
        if action.source == "druide_des_friedens":
            me.used.append(action.source)
            assert me.on_deck is not None
            public["discarded"] = me.on_deck + 1
            me.discard.append(me.on_deck)
            me.on_deck = None
            events = [Event("prevent", self.seat, public)]
            return events + self._reveal()
        index = self.vale_active(me, action.source)[0]
        vid = me.vales.pop(index)[0]
        me.boxed_vales.append(vid)
        if action.source == "bluehende_lichtung":
            me.growth_bonus += 1
        elif action.source == "konklave_der_baumhirten":
            me.growth_bonus += 2
        else:
            me.aether.append(action.card - 1)
            public["card"] = action.card
        return [Event("prevent", self.seat, public), *self._after_reveal()]

    def _spoil(self) -> list[Event]:
        me = self.me
        me.spoiled = True
        compensation = not me.mana_token
        me.mana_token = True
        events = [Event("spoil", self.seat, {"mana_token": compensation})]
        if self.stage == "plant":
            return events + self._cleanup()
        return events + self._end_turn()

    def _prep(self) -> list[Event]:
        """Prep the next turn: play on-deck cards until 3 decay show (seed 003, 4)."""
        me = self.me
        self.stage = "prep"
        me.used, me.growth_bonus, me.aether, me.spoiled = [], 0, [], False
        me.field = list(me.kept)
        me.kept = []
        if me.on_deck is None:
            me.on_deck = self._draw(me)
        # Cards kept by Brutplatz and the waiting on-deck card may already show 4 decay once
        # last turn's growth is discarded: the field spoils at any moment of Prep (seed 003,
        # "4) Vorbereiten"), so Prep starts with the same check (and preventions) as a reveal.
        return self._after_reveal()

    def _continue_prep(self, shown: tuple[int, int]) -> list[Event]:
        """One more card into the field, or the end of Prep at 3 decay (or no card left);
        4 decay were ruled out by `_after_reveal` before, which gives `_decay_and_growth`.

        Most cards have no on-play ability: for them this loop does what `_play_on_deck`,
        `_next_on_play`, `_reveal` and `_after_reveal` would (a play, a reveal, the spoil
        check) without a call per step; any other card goes the long way."""
        me = self.seats[self.seat]  # type: ignore[index]
        seat = self.seat
        events: list[Event] = []
        while True:
            if shown[0] - shown[1] >= c.PREP_STOPS_AT or me.on_deck is None:
                events += self._end_turn()
                return events
            if self.options.edition == "german" and self._may_stop_prep():
                self.phase = PREP  # the German edition's early stop: continue or stop
                return events
            card = me.on_deck
            if self.confirm_reveal or _on_play_positions(tuple(me.cards[card]), me.band[card]):
                events += self._play_on_deck(shown)
                return events
            me.on_deck = None  # _play_on_deck
            me.field.append(card)
            events.append(Event("play", seat, {"card": card + 1, "stage": self.stage}))
            self.queue = []
            self.phase = REVEAL  # _next_on_play, nothing queued
            me.on_deck = x = self._draw(me)  # _reveal
            public: dict[str, JSON] = {"card": None if x is None else x + 1}
            events.append(Event("reveal", seat, public, reveals=True))
            if x is not None:  # _after_reveal: only the new on-deck card is to add
                d, g = _card_decay_growth(tuple(me.cards[x]), me.band[x], x in me.aether)
                shown = (shown[0] + d, shown[1] + g)
            if shown[0] - shown[1] >= c.SPOIL_AT:
                if self._preventions():
                    self.phase = SPOILING
                    return events
                events += self._spoil()
                return events

    # -- harvest --------------------------------------------------------------------------

    def _start_harvest(self) -> list[Event]:
        me = self.me
        self.phase = HARVEST
        h = self.harvest
        mana = vp = beast = forest = sky = wild = 0
        for x in me.field:
            symbols = card_symbols(me.cards[x])
            mana += symbols.get("mana", 0)
            vp += symbols.get("vp", 0)
            beast += symbols.get("beast", 0)
            forest += symbols.get("forest", 0)
            sky += symbols.get("sky", 0)
            wild += symbols.get("wild", 0)
        h.mana_earned += mana
        if me.field:  # every spirit gets its key, in SPIRITS order, as a card adds it
            spirits = h.spirits
            for spirit, n in zip(c.SPIRITS, (beast, forest, sky, wild), strict=True):
                spirits[spirit] = spirits.get(spirit, 0) + n
        h.mana_doublable = h.mana_earned
        events = [Event("harvest", self.seat, {"mana": h.mana_earned, "spirits": dict(h.spirits)})]
        events += self._take_vp(vp, "field")
        if not me.vales:  # no vale to add anything (the usual case)
            return events
        h.mana_earned += len(self.vale_active(me, "azurblauer_see"))
        rivers = self.vale_active(me, "bach_der_vitalitaet")
        h.mana_earned += 2 * len(rivers)
        if rivers:
            h.buy_limit = 3
        for _ in self.vale_active(me, "tal_der_magie"):
            events += self._take_vp(1, "tal_der_magie")
        if self.vale_active(me, "manatau_wiese"):
            most = max((card_symbol(me.cards[x], "guardian") for x in me.field), default=0)
            h.mana_earned += most * len(self.vale_active(me, "manatau_wiese"))
        return events

    def _take_vp(self, n: int, reason: str) -> list[Event]:
        """VP from the counted pool; once it is empty, from the reserve (end trigger A)."""
        if n <= 0:
            return []
        me = self.me
        from_pool = min(n, self.pool)
        self.pool -= from_pool
        me.vp += n
        public: dict[str, JSON] = {"vp": n, "from_pool": from_pool, "reason": reason}
        if self.pool == 0 and not self.end_triggered:
            self.end_triggered = True
            public["end_triggered"] = True
        return [Event("vp", self.seat, public)]

    def _scan_field(self) -> tuple[list[tuple[int, int, str]], list[int], tuple[list[int], ...]]:
        """One pass over the field for the Harvest's options: the harvest abilities that
        show (resolved or not) as (card, position, ability), the cards that show Chor des
        Erdengesangs, and per position the cards with it free."""
        me = self.me
        cards, band = me.cards, me.band
        abilities: list[tuple[int, int, str]] = []
        choirs: list[int] = []
        free: tuple[list[int], ...] = tuple([] for _ in c.POSITIONS)
        for x in me.field:
            free_positions, shown, choir = _harvest_facts(tuple(cards[x]), band[x])
            for pos in free_positions:
                free[pos].append(x)
            if shown:
                abilities += [(x, pos, a) for pos, a in shown]
            if choir:
                choirs.append(x)
        return abilities, choirs, free

    def _harvest_abilities_open(
        self, shown: list[tuple[int, int, str]] | None = None
    ) -> list[tuple[int, int, str]]:
        """The harvest abilities not resolved yet; `shown`: `_scan_field`'s, if made."""
        found = self._scan_field()[0] if shown is None else shown
        if not found or not self.harvest.resolved:
            return found
        done = {tuple(r) for r in self.harvest.resolved}
        return [(x, pos, a) for x, pos, a in found if (x, pos) not in done]

    def _harvest_options(self) -> list[Action]:
        h = self.harvest
        shown, choirs, free = self._scan_field()
        abilities_open = self._harvest_abilities_open(shown)
        actions: list[Action] = [
            _use_ability(x + 1, c.POSITIONS[pos]) for x, pos, _ in abilities_open
        ]
        spirits = sum(h.spirits.values())
        if h.vales_bought < c.BUY_LIMIT and spirits >= _cheapest_vale():
            owns_roots = any(v == "alte_lebenswurzeln" for v, _ in self.me.vales)
            market = tuple(map(tuple, self.vale_market))
            actions += _vale_buys(market, tuple(h.spirits.items()), owns_roots)
        if h.advancements_bought < h.buy_limit:
            actions += self._advancement_buys(choirs, free)
        if self.options.edition != "english" and spirits >= c.SPIRITS_PER_VP:
            actions.append(A_EXCHANGE)
        if not abilities_open:
            actions.append(A_END_HARVEST)
        return actions

    def _room(self, position: int, skip: int = -1) -> tuple[list[int], int]:
        """Field cards with `position` free and not promised to another purchase, and how
        many purchases more that position can take (`skip`: a waiting purchase to ignore)."""
        me = self.me
        forced, unforced = [], 0
        for i, (copy, target) in enumerate(self.harvest.to_sleeve):
            if i == skip or c.split_copy(copy)[1] != position:
                continue
            if target >= 0:
                forced.append(target)
            else:
                unforced += 1
        open_cards = [x for x in me.field if me.cards[x][position] is None and x not in forced]
        return open_cards, len(open_cards) - unforced

    def _rooms(self, free: tuple[list[int], ...]) -> list[tuple[list[int], int]]:
        """`_room` of every position, from the field cards with each position free (see
        `_scan_field`) and one pass over the waiting purchases."""
        if not self.harvest.to_sleeve:  # the usual case: nothing promised
            return [(open_cards, len(open_cards)) for open_cards in free]
        forced: list[list[int]] = [[] for _ in c.POSITIONS]
        unforced = [0] * len(c.POSITIONS)
        for copy, target in self.harvest.to_sleeve:
            pos = c.split_copy(copy)[1]
            if target >= 0:
                forced[pos].append(target)
            else:
                unforced[pos] += 1
        rooms = []
        for pos in range(len(c.POSITIONS)):
            promised = forced[pos]
            open_cards = [x for x in free[pos] if x not in promised]
            rooms.append((open_cards, len(open_cards) - unforced[pos]))
        return rooms

    def _advancement_buys(self, choirs: list[int], free: tuple[list[int], ...]) -> list[Action]:
        """`choirs` and `free`: see `_scan_field`."""
        copies = [copy for level in self.market for copy in level if copy is not None]
        copies += [copy for copy, left in zip(_FERTILE_COPIES, self.fertile, strict=True) if left]
        rooms = self._rooms(free)
        mana = self.mana_left()
        if not choirs:
            return list(_plain_buys(tuple(copies), mana, tuple(r >= 1 for _, r in rooms)))  # type: ignore[arg-type]
        actions: list[Action] = []
        seen = set()
        for copy in copies:
            if copy in seen:
                continue
            seen.add(copy)
            adv, pos = c.split_copy(copy)
            open_cards, room = rooms[pos]
            if room < 1:
                continue
            if adv.cost <= mana:
                actions.append(_buy_advancement(copy))
            for x in choirs:
                if x in open_cards and max(0, adv.cost - 2) <= mana:
                    actions.append(_buy_advancement(copy, x + 1))
        return actions

    def _apply_use_ability(self, action: UseAbility) -> list[Event]:
        me = self.me
        h = self.harvest
        card, pos = action.card - 1, c.POSITIONS.index(action.position)
        ability = c.advancements()[me.cards[card][pos]].ability  # type: ignore[index]
        h.resolved.append([card, pos])
        public: dict[str, JSON] = {"card": action.card, "ability": ability}
        events: list[Event] = []
        if ability == "aurora":
            events += self._take_vp(len(me.field) // 2, "aurora")
        elif ability == "magischer_samen":
            gain = len(me.field) - 1
            h.mana_earned += gain
            h.mana_doublable += gain
            public["mana"] = gain
        elif ability == "wachstumsueberlauf":
            # The token's mana is doubled whether a purchase has spent it yet or not (seed
            # 003, glossary). An unspent token's share doubles apart from the cards', so
            # that a purchase needing more than the cards' mana still turns it grey.
            gain = h.mana_doublable
            h.mana_earned += gain
            h.mana_doublable += gain
            if me.mana_token:
                gain += h.token_mana
                h.token_mana *= 2
            public["mana"] = gain
        elif ability == "baumkronen_erkunder":
            added = []
            for _ in range(card_symbol(me.cards[card], "guardian")):
                drawn = self._draw(me)  # the on-deck card is not in the deck: this is under it
                if drawn is None:
                    break
                me.field.append(drawn)
                added.append(drawn + 1)
                mana = card_symbol(me.cards[drawn], "mana")
                h.mana_earned += mana
                h.mana_doublable += mana
                for spirit in c.SPIRITS:
                    h.spirits[spirit] = h.spirits.get(spirit, 0) + card_symbol(
                        me.cards[drawn], spirit
                    )
                events += self._take_vp(card_symbol(me.cards[drawn], "vp"), "baumkronen_erkunder")
            public["added"] = added
        return [
            Event("ability", self.seat, public, reveals=ability == "baumkronen_erkunder"),
            *events,
        ]

    def _apply_buy_advancement(self, action: BuyAdvancement) -> list[Event]:
        h = self.harvest
        adv, pos = c.split_copy(action.copy)
        cost = max(0, adv.cost - 2) if action.onto else adv.cost
        self._spend(cost)
        if adv.id == c.FERTILE_SOIL:
            self.fertile[pos] -= 1
        else:
            for level in self.market:
                if action.copy in level:
                    level[level.index(action.copy)] = None
                    break
        h.advancements_bought += 1
        h.to_sleeve.append([action.copy, action.onto - 1 if action.onto else -1])
        public: dict[str, JSON] = {"copy": action.copy, "cost": cost}
        return [Event("buy", self.seat, public)]

    def _spend(self, cost: int) -> None:
        h = self.harvest
        if h.mana_earned - h.mana_spent < cost:  # the active mana token covers the rest
            self._spend_token()
        h.mana_spent += cost

    def _spend_token(self) -> None:
        """Seed 003, "Aufwertungen kaufen": the token spent turns grey; its mana (doubled,
        if a Wachstumsüberlauf came first) joins the mana that a later doubling doubles."""
        h = self.harvest
        self.me.mana_token = False
        h.mana_earned += h.token_mana
        h.mana_doublable += h.token_mana
        h.token_mana = 1

    def _apply_buy_vale(self, action: BuyVale) -> list[Event]:
        me = self.me
        h = self.harvest
        vale = c.vales()[action.vale]
        paid = pay_spirits(vale.cost, h.spirits)
        assert paid is not None
        for spirit, n in paid.items():
            h.spirits[spirit] -= n
        for level in self.vale_market:
            if action.vale in level:
                level[level.index(action.vale)] = None
                break
        me.vales.append([action.vale, me.turn])
        h.vales_bought += 1
        events = [Event("buy_vale", self.seat, {"vale": action.vale, "paid": paid})]
        return events + self._on_purchase(vale)

    def _on_purchase(self, vale: c.Vale) -> list[Event]:
        """Vale of Magic: abilities that act once, right after the purchase."""
        me = self.me
        h = self.harvest
        if vale.ability == "erdenwiege":  # its VP wait for the vales bought after it
            h.erdenwiege += 1
            return []
        if vale.ability == "hoehle_der_tierwelt":
            h.mana_earned += 2
            return [Event("mana", self.seat, {"mana": 2, "reason": vale.id})]
        if vale.ability == "mana_token":
            if me.mana_token:  # Yucata: the active token is spent first, then turned again
                self._spend_token()
            me.mana_token = True
            return [Event("mana_token", self.seat, {"active": True})]
        if vale.ability == "sonnenquell_tempel" and self.vale_piles[0]:
            extra = self.vale_piles[0].pop()
            me.vales.append([extra, me.turn])
            return [Event("take_vale", self.seat, {"vale": extra}, reveals=True)]
        if vale.ability == "hort_der_waldgeister":
            top = me.deck[-3:][::-1]
            if top:
                me.known_top = max(me.known_top, len(top))
                self.choice = {
                    "ability": "hort_der_waldgeister",
                    "card": -1,
                    "left": len(top),
                    "cards": top,
                }
                self.phase = ABILITY
                private = {self.seat: {"cards": [x + 1 for x in top]}}
                return [Event("look", self.seat, {"count": len(top)}, private, True)]
        return []

    def _count_erdenwiege(self) -> list[Event]:
        """1 VP per vale in front of you for each Erdenwiege bought this turn, counting the
        vales bought with it in the same turn whatever the order (seed 003, glossary)."""
        vales = len(self.me.vales)
        events: list[Event] = []
        for _ in range(self.harvest.erdenwiege):
            events += self._take_vp(vales, "erdenwiege")
        return events

    def _apply_exchange(self) -> list[Event]:
        h = self.harvest
        for _ in range(c.SPIRITS_PER_VP):
            plain = [s for s in ("beast", "forest", "sky") if h.spirits.get(s, 0) > 0]
            spirit = min(plain, key=lambda s: h.spirits[s]) if plain else "wild"
            h.spirits[spirit] -= 1
        self.me.vp += 1
        return [Event("exchange", self.seat, {"vp": 1})]

    # -- cleanup --------------------------------------------------------------------------

    def _sleeve_options(self) -> list[Action]:
        me = self.me
        copy, forced = self.harvest.to_sleeve[0]
        adv, pos = c.split_copy(copy)
        targets = [forced] if forced >= 0 else self._room(pos, skip=0)[0]
        actions: list[Action] = []
        for x in targets:
            actions.append(_sleeve(copy, x + 1))
            if adv.vertical and me.band[x] >= 0:
                actions.append(_sleeve(copy, x + 1, True))
        return actions

    def _apply_sleeve(self, action: Sleeve) -> list[Event]:
        me = self.me
        adv, pos = c.split_copy(action.copy)
        card = action.card - 1
        me.cards[card][pos] = adv.id
        if adv.vertical and not action.old_band:
            me.band[card] = pos
        me.fresh.append([card, pos])
        self.harvest.to_sleeve.pop(0)
        events = [Event("sleeve", self.seat, {"copy": action.copy, "card": action.card})]
        if self.harvest.to_sleeve:
            return events
        return events + self._cleanup()

    def _nest_candidates(self) -> list[int]:
        """Field cards a Brutplatz may keep: not the first card, not sleeved this turn."""
        me = self.me
        cards, band = me.cards, me.band
        holders = _holders(("brutplatz",))
        for x in me.field[1:]:
            if not holders.isdisjoint(cards[x]) and _shows(tuple(cards[x]), band[x], "brutplatz"):
                break
        else:  # no Brutplatz shows: the usual case
            return []
        fresh = {(x, pos) for x, pos in me.fresh}
        return [
            x
            for x in me.field[1:]
            if x not in me.kept
            and any(a == "brutplatz" and (x, pos) not in fresh for pos, a in me.abilities(x))
        ]

    def _cleanup(self) -> list[Event]:
        """Sleeve purchases, let Brutplatz keep cards, discard the field, refill markets."""
        if self.harvest.to_sleeve:
            self.phase = SLEEVE
            return []
        if self._nest_candidates():
            self.phase = NEST
            return []
        return self._finish_cleanup()

    def _finish_cleanup(self) -> list[Event]:
        me = self.me
        me.discard += [x for x in me.field if x not in me.kept]
        me.field = []
        events = [Event("cleanup", self.seat, {"kept": [x + 1 for x in me.kept]})]
        events += self._refill_markets()
        if self.end_triggered and self.seat == self.players - 1:
            return events + self._game_over()
        return events + self._prep()

    def _refill_markets(self) -> list[Event]:
        events: list[Event] = []
        for level, slots in enumerate(self.vale_market):
            if None not in slots:  # nothing bought from this level
                continue
            for i, vid in enumerate(slots):
                if vid is None:
                    pile = next((p for p in self.vale_piles[level:] if p), None)
                    if pile is not None:
                        slots[i] = pile.pop()
                        events.append(Event("reveal_vale", None, {"vale": slots[i]}, {}, True))
                        last_l2 = pile is self.vale_piles[1] and not pile
                        if last_l2 and self.options.edition != "english":
                            self.end_triggered = True
                            events.append(Event("end_triggered", None, {"by": "last level-2 vale"}))
        for level, slots in enumerate(self.market):
            if None not in slots:
                continue
            for i, copy in enumerate(slots):
                if copy is None:
                    pile = next((p for p in self.piles[level:] if p), None)
                    if pile is not None:
                        slots[i] = pile.pop()
                        events.append(
                            Event("reveal_advancement", None, {"copy": slots[i]}, {}, True)
                        )
        return events

    # -- end of turn, end of game -------------------------------------------------------

    def _end_turn(self) -> list[Event]:
        assert self.seat is not None
        self.stage = "plant"
        return self._start_turn((self.seat + 1) % self.players)

    def _game_over(self) -> list[Event]:
        self.seat = None
        self.phase = OVER
        return [Event("game_over", None, {"result": self._result().to_json()}, reveals=True)]

    def _result(self) -> Result:
        breakdown = tuple(self.final_points(druid) for druid in self.seats)
        scores = tuple(sum(b.values()) for b in breakdown)
        keys = [(scores[s], self.level_three_and_two(self.seats[s])) for s in range(self.players)]
        return Result(scores, breakdown, rank(keys), ("level-3 advancements and level-2 vales",))

    @staticmethod
    def final_points(druid: Druid) -> dict[str, int]:
        abilities = advancements = 0
        for slots in druid.cards:
            advancements += card_symbol(slots, "end_vp")
            if "gaias_erwaehlte" in slots:
                abilities += gaias_erwaehlte(slots) * slots.count("gaias_erwaehlte")
            if "sporenverteiler" in slots:
                abilities += sporenverteiler(druid.cards) * slots.count("sporenverteiler")
        return {
            "vp_tokens": druid.vp,
            "advancements": advancements,
            "vales": sum(c.vales()[vid].end_vp for vid, _ in druid.vales),
            "abilities": abilities,
        }

    @staticmethod
    def level_three_and_two(druid: Druid) -> int:
        threes = sum(
            1 for slots in druid.cards for t in slots if t and c.advancements()[t].level == 3
        )
        return threes + sum(1 for vid, _ in druid.vales if c.vales()[vid].level == 2)

    # -- applying -----------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        kind = type(action)  # a legal action is one of these classes exactly, no subclass
        if kind is Push:
            return self._play_on_deck()
        if kind is Reveal:
            return self._reveal()
        if kind is Pass:
            return self._start_harvest()
        if kind is StopPrep:
            return [Event("stop_prep", self.seat), *self._end_turn()]
        if (kind is Choose or kind is Decline) and self.phase == ABILITY:
            return self._apply_choice(action)  # type: ignore[arg-type]
        if isinstance(action, Choose):
            self.me.kept.append(action.card - 1)
            events = [Event("nest", self.seat, {"card": action.card})]
            if self._nest_candidates():
                return events
            return events + self._finish_cleanup()
        if isinstance(action, Decline):
            return self._finish_cleanup()
        if isinstance(action, Prevent):
            return self._apply_prevent(action)
        if isinstance(action, Spoil):
            return self._spoil()
        if isinstance(action, UseAbility):
            return self._apply_use_ability(action)
        if isinstance(action, BuyAdvancement):
            return self._apply_buy_advancement(action)
        if isinstance(action, BuyVale):
            return self._apply_buy_vale(action)
        if isinstance(action, Exchange):
            return self._apply_exchange()
        if isinstance(action, EndHarvest):
            return [*self._count_erdenwiege(), Event("end_harvest", self.seat), *self._cleanup()]
        assert isinstance(action, Sleeve)
        return self._apply_sleeve(action)

    def _why_illegal(self, action: Action) -> str:
        return why_illegal(self, action)

    # -- views, copies, serialisation ---------------------------------------------------

    def view(self, seat: int | None) -> dict[str, JSON]:
        return views.view(self, seat)

    def sample_hidden(self, seat: int | None, rng: Rng) -> Self:
        return views.sample_hidden(self, seat, rng)

    def clone(self) -> Self:
        return type(self)(
            players=self.players,
            options=self.options,
            rng=self.rng.clone(),
            ply=self.ply,
            seats=[d.clone() for d in self.seats],
            seat=self.seat,
            phase=self.phase,
            stage=self.stage,
            choice=None
            if self.choice is None
            else {k: (v[:] if isinstance(v, list) else v) for k, v in self.choice.items()},
            queue=[q[:] for q in self.queue],
            market=[m[:] for m in self.market],
            piles=[p[:] for p in self.piles],
            box_l1=self.box_l1[:],
            fertile=self.fertile[:],
            vale_market=[m[:] for m in self.vale_market],
            vale_piles=[p[:] for p in self.vale_piles],
            pool=self.pool,
            harvest=self.harvest.clone(),
            end_triggered=self.end_triggered,
            confirm_reveal=self.confirm_reveal,
        )

    def to_json(self) -> dict[str, JSON]:
        return views.state_to_json(self)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MysticValeState:
        return views.state_from_json(cls, data)

    _parse = staticmethod(notation.parse)


def setup(players: int, options: MysticValeOptions, seed: int) -> MysticValeState:
    """Seed 003, "Spielaufbau": decks, markets, VP pool, mana tokens, first fields."""
    rng = Rng(seed)
    sets = ("base", "vale_of_magic") if options.vale_of_magic else ("base",)
    piles = [c.advancement_copies(sets, level) for level in (1, 2, 3)]
    for pile in piles:
        rng.shuffle(pile)
    keep = c.level_one_pile(players)
    box_l1 = sorted(piles[0][:-keep])
    piles[0] = piles[0][-keep:]
    market: list[list[str | None]] = [
        [pile.pop() for _ in range(c.ADVANCEMENT_MARKET)] for pile in piles
    ]
    vale_piles = [c.vale_copies(sets, level) for level in (1, 2)]
    for pile in vale_piles:
        rng.shuffle(pile)
    vale_market: list[list[str | None]] = [
        [pile.pop() for _ in range(c.VALE_MARKET)] for pile in vale_piles
    ]
    seats = []
    for _ in range(players):
        deck = list(range(20))
        rng.shuffle(deck)
        druid = Druid(c.starter_deck(), [-1] * 20, deck)
        seats.append(druid)
    state = MysticValeState(
        players=players,
        options=options,
        rng=rng,
        ply=0,
        seats=seats,
        seat=0,
        phase=PLANT,
        stage="prep",
        choice=None,
        queue=[],
        market=market,
        piles=piles,
        box_l1=box_l1,
        fertile=[c.FERTILE_SOIL_PER_POSITION] * 3,
        vale_market=vale_market,
        vale_piles=vale_piles,
        pool=c.vp_pool(players),
        harvest=Harvest(),
        end_triggered=False,
    )
    for seat, druid in enumerate(seats):  # first fields: 2 Cursed Land out, 1 on deck
        state.seat = seat
        druid.on_deck = state._draw(druid)
        while state.decay(druid) < c.PREP_STOPS_AT:
            druid.field.append(druid.on_deck)  # type: ignore[arg-type]
            druid.on_deck = state._draw(druid)
    state._start_turn(0)
    return state
