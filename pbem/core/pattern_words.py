"""The forms pbem's schemas demand with a regular expression, said in words a player reads.

A schema refusal used to show the raw pattern (`^(heavy|light)-[0-9]+$`); a player should read
"heavy-N or light-N, like heavy-1" instead. Each pattern the shipped schemas use has its words
here; a pattern not listed (a game kept outside pbem) is still shown as it is.
"""

from __future__ import annotations

FORMS: dict[str, str] = {
    "^[0-9]{4}$": 'four digits, quoted, like "0412"',
    "^[GB]-[A-Z0-9]+$": "a unit id like B-DC1: G- or B-, then capital letters and digits",
    "^[A-Z]+[0-9]+$": "a unit id like G07 or US01: capital letters, then digits",
    "^(heavy|light)-[0-9]+$": "heavy-N or light-N (N a number), like heavy-1",
    "^[0-9]+/[0-9]+$": "two whole numbers with a slash between, like 3/2",
    "^(A|K|Q|J|T|[2-9])(S|H|D|C)$": "a card: its rank (A, K, Q, J, T or 2-9) then its suit (S, H, D or C), like QS",
    "^([0-9]+[wdhms])+$": "a duration in weeks, days, hours, minutes and seconds, like 72h or 1d12h",
    "^(-|[KDI]+)$": "- or the letters K, D and I, like KD",
    "^[0-9a-f]{64}$": "64 lower-case hexadecimal digits",
    "^sha256:[0-9a-f]{64}$": "sha256: then 64 lower-case hexadecimal digits",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$": "a UTC time, like 2026-01-01T00:00:00Z",
    "^[a-z0-9][a-z0-9-]{2,63}$": "3 to 64 lower-case letters, digits and hyphens, starting with a letter or digit",
    "^[a-z0-9][a-z0-9-]{0,31}$": "1 to 32 lower-case letters, digits and hyphens, starting with a letter or digit",
    "^[A-Za-z][A-Za-z0-9-]{0,15}$": "1 to 16 letters, digits and hyphens, starting with a letter",
    "^[a-z][a-z0-9-]*$": "lower-case letters, digits and hyphens, starting with a letter",
    "^[a-z][a-z0-9-]{0,15}$": "1 to 16 lower-case letters, digits and hyphens, starting with a letter",
    "^[a-z][a-z0-9_-]*$": "lower-case letters, digits, hyphens and underscores, starting with a letter",
    "^(orders|decisions)/[0-9]{4,}/[a-z0-9][a-z0-9-]*\\.yaml$":
        "a file of the archive, like orders/0003/german-0001.yaml or decisions/0003/german-000.yaml",
    "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.yaml$": "a file name ending .yaml, 1 to 64 letters, digits, _ and - before it",
    "^ssh-ed25519 [A-Za-z0-9+/=]+( [^\\n]*)?$": "an OpenSSH ed25519 public key line: ssh-ed25519 AAAA... [comment]",
}


MISFORMED = " does not have the expected form: "
"""How a schema problem of a pattern reads (pbem/core/schemas.py), before the form."""


def form(pattern: str) -> str:
    """The form `pattern` demands, in words where pbem knows them, else the pattern itself."""
    return FORMS.get(pattern, f"pattern {pattern}")
