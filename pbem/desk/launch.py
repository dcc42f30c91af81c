"""Opening the desk in the player's browser without putting its token on a command line.

`webbrowser.open(url)` starts the browser (or `xdg-open`) with the address as an argument, and
every local user can read a process's arguments (`ps`, /proc/PID/cmdline): the token would be
theirs. So the browser is handed a file instead, readable by the player alone, whose page sends
it on to the desk's address.
"""

from __future__ import annotations

import html
import os
import webbrowser
from pathlib import Path
from typing import Callable

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url={url}"><title>pbem desk</title></head>
<body><p><a href="{url}">Open your desk</a></p></body></html>
"""


def launch_page(url: str, folder: Path) -> Path:
    """Write the page that sends the browser on to `url`, readable and writable by its owner alone."""
    path = folder / "open-desk.html"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as page:
        page.write(PAGE.format(url=html.escape(url, quote=True)))
    return path


def open_in_browser(url: str, folder: Path, opener: Callable[[str], bool] = webbrowser.open) -> str:
    """Open the desk in the player's browser through a private launch page; the address handed to it."""
    address = launch_page(url, folder).as_uri()
    opener(address)
    return address
