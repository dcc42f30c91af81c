"""1916 (`wtj1916`): the firing chapter of *1916: Land War in the Age of Machines* (War Times
Journal "WTJ War Series", free web rules), sections 3.1-3.7, on the miniatures table.

The text is only the firing chapter; the turn, movement and victory around it are the
project's assumed frame (labels F1-F3). Which module adjudicates which section (docs/wtj1916.md):

- 3.1 small arms fire: `smallarms`, `fire`;  3.5 its modifiers: `smallarms`
- 3.2 direct artillery fire: `artillery`, `fire`;  3.6 its modifiers and the weapon size index: `artillery`, data
- 3.3 hit results, removal, machine gun resurrection: `results`
- 3.4 line of fire, spotting, fields of fire, prone units: `lines`, `geometry`, `spotting`, `smallarms`
- 3.7 special rules (machine guns, trench mortars, passing fire, rapid fire, flamethrowers,
  pillboxes and bunkers, air strikes): `fire`, `sequence`, `geometry`, `movement`
- F1 the turn: `sequence`;  F2 movement: `movement`;  F3 victory: `ruleset.result`
- fog of war (3.4 spotting): `fog`, `events`;  bots: `bots`;  pictures: `picture`
"""

from .ruleset import Wtj1916

__all__ = ["Wtj1916"]
