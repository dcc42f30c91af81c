"""First Blood: Second Marne, 15 July 1918 (Ty Bomba, S&T #248, Decision Games 2008) for pbem.

The rules are adjudicated section by section; docs/fbsm.md maps each section to its module:
setup (3.x), victory (4.x, 13.2-13.3), sequence (5.x, 13.4), board (6.1-6.2 and the values a
turn changes), fog (6.5), random_events (7.x), reinforcements (8.x, 7.5, 7.7), movement (9.x),
fire (10.x, 7.8), bombardment (11.x), tables (tables, counters, map: data/), orders, bots,
invariants and selfplay (for tests).
"""

from .ruleset import Fbsm

__all__ = ["Fbsm"]
