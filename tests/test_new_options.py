"""`pbem new` records each side's mail address and the mail judge's deadline in game.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.core import yamlio
from tests.conftest import DUEL_SCENARIO


@pytest.fixture()
def keys(tmp_path: Path) -> Path:
    for name in ("referee", "red", "blue"):
        assert main(["keygen", name, "--out", str(tmp_path / "keys")]) == 0
    return tmp_path / "keys"


def new(keys: Path, target: Path, *extra: str) -> int:
    return main(["new", str(DUEL_SCENARIO), "--game", "mail-game", "--referee-key", str(keys / "referee"),
                 "--side", f"red={keys / 'red.pub'}", "--side", f"blue={keys / 'blue.pub'}", "--dir", str(target),
                 *extra])


def test_addresses_and_deadline_land_in_game_yaml(keys: Path, tmp_path: Path) -> None:
    assert new(keys, tmp_path / "g", "--address", "red=red@example.org", "--address", "blue=blue@example.org",
               "--deadline", "72h", "--reminder", "12h") == 0
    game = yamlio.load_file(tmp_path / "g" / "game.yaml").data
    assert [s.get("address") for s in game["sides"]] == ["red@example.org", "blue@example.org"]
    assert game["settings"] == {"deadline": "72h", "reminder": "12h"}


@pytest.mark.parametrize("extra, message", [
    (["--deadline", "3 days"], "settings.deadline"),
    (["--address", "green=g@example.org"], "green, which has no --side"),
    (["--address", "red"], "write SIDE=MAIL-ADDRESS"),
])
def test_bad_options_are_refused_and_write_nothing(keys: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   extra: list[str], message: str) -> None:
    target = tmp_path / "g"
    assert new(keys, target, *extra) == 2
    assert message in capsys.readouterr().err
    assert not (target / "game.yaml").exists()
