"""Meadow: an online table for Renature, Mystic Vale, Topiary and Harmonies."""

__version__ = "0.1.0"
