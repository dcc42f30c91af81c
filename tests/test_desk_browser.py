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

ROOT = Path(__file__).resolve().parent.parent
from pbem.desk.server import DeskServer
from pbem.desk.session import OrdersDesk
from tests.test_desk_picks import get, matches
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

    def __init__(self, driver: Any, desk: Any) -> None:
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

    def press(self, element_id: str, most: int = 400) -> int:
        """Tab from where the keyboard is until `element_id` has the focus, then Enter: the keyboard alone.
        The number of Tabs it took."""
        from selenium.webdriver.common.keys import Keys

        ahead = self.driver.execute_script(  # how many Tabs away, counted on the page's own tab order
            "const all = [...document.querySelectorAll('button, input, summary')].filter(e => !e.disabled && "
            "e.offsetParent !== null); const from = all.indexOf(document.activeElement); "
            "const to = all.findIndex(e => e.id === arguments[0]); return to < 0 ? 0 : to - from;", element_id)
        if ahead > 0:  # one keystroke message for them all; the loop below checks where the focus landed
            self.driver.switch_to.active_element.send_keys(Keys.TAB * ahead)
        for tabs in range(most):
            if self.driver.execute_script("return document.activeElement.id") == element_id:
                self.driver.switch_to.active_element.send_keys(Keys.ENTER)
                self.idle()
                return tabs
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
        raise AssertionError(f"{element_id} not reached by {most} Tabs")

    def focused(self) -> str:
        return str(self.driver.execute_script(
            "const e = document.activeElement; return (e.closest('[id]') || e).id + ' ' + "
            "((e.closest('#draft, #kinds, #next-kinds') || {}).id || '')"))

    def click_hex_on_map(self, hex_id: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        cell = self.driver.find_element(By.CSS_SELECTOR, f'#map polygon.hex[data-hex="{hex_id}"]')
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", cell)
        ActionChains(self.driver).move_to_element(cell).click().perform()
        self.idle()

    def click_table_point(self, x: int, y: int) -> None:
        """Click the table picture where the table point (x, y) is drawn, read off its grid lines."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.by import By

        svg = self.driver.find_element(By.CSS_SELECTOR, "#map svg")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", svg)
        cx, cy = self.driver.execute_script(  # where the point is in the window, in CSS pixels
            "const [x, y, svg] = arguments; const at = (sel, key, v) => { const ls = [...svg.querySelectorAll(sel)]; "
            "const [a, b] = [ls[0], ls[ls.length - 1]]; const ra = a.getBoundingClientRect(), "
            "rb = b.getBoundingClientRect(); const [va, vb] = [Number(a.dataset[key]), Number(b.dataset[key])]; "
            "const [pa, pb] = key === 'x' ? [ra.left, rb.left] : [ra.top, rb.top]; "
            "return pa + (v - va) * (pb - pa) / (vb - va); }; "
            "return [at('line.grid[data-x]', 'x', x), at('line.grid[data-y]', 'y', y)];", x, y, svg)
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(round(cx), round(cy)).click()  # type: ignore[no-untyped-call]
        actions.perform()
        self.idle()

    def page_text(self) -> str:
        return str(self.driver.execute_script(
            "return document.body.innerText + ' ' + [...document.querySelectorAll('[id]')].map(e => e.id).join(' ')"))

    def build(self, orders: list[Any], target: str = "main", map_paths: bool = False, keyboard: bool = False) -> None:
        """Click each order in: its kind, then each field's picks (flags first: they change the picks); with
        `keyboard`, press each button by Tab and Enter, the focus staying in the order being built."""
        from selenium.webdriver.common.by import By

        def click(element_id: str) -> None:
            if not keyboard:
                return self.click(element_id)
            self.press(element_id)
            where = self.focused()
            assert where.rpartition(" ")[2] in ("draft", "kinds", "next-kinds"), (element_id, where)

        described = self.desk.describe()
        kinds = described["kinds"] if target == "main" else described["next_phase"]["kinds"]
        prefix = "kind-next-" if target == "next" else "kind-"
        for order in orders:
            if "next_phase" in order:
                self.press("next-toggle") if keyboard else self.click("next-toggle")
                self.build(order["next_phase"], "next", map_paths, keyboard)
                continue
            spec = next(k for k in kinds if matches(k, order))
            click(prefix + spec["kind"])
            fields = sorted(spec["fields"], key=lambda f: f["type"] != "flag")
            for field in fields:
                value = get(order, field["name"])
                if field["type"] == "const" or value is None:
                    continue
                if field["type"] == "flag":
                    if value:
                        click("pick-" + field["name"])
                    continue
                for item in (value if isinstance(value, list) and field["type"] != "point" else [value]):
                    if field["type"] in ("point", "points"):  # a table point typed in, as exact as the bot's
                        box = self.driver.find_element(By.ID, "input-" + field["name"])
                        box.clear()
                        box.send_keys(f"{item[0]} {item[1]}")
                        click("set-" + field["name"])
                    elif field["type"] == "path" and map_paths and item != "off":
                        self.click_hex_on_map(item)
                    else:
                        click(f"pick-{field['name']}-{item}")
            if not spec.get("auto"):
                click("add")
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


def _play_by_clicks(driver: Any, game: DeskGame, side: str, tmp_path: Path, map_paths: bool = False,
                    keyboard: bool = False) -> Desk:
    out = tmp_path / f"{side}-desk-orders.yaml"
    desk = OrdersDesk(game.view_path(side), game=load_game(game.game_dir), key=game.key(side), out=out)
    bot = game.bot_orders(side)
    page = Desk(driver, desk)
    try:
        page.build(bot, map_paths=map_paths, keyboard=keyboard)
        if keyboard:
            page.press("save")
        said = page.save() if not keyboard else str(driver.find_element("id", "output").text)
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

    game = play_to(tmp_path, "fbsm", "german-first-fire", "german",
                   wanted=lambda orders: any("fire" in order for order in orders))
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


def test_a_toc_german_movement_by_the_keyboard_alone(browser: Any, tmp_path: Path) -> None:
    """Tab and Enter only: after each key the focus stays in the order being built (the page redraws its
    buttons), and the saved file is the bot's, accepted by the referee."""
    game = play_to(tmp_path, "toc", "german-movement", "german")
    page = _play_by_clicks(browser, game, "german", tmp_path, keyboard=True)
    page.close()


def test_a_bob_impulse_by_clicks_on_the_map(browser: Any, tmp_path: Path) -> None:
    """An American impulse: moves clicked hex by hex on the map, fires, artillery calls and marks from the
    picks, the reroll flags pressed: the bot's file byte for byte, accepted by the referee."""
    game = play_to(tmp_path, "bob", "operations", "american",
                   wanted=lambda orders: any("move" in order for order in orders))
    page = _play_by_clicks(browser, game, "american", tmp_path, map_paths=True)
    page.close()


def test_a_bob_setup_by_clicks(browser: Any, tmp_path: Path) -> None:
    """Both sides set up at once: every German unit placed by two clicks, concealed or not, as the bot would."""
    game = play_to(tmp_path, "bob", "setup", "german")
    page = _play_by_clicks(browser, game, "german", tmp_path)
    page.close()


def test_a_wtj1916_german_fire_phase_by_clicks(browser: Any, tmp_path: Path) -> None:
    """A table game's fire phase: targets, firers and flags from the picks, the bot's file byte for byte."""
    game = play_to(tmp_path, "wtj1916", "fire", "german", wanted=lambda orders: any("fire" in o for o in orders))
    page = _play_by_clicks(browser, game, "german", tmp_path)
    page.close()


def test_a_bst_activation_by_clicks_and_typed_points(browser: Any, tmp_path: Path) -> None:
    """A bst activation: units, bases and targets from the picks, the moves' points typed in their boxes (the
    keyboard's way to a point, exact as the bot's): the bot's file byte for byte, accepted by the referee."""
    game = play_to(tmp_path, "bst", "activation", "allies",
                   wanted=lambda orders: any(o.get("act") == "move" for o in orders))
    page = _play_by_clicks(browser, game, "allies", tmp_path)
    page.close()


def test_bst_per_unit_standing_answers_clicked_and_typed_into_the_file(browser: Any, tmp_path: Path) -> None:
    """bst's activation by clicks, then its standing answers unit by unit (O1, C2): a word clicked for one
    unit, `{within: N}` typed for another, and a word clicked twice taken back. The saved file is the bot's
    with that `standing:` block, byte for byte, and the referee accepts it."""
    from selenium.webdriver.common.by import By

    from pbem.core.api import bot_orders_file

    game = play_to(tmp_path, "bst", "activation", "allies")
    out = tmp_path / "allies-desk.yaml"
    desk = OrdersDesk(game.view_path("allies"), game=load_game(game.game_dir), key=game.key("allies"), out=out)
    page = Desk(browser, desk)
    try:
        page.build(game.bot_orders("allies"))
        browser.find_element(By.CSS_SELECTOR, "#standing-pane summary").click()
        page.click("standing-opfire.us1-hold")
        page.click("standing-close_combat.us1-fire")
        page.click("standing-close_combat.us1-fire")  # taken back
        page.click("standing-close_combat.usp-ask")
        box = browser.find_element(By.ID, "standing-opfire.usp-within")
        box.send_keys("250")
        page.click("standing-opfire.usp-set")
        assert "{within: 250}" in browser.find_element(By.ID, "standing-opfire.usp").text
        assert browser.find_element(By.ID, "standing-opfire.us1-hold").get_attribute("aria-pressed") == "true"
        said = page.save()
        assert f"wrote {out}" in said and "signed:" in said, said
        nested = {"close_combat": {"usp": "ask"}, "opfire": {"us1": "hold", "usp": {"within": 250}}}
        by_bot = bot_orders_file(game.game_dir, "allies", game.key("allies"), tmp_path / "by-bot.yaml", standing=nested)
        assert out.read_bytes() == by_bot.read_bytes()
        assert submit(game.game_dir, out).errors == []
    finally:
        page.close()


def test_a_bst_mortar_call_of_repeated_rounds_by_clicks(browser: Any, tmp_path: Path) -> None:
    """W6, W8-W9: a call of he, he, smoke is three clicks on the round buttons, and back one drops the last."""
    from selenium.webdriver.common.by import By

    from pbem.core.api import yamlio
    from pbem.testing import view_bytes
    from tests.bst.test_bots import BST, at_card

    _, state = at_card("JD", {"de1a": [620, 600], "uspa": [620, 160]})
    view = tmp_path / "allies.yaml"
    view.write_bytes(view_bytes(BST, state, "allies", ["allies", "axis"]))
    out = tmp_path / "o.yaml"
    desk = OrdersDesk(view, out=out)
    call = {"unit": "usp", "act": "call-mortar", "mortar": "usma", "aim": [620, 600], "rounds": ["he", "he", "smoke"]}
    page = Desk(browser, desk)
    try:
        page.build([call])
        page.click("remove-main-0")
        page.click("kind-call-mortar")
        for pick in ("unit-usp", "mortar-usma", "rounds-he", "rounds-smoke", "rounds-smoke"):
            page.click("pick-" + pick)
        page.click("back-rounds")
        assert browser.find_element(By.ID, "value-rounds").text == "[he, smoke]"
        page.click("cancel")
        page.build([call])
        page.save()
        assert yamlio.load_file(out).data["orders"] == [call]
    finally:
        page.close()


def test_a_wtj1916_move_to_a_point_clicked_on_the_table(browser: Any, tmp_path: Path) -> None:
    """A unit picked, then a point clicked on the table picture: the order's `to` is that point in whole
    yards (within the picture's pixel), the notes tell the move's length, and the referee accepts the file."""
    from selenium.webdriver.common.by import By

    from pbem.core.api import yamlio
    from pbem.rulesets.wtj1916 import movement

    game = play_to(tmp_path, "wtj1916", "british-move", "british")
    out = tmp_path / "british-orders.yaml"
    desk = OrdersDesk(game.view_path("british"), game=load_game(game.game_dir), key=game.key("british"), out=out)
    bot = next(order for order in game.bot_orders("british") if "toward" in order)
    planned, problems = movement.plan(desk.view.rules.context, desk.state, bot, 0)
    assert planned is not None and not problems
    (x0, y0), (x1, y1) = planned.path[0], planned.end
    wanted = ((x0 + x1) // 2, (y0 + y1) // 2)  # half-way along a legal move: legal too
    page = Desk(browser, desk)
    try:
        page.click("kind-move")
        page.click(f"pick-move-{bot['move']}")
        page.click_table_point(*wanted)
        picked = yamlio.load_bytes(browser.find_element(By.ID, "value-to").text.encode(), "to").data
        assert abs(picked[0] - wanted[0]) <= 3 and abs(picked[1] - wanted[1]) <= 3, (picked, wanted)
        assert "allowed" in browser.find_element(By.ID, "notes").text
        page.click("add")
        said = page.save()
        assert f"wrote {out}" in said, said
        assert out.read_bytes() == desk.document([{"move": bot["move"], "to": picked}])
        assert submit(game.game_dir, out).errors == []
    finally:
        page.close()


def test_a_hostile_view_puts_no_markup_on_the_page(browser: Any, tmp_path: Path) -> None:
    """A view handed to the desk with markup for a unit id (the desk without --game checks no signature):
    the id stands on the page as text, in the map's counter and the report, and no element of it runs."""
    from pbem.core.api import yamlio

    doc = yamlio.load_file(ROOT / "samples" / "fbsm" / "game" / "turns" / "0005" / "us.yaml").data
    units = doc["state"]["units"]
    evil = 'X"><img src=x onerror="document.title=1"><script>document.title=2</script>'
    units[evil] = units.pop(sorted(units)[0])
    hostile = tmp_path / "us.yaml"
    hostile.write_text(yamlio.dump(doc), encoding="utf-8")
    page = Desk(browser, OrdersDesk(hostile, out=tmp_path / "o.yaml"))
    try:
        found = browser.execute_script(
            "return [document.querySelectorAll('#map img, #map script, #map foreignObject, #map iframe').length, "
            "!!document.getElementById('unit-' + arguments[0]), document.title, "
            "document.querySelectorAll('script').length]", evil)
        markup, counter, title, scripts = found
        assert markup == 0 and counter and scripts == 1 and title not in ("1", "2"), found
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
