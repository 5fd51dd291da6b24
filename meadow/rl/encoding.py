"""The research API's name for the encodings: the fixed action spaces and observation arrays
live in `meadow.core.encoding` (the machinery) and `meadow/games/<game>/encoding.py` (each
game's side), a floor below the bots, so that a search can read a position as the learned
evaluations do (`meadow.bots.learned`)."""

from meadow.core.encoding import Block, Encoder, Encoding, Parts, Slice, encoding

__all__ = ["Block", "Encoder", "Encoding", "Parts", "Slice", "encoding"]
