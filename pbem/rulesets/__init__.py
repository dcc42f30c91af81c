"""The shipped rulesets, one package per game."""
