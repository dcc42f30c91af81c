"""A deep copy for plain data, for rules that work on a copy of the state (`pbem.core.plaincopy`)."""

from __future__ import annotations

from pbem.core.plaincopy import copy_plain

__all__ = ["copy_plain"]
