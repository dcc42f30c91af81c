"""Crash safety and mutual exclusion of the referee's commands (issue 2, "The archive").

A crash is simulated at every write of `submit` and `adjudicate`: the archive's renames
(`os.replace` for single files, `os.rename` for a turn folder) are counted, and the N-th one
either raises before it happens or right after it happened. In-process the crash is an
exception that `except Exception` cannot catch; in a subprocess it is `os._exit`, so no
clean-up code runs at all, as with `kill -9`. After every crash the archive must pass
`audit`, and running the same command again must bring it to exactly the files a run
without a crash writes (both are deterministic, Ed25519 signatures included).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import pbem.core.archive as archive_module
from pbem.core import chance, signing, yamlio
from pbem.core.archive import Archive
from pbem.core.audit import audit
from pbem.core.errors import ArchiveError
from pbem.core.players import orders_document, read_view
from pbem.demo import setup_demo
from tests.conftest import DUEL_SCENARIO
from tests.test_cli_lifecycle import predict_rolls, run, snapshot

REPO = Path(__file__).resolve().parent.parent
NAMESPACE = "pbem-orders@demo-duel"


class Crash(BaseException):
    """The process dies here (not an Exception: nothing may catch it and carry on)."""


# --- building the situations ---------------------------------------------------------------------------


def keys_of(work: Path) -> dict[str, signing.SigningKey]:
    return {name: signing.load_signing_key(work / "keys" / name, passphrase=b"") for name in ("referee", "red", "blue")}


def write_orders(work: Path, side: str, orders: list[Any], name: str, entropy: bytes | None = None) -> Path:
    """Signed orders of `side` from its latest view, into work/mail/NAME (not submitted)."""
    root = work / "game"
    seq = Archive(root).latest_seq()
    view = root / (f"turns/{seq:04d}/{side}.yaml" if seq else f"views/0000/{side}.yaml")
    data = yamlio.dump(orders_document(read_view(view), orders, entropy=entropy)).encode()
    path = work / "mail" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    path.with_name(name + ".sig").write_text(signing.sign(data, keys_of(work)[side], NAMESPACE))
    return path


def submit(work: Path, path: Path) -> None:
    result = run("submit", work / "game", path)
    assert result.rc == 0, result.text


def adjudicate_args(work: Path) -> list[str]:
    return ["adjudicate", str(work / "game"), "--key", str(work / "keys" / "referee")]


def adjudicate(work: Path) -> str:
    result = run(*adjudicate_args(work))
    assert result.rc == 0, result.text
    return result.out


def build_fresh(work: Path) -> None:
    setup_demo("duel", DUEL_SCENARIO, work, say=lambda _: None)


def build_deployed(work: Path) -> None:
    build_fresh(work)
    submit(work, write_orders(work, "red", [{"place": "hq", "cell": 3}], "red-1.yaml"))
    submit(work, write_orders(work, "blue", [{"place": "hq", "cell": 2}], "blue-1.yaml"))
    adjudicate(work)


def build_fire_submitted(work: Path) -> None:
    """Seq 2 with both fire orders in, chosen so that adjudicating stops on red's decision."""
    build_deployed(work)
    red = write_orders(work, "red", [{"fire": 5}], "red-2.yaml")
    for attempt in range(200):
        blue = write_orders(work, "blue", [{"fire": 3}], "blue-2.yaml",
                            entropy=chance.sha256(f"crash-{attempt}".encode()))
        if predict_rolls(work / "game", 2, {"red": red.read_bytes(), "blue": blue.read_bytes()}, 6, 2)[1] >= 3:
            break
    submit(work, red)
    submit(work, blue)


def build_decision_pending(work: Path) -> None:
    build_fire_submitted(work)
    assert "waits for a decision from red" in adjudicate(work)


def build_reply_in(work: Path) -> None:
    build_decision_pending(work)
    submit(work, make_reply(work))


def make_reply(work: Path) -> Path:
    request = work / "game/decisions/0002/request-000.yaml"
    doc = {"pbem": 2, "kind": "decision-reply", "game": "demo-duel", "seq": 2, "side": "red",
           "request": chance.file_hash(request.read_bytes()), "answer": "stand"}
    data = yamlio.dump(doc).encode()
    path = work / "mail" / "reply.yaml"
    path.write_bytes(data)
    path.with_name("reply.yaml.sig").write_text(signing.sign(data, keys_of(work)["red"], NAMESPACE))
    return path


@dataclass(frozen=True)
class Scenario:
    """A starting situation, the command crashed in it, and what must hold once it is done."""

    name: str
    build: Callable[[Path], None]
    prepare: Callable[[Path], list[str]]  # makes the inputs (before the crash) and returns the command


def _submit_red_orders(work: Path) -> list[str]:
    return ["submit", str(work / "game"), str(write_orders(work, "red", [{"place": "hq", "cell": 4}], "red.yaml",
                                                           entropy=b"\x01" * 32))]


def _submit_reply(work: Path) -> list[str]:
    return ["submit", str(work / "game"), str(make_reply(work))]


def _adjudicate_first(work: Path) -> list[str]:
    submit(work, write_orders(work, "red", [{"place": "hq", "cell": 3}], "red-1.yaml", entropy=b"\x02" * 32))
    submit(work, write_orders(work, "blue", [{"place": "hq", "cell": 2}], "blue-1.yaml", entropy=b"\x03" * 32))
    return adjudicate_args(work)


SCENARIOS = [
    Scenario("submit-orders", build_fresh, _submit_red_orders),
    Scenario("adjudicate-turn", build_fresh, _adjudicate_first),
    Scenario("adjudicate-asks-decision", build_fire_submitted, adjudicate_args),
    Scenario("submit-reply", build_decision_pending, _submit_reply),
    Scenario("adjudicate-resumes", build_reply_in, adjudicate_args),
]


@pytest.fixture(scope="module", autouse=True)
def fixed_clock() -> Iterator[None]:
    """Receipts carry the time of arrival: one fixed time, so a clean run and a retried one write the same bytes."""
    before = os.environ.get("PBEM_NOW")
    os.environ["PBEM_NOW"] = "2026-11-24T12:00:00Z"
    yield
    if before is None:
        del os.environ["PBEM_NOW"]
    else:
        os.environ["PBEM_NOW"] = before


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[str], dict[str, Any], int]]:
    """Per scenario: a prepared folder, the command, the files a clean run leaves, and how many renames it does."""
    made = {}
    for scenario in SCENARIOS:
        work = tmp_path_factory.mktemp(scenario.name)
        scenario.build(work)
        command = scenario.prepare(work)
        clean = tmp_path_factory.mktemp(scenario.name + "-clean")
        shutil.copytree(work, clean, dirs_exist_ok=True)
        calls = count_renames(lambda: run(*relocate(command, work, clean)))
        assert calls[1].rc == 0, calls[1].text
        assert calls[0] == RENAMES[scenario.name], f"{scenario.name} now does {calls[0]} renames: update RENAMES"
        made[scenario.name] = (work, command, snapshot(clean / "game"), calls[0])
    return made


def relocate(command: list[str], old: Path, new: Path) -> list[str]:
    return [arg.replace(str(old), str(new)) for arg in command]


def count_renames(action: Callable[[], Any]) -> tuple[int, Any]:
    count = 0

    def counting(real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal count
            count += 1
            return real(*args, **kwargs)
        return wrapper

    with pytest.MonkeyPatch.context() as patch:
        patch_renames(patch, counting)
        result = action()
    return count, result


def patch_renames(patch: pytest.MonkeyPatch, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Wrap the renames the archive does (`pbem.core.archive.os` is the `os` module itself)."""
    assert archive_module.os is os  # type: ignore[attr-defined]
    patch.setattr(os, "replace", wrap(os.replace))
    patch.setattr(os, "rename", wrap(os.rename))


# How many renames a clean run of each scenario does: a write per file (signature first) or one per
# turn folder. The templates fixture checks these, so a new write cannot slip in without crash cases.
RENAMES = {"submit-orders": 4, "adjudicate-turn": 1, "adjudicate-asks-decision": 2, "submit-reply": 4,
           "adjudicate-resumes": 1}


def crash_cases() -> list[tuple[str, int, str]]:
    return [(s.name, n, mode) for s in SCENARIOS for n in range(1, RENAMES[s.name] + 1) for mode in ("before", "after")]


def finish_and_compare(work: Path, command: list[str], reference: dict[str, Any]) -> None:
    """Audit the crashed archive, run the command again, and require the clean run's files."""
    root = work / "game"
    assert audit(root) == [], "the archive left by the crash does not pass audit"
    again = run(*command)
    if again.rc != 0:
        # the crash came after the last write: the work was done, and the command now finds nothing to do
        assert command[0] == "adjudicate" and "waiting for orders" in again.err, again.text
    final = snapshot(root)
    if command[0] == "submit" and final != reference:
        # the crash came after the file landed: the user, told nothing, sent it again (newest wins)
        extra = sorted(set(final) - set(reference))
        assert len(extra) == 2 and extra[1] == extra[0] + ".sig", extra
        assert {k: v for k, v in final.items() if k not in extra} == reference
        assert final[extra[0]] == Path(command[2]).read_bytes()
    else:
        assert final == reference, sorted(k for k in set(final) | set(reference) if final.get(k) != reference.get(k))
    assert audit(root) == []


@pytest.mark.parametrize("name, n, mode", crash_cases())
def test_crash_in_process_at_every_write(name: str, n: int, mode: str, templates: dict[str, Any], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    template, command, reference, _ = templates[name]
    work = tmp_path / "w"
    shutil.copytree(template, work)
    command = relocate(command, template, work)
    count = 0

    def crashing(real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal count
            count += 1
            if count == n and mode == "before":
                raise Crash()
            result = real(*args, **kwargs)
            if count == n and mode == "after":
                raise Crash()
            return result
        return wrapper

    patch_renames(monkeypatch, crashing)
    with pytest.raises(Crash):
        run(*command)
    monkeypatch.undo()
    finish_and_compare(work, command, reference)


KILLER = """
import os, sys
n, mode = int(os.environ["CRASH_AT"]), os.environ["CRASH_MODE"]
count = 0
def crashing(real):
    def wrapper(*args, **kwargs):
        global count
        count += 1
        if count == n and mode == "before":
            os._exit(137)
        result = real(*args, **kwargs)
        if count == n and mode == "after":
            os._exit(137)
        return result
    return wrapper
os.replace, os.rename = crashing(os.replace), crashing(os.rename)
from pbem.core import ruleset
ruleset.register("duel", "tests.rulesets.duel:Duel")
from pbem.cli import main
sys.exit(main(sys.argv[1:]))
"""


def subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_") or k == "PBEM_NOW"}
    env["PYTHONPATH"] = f"{REPO}{os.pathsep}{env.get('PYTHONPATH', '')}".rstrip(os.pathsep)
    env.update(extra)
    return env


@pytest.mark.parametrize("name, n, mode", crash_cases())
def test_killed_process_at_every_write(name: str, n: int, mode: str, templates: dict[str, Any],
                                       tmp_path: Path) -> None:
    """As above, but the process dies with os._exit: no `except`/`finally` clean-up runs."""
    template, command, reference, _ = templates[name]
    work = tmp_path / "w"
    shutil.copytree(template, work)
    command = relocate(command, template, work)
    done = subprocess.run([sys.executable, "-c", KILLER, *command], env=subprocess_env(CRASH_AT=str(n), CRASH_MODE=mode),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 137, done.stdout + done.stderr
    finish_and_compare(work, command, reference)


def test_leftovers_of_a_killed_commit_are_swept(templates: dict[str, Any], tmp_path: Path) -> None:
    """A turn staged but never renamed leaves a .tmp- folder: ignored by audit, removed by the next command."""
    template, command, reference, _ = templates["adjudicate-turn"]
    work = tmp_path / "w"
    shutil.copytree(template, work)
    command = relocate(command, template, work)
    done = subprocess.run([sys.executable, "-c", KILLER, *command], env=subprocess_env(CRASH_AT="1", CRASH_MODE="before"),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 137
    leftovers = [p for p in (work / "game/turns").iterdir() if p.name.startswith(".tmp-")]
    assert len(leftovers) == 1 and (leftovers[0] / "turn.yaml").is_file()
    assert audit(work / "game") == []
    assert "next: seq 1" in run("status", work / "game").out
    assert run(*command).rc == 0
    assert not [p for p in (work / "game/turns").iterdir() if p.name.startswith(".tmp-")]
    assert snapshot(work / "game") == reference


def test_crash_inside_commit_folder(templates: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`commit_folder` itself raising, before or after it did its work."""
    import pbem.core.adjudicator as adjudicator

    template, command, reference, _ = templates["adjudicate-turn"]
    real = archive_module.commit_folder
    for when in ("before", "after"):
        work = tmp_path / when
        shutil.copytree(template, work)
        cmd = relocate(command, template, work)

        def crashing(final: Path, files: Any, when: str = when) -> None:
            if when == "before":
                raise Crash()
            real(final, files)
            raise Crash()

        monkeypatch.setattr(adjudicator, "commit_folder", crashing)
        with pytest.raises(Crash):
            run(*cmd)
        monkeypatch.undo()
        finish_and_compare(work, cmd, reference)


# --- two referee commands at once -----------------------------------------------------------------------


@pytest.fixture()
def ready(templates: dict[str, Any], tmp_path: Path) -> tuple[Path, list[str], dict[str, Any]]:
    """A game with both seq-1 orders in: ready to adjudicate."""
    template, command, reference, _ = templates["adjudicate-turn"]
    work = tmp_path / "w"
    shutil.copytree(template, work)
    return work, relocate(command, template, work), reference


def test_two_adjudicate_threads_never_interleave(ready: tuple[Path, list[str], dict[str, Any]],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.core.adjudicator as adjudicator

    work, _, reference = ready
    referee = keys_of(work)["referee"]
    real_commit, real_flock = archive_module.commit_folder, fcntl.flock
    log: list[tuple[str, str]] = []  # (thread, what it did), in the order it happened
    inside, second_refused = threading.Event(), threading.Event()

    def flock(fd: int, operation: int) -> None:
        who = threading.current_thread().name
        try:
            real_flock(fd, operation)
        except OSError:
            log.append((who, "refused the lock"))
            if who == "second":
                second_refused.set()
            raise
        if operation & fcntl.LOCK_EX:
            log.append((who, "took the lock"))

    def slow_commit(final: Path, files: Any) -> None:
        log.append((threading.current_thread().name, "commit starts"))
        inside.set()
        # hold the lock, with the files half way out, until the second command has been refused it
        assert second_refused.wait(60), "the second command never tried the lock"
        real_commit(final, files)
        log.append((threading.current_thread().name, "commit done"))

    monkeypatch.setattr(fcntl, "flock", flock)
    monkeypatch.setattr(adjudicator, "commit_folder", slow_commit)
    results: list[Any] = [None, None]

    def go(index: int) -> None:
        try:
            results[index] = adjudicator.adjudicate(work / "game", referee)
        except Exception as error:  # noqa: BLE001 - the outcome is what the test checks
            results[index] = error

    first = threading.Thread(target=go, args=(0,), name="first")
    first.start()
    assert inside.wait(60)
    second = threading.Thread(target=go, args=(1,), name="second")
    second.start()
    first.join(120)
    second.join(120)
    assert isinstance(results[0], adjudicator.AdjudicationReport) and results[0].committed, results[0]
    assert isinstance(results[1], Exception), results[1]
    assert "waiting for orders from red, blue for seq 2" in str(results[1])
    # the second command was refused the lock while the first committed, and took it only after
    done = log.index(("first", "commit done"))
    assert ("second", "refused the lock") in log[:done], log
    assert log.index(("second", "took the lock")) > done, log
    assert ("second", "commit starts") not in log
    assert sorted(p.name for p in (work / "game/turns").iterdir()) == ["0001"]
    assert snapshot(work / "game") == reference
    assert audit(work / "game") == []


def test_two_adjudicate_processes_at_once(ready: tuple[Path, list[str], dict[str, Any]]) -> None:
    work, command, reference = ready
    script = ("import sys; from pbem.core import ruleset; ruleset.register('duel', 'tests.rulesets.duel:Duel'); "
              "from pbem.cli import main; sys.exit(main(sys.argv[1:]))")
    procs = [subprocess.Popen([sys.executable, "-c", script, *command], env=subprocess_env(), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
    outcomes = [(p.wait(120), *p.communicate()) for p in procs]
    done = [o for o in outcomes if o[0] == 0]
    refused = [o for o in outcomes if o[0] != 0]
    assert len(done) == 1 and "adjudication 1 done" in done[0][1], outcomes
    for rc, out, err in refused:
        assert rc == 2 and "waiting for orders from red, blue for seq 2" in err, (rc, out, err)
    assert snapshot(work / "game") == reference
    assert audit(work / "game") == []


def test_a_command_waits_for_the_lock_holder(ready: tuple[Path, list[str], dict[str, Any]],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the game's lock: adjudicate is refused it, waits, then does its work.

    The holder lets go only once the command has been refused the lock, so the wait is proven by
    counting refusals, whatever the machine's load.
    """
    work, command, reference = ready
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys\n"
         "fd = os.open(sys.argv[1], os.O_RDWR)\nfcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\n"
         "sys.stdin.readline()\n", str(work / "game/.referee/lock")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdin is not None and holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    real_flock = fcntl.flock
    refusals = []

    def flock(fd: int, operation: int) -> None:
        try:
            real_flock(fd, operation)
        except OSError:
            refusals.append(operation)
            if len(refusals) == 1:
                holder.stdin.write("let go\n")  # type: ignore[union-attr]
                holder.stdin.flush()  # type: ignore[union-attr]
            raise

    monkeypatch.setattr(fcntl, "flock", flock)
    try:
        result = run(*command)
    finally:
        if holder.poll() is None and not holder.stdin.closed:
            holder.stdin.close()
        holder.wait(60)
    assert result.rc == 0, result.text
    assert refusals, "the command never found the lock held"
    assert snapshot(work / "game") == reference


def test_a_held_lock_is_refused_with_a_clear_message(ready: tuple[Path, list[str], dict[str, Any]]) -> None:
    work, _, _ = ready
    root = work / "game"
    fd = os.open(root / ".referee/lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(ArchiveError, match="another pbem command holds the game; try again"):
            with Archive(root).locked(wait_seconds=0.2):
                pass  # pragma: no cover
    finally:
        os.close(fd)


def test_concurrent_submissions_all_land_with_distinct_numbers(templates: dict[str, Any], tmp_path: Path) -> None:
    template = templates["submit-orders"][0]
    work = tmp_path / "w"
    shutil.copytree(template, work)
    files = [write_orders(work, side, [{"place": "hq", "cell": cell}], f"{side}-{cell}.yaml")
             for side in ("red", "blue") for cell in (1, 2, 3, 4, 5)]
    from pbem.core.intake import submit as intake

    results: list[Any] = []
    lock = threading.Lock()

    def go(path: Path) -> None:
        result = intake(work / "game", path)
        with lock:
            results.append(result)

    threads = [threading.Thread(target=go, args=(path,)) for path in files]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(results) == 10 and all(not r.errors and len(r.receipts) == 1 for r in results), results
    stored = sorted(p.name for p in (work / "game/orders/0001").iterdir()
                    if not p.name.endswith((".sig", ".receipt.yaml")))
    receipts = sorted(p.name for p in (work / "game/orders/0001").iterdir() if p.name.endswith(".receipt.yaml"))
    assert receipts == [name.replace(".yaml", ".receipt.yaml") for name in stored]
    numbers = sorted(int(name.rsplit("-", 1)[1][:4]) for name in stored)
    assert numbers == list(range(1, 11))
    assert sorted((work / "game/orders/0001" / name).read_bytes() for name in stored) == sorted(
        path.read_bytes() for path in files)
    assert audit(work / "game") == []


def test_crash_at_every_write_of_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pbem new` killed at any write: a folder without game.yaml is an unfinished start that `new` redoes."""
    keys = tmp_path / "keys"
    for name in ("referee", "red", "blue"):
        signing.write_keypair(name, keys)

    def command(root: Path) -> list[str]:
        return ["new", str(DUEL_SCENARIO), "--game", "crash-new", "--referee-key", str(keys / "referee"),
                "--side", f"red={keys / 'red.pub'}", "--side", f"blue={keys / 'blue.pub'}", "--dir", str(root)]

    renames, result = count_renames(lambda: run(*command(tmp_path / "clean")))
    assert result.rc == 0 and renames >= 4, (renames, result.text)
    for n in range(1, renames + 1):
        for mode in ("before", "after"):
            root = tmp_path / f"g-{n}-{mode}"
            count = 0

            def crashing(real: Callable[..., Any], n: int = n, mode: str = mode) -> Callable[..., Any]:
                def wrapper(*args: Any, **kwargs: Any) -> Any:
                    nonlocal count
                    count += 1
                    if count == n and mode == "before":
                        raise Crash()
                    out = real(*args, **kwargs)
                    if count == n and mode == "after":
                        raise Crash()
                    return out
                return wrapper

            patch_renames(monkeypatch, crashing)
            with pytest.raises(Crash):
                run(*command(root))
            monkeypatch.undo()
            if (root / "game.yaml").is_file():
                assert audit(root) == [], (n, mode)
                again = run(*command(root))
                assert again.rc == 2 and "already holds a game" in again.err
            else:
                assert "not a game directory" in run("status", root).err
                again = run(*command(root))
                assert again.rc == 0, (n, mode, again.text)
            assert audit(root) == [], (n, mode)
            assert "next: seq 1, phase 'deploy'" in run("status", root).out
