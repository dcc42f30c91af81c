"""What every ruleset shares, written once: the packaged tables and their scenario overrides,
the hex map and its per-hex index, stacks of units in a state, and phase dispatch.

A ruleset imports the pieces it needs; nothing here knows any one game.
"""
