"""Band of Brothers: Screaming Eagles (Jim Krohn, Worthington Games, 2011), parts 1 and 2 of the series rules.

The turn and its phases: `sequence.py` (1.0, 4.0), `phases.py`; set-up: `setup.py` (18.0);
command points: `checks.py`, `operations.py` (3.0); impulses: `operations.py` (4.0); movement:
`movement.py` (5.0-5.2); fire: `fire.py` (6.0-8.0, 16.0); op fire: `reactions.py` (9.0, 10.0);
rout: `rout.py` (11.0); melee and recovery: `melee.py` (12.0, 13.0); terrain and LOS:
`terrain.py` (14.0); concealment: `conceal.py`, `fog.py` (15.0); victory: `victory.py` (18.0).
docs/bob.md says what the text leaves out and how each unclear rule is read.
"""

from .ruleset import Bob

__all__ = ["Bob"]
