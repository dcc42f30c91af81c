"""One judge per game, with no file held open per game (pbem/mail/ownership.py).

A judge holding many games must not hold a file descriptor for each (10,000 games would pass the
usual limit of 1,024); a second judge on a game still refuses to start while the first runs, and a
judge that was killed does not keep the game from the next one.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core.errors import PbemError
from pbem.mail.judge import Judge
from pbem.mail.maildir import MaildirInbox, MaildirOutbox
from pbem.mail.ownership import OWNER_FILE, judge_lock, process_start
from tests.test_mail_kit import JUDGE, World, make_world, maildir_judge, take_outbox


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def files_open_while_serving(worlds: list[World], maildir: Path) -> int:
    """Open file descriptors of this process at the end of the judge's first round."""
    keys = {world.root: world.referee for world in worlds}
    judge = Judge([world.root for world in worlds], MaildirInbox(maildir), MaildirOutbox(maildir / "outbox"),
                  referee_key=lambda root: keys[root], address=JUDGE, now=worlds[0].clock, log=lambda _: None)
    seen: list[int] = []

    def stop() -> bool:
        seen.append(open_files())
        return True

    judge.run(max_rounds=1, stop=stop)
    return seen[0]


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through /proc")
def test_the_files_a_judge_holds_open_do_not_grow_with_its_games(tmp_path: Path) -> None:
    worlds = [make_world(tmp_path / f"g{i}", game_id=f"duel-{i:02d}") for i in range(12)]
    one = files_open_while_serving(worlds[:1], tmp_path / "Maildir-one")
    twelve = files_open_while_serving(worlds, tmp_path / "Maildir-twelve")
    assert twelve == one, f"serving 12 games holds {twelve} files open, serving one {one}"
    for world in worlds:  # and each game is free again once the judge has stopped
        assert not (world.root / ".referee" / OWNER_FILE).exists()


def record(world: World, **owner: object) -> Path:
    path = world.root / ".referee" / OWNER_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(owner))
    return path


def test_a_running_judge_is_recorded_and_a_second_one_refused(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    with judge_lock(world.root):
        owner = json.loads((world.root / ".referee" / OWNER_FILE).read_text())
        assert (owner["pid"], owner["host"]) == (os.getpid(), socket.gethostname())
        with pytest.raises(PbemError, match=f"another judge is serving this game \\(process {os.getpid()}"):
            maildir_judge(world, tmp_path / "Maildir").run(once=True)
        assert (world.root / ".referee" / OWNER_FILE).exists()  # the refused judge took nothing away
    assert not (world.root / ".referee" / OWNER_FILE).exists()


def test_a_killed_judges_record_does_not_hold_the_game(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    record(world, pid=int(gone.stdout), host=socket.gethostname(), started="1", token="x")  # its process ended
    maildir_judge(world, tmp_path / "Maildir").run(once=True)
    assert len(take_outbox(tmp_path / "Maildir")) == 2  # it served the game: the welcome mails
    # a process id now used by another process (this one) started at another time: not that judge
    record(world, pid=os.getpid(), host=socket.gethostname(), started="0", token="x")
    maildir_judge(world, tmp_path / "Maildir").run(once=True)
    (world.root / ".referee" / OWNER_FILE).write_text('{"pid": 1, "ho')  # half a record, as a kill mid-write leaves
    maildir_judge(world, tmp_path / "Maildir").run(once=True)


def test_a_record_of_a_running_process_or_another_host_refuses(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    sleeper = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        record(world, pid=sleeper.pid, host=socket.gethostname(), started=process_start(sleeper.pid), token="x")
        with pytest.raises(PbemError, match=f"process {sleeper.pid}"):
            maildir_judge(world, tmp_path / "Maildir").run(once=True)
    finally:
        assert sleeper.stdin is not None
        sleeper.stdin.close()
        sleeper.wait(60)
    record(world, pid=os.getpid(), host="elsewhere.invalid", started=None, token="x")  # cannot be told: refused
    with pytest.raises(PbemError, match="on elsewhere.invalid"):
        maildir_judge(world, tmp_path / "Maildir").run(once=True)
    assert json.loads((world.root / ".referee" / OWNER_FILE).read_text())["host"] == "elsewhere.invalid"


def test_a_judge_stopped_by_an_exception_frees_its_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = make_world(tmp_path / "a", game_id="duel-one"), make_world(tmp_path / "b", game_id="duel-two")
    record(second, pid=os.getpid(), host="elsewhere.invalid", token="x")  # the second game is another judge's
    keys = {first.root: first.referee, second.root: second.referee}
    judge = Judge([first.root, second.root], MaildirInbox(tmp_path / "Maildir"),
                  MaildirOutbox(tmp_path / "Maildir" / "outbox"), referee_key=lambda root: keys[root],
                  address=JUDGE, now=first.clock, log=lambda _: None)
    with pytest.raises(PbemError, match="duel-two|b/game"):
        judge.run(once=True)
    assert not (first.root / ".referee" / OWNER_FILE).exists()  # the game it had claimed is free again


def test_a_judge_holding_the_lock_file_keeps_the_game(tmp_path: Path) -> None:
    """A judge of an older version held `.referee/mail-judge.lock` for its whole life: still refused."""
    import fcntl

    world = make_world(tmp_path)
    (world.root / ".referee").mkdir(exist_ok=True)
    fd = os.open(world.root / ".referee" / "mail-judge.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(PbemError, match="another judge is serving this game, or starting to"):
            maildir_judge(world, tmp_path / "Maildir").run(once=True)
    finally:
        os.close(fd)
    maildir_judge(world, tmp_path / "Maildir").run(once=True)
    assert len(take_outbox(tmp_path / "Maildir")) == 2
