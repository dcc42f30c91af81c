"""pbem: play-by-email adjudicator for tabletop wargames."""
__version__ = "0.1.0"
