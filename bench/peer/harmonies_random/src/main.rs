//! Random 2-player Harmonies games (board side A, Nature's Spirits on) played through the
//! rules of miles2542/harmonies-bot's `harmonies-core` crate (Apache-2.0, commit
//! a5ffa20f4d6206632eec2c83e93c39cff79283c8), timed on one thread. Written for Meadow's
//! bench (bench/harmonies_rust_peer.py); none of the peer's code is copied here.
//!
//! What the engine gives and this driver uses: its game types (`GameSnapshotV1`,
//! `PlayerState`, `ActiveCard`, `BagCounts`), its card catalog, its stacking rule
//! (`rules::can_place`, `rules::place_token`), its habitat matching for cubes
//! (`moves::legal_settlements`, `moves::apply_settlement`) and its final scoring
//! (`scoring::score_player`). The engine has no public set-up, pouch draw, card deck or
//! end-of-game check (its own self-play keeps them private and starts from a snapshot of a
//! game in progress), so this driver deals and refills as the rulebook says: 120 tokens
//! (23 water, 23 mountain, 21 trunk, 19 foliage, 19 field, 15 building), five central
//! groups of three, the 32 animal cards shuffled with five face up, two of the ten spirits
//! dealt to each player, one kept on the first turn; the game ends after the round in which
//! a player has two empty spaces or fewer, or the pouch cannot refill a group.
//!
//! A turn under the phase-structured random policy, each step one decision drawn uniformly
//! from its legal list: (first turn only) keep one of the two spirits; take one of the
//! non-empty groups; place the group's tokens one at a time, each decision a (colour,
//! space) pair among the remaining colours and the spaces `can_place` allows; if fewer than
//! four cards are held (a kept spirit counts until its cube is placed, as in the engine's
//! own turn generator), take none or one of the display's cards; then, repeatedly, place a
//! cube (a distinct (card, space) from `legal_settlements`) or end the turn. Set-up,
//! legal lists, refills, the end check and the final scoring all run inside the timer.
//!
//! Usage: harmonies-random --catalog CHECKOUT/docs/cards_database.json
//!        [--seconds S | --games N] [--seed K]
//! Prints one JSON object.

use std::{env, fs, process, time::Instant};

use harmonies_core::{
    cards::CardCatalog,
    model::{ActiveCard, BagCounts, BoardSide, Cell, Color, Coord, GameSnapshotV1, PlayerState},
    moves::{apply_settlement, legal_settlements, SettlementMove},
    rules::{can_place, place_token},
    scoring::score_player,
};

const PLAYERS: usize = 2;
const GROUPS: usize = 5;
const TOKENS_PER_GROUP: usize = 3;
const DISPLAY: usize = 5;
const HAND_LIMIT: usize = 4;
const SPIRITS_DEALT: usize = 2;
const END_EMPTY: u8 = 2;

/// splitmix64: a small, fast generator of our own, so the driver needs no crate beyond the
/// engine (crates.io is out of reach; Debian's packaged crates build the engine).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0); Lemire's multiply-shift, its bias at most n / 2^64.
    fn below(&mut self, n: usize) -> usize {
        ((self.next() as u128 * n as u128) >> 64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Counters over every game played, for the JSON report.
#[derive(Default)]
struct Tally {
    games: u64,
    decisions: u64,
    offered: u64, // legal options summed over decisions
    turns: u64,
    score_sums: [i64; PLAYERS],
    stuck_tokens: u64, // tokens with no legal space (never expected; counted, not hidden)
}

impl Tally {
    /// One decision: draw uniformly among `n` options and count it.
    fn choose(&mut self, rng: &mut Rng, n: usize) -> usize {
        self.decisions += 1;
        self.offered += n as u64;
        rng.below(n)
    }
}

/// A game: the engine's snapshot type holds the boards, groups, display and pouch; the
/// deck's order is the driver's (the snapshot has no deck).
struct Game {
    snap: GameSnapshotV1,
    deck: Vec<ActiveCard>,
}

/// The catalog's cards split into animals and spirits, as the engine's cards, with one cube
/// per point location (what the engine's own simulation gives a fresh card).
struct Cards {
    animals: Vec<ActiveCard>,
    spirits: Vec<ActiveCard>,
}

impl Cards {
    fn from(catalog: &CardCatalog) -> Self {
        let mut all: Vec<ActiveCard> = catalog
            .cards
            .values()
            .map(|def| ActiveCard {
                card_id: u32::from(def.type_arg), // each card exists once: its type is its id
                type_arg: def.type_arg,
                remaining_cubes: def.point_locations.len() as u8,
                is_spirit: def.is_spirit,
            })
            .collect();
        all.sort_by_key(|card| card.type_arg); // HashMap order would make runs irreproducible
        let (spirits, animals) = all.into_iter().partition(|card| card.is_spirit);
        Self { animals, spirits }
    }
}

/// Side A, BGA's odd-q layout: columns 0, 2, 4 have five spaces, 1 and 3 have four.
fn side_a_cells() -> Vec<Cell> {
    let mut cells = Vec::with_capacity(23);
    for col in 0..5i8 {
        let rows = if col % 2 == 0 { 5 } else { 4 };
        for row in 0..rows {
            cells.push(Cell {
                coord: Coord { col, row },
                ..Cell::default()
            });
        }
    }
    cells
}

fn full_pouch() -> BagCounts {
    BagCounts {
        water: 23,
        mountain: 23,
        trunk: 21,
        foliage: 19,
        field: 19,
        building: 15,
        unknown: 0,
    }
}

const COLOURS: [Color; 6] = [
    Color::Water,
    Color::Mountain,
    Color::Trunk,
    Color::Foliage,
    Color::Field,
    Color::Building,
];

/// Up to `n` tokens drawn from the pouch, each uniformly among the tokens left.
fn draw(pouch: &mut BagCounts, n: usize, rng: &mut Rng) -> Vec<Color> {
    let mut drawn = Vec::with_capacity(n);
    for _ in 0..n {
        let left = pouch.total_known() as usize;
        if left == 0 {
            break;
        }
        let mut pick = rng.below(left) as u16;
        for colour in COLOURS {
            let count = pouch.get(colour);
            if pick < count {
                pouch.saturating_sub_color(colour);
                drawn.push(colour);
                break;
            }
            pick -= count;
        }
    }
    drawn
}

fn deal(cards: &Cards, rng: &mut Rng) -> Game {
    let mut pouch = full_pouch();
    let groups = (0..GROUPS)
        .map(|_| draw(&mut pouch, TOKENS_PER_GROUP, rng))
        .collect();
    let mut deck = cards.animals.clone();
    rng.shuffle(&mut deck);
    let display = deck.split_off(deck.len() - DISPLAY);
    let mut spirits = cards.spirits.clone();
    rng.shuffle(&mut spirits);
    let players = (0..PLAYERS)
        .map(|seat| {
            let cells = side_a_cells();
            PlayerState {
                player_id: format!("seat{seat}"),
                empty_hexes: cells.len() as u8,
                cells,
                active_cards: Vec::new(),
                spirit_card_choices: spirits.split_off(spirits.len() - SPIRITS_DEALT),
                completed_cards: Vec::new(),
            }
        })
        .collect();
    let snap = GameSnapshotV1 {
        schema_version: 1,
        perspective_player_id: "seat0".into(),
        active_player_id: "seat0".into(),
        board_side: BoardSide::SideA,
        players,
        central_token_groups: groups,
        river_cards: display,
        bag_counts: pouch,
        cards_catalog_version: "docs/cards_database.json".into(),
    };
    Game { snap, deck }
}

/// The first turn's spirit: keep one of the two dealt, the other leaves the game.
fn keep_spirit(player: &mut PlayerState, rng: &mut Rng, tally: &mut Tally) {
    if player.spirit_card_choices.is_empty() {
        return;
    }
    let kept = tally.choose(rng, player.spirit_card_choices.len());
    let spirit = player.spirit_card_choices.swap_remove(kept);
    player.spirit_card_choices.clear();
    player.active_cards.push(spirit);
}

fn take_group(snap: &mut GameSnapshotV1, rng: &mut Rng, tally: &mut Tally) -> (usize, Vec<Color>) {
    let open: Vec<usize> = (0..snap.central_token_groups.len())
        .filter(|&i| !snap.central_token_groups[i].is_empty())
        .collect();
    let group = open[tally.choose(rng, open.len())];
    (group, std::mem::take(&mut snap.central_token_groups[group]))
}

/// Place the taken tokens one decision at a time: (which remaining colour, which space).
fn place_tokens(player: &mut PlayerState, mut hand: Vec<Color>, rng: &mut Rng, tally: &mut Tally) {
    let mut options: Vec<(usize, usize)> = Vec::with_capacity(64);
    while !hand.is_empty() {
        options.clear();
        for (i, &colour) in hand.iter().enumerate() {
            if hand[..i].contains(&colour) {
                continue; // two tokens of one colour are one choice, as in Meadow's list
            }
            for (cell, spot) in player.cells.iter().enumerate() {
                if can_place(spot, colour).is_ok() {
                    options.push((i, cell));
                }
            }
        }
        if options.is_empty() {
            tally.stuck_tokens += hand.len() as u64;
            return;
        }
        let (i, cell) = options[tally.choose(rng, options.len())];
        let colour = hand.swap_remove(i);
        let was_empty = player.cells[cell].stack.is_empty();
        place_token(&mut player.cells[cell], colour).expect("can_place allowed it");
        if was_empty {
            player.empty_hexes -= 1;
        }
    }
}

/// With room in hand: take none or one of the display's cards, uniformly.
fn take_card(snap: &mut GameSnapshotV1, seat: usize, rng: &mut Rng, tally: &mut Tally) {
    let held = snap.players[seat].active_cards.len();
    if held >= HAND_LIMIT || snap.river_cards.is_empty() {
        return;
    }
    let pick = tally.choose(rng, snap.river_cards.len() + 1);
    if pick > 0 {
        let card = snap.river_cards.remove(pick - 1);
        snap.players[seat].active_cards.push(card);
    }
}

/// Cubes, then the end of the turn: each decision is one distinct (card, space) the engine
/// finds a habitat for, or ending the turn.
fn place_cubes(player: &mut PlayerState, catalog: &CardCatalog, rng: &mut Rng, tally: &mut Tally) {
    loop {
        let mut options: Vec<SettlementMove> = legal_settlements(player, catalog);
        // The engine lists one entry per habitat match; a cube is a (card, space).
        options.sort_by_key(|s| (s.card_id, s.cube_coord.col, s.cube_coord.row));
        options.dedup_by_key(|s| (s.card_id, s.cube_coord));
        let pick = tally.choose(rng, options.len() + 1);
        if pick == options.len() {
            return; // end the turn
        }
        assert!(
            apply_settlement(player, &options[pick]),
            "the engine refused its own cube"
        );
    }
}

/// End of turn: refill the taken group and the display. True if the pouch ran short.
fn refill(game: &mut Game, group: usize, rng: &mut Rng) -> bool {
    let tokens = draw(&mut game.snap.bag_counts, TOKENS_PER_GROUP, rng);
    let short = tokens.len() < TOKENS_PER_GROUP;
    game.snap.central_token_groups[group] = tokens;
    while game.snap.river_cards.len() < DISPLAY {
        let Some(card) = game.deck.pop() else { break };
        game.snap.river_cards.push(card);
    }
    short
}

/// One turn for `seat`; true if it triggers the end of the game.
fn turn(
    game: &mut Game,
    seat: usize,
    catalog: &CardCatalog,
    rng: &mut Rng,
    tally: &mut Tally,
) -> bool {
    keep_spirit(&mut game.snap.players[seat], rng, tally);
    let (group, hand) = take_group(&mut game.snap, rng, tally);
    place_tokens(&mut game.snap.players[seat], hand, rng, tally);
    take_card(&mut game.snap, seat, rng, tally);
    place_cubes(&mut game.snap.players[seat], catalog, rng, tally);
    tally.turns += 1;
    let short = refill(game, group, rng);
    short || game.snap.players[seat].empty_hexes <= END_EMPTY
}

/// A whole game: set-up, turns until the round of the end trigger is over, final scores.
fn play(cards: &Cards, catalog: &CardCatalog, rng: &mut Rng, tally: &mut Tally) {
    let mut game = deal(cards, rng);
    let mut ending = false;
    while !ending {
        // A round: once a turn has triggered the end, the seats after it still play.
        for seat in 0..PLAYERS {
            ending |= turn(&mut game, seat, catalog, rng, tally);
        }
    }
    for (seat, player) in game.snap.players.iter().enumerate() {
        tally.score_sums[seat] +=
            i64::from(score_player(player, BoardSide::SideA, catalog).total());
    }
    tally.games += 1;
}

struct Args {
    catalog: String,
    seconds: f64,
    games: Option<u64>,
    seed: u64,
}

fn usage(message: &str) -> ! {
    eprintln!("harmonies-random: {message}");
    eprintln!("usage: harmonies-random --catalog FILE [--seconds S | --games N] [--seed K]");
    process::exit(2);
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> T {
    value
        .parse()
        .unwrap_or_else(|_| usage(&format!("{flag}: not a number: {value}")))
}

fn parse_args() -> Args {
    let mut args = Args {
        catalog: String::new(),
        seconds: 3.0,
        games: None,
        seed: 2026,
    };
    let mut it = env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        match flag.as_str() {
            "--catalog" => args.catalog.clone_from(&value),
            "--seconds" => args.seconds = number(&flag, &value),
            "--games" => args.games = Some(number(&flag, &value)),
            "--seed" => args.seed = number(&flag, &value),
            _ => usage(&format!("unknown option {flag}")),
        }
    }
    if args.catalog.is_empty() {
        usage("--catalog is required");
    }
    args
}

fn main() {
    let args = parse_args();
    let text = fs::read_to_string(&args.catalog)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", args.catalog)));
    let catalog = CardCatalog::from_cards_database_json(&text)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", args.catalog)));
    let cards = Cards::from(&catalog);
    if cards.animals.len() < DISPLAY || cards.spirits.len() < PLAYERS * SPIRITS_DEALT {
        usage("the catalog has too few animal or spirit cards");
    }
    let mut rng = Rng(args.seed);
    let mut tally = Tally::default();
    let started = Instant::now();
    loop {
        // As Meadow's bench: the clock is read before each game, and a started game finishes.
        let done = match args.games {
            Some(n) => tally.games >= n,
            None => started.elapsed().as_secs_f64() >= args.seconds,
        };
        if done {
            break;
        }
        play(&cards, &catalog, &mut rng, &mut tally);
    }
    report(&tally, started.elapsed().as_secs_f64());
}

fn report(tally: &Tally, seconds: f64) {
    let games = tally.games.max(1) as f64;
    let decisions = tally.decisions.max(1) as f64;
    let scores: Vec<String> = tally
        .score_sums
        .iter()
        .map(|sum| format!("{:.3}", *sum as f64 / games))
        .collect();
    println!(
        "{{\"engine\": \"miles2542/harmonies-bot harmonies-core\", \"players\": {PLAYERS}, \
         \"side\": \"A\", \"spirits\": true, \"games\": {}, \"seconds\": {seconds:.6}, \
         \"games_per_s\": {:.3}, \"decisions\": {}, \
         \"decisions_per_game\": {:.3}, \"turns_per_game\": {:.3}, \"mean_legal\": {:.3}, \
         \"mean_score\": [{}], \"stuck_tokens\": {}}}",
        tally.games,
        tally.games as f64 / seconds,
        tally.decisions,
        tally.decisions as f64 / games,
        tally.turns as f64 / games,
        tally.offered as f64 / decisions,
        scores.join(", "),
        tally.stuck_tokens,
    );
}
