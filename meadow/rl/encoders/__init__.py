"""One encoder per game: its action enumeration and how its view becomes an array."""
