"""A player who has only OpenSSH (plus sha256sum and openssl): the README walkthrough, run for real.

The referee runs `pbem`; the players never do. Red's key is made by `ssh-keygen` without a
passphrase, blue's with one (the referee only ever sees its public half). Orders are typed
as YAML text, signed with `ssh-keygen -Y sign`, mailed (copied) to the referee and accepted;
the referee's files are checked with `ssh-keygen -Y verify`. The commands below are exactly
what the tests run (a test checks that every step appears here verbatim). The README's own
walkthrough plays a shipped game (toc) and is run from README.md by
tests/test_readme_walkthrough.py; this module adds what it leaves out: a second turn, a
passphrase-protected key, wrong namespaces and a decision answered with ssh-keygen alone.

Player, once (send `red.pub` to the referee; keep `red`):

    ssh-keygen -t ed25519 -N '' -C red@example.org -f red

Referee, once (mail each player game.yaml, game.yaml.sig, keys/referee.pub and its
views/0000/SIDE.yaml with its .sig):

    pbem keygen referee --out keys
    pbem new duel-scenario.yaml --game duel-ssh --referee-key keys/referee \\
        --side red=red.pub --side blue=blue.pub --dir game

Player: trust the referee's key for referee files of this game only, and check what came:

    echo "referee namespaces=\\"pbem-turn@duel-ssh\\" $(cat referee.pub)" > allowed_signers
    ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s game.yaml.sig < game.yaml
    ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s red.yaml.sig < red.yaml

Player: the first orders ack game.yaml; write them by hand, sign, mail both files
(to sign again after an edit, delete the old .sig first: ssh-keygen asks before it
overwrites one, and without an answer leaves the old signature in place):

    cat > orders-0001.yaml <<EOF
    pbem: 2
    kind: orders
    game: duel-ssh
    seq: 1
    side: red
    phase: deploy
    ack: sha256:$(sha256sum < game.yaml | cut -d' ' -f1)
    entropy: $(openssl rand -hex 32)
    salt: $(openssl rand -hex 32)
    orders:
    - {place: hq, cell: 3}
    EOF
    ssh-keygen -Y sign -f red -n pbem-orders@duel-ssh orders-0001.yaml

Referee: take each mail, then adjudicate when all are in (mail red turns/0001/red.yaml and
its .sig):

    pbem submit game orders-0001.yaml
    pbem adjudicate game

Player: check view 1, then write the next orders, which ack view 1:

    ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s red-0001.yaml.sig < red-0001.yaml
    cat > orders-0002.yaml <<EOF
    pbem: 2
    kind: orders
    game: duel-ssh
    seq: 2
    side: red
    phase: fire
    ack: sha256:$(sha256sum < red-0001.yaml | cut -d' ' -f1)
    entropy: $(openssl rand -hex 32)
    salt: $(openssl rand -hex 32)
    orders:
    - {fire: 5}
    EOF
    ssh-keygen -Y sign -f red -n pbem-orders@duel-ssh orders-0002.yaml

A decision request (decisions/NNNN/request-J.yaml) is answered the same way, naming the
request's file hash:

    ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s request-000.yaml.sig < request-000.yaml
    cat > reply-000.yaml <<EOF
    pbem: 2
    kind: decision-reply
    game: duel-ssh
    seq: 2
    side: red
    request: sha256:$(sha256sum < request-000.yaml | cut -d' ' -f1)
    answer: stand
    EOF
    ssh-keygen -Y sign -f red -n pbem-orders@duel-ssh reply-000.yaml
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.core import chance, yamlio
from tests.conftest import DUEL_SCENARIO
from tests.test_cli_lifecycle import predict_rolls

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH's ssh-keygen")

REPO = Path(__file__).resolve().parent.parent
GAME = "duel-ssh"
BLUE_PASSPHRASE = "correct horse battery staple"

# --- the walkthrough's steps, verbatim (the module docstring must hold each one) ------------------

PLAYER_KEY = "ssh-keygen -t ed25519 -N '' -C red@example.org -f red"
REFEREE_SETUP = """\
pbem keygen referee --out keys
pbem new duel-scenario.yaml --game duel-ssh --referee-key keys/referee \\
    --side red=red.pub --side blue=blue.pub --dir game
"""
TRUST_REFEREE = """\
echo "referee namespaces=\\"pbem-turn@duel-ssh\\" $(cat referee.pub)" > allowed_signers
ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s game.yaml.sig < game.yaml
ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s red.yaml.sig < red.yaml
"""
FIRST_ORDERS = """\
cat > orders-0001.yaml <<EOF
pbem: 2
kind: orders
game: duel-ssh
seq: 1
side: red
phase: deploy
ack: sha256:$(sha256sum < game.yaml | cut -d' ' -f1)
entropy: $(openssl rand -hex 32)
salt: $(openssl rand -hex 32)
orders:
- {place: hq, cell: 3}
EOF
ssh-keygen -Y sign -f red -n pbem-orders@duel-ssh orders-0001.yaml
"""
REFEREE_TURN = """\
pbem submit game orders-0001.yaml
pbem adjudicate game
"""
SECOND_ORDERS = """\
ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s red-0001.yaml.sig < red-0001.yaml
cat > orders-0002.yaml <<EOF
pbem: 2
kind: orders
game: duel-ssh
seq: 2
side: red
phase: fire
ack: sha256:$(sha256sum < red-0001.yaml | cut -d' ' -f1)
entropy: $(openssl rand -hex 32)
salt: $(openssl rand -hex 32)
orders:
- {fire: 5}
EOF
ssh-keygen -Y sign -f red -n pbem-orders@duel-ssh orders-0002.yaml
"""
REPLY = """\
ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh -s request-000.yaml.sig < request-000.yaml
cat > reply-000.yaml <<EOF
pbem: 2
kind: decision-reply
game: duel-ssh
seq: 2
side: red
request: sha256:$(sha256sum < request-000.yaml | cut -d' ' -f1)
answer: stand
EOF
ssh-keygen -Y sign -f red -n pbem-orders@duel-ssh reply-000.yaml
"""
STEPS = [PLAYER_KEY, REFEREE_SETUP, TRUST_REFEREE, FIRST_ORDERS, REFEREE_TURN, SECOND_ORDERS, REPLY]


@dataclass
class World:
    """Three folders: the referee's (with `pbem`), red's and blue's (OpenSSH only)."""

    base: Path
    env: dict[str, str]

    @property
    def referee(self) -> Path:
        return self.base / "referee"

    @property
    def game(self) -> Path:
        return self.referee / "game"

    def player(self, side: str) -> Path:
        return self.base / side

    def sh(self, script: str, cwd: Path, *, check: bool = True, env: dict[str, str] | None = None,
           stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env={**self.env, **(env or {})},
                              capture_output=True, text=True, timeout=120, input=stdin)
        if check and done.returncode != 0:
            raise AssertionError(f"in {cwd}:\n{script}\nexit {done.returncode}\n{done.stdout}\n{done.stderr}")
        return done

    def mail(self, src: Path, dst_dir: Path, name: str | None = None, *, sig: bool = True) -> None:
        """Send a file (and its .sig) from one party to another."""
        target = dst_dir / (name or src.name)
        shutil.copyfile(src, target)
        if sig:
            shutil.copyfile(src.with_name(src.name + ".sig"), target.with_name(target.name + ".sig"))

    def blue_signs(self, name: str) -> None:
        """Blue's key has a passphrase: ssh-keygen asks for it (here through SSH_ASKPASS)."""
        self.sh(f"ssh-keygen -Y sign -f blue -n pbem-orders@{GAME} {name}", self.player("blue"),
                env={"SSH_ASKPASS": str(self.base / "askpass"), "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"})


def shell_env(base: Path) -> dict[str, str]:
    """The environment the walkthroughs' shell steps run in: `pbem` on the PATH (this checkout's),
    `openssl` where its CLI is missing, no SSH agent, no PBEM_ settings and no display."""
    bin_dir = base / "bin"
    bin_dir.mkdir()
    pbem = bin_dir / "pbem"
    pbem.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pbem "$@"\n')
    pbem.chmod(0o755)
    if shutil.which("openssl") is None:  # the walkthrough's entropy; a stand-in where OpenSSL's CLI is missing
        openssl = bin_dir / "openssl"
        openssl.write_text(f'#!/bin/sh\n[ "$*" = "rand -hex 32" ] || exit 2\n'
                           f'exec "{sys.executable}" -c "import secrets; print(secrets.token_hex(32))"\n')
        openssl.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SSH_", "PBEM_"))}
    env.pop("DISPLAY", None)
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}",
               PYTHONPATH=f"{REPO}{os.pathsep}{env.get('PYTHONPATH', '')}".rstrip(os.pathsep))
    return env


@pytest.fixture()
def world(tmp_path: Path) -> World:
    askpass = tmp_path / "askpass"
    askpass.write_text(f"#!/bin/sh\necho '{BLUE_PASSPHRASE}'\n")
    askpass.chmod(0o755)
    world = World(tmp_path, shell_env(tmp_path) | {"PBEM_RULESETS": "duel=tests.rulesets.duel:Duel"})
    for folder in (world.referee, world.player("red"), world.player("blue")):
        folder.mkdir()
    return world


def set_up(world: World) -> None:
    """Keys, the game, and each player's first mail from the referee."""
    red, blue = world.player("red"), world.player("blue")
    world.sh(PLAYER_KEY, red)
    world.sh(f"ssh-keygen -t ed25519 -N '{BLUE_PASSPHRASE}' -C blue@example.org -f blue", blue)
    assert "ENCRYPTED" not in (red / "red").read_text()
    # the referee gets the public halves only
    shutil.copyfile(red / "red.pub", world.referee / "red.pub")
    shutil.copyfile(blue / "blue.pub", world.referee / "blue.pub")
    shutil.copyfile(DUEL_SCENARIO, world.referee / "duel-scenario.yaml")
    world.sh(REFEREE_SETUP, world.referee)
    for side in ("red", "blue"):
        folder = world.player(side)
        world.mail(world.game / "game.yaml", folder)
        world.mail(world.game / "views/0000" / f"{side}.yaml", folder)
        shutil.copyfile(world.referee / "keys/referee.pub", folder / "referee.pub")


def blue_orders(world: World, seq: int, ack_file: str, phase: str, orders: str, entropy: str | None = None) -> str:
    """Blue types its orders (as red does in the walkthrough) and signs with its passphrase key."""
    name = f"orders-{seq:04d}.yaml"
    script = textwrap.dedent(f"""\
        cat > {name} <<EOF
        pbem: 2
        kind: orders
        game: {GAME}
        seq: {seq}
        side: blue
        phase: {phase}
        ack: sha256:$(sha256sum < {ack_file} | cut -d' ' -f1)
        entropy: {entropy or '$(openssl rand -hex 32)'}
        salt: $(openssl rand -hex 32)
        orders:
        - {orders}
        EOF
        """)
    world.sh(script, world.player("blue"))
    (world.player("blue") / f"{name}.sig").unlink(missing_ok=True)  # ssh-keygen would ask before overwriting
    world.blue_signs(name)
    return name


def referee(world: World, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return world.sh("pbem " + " ".join(args), world.referee, check=check)


def test_the_docstring_shows_every_step_verbatim() -> None:
    doc = textwrap.dedent(__doc__ or "")
    assert doc
    for step in STEPS:
        indented = textwrap.indent(step, "    ")
        assert indented in (__doc__ or ""), f"step missing from the docstring:\n{step}"


def test_an_openssh_only_player_plays_a_turn(world: World) -> None:
    set_up(world)
    red, blue = world.player("red"), world.player("blue")
    game_doc = yamlio.load_file(world.game / "game.yaml").data
    assert game_doc["sides"][0]["key"] == (red / "red.pub").read_text().strip()
    assert game_doc["sides"][1]["key"] == (blue / "blue.pub").read_text().strip()
    # red checks the referee's files with ssh-keygen alone
    checked = world.sh(TRUST_REFEREE, red)
    assert 'Good "pbem-turn@duel-ssh" signature for referee' in checked.stdout + checked.stderr
    # red's first orders, by hand
    world.sh(FIRST_ORDERS, red)
    orders = (red / "orders-0001.yaml").read_bytes()
    doc = yamlio.load_bytes(orders, "orders-0001.yaml").data
    assert doc["ack"] == chance.file_hash((world.game / "game.yaml").read_bytes())
    assert len(doc["entropy"]) == 64
    assert (red / "orders-0001.yaml.sig").read_text().startswith("-----BEGIN SSH SIGNATURE-----")
    world.mail(red / "orders-0001.yaml", world.referee)
    # blue does the same with its passphrase-protected key
    world.sh(TRUST_REFEREE.replace("red.yaml", "blue.yaml"), blue)
    blue_orders(world, 1, "game.yaml", "deploy", "{place: hq, cell: 2}")
    world.mail(blue / "orders-0001.yaml", world.referee, "blue-orders-0001.yaml")
    # the referee takes both and adjudicates (the walkthrough's two commands, plus blue's mail)
    referee(world, "submit", "game", "blue-orders-0001.yaml")
    turn = world.sh(REFEREE_TURN, world.referee)
    assert "accepted orders of red for seq 1" in turn.stdout
    assert "adjudication 1 done" in turn.stdout
    stored = world.game / "orders/0001/red-0002.yaml"
    assert stored.read_bytes() == orders  # the exact bytes red signed
    # red gets view 1 and verifies it with ssh-keygen; then writes orders that ack it
    world.mail(world.game / "turns/0001/red.yaml", red, "red-0001.yaml")
    world.sh(SECOND_ORDERS, red)
    second = yamlio.load_file(red / "orders-0002.yaml").data
    assert second["ack"] == chance.file_hash((world.game / "turns/0001/red.yaml").read_bytes())
    world.mail(red / "orders-0002.yaml", world.referee)
    world.mail(world.game / "turns/0001/blue.yaml", blue, "blue-0001.yaml")
    world.sh("ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-turn@duel-ssh "
             "-s blue-0001.yaml.sig < blue-0001.yaml", blue)
    blue_orders(world, 2, "blue-0001.yaml", "fire", "{fire: 1}")
    world.mail(blue / "orders-0002.yaml", world.referee, "blue-orders-0002.yaml")
    referee(world, "submit", "game", "orders-0002.yaml")
    referee(world, "submit", "game", "blue-orders-0002.yaml")
    assert "adjudication 2 done" in referee(world, "adjudicate", "game").stdout
    assert referee(world, "audit", "game").stdout.startswith("OK")


def test_referee_files_fail_ssh_keygen_under_the_wrong_namespace_or_when_changed(world: World) -> None:
    set_up(world)
    red = world.player("red")
    world.sh(TRUST_REFEREE, red)
    # the allowed_signers line limits the referee's key to pbem-turn@duel-ssh
    wrong = world.sh("ssh-keygen -Y verify -f allowed_signers -I referee -n pbem-orders@duel-ssh "
                     "-s red.yaml.sig < red.yaml", red, check=False)
    assert wrong.returncode != 0
    # a referee-signed view does not pass as red's orders either
    line = f'red {(red / "red.pub").read_text().strip()}'
    (red / "players").write_text(line + "\n")
    assert world.sh("ssh-keygen -Y verify -f players -I red -n pbem-orders@duel-ssh -s red.yaml.sig < red.yaml",
                    red, check=False).returncode != 0
    # one changed byte
    data = (red / "red.yaml").read_bytes()
    (red / "red.yaml").write_bytes(data.replace(b"strength: 2", b"strength: 3", 1))
    assert world.sh(TRUST_REFEREE, red, check=False).returncode != 0


def test_orders_signed_under_the_wrong_namespace_are_refused(world: World) -> None:
    set_up(world)
    red = world.player("red")
    world.sh(FIRST_ORDERS.replace("-n pbem-orders@duel-ssh", "-n pbem-turn@duel-ssh"), red)
    world.mail(red / "orders-0001.yaml", world.referee)
    refused = referee(world, "submit", "game", "orders-0001.yaml", check=False)
    assert refused.returncode == 1
    assert "wrong namespace" in refused.stdout and "pbem-orders@duel-ssh" in refused.stdout
    assert not (world.game / "orders").exists()


def test_a_decision_answered_with_openssh(world: World) -> None:
    set_up(world)
    red, blue = world.player("red"), world.player("blue")
    world.sh(TRUST_REFEREE, red)
    world.sh(TRUST_REFEREE.replace("red.yaml", "blue.yaml"), blue)
    world.sh(FIRST_ORDERS, red)
    world.mail(red / "orders-0001.yaml", world.referee)
    blue_orders(world, 1, "game.yaml", "deploy", "{place: hq, cell: 2}")
    world.mail(blue / "orders-0001.yaml", world.referee, "blue-orders-0001.yaml")
    referee(world, "submit", "game", "orders-0001.yaml")
    referee(world, "submit", "game", "blue-orders-0001.yaml")
    referee(world, "adjudicate", "game")
    world.mail(world.game / "turns/0001/red.yaml", red, "red-0001.yaml")
    world.mail(world.game / "turns/0001/blue.yaml", blue, "blue-0001.yaml")
    world.sh(SECOND_ORDERS, red)  # red fires at 5: no hit
    red_bytes = (red / "orders-0002.yaml").read_bytes()
    # blue fires at red's cell 3; the entropy is chosen (with the referee's secret, as only a test
    # can) so that blue's die hits and red must decide
    for attempt in range(200):
        entropy = chance.sha256(f"blue-{attempt}".encode()).hex()
        name = blue_orders(world, 2, "blue-0001.yaml", "fire", "{fire: 3}", entropy=entropy)
        blue_bytes = (blue / name).read_bytes()
        if predict_rolls(world.game, 2, {"red": red_bytes, "blue": blue_bytes}, 6, 2)[1] >= 3:
            break
    world.mail(red / "orders-0002.yaml", world.referee)
    world.mail(blue / "orders-0002.yaml", world.referee, "blue-orders-0002.yaml")
    referee(world, "submit", "game", "orders-0002.yaml")
    referee(world, "submit", "game", "blue-orders-0002.yaml")
    stopped = referee(world, "adjudicate", "game")
    assert "waits for a decision from red" in stopped.stdout
    world.mail(world.game / "decisions/0002/request-000.yaml", red)
    world.sh(REPLY, red)
    world.mail(red / "reply-000.yaml", world.referee)
    receipt = referee(world, "submit", "game", "reply-000.yaml")
    assert "accepted decision-reply of red for seq 2" in receipt.stdout
    assert "adjudication 2 done" in referee(world, "adjudicate", "game").stdout
    turn = yamlio.load_file(world.game / "turns/0002/turn.yaml").data
    assert turn["state"]["hq"]["red"] == {"cell": 3, "strength": 1}
    assert referee(world, "audit", "game").stdout.startswith("OK")


def test_pbem_opens_a_passphrase_key_from_the_environment(world: World) -> None:
    """Blue could also use pbem itself: the passphrase comes from PBEM_PASSPHRASE, a wrong one is named."""
    set_up(world)
    blue = world.player("blue")
    world.sh(TRUST_REFEREE.replace("red.yaml", "blue.yaml"), blue)
    name = blue_orders(world, 1, "game.yaml", "deploy", "{place: hq, cell: 2}")
    (blue / f"{name}.sig").unlink()
    shutil.copyfile(world.game / "game.yaml.sig", blue / "game.yaml.sig")
    signed = world.sh(f"pbem sign {name} --key blue", blue, env={"PBEM_PASSPHRASE": BLUE_PASSPHRASE},
                      stdin="")
    assert "pbem-orders@duel-ssh" in signed.stdout
    world.sh(f"ssh-keygen -Y check-novalidate -n pbem-orders@duel-ssh -s {name}.sig < {name}", blue)
    bad = world.sh(f"pbem sign {name} --key blue", blue, env={"PBEM_PASSPHRASE": "wrong"}, check=False, stdin="")
    assert bad.returncode == 2 and "passphrase" in bad.stderr.lower(), bad.stderr
    world.mail(blue / name, world.referee, "blue-orders.yaml")
    assert "accepted orders of blue" in referee(world, "submit", "game", "blue-orders.yaml").stdout
