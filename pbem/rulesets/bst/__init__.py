"""Blood, Sweat and Tears: Rules for Wargaming World War Two at Company Level (free PDF rules,
author not named in the text), parts I-III: a card-driven miniatures game (docs/bst.md).

Not registered yet: this package holds the rule modules of part I's core, each tested in
tests/bst/, without the `Ruleset` class. Which module rules which headings (labels of
tests/bst/sections.yaml):

  tables.py    the tables, every assumed value marked (F3's weapon table)
  terrain.py   terrain kinds for the table map (T1, T3, M3, W10)
  stands.py    bases, contact, in command (D1, L1, L4)
  sight.py     lines of sight (T1, T2, T3, W10)
  cover.py     cover against one attack (T1, T3, F5)
  deck.py      the deck, drawn on demand with public rolls (D3, A1, A2)
  movement.py  move allowances and terrain costs (M3, W11)
  fire.py      fire markers: arcs, ranges, chains, cover, safety zone (F2-F10)
  hits.py      hit resolution and recovery (R1, R2, R3, H1)
"""

from .ruleset import Bst

__all__ = ["Bst"]
