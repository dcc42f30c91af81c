"""The Old Contemptibles: The Battle of Mons, 1914 (Ty Bomba, S&T #228, Decision Games 2005).

The ruleset the core loads as `pbem.rulesets.toc:Toc`; docs/toc.md maps every rule section to
the module that implements it.
"""

from .ruleset import Toc

__all__ = ["Toc"]
