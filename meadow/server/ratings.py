"""Elo ratings per game: every pair of seats in a finished game counts as one match, decided
by the final ranking (shared places draw), with K split over the opponents."""

from __future__ import annotations

from sqlalchemy import Connection, bindparam, insert, or_, select, update

from meadow.core.game import State
from meadow.store import Rating, Seat

START = 1500.0
K = 32.0

# Built once: building a statement costs more than running it.
_FIND = select(Rating.id, Rating.user_id, Rating.bot, Rating.rating, Rating.games).where(
    Rating.game == bindparam("p_game"),
    or_(
        Rating.user_id.in_(bindparam("p_people", expanding=True)),
        Rating.bot.in_(bindparam("p_bots", expanding=True)),
    ),
)
_UPDATE = (
    update(Rating)
    .where(Rating.id == bindparam("p_id"))
    .values(rating=bindparam("p_rating"), games=bindparam("p_games"))
)
_SEAT = (
    update(Seat)
    .where(Seat.table_id == bindparam("p_table"), Seat.number == bindparam("p_seat"))
    .values(rating_before=bindparam("p_before"), rating_after=bindparam("p_after"))
)
_INSERT = insert(Rating).values(
    game=bindparam("p_game"),
    user_id=bindparam("p_user"),
    bot=bindparam("p_bot"),
    rating=bindparam("p_rating"),
    games=1,
)


def expected(rating: float, other: float) -> float:
    """The chance the first player beats the second, as Elo has it.

    >>> round(expected(1600, 1400), 3)
    0.76
    """
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400.0))


def updated(ratings: list[float], ranking: list[list[int]], k: float = K) -> list[float]:
    """New ratings per seat after a game whose places are `ranking` (groups of seats,
    first place first).

    >>> updated([1500.0, 1500.0], [[0], [1]])
    [1516.0, 1484.0]
    >>> updated([1500.0, 1500.0, 1500.0], [[0, 1], [2]])
    [1508.0, 1508.0, 1484.0]
    """
    place = {seat: p for p, group in enumerate(ranking) for seat in group}
    seats = len(ratings)
    new = list(ratings)
    for a in range(seats):
        for b in range(seats):
            if a == b:
                continue
            score = 1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0.0
            new[a] += k / (seats - 1) * (score - expected(ratings[a], ratings[b]))
    return [round(r, 1) for r in new]


def rate(
    connection: Connection,
    game_id: str,
    seats: list[tuple[int | None, str | None]],
    final: State,
    table_id: int | None = None,
) -> None:
    """Elo for everyone seated, in the transaction of the last move. People and bots each
    have their own rows (bots are rated apart: a bot's rating says how strong the level is
    on this server). Each seat of table `table_id` keeps its rating before and after, for
    the end of the game to show. Plain statements, not the ORM: this runs in the move
    log's writer, which every table's next move waits for."""
    keys = [_key(user_id, bot) for user_id, bot in seats]
    if len(keys) < 2:
        return  # a solo game has nobody to be compared with
    _take_turns(connection)
    people = [value for kind, value in keys if kind == "user"]
    bots = [value for kind, value in keys if kind == "bot"]
    found = connection.execute(_FIND, {"p_game": game_id, "p_people": people, "p_bots": bots}).all()
    stored = {_key(row.user_id, row.bot): (row.id, row.rating, row.games) for row in found}
    before = [stored[key][1] if key in stored else START for key in keys]
    ranking = [list(group) for group in final.result().ranking]
    # One bot level in several seats gets the sum of its seats' changes.
    change: dict[tuple[str, int | str], float] = {}
    for key, old, new in zip(keys, before, updated(before, ranking), strict=True):
        change[key] = change.get(key, 0.0) + new - old
    if table_id is not None:
        connection.execute(
            _SEAT,
            [
                {
                    "p_table": table_id,
                    "p_seat": seat,
                    "p_before": old,
                    "p_after": round(old + change[key], 1),
                }
                for seat, (key, old) in enumerate(zip(keys, before, strict=True))
            ],
        )
    for key, delta in change.items():
        if key in stored:
            row_id, rating, games = stored[key]
            connection.execute(
                _UPDATE,
                {"p_id": row_id, "p_rating": round(rating + delta, 1), "p_games": games + 1},
            )
        else:
            kind, value = key
            connection.execute(
                _INSERT,
                {
                    "p_game": game_id,
                    "p_user": value if kind == "user" else None,
                    "p_bot": value if kind == "bot" else None,
                    "p_rating": round(START + delta, 1),
                },
            )


# The advisory lock key of rating changes ("RATE"), apart from the migrations' key.
RATINGS_LOCK = 0x52415445


def _take_turns(connection: Connection) -> None:
    """Rating changes of games ending at once, through several processes, one after another:
    each reads the ratings the other committed. A row lock would not do for a row not yet
    there (two games inserting one level's first rating), and several row locks taken in
    different orders deadlock. One lock, held to the end of the transaction, and taken
    after the batch's table rows are locked, has neither problem. On SQLite the writer
    holds the whole database already."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({RATINGS_LOCK})")


def _key(user_id: int | None, bot: str | None) -> tuple[str, int | str]:
    """Whose rating a seat plays for: its person's, else its bot level's."""
    if user_id is not None:
        return ("user", user_id)
    assert bot is not None, "a seat at a finished game has a person or a bot"
    return ("bot", bot)
