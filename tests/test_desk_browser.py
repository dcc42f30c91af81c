"""The desk in a real browser: headless Chromium driven through its own chromedriver (Selenium).

Orders are built by clicks only (order kinds, the picks the server offers, hexes on the map),
saved by the page's Save, and must be byte for byte the file the bot writes for the same choices
and be accepted by the referee's intake. Skipped where Chromium or its driver is missing
(Debian: apt-get install chromium chromium-driver) or Selenium is not installed.
"""

from __future__ import annotations

import re
import shutil
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.core.api import load_game, submit
from pbem.desk.server import DeskServer
from pbem.desk.session import OrdersDesk
from tests.test_desk_session import DeskGame, play_to

webdriver = pytest.importorskip("selenium.webdriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="no headless Chromium with its chromedriver installed")
UNIT_ID = {"fbsm": re.compile(r"\b(?:US|HW|G)[0-9]+\b"), "toc": re.compile(r"\b[GB]-[A-Z0-9]+\b")}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1600,1000",
                     f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


class Desk:
    """One desk served on 127.0.0.1 and the browser on it."""

    def __init__(self, driver: Any, desk: OrdersDesk) -> None:
        self.driver, self.desk = driver, desk
        self.server = DeskServer(desk)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        driver.get(self.server.url)
        self.idle()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def idle(self) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, 60).until(lambda d: d.execute_script(
            "return document.body.dataset.ready === 'yes' && (document.body.dataset.busy || '0') === '0'"))

    def click(self, element_id: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.ID, element_id).click()
        self.idle()

    def click_hex_on_map(self, hex_id: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        cell = self.driver.find_element(By.CSS_SELECTOR, f'#map polygon.hex[data-hex="{hex_id}"]')
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", cell)
        ActionChains(self.driver).move_to_element(cell).click().perform()
        self.idle()

    def page_text(self) -> str:
        return str(self.driver.execute_script(
            "return document.body.innerText + ' ' + [...document.querySelectorAll('[id]')].map(e => e.id).join(' ')"))

    def build(self, orders: list[Any], target: str = "main", map_paths: bool = False) -> None:
        """Click each order in: its kind, then each field's picks (flags first: they change the picks)."""
        from selenium.webdriver.common.by import By

        described = self.desk.describe()
        kinds = described["kinds"] if target == "main" else described["next_phase"]["kinds"]
        prefix = "kind-next-" if target == "next" else "kind-"
        for order in orders:
            if "next_phase" in order:
                self.click("next-toggle")
                self.build(order["next_phase"], "next", map_paths)
                continue
            spec = next(k for k in kinds if k["fields"][0]["name"] in order)
            self.click(prefix + spec["kind"])
            fields = sorted(spec["fields"], key=lambda f: f["type"] != "flag")
            for field in fields:
                value = order.get(field["name"])
                if field["type"] == "const" or value is None:
                    continue
                if field["type"] == "flag":
                    if value:
                        self.click("pick-" + field["name"])
                    continue
                for item in (value if isinstance(value, list) else [value]):
                    if field["type"] == "path" and map_paths and item != "off":
                        self.click_hex_on_map(item)
                    else:
                        self.click(f"pick-{field['name']}-{item}")
            if not spec.get("auto"):
                self.click("add")
            given = self.driver.find_elements(By.CSS_SELECTOR, f"#{'next-' if target == 'next' else ''}orders li")
            assert len(given) == orders.index(order) + 1 - (target == "main" and "next_phase" in orders[-1] and
                                                             order is orders[-1]), (order, self.status())

    def status(self) -> str:
        from selenium.webdriver.common.by import By

        return str(self.driver.find_element(By.ID, "side").text)

    def save(self) -> str:
        from selenium.webdriver.common.by import By

        self.click("save")
        return str(self.driver.find_element(By.ID, "output").text)


def _view_words(desk: OrdersDesk) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9-]+", desk.view.data.decode("utf-8")))


def _assert_only_view_ids(page: Desk, ruleset_id: str) -> None:
    shown = set(UNIT_ID[ruleset_id].findall(page.page_text()))
    unknown = shown - _view_words(page.desk)
    assert shown and unknown == set(), f"the page shows ids its view does not hold: {sorted(unknown)}"


def _play_by_clicks(driver: Any, game: DeskGame, side: str, tmp_path: Path, map_paths: bool = False) -> Desk:
    out = tmp_path / f"{side}-desk-orders.yaml"
    desk = OrdersDesk(game.view_path(side), game=load_game(game.game_dir), key=game.key(side), out=out)
    bot = game.bot_orders(side)
    page = Desk(driver, desk)
    try:
        page.build(bot, map_paths=map_paths)
        said = page.save()
        assert f"wrote {out}" in said and "signed:" in said, said
        assert out.read_bytes() == (game.root / f"bot-{side}.yaml").read_bytes()
        result = submit(game.game_dir, out)
        assert result.errors == [] and len(result.receipts) == 1
    except BaseException:
        page.close()
        raise
    return page


def test_a_full_fbsm_us_setup_by_clicks(browser: Any, tmp_path: Path) -> None:
    game = play_to(tmp_path, "fbsm", "us-setup", "us")
    page = _play_by_clicks(browser, game, "us", tmp_path)
    try:
        assert len(game.bot_orders("us")) >= 50  # every US unit placed, one click pair each
        _assert_only_view_ids(page, "fbsm")
    finally:
        page.close()


def test_an_fbsm_german_fire_phase_by_clicks(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    game = play_to(tmp_path, "fbsm", "german-first-fire", "german")
    assert any("fire" in order for order in game.bot_orders("german"))
    trial = Desk(browser, OrdersDesk(game.view_path("german"), out=tmp_path / "trial.yaml"))
    try:  # the odds, range and LOF of a fire come from the server before the order is added
        trial.click("kind-fire")
        browser.find_element(By.CSS_SELECTOR, "#field-fire .picks button").click()
        trial.idle()
        browser.find_element(By.CSS_SELECTOR, "#field-with .picks button").click()
        trial.idle()
        notes = browser.find_element(By.ID, "notes").text
        assert "odds" in notes and "range" in notes and "LOF" in notes, notes
        _assert_only_view_ids(trial, "fbsm")
    finally:
        trial.close()
    page = _play_by_clicks(browser, game, "german", tmp_path)
    page.close()


def test_a_toc_german_movement_by_clicks_on_the_map(browser: Any, tmp_path: Path) -> None:
    game = play_to(tmp_path, "toc", "german-movement", "german")
    page = _play_by_clicks(browser, game, "german", tmp_path, map_paths=True)
    try:
        _assert_only_view_ids(page, "toc")
    finally:
        page.close()


def test_a_problem_is_shown_beside_its_order_with_its_rule(browser: Any, tmp_path: Path) -> None:
    """A British sequence named after a move (5.3 wants it first): the check's words, rule and all, stand
    under that order and go when it is removed; a standing answer clicked goes into the saved file."""
    from selenium.webdriver.common.by import By

    from pbem.core.api import yamlio

    game = play_to(tmp_path, "toc", "british-first", "british")
    move = next(order for order in game.bot_orders("british") if "move" in order)
    out = tmp_path / "x.yaml"
    page = Desk(browser, OrdersDesk(game.view_path("british"), out=out))
    try:
        from selenium.webdriver.common.keys import Keys

        browser.find_element(By.ID, "kind-top").send_keys(Keys.ENTER)  # the keyboard alone opens an order...
        page.idle()
        assert browser.find_element(By.ID, "draft").is_displayed()
        browser.switch_to.active_element.send_keys(Keys.ESCAPE)  # ...and drops it
        page.idle()
        assert not browser.find_element(By.ID, "draft").is_displayed()
        page.build([move])
        page.click("kind-sequence")
        page.click("pick-sequence-fight-move")
        items = browser.find_elements(By.CSS_SELECTOR, "#orders li")
        assert len(items) == 2 and "sequence" in items[1].text
        assert "rule 5.3" in items[1].find_element(By.CSS_SELECTOR, ".problem").text
        assert items[0].find_elements(By.CSS_SELECTOR, ".problem") == []
        assert "not saved" in page.save() and not out.exists()
        page.click("remove-main-1")
        assert browser.find_elements(By.CSS_SELECTOR, ".problem") == []
        page.click("cancel")
        browser.find_element(By.CSS_SELECTOR, "#standing-pane summary").click()
        page.click("standing-advance-all")
        text = page.save()
        assert "ssh-keygen -Y sign -f KEY -n pbem-orders@desk-toc" in text, text
        saved = yamlio.load_file(out).data
        assert saved["orders"] == [move] and saved["standing"] == {"advance": "all"}
    finally:
        page.close()


def test_a_decision_request_answered_by_a_button(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The request's options as buttons; the reply is the one `pbem decide --answer` writes, signed and accepted."""
    from selenium.webdriver.common.by import By

    from pbem.core.api import signing
    from pbem.desk.session import DecisionDesk
    from tests.test_cli_lifecycle import decision_game, make_cli_game, ok

    monkeypatch.chdir(tmp_path)
    game = make_cli_game(tmp_path)
    decision_game(game)
    ok("adjudicate", game.root)
    request = game.root / "decisions/0002/request-000.yaml"
    out = tmp_path / "desk-reply.yaml"
    desk = DecisionDesk(request, load_game(game.root), signing.load_signing_key(Path(game.key("red"))), out)
    page = Desk(browser, desk)
    try:
        assert "F3" in browser.find_element(By.ID, "decision-title").text
        labels = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#options button")]
        assert len(labels) == 3 and labels[1].startswith("2: shift-left")
        page.click("option-2")
        assert f"wrote {out}" in browser.find_element(By.ID, "output").text
        ok("decide", request, "--answer", "2", "--key", game.key("red"), "--out", tmp_path / "cli-reply.yaml")
        assert out.read_bytes() == (tmp_path / "cli-reply.yaml").read_bytes()
        page.click("decision-armor")
        assert "SSH SIGNATURE" in browser.find_element(By.ID, "output").text
        assert submit(game.root, out).errors == []
    finally:
        page.close()


@pytest.mark.skipif("PBEM_DESK_SCREENSHOT" not in __import__("os").environ,
                    reason="writes docs/desk.png only when PBEM_DESK_SCREENSHOT names the file")
def test_screenshot_for_the_docs(browser: Any, tmp_path: Path) -> None:
    """PBEM_DESK_SCREENSHOT=docs/desk.png: the desk of an fbsm German fire phase, a fire being built."""
    import os

    from selenium.webdriver.common.by import By

    game = play_to(tmp_path, "fbsm", "german-first-fire", "german")
    fire = next(order for order in game.bot_orders("german") if "fire" in order)
    page = Desk(browser, OrdersDesk(game.view_path("german"), out=tmp_path / "o.yaml"))
    try:
        page.click("kind-fire")
        page.click(f"pick-fire-{fire['fire']}")
        for uid in fire["with"]:
            page.click(f"pick-with-{uid}")
        cell = browser.find_element(By.CSS_SELECTOR, f'#map polygon.hex[data-hex="{fire["fire"]}"]')
        browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", cell)
        browser.save_screenshot(os.environ["PBEM_DESK_SCREENSHOT"])
    finally:
        page.close()
