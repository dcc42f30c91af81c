"""The README's "nothing but OpenSSH" walkthrough, read from README.md and run as it stands.

The walkthrough is the first `sh` block of its README section. A comment line starting
`# Player` or `# Referee` begins a step; every line up to the next such comment belongs to it.
Each step runs in that person's folder (bash, `-e`, `pipefail`): the player's has nothing but
OpenSSH, `sha256sum` and `openssl`; the referee's is a stand-in for a clone of the repository
(it holds `samples/toc/scenario.yaml`) with `pbem` on the PATH. Between the steps the test
carries the mail the comments name. Changing the README's commands changes what runs here, so
the two cannot drift apart.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.core import chance, yamlio
from tests.test_openssh_player import World, shell_env

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH's ssh-keygen "
                                "(Debian: apt-get install openssh-client)")

REPO = Path(__file__).resolve().parent.parent
SECTION = "## One exchange with nothing but OpenSSH on the player's side"
STEP = re.compile(r"# (Player|Referee)\b")
SCENARIO = "samples/toc/scenario.yaml"


@dataclass(frozen=True)
class Step:
    who: str  # "Player" or "Referee"
    heading: str  # the step's comment lines
    script: str  # every line of the step, comments included


def walkthrough(readme: str) -> list[Step]:
    """The steps of the walkthrough block of `readme` (README.md's text)."""
    if SECTION not in readme:
        raise AssertionError(f"README.md has no section {SECTION!r}")
    after = readme[readme.index(SECTION):]
    found = re.search(r"^```sh\n(.*?)^```$", after, re.DOTALL | re.MULTILINE)
    if found is None:
        raise AssertionError("the walkthrough section has no sh block")
    steps: list[tuple[str, list[str]]] = []
    for line in found.group(1).splitlines():
        head = STEP.match(line)
        if head:
            steps.append((head.group(1), []))
        if steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"a line before the first step: {line!r}")
    return [Step(who, "\n".join(line for line in lines if line.startswith("#")), "\n".join(lines) + "\n")
            for who, lines in steps]


@dataclass
class Folks:
    """The referee's folder (a stand-in for a clone, with `pbem`) and the German player's (OpenSSH only)."""

    world: World

    @property
    def referee(self) -> Path:
        return self.world.referee

    @property
    def player(self) -> Path:
        return self.world.player("german")

    @property
    def game(self) -> Path:
        return self.world.game

    @property
    def base(self) -> Path:
        return self.world.base

    def run(self, step: Step) -> subprocess.CompletedProcess[str]:
        return self.world.sh(step.script, self.player if step.who == "Player" else self.referee)

    def mail(self, src: Path, dst: Path) -> None:
        self.world.mail(src, dst.parent, dst.name)


@pytest.fixture()
def folks(tmp_path: Path) -> Folks:
    folks = Folks(World(tmp_path, shell_env(tmp_path)))
    folks.player.mkdir()
    (folks.referee / "samples" / "toc").mkdir(parents=True)
    shutil.copyfile(REPO / SCENARIO, folks.referee / SCENARIO)
    return folks


def test_the_walkthrough_has_the_steps_this_test_carries_mail_between() -> None:
    steps = walkthrough((REPO / "README.md").read_text(encoding="utf-8"))
    assert [step.who for step in steps] == ["Player", "Referee", "Player", "Player", "Referee", "Player"]
    assert "pbem" not in "".join(step.script.replace("pbem-", "").replace("pbem:", "")
                                 for step in steps if step.who == "Player"), "the player runs no pbem"
    assert SCENARIO in steps[1].script


def test_the_parser_finds_steps_and_refuses_a_block_it_cannot_read() -> None:
    text = f"{SECTION}\n\n```sh\n# Player, once: a\n#   more words\nls\n\n# Referee: b\npwd\n```\n"
    [first, second] = walkthrough(text)
    assert (first.who, first.heading, second.who) == ("Player", "# Player, once: a\n#   more words", "Referee")
    assert first.script == "# Player, once: a\n#   more words\nls\n\n"
    with pytest.raises(AssertionError, match="before the first step"):
        walkthrough(f"{SECTION}\n```sh\nls\n# Player: x\n```\n")
    with pytest.raises(AssertionError, match="no section"):
        walkthrough("# pbem\n")


def start(folks: Folks, key: Step, setup: Step) -> None:
    """The player's key, the game, and the referee's first mail to the player."""
    player, referee = folks.player, folks.referee
    folks.run(key)
    assert (player / "german").is_file() and "ENCRYPTED" not in (player / "german").read_text()
    # the player mails the public half; the other side (British) sends its own
    shutil.copyfile(player / "german.pub", referee / "german.pub")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "british@example.org", "-f",
                    str(folks.base / "british")], check=True, capture_output=True)
    shutil.copyfile(folks.base / "british.pub", referee / "british.pub")
    folks.run(setup)
    folks.mail(folks.game / "game.yaml", player / "game.yaml")
    folks.mail(folks.game / "views/0000/german.yaml", player / "german.yaml")
    shutil.copyfile(referee / "keys/referee.pub", player / "referee.pub")


def test_the_readme_walkthrough_runs_verbatim(folks: Folks) -> None:
    key, setup, trust, orders, turn, check = walkthrough((REPO / "README.md").read_text(encoding="utf-8"))
    player, referee = folks.player, folks.referee
    start(folks, key, setup)
    game = yamlio.load_file(folks.game / "game.yaml").data
    assert game["ruleset"]["id"] == "toc"
    assert {entry["side"]: entry["key"] for entry in game["sides"]}["german"] == \
        (player / "german.pub").read_text().strip()
    checked = folks.run(trust)
    assert (checked.stdout + checked.stderr).count('Good "pbem-turn@mons-ssh" signature for referee') == 2, checked
    folks.run(orders)
    written = yamlio.load_file(player / "orders-0001.yaml").data
    assert written["ack"] == chance.file_hash((folks.game / "game.yaml").read_bytes())
    assert (player / "orders-0001.yaml.sig").read_text().startswith("-----BEGIN SSH SIGNATURE-----")
    folks.mail(player / "orders-0001.yaml", referee / "orders-0001.yaml")
    done = folks.run(turn)
    assert "accepted orders of german for seq 1" in done.stdout, done.stdout
    assert "adjudication 1 done" in done.stdout and "OK: game" in done.stdout, done.stdout
    assert (folks.game / "orders/0001/german-0001.yaml").read_bytes() == (player / "orders-0001.yaml").read_bytes()
    master = yamlio.load_file(folks.game / "turns/0001/turn.yaml").data
    assert master["state"]["units"]["G-IR12"]["hex"] == "3001"  # the order was carried out
    folks.mail(folks.game / "orders/0001/german-0001.receipt.yaml", player / "receipt-0001.yaml")
    folks.mail(folks.game / "turns/0001/german.yaml", player / "german-0001.yaml")
    back = folks.run(check)
    assert (back.stdout + back.stderr).count('Good "pbem-turn@mons-ssh" signature for referee') == 2, back


def test_a_changed_view_fails_the_players_check(folks: Folks) -> None:
    """The player's check is a real one: one changed byte in the view makes the step fail."""
    key, setup, trust, *_ = walkthrough((REPO / "README.md").read_text(encoding="utf-8"))
    start(folks, key, setup)
    view = folks.player / "german.yaml"
    view.write_bytes(view.read_bytes().replace(b"seq: 0", b"seq: 1", 1))
    with pytest.raises(AssertionError, match="exit"):
        folks.run(trust)  # World.sh raises on a failing step
