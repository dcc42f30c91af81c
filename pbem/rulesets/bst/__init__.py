"""Blood, Sweat and Tears, company-level Second World War miniatures rules (free PDF rules,
author not named in the text), parts I-III: a card-driven miniatures game (docs/bst.md).

Version 11 adjudicates the core of part I (docs/bst.md says how far each heading is done).
Which module rules which headings (labels of tests/bst/sections.yaml):

  ruleset.py   the `Bst` class: the core interface, each method a call into a module below
  context.py   the scenario's setup and the prepared context (D2, D3, L4, P1)
  state.py     a compact state completed from the scenario (case files)
  sequence.py  cards drawn until a side owes orders; queued orders (A1, A2)
  orders.py    the orders of an activation and their check from a view (A1, M1-M3, F2-F9, R2)
  activation.py one activation: markers, fire, moves, F7 (A1, R1-R3, H1, F1-F10, M1-M3, C1)
  opfire.py    opportunity fire from standing answers (O1, O2, O4, O5)
  leaders.py   platoon leaders' command and loss (L1, L3)
  melee.py     close combat in play: entering, resolving, continuing, retiring (C1-C9)
  command.py   command types and who may move (M1, M2, L4)
  victory.py   the end of the game (P1; the rule is ours)
  fog.py, events.py, bots.py, picture.py  views, the event catalogue, bots, pictures
  tables.py    the tables, every assumed value marked (F3's weapon table)
  terrain.py   terrain kinds for the table map (T1, T3, M3, W10)
  stands.py    bases, contact, in command (D1, L1, L4)
  sight.py     lines of sight (T1, T2, T3, W10)
  cover.py     cover against one attack (T1, T3, F5)
  deck.py      the deck, drawn on demand with public rolls (D3, A1, A2)
  movement.py  move allowances and terrain costs (M3, W11)
  fire.py      fire markers: arcs, ranges, chains, cover, safety zone (F2-F10)
  hits.py      hit resolution and recovery (R1, R2, R3, H1)
  closecombat.py close combat markers, their order and stacking (C3-C5)
  mortar.py, mortars.py  bomb deviation (W7); the leader's call and each bomb (W6, W8)
  smoke.py     smoke screens and the wind (W9, W10)
  sustained.py, flamer.py  HMG sustained fire (W4), flame-throwers (W11)
  vehicles.py  tank aspects (V2), not yet used: no vehicles in play
"""

from .ruleset import Bst

__all__ = ["Bst"]
