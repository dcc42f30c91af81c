"""What every ruleset shares, written once: the packaged tables and their scenario overrides,
the hex map with its per-hex index, terrain groups and lines of sight, stacks of units in a
state, the event catalogue and its check, and phase dispatch.

A ruleset imports the pieces it needs; nothing here knows any one game.
"""
