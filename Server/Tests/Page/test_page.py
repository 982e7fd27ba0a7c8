#!/usr/bin/env python3
"""The settings page in headless Chromium against a live readingprefs-server (Specs/Page.md §7).

Run by `.ci/page.sh`, which starts the server and gives:
  READINGPREFS_PAGE_URL     the server's base URL, such as http://127.0.0.1:18500
  READINGPREFS_PAGE_TOKENS  two tokens of one user and one of another, separated by spaces
  READINGPREFS_PAGE_OUT     a folder for screenshots and the timing report
  READINGPREFS_CLI          the readingprefs CLI (a device that syncs through the server)
Each scenario is a function `scenario_*`; the run fails, naming each failed scenario, when one
fails. Nothing here sleeps to wait for the page: it waits for a condition, with a deadline.
"""
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = os.environ["READINGPREFS_PAGE_URL"].rstrip("/")
TOKENS = os.environ["READINGPREFS_PAGE_TOKENS"].split()
OUT = os.environ.get("READINGPREFS_PAGE_OUT", tempfile.mkdtemp())
CLI = os.environ.get("READINGPREFS_CLI", "readingprefs")
AXE = os.environ.get("READINGPREFS_AXE_JS")
os.makedirs(OUT, exist_ok=True)


# ---- The API, for setting up and checking what the page did.
def api(method, path, token, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + token)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text else None), dict(response.headers)
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, (json.loads(text) if text else None), dict(error.headers)


def stored(token, layer, configurable="epub"):
    status, body, _ = api("GET", f"/v1/{configurable}/preferences/{layer}", token)
    return body if status == 200 else {}


def clear_user(token):
    status, _, _ = api("DELETE", "/v1/account-data", token)
    assert status == 204, status


# ---- The browser.
def browser(width=1024, height=900):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    binary = os.environ.get("READINGPREFS_CHROMIUM")
    if binary:
        options.binary_location = binary
    service = webdriver.ChromeService(executable_path=os.environ.get("READINGPREFS_CHROMEDRIVER", "chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_script_timeout(30)
    return driver


def page_url(token, configurable="epub", **query):
    items = []
    for name, value in query.items():
        for one in value if isinstance(value, list) else [value]:
            items.append((name, one))
    suffix = ("?" + urllib.parse.urlencode(items)) if items else ""
    return f"{BASE}/settings/{configurable}{suffix}#token={urllib.parse.quote(token)}"


def wait(driver, condition, what, seconds=10):
    try:
        # The page draws its rows again when a change arrives: an element read while it is
        # replaced is read again at the next poll.
        return WebDriverWait(
            driver, seconds, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
        ).until(lambda d: condition(d))
    except Exception as error:
        raise AssertionError(f"timed out waiting for {what}") from error


def open_page(driver, token, configurable="epub", **query):
    # A URL that differs from the current one only by its fragment would not load the page again.
    driver.get("about:blank")
    driver.get(page_url(token, configurable, **query))
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true",
         "the first render")


def edits_done(driver):
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-edits") or "0")


def after_edit(driver, action, what):
    before = edits_done(driver)
    action()
    wait(driver, lambda d: edits_done(d) > before, what)


def row_text(driver, key):
    return driver.find_element(By.ID, f"value-{key}").text


def axe_check(driver, state):
    if not AXE:
        raise AssertionError("READINGPREFS_AXE_JS is not set: axe-core cannot run")
    with open(AXE, encoding="utf-8") as file:
        driver.execute_script(file.read())
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations))"
        ".catch(e => done([{id: 'axe-error', help: String(e), nodes: []}]));")
    problems = [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes: "
                f"{[n.get('target') for n in v['nodes']][:3]})" for v in result]
    assert not problems, f"axe-core in the {state} state: " + "; ".join(problems)


def screenshot(driver, name):
    driver.save_screenshot(os.path.join(OUT, f"{name}.png"))


# ---- Scenarios.
def scenario_every_control_of_every_configurable(driver):
    token = TOKENS[0]
    for configurable in ("epub", "pdf", "audio", "tts"):
        open_page(driver, token, configurable, publication="book-1")
        status, form, _ = api("GET", f"/v1/{configurable}/publications/book-1/form", token)
        assert status == 200, status
        for section in form["sections"]:
            for row in section["rows"]:
                key = row["key"]
                driver.find_element(By.ID, f"row-{key}")
                control = driver.find_element(By.ID, f"ctl-{key}")
                kind = next(iter(row["control"]))
                expected = {"toggle": ("input", "checkbox"), "stepper": ("input", "range"),
                            "slider": ("input", "range"), "picker": ("select", None),
                            "suggestions": ("select", None), "color": ("input", "color"),
                            "text": ("input", "text")}.get(kind, ("input", "text"))
                assert control.tag_name == expected[0], (configurable, key, control.tag_name)
                if expected[1]:
                    assert control.get_attribute("type") == expected[1], (configurable, key)
                # textContent: a row of the collapsed group is not displayed, and has no .text.
                label = driver.find_element(By.CSS_SELECTOR, f"label[for='ctl-{key}']")
                assert label.get_attribute("textContent").strip().startswith(row["title"]), (configurable, key)
                assert f"value-{key}" in control.get_attribute("aria-describedby")
                if row["reasons"]:
                    reasons = driver.find_element(By.ID, f"reasons-{key}")
                    assert f"reasons-{key}" in control.get_attribute("aria-describedby")
                    assert row["reasons"][0]["text"] in reasons.get_attribute("textContent")


def scenario_default_state_and_accessibility(driver):
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="book-1", language="en")
    screenshot(driver, "default")
    axe_check(driver, "default")
    # Settings that do not take effect stay visible and usable, marked, with their reasons.
    row = driver.find_element(By.ID, "row-letterSpacing")
    assert "ineffective" in row.get_attribute("class")
    assert driver.find_element(By.ID, "ctl-letterSpacing").is_enabled()
    screenshot(driver, "not-effective")
    axe_check(driver, "not effective")


def scenario_edit_with_activation(driver):
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="book-1", language="en")
    # Said before it is made: the edit will turn publisher styles off.
    meta = driver.find_element(By.ID, "row-letterSpacing").text
    assert "Changing this also sets Publisher styles" in meta, meta
    after_edit(driver, lambda: driver.find_element(By.ID, "inc-letterSpacing").click(), "the letter spacing edit")
    shared = stored(token, "shared")
    assert shared.get("publisherStyles") is False, shared
    assert shared.get("letterSpacing", 0) > 0, shared
    assert "ineffective" not in driver.find_element(By.ID, "row-letterSpacing").get_attribute("class")


def scenario_per_book_value_and_reset(driver):
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="book-1", language="en")
    driver.find_element(By.CSS_SELECTOR, "input[name=layer][value=book]").click()
    assert not driver.find_elements(By.ID, "reset-fontSize"), "reset offered where nothing is stored"
    after_edit(driver, lambda: driver.find_element(By.ID, "inc-fontSize").click(), "the per-book font size")
    book = stored(token, "publications/book-1")
    assert book.get("fontSize", 1) > 1, book
    assert "fontSize" not in stored(token, "shared")
    assert "this book" in row_text(driver, "fontSize")
    # Reset: offered now that this layer stores a value, and removes it.
    after_edit(driver, lambda: driver.find_element(By.ID, "reset-fontSize").click(), "the reset")
    assert "fontSize" not in stored(token, "publications/book-1")
    assert not driver.find_elements(By.ID, "reset-fontSize")


def scenario_devices_like_this(driver):
    token = TOKENS[0]
    clear_user(token)
    # Without a class, no class choice.
    open_page(driver, token, publication="book-1")
    assert not driver.find_element(By.ID, "class-choice").is_displayed(), "a class choice without a class"
    api("PATCH", "/v1/epub/preferences/shared", token, {"fontSize": 1.2})
    open_page(driver, token, publication="book-1", deviceClass="eink")
    choice = driver.find_element(By.ID, "class-choice")
    assert choice.is_displayed() and "Devices like this (eink)" in choice.text, choice.text
    driver.find_element(By.CSS_SELECTOR, "input[name=layer][value=class]").click()
    assert not driver.find_elements(By.ID, "reset-fontSize"), "reset offered where the class stores nothing"
    after_edit(driver, lambda: driver.find_element(By.ID, "inc-fontSize").click(), "the class's font size")
    eink = stored(token, "classes/eink")
    assert eink.get("fontSize", 1.2) > 1.2, eink
    assert stored(token, "shared").get("fontSize") == 1.2
    assert "devices like this" in row_text(driver, "fontSize")
    after_edit(driver, lambda: driver.find_element(By.ID, "reset-fontSize").click(), "the class's reset")
    assert "fontSize" not in stored(token, "classes/eink")


def scenario_rule_that_chose_the_profile(driver):
    token = TOKENS[0]
    clear_user(token)
    status, profile, _ = api("POST", "/v1/epub/profiles", token, {"name": "Night"})
    assert status == 201, status
    api("PATCH", f"/v1/epub/preferences/profiles/{profile['id']}", token, {"fontSize": 1.6})
    rules = {"rules": [{"profile": profile["id"], "when": {"appearance": "dark"}}]}
    status, _, _ = api("PUT", "/v1/epub/preferences/rules", token, rules, {"If-None-Match": "*"})
    assert status == 200, status
    open_page(driver, token, publication="book-1", appearance="dark")
    assert "(rule 1)" in row_text(driver, "fontSize"), row_text(driver, "fontSize")
    open_page(driver, token, publication="book-1", appearance="light")
    assert "rule" not in row_text(driver, "fontSize"), row_text(driver, "fontSize")
    clear_user(token)


def scenario_profile_switch_and_hostile_name(driver):
    token = TOKENS[0]
    clear_user(token)
    hostile = "<img src=x onerror=alert(1)>"
    status, created, _ = api("POST", "/v1/epub/profiles", token, {"name": hostile})
    assert status == 201, status
    open_page(driver, token, publication="book-1")
    select = Select(driver.find_element(By.ID, "profile-select"))
    names = [option.text for option in select.options]
    assert hostile in names, names
    assert not driver.find_elements(By.CSS_SELECTOR, "#profile-select img, img[src=x]")
    select.select_by_visible_text(hostile)
    wait(driver, lambda d: any(p["active"] for p in api("GET", "/v1/epub/profiles", token)[1]), "the switch")
    active = [p for p in api("GET", "/v1/epub/profiles", token)[1] if p["active"]]
    assert active and active[0]["id"] == created["id"], active
    try:
        driver.switch_to.alert
        raise AssertionError("a stored name ran as script")
    except NoAlertPresentException:
        pass
    # Hostile text in a book identifier is shown as text too.
    open_page(driver, token, publication="<b>bold</b>")
    assert "<b>bold</b>" in driver.find_element(By.ID, "book-line").text
    api("PUT", "/v1/epub/profiles/active", token, {"id": None})


@contextlib.contextmanager
def stream_blocked(driver):
    """The event stream blocked in the browser: a page opened with `poll=0` then never looks again."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/events*"]})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def two_tabs(driver, token):
    """Tab A (no stream, no polling, so it keeps what it read) and tab B; answers A's handle, with
    B focused. Call it inside `stream_blocked`."""
    open_page(driver, token, publication="book-1", poll="0")
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    open_page(driver, token, publication="book-1", poll="0")
    return first


def scenario_conflict_same_key_from_second_tab(driver):
    with stream_blocked(driver):
        conflict_same_key_from_second_tab(driver)


def conflict_same_key_from_second_tab(driver):
    token = TOKENS[0]
    clear_user(token)
    first = two_tabs(driver, token)
    after_edit(driver, lambda: driver.find_element(By.ID, "inc-fontSize").click(), "tab B's edit")
    theirs = stored(token, "shared").get("fontSize")
    driver.close()
    driver.switch_to.window(first)
    # Tab A changes the same setting from the value it read: not applied over B's change.
    driver.find_element(By.ID, "dec-fontSize").click()
    wait(driver, lambda d: d.find_element(By.ID, "conflict").is_displayed(), "the conflict")
    said = driver.find_element(By.ID, "conflict-change").text
    assert "Font size one step down" in said, said
    listed = driver.find_element(By.ID, "conflict-list").text
    assert "Font size" in listed and "110%" in listed, listed
    retry = driver.find_element(By.ID, "conflict-retry").text
    assert retry == "Apply my change again: Font size one step down", retry
    assert stored(token, "shared").get("fontSize") == theirs, "applied silently over the other change"
    screenshot(driver, "conflict")
    axe_check(driver, "conflict")
    after_edit(driver, lambda: driver.find_element(By.ID, "conflict-retry").click(), "the retried edit")
    assert stored(token, "shared").get("fontSize") == 1.0, stored(token, "shared")


def scenario_two_tabs_change_two_settings(driver):
    with stream_blocked(driver):
        two_tabs_change_two_settings(driver)


def two_tabs_change_two_settings(driver):
    token = TOKENS[0]
    clear_user(token)
    first = two_tabs(driver, token)
    after_edit(driver, lambda: driver.find_element(By.ID, "inc-fontSize").click(), "tab B's edit")
    driver.close()
    driver.switch_to.window(first)
    # Tab A never saw B's change, and changes another setting: no conflict, both applied.
    after_edit(driver, lambda: driver.find_element(By.ID, "inc-lineHeight").click(), "tab A's edit")
    assert not driver.find_element(By.ID, "conflict").is_displayed()
    shared = stored(token, "shared")
    assert shared.get("fontSize") == 1.1 and shared.get("lineHeight", 0) > 1, shared
    # Tab A shows both now (its form was read again after its edit).
    assert "110%" in row_text(driver, "fontSize"), row_text(driver, "fontSize")


def picture_loaded(driver):
    wait(driver, lambda d: d.execute_script(
        "const i = document.getElementById('preview-image'); return i.complete && i.naturalWidth > 0"),
        "the preview's picture")


def pixels(element):
    """An element's pixels as PNG bytes (Chromium writes the same bytes for the same pixels)."""
    return element.screenshot_as_png


def scenario_preview_image_filter_only_when_in_effect(driver):
    token = TOKENS[0]
    clear_user(token)
    # Sepia, no filter: the reference.
    api("PUT", "/v1/epub/preferences/shared", token, {"theme": "sepia"}, {"If-None-Match": "*"})
    open_page(driver, token, publication="book-1", language="en", poll="0")
    picture_loaded(driver)
    text, image = driver.find_element(By.ID, "preview-text"), driver.find_element(By.ID, "preview-image")
    reference = pixels(text)
    picture = pixels(image)
    # Sepia with invert: the row says it is not in effect, and the preview shows nothing of it.
    api("PATCH", "/v1/epub/preferences/shared", token, {"imageFilter": "invert"})
    open_page(driver, token, publication="book-1", language="en", poll="0")
    picture_loaded(driver)
    assert "ineffective" in driver.find_element(By.ID, "row-imageFilter").get_attribute("class")
    text, image = driver.find_element(By.ID, "preview-text"), driver.find_element(By.ID, "preview-image")
    style = lambda element, name: driver.execute_script(f"return getComputedStyle(arguments[0]).{name}", element)
    assert style(image, "filter") == "none", style(image, "filter")
    assert style(driver.find_element(By.ID, "preview"), "filter") == "none"
    assert pixels(text) == reference, "the passage's text changed color for a filter not in effect"
    assert pixels(image) == picture, "the picture was filtered by a filter not in effect"
    screenshot(driver, "filter-not-in-effect")
    # Dark with its own background and invert: the filter takes effect, on the picture only.
    api("PATCH", "/v1/epub/preferences/shared", token,
        {"theme": "dark", "backgroundColor": "#202020", "imageFilter": None})
    open_page(driver, token, publication="book-1", language="en", poll="0")
    picture_loaded(driver)
    dark_text = pixels(driver.find_element(By.ID, "preview-text"))
    dark_picture = pixels(driver.find_element(By.ID, "preview-image"))
    api("PATCH", "/v1/epub/preferences/shared", token, {"imageFilter": "invert"})
    open_page(driver, token, publication="book-1", language="en", poll="0")
    picture_loaded(driver)
    assert "ineffective" not in driver.find_element(By.ID, "row-imageFilter").get_attribute("class")
    text, image = driver.find_element(By.ID, "preview-text"), driver.find_element(By.ID, "preview-image")
    assert style(image, "filter") == "invert(1)", style(image, "filter")
    assert style(text, "color") == "rgb(254, 254, 254)", style(text, "color")
    assert style(driver.find_element(By.ID, "preview"), "backgroundColor") == "rgb(32, 32, 32)"
    assert pixels(text) == dark_text, "the passage's text changed color: the filter reached the text"
    assert pixels(image) != dark_picture, "the picture was not filtered while the filter takes effect"
    screenshot(driver, "filter-in-effect")
    axe_check(driver, "filter in effect")


def scenario_grouped_sections_and_not_for_this_book(driver):
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="book-1", language="en", poll="0")
    titles = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "#form section.panel > h2")]
    assert titles == ["Theme and colors", "Text", "Spacing", "Layout"], titles
    first_rows = [r.get_attribute("id") for r in driver.find_elements(By.CSS_SELECTOR, "#form section.panel:first-of-type .row")]
    assert first_rows[:2] == ["row-theme", "row-backgroundColor"], first_rows
    group = driver.find_element(By.ID, "section-notForThisPublication")
    assert group.tag_name == "details" and group.get_attribute("open") is None, "the group is not collapsed"
    summary = group.find_element(By.TAG_NAME, "summary")
    assert summary.text.startswith("Not for this book ("), summary.text
    assert not driver.find_element(By.ID, "ctl-spread").is_displayed()
    screenshot(driver, "grouped")
    axe_check(driver, "grouped, collapsed")
    # From the keyboard: Tab reaches the summary, Enter opens it, Tab goes into it.
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    for _ in range(300):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.switch_to.active_element.tag_name == "summary":
            break
    else:
        raise AssertionError("Tab never reaches the not-for-this-book group")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait(driver, lambda d: d.find_element(By.ID, "section-notForThisPublication").get_attribute("open") is not None,
         "the group to open")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    inside = driver.execute_script(
        "return document.getElementById('section-notForThisPublication').contains(document.activeElement)")
    assert inside, "Tab after opening the group does not reach its controls"
    assert driver.find_element(By.ID, "ctl-spread").is_displayed()
    screenshot(driver, "grouped-open")
    axe_check(driver, "grouped, open")


def scenario_font_list_keeps_the_readers_own(driver):
    token = TOKENS[0]
    clear_user(token)
    api("PUT", "/v1/epub/preferences/shared", token, {"fontFamily": "My Own Font"}, {"If-None-Match": "*"})
    open_page(driver, token, publication="book-1", language="en", poll="0")
    select = Select(driver.find_element(By.ID, "ctl-fontFamily"))
    names = [option.text for option in select.options]
    assert "Literata" in names and "OpenDyslexic" in names and "My Own Font" in names, names
    assert select.first_selected_option.text == "My Own Font"
    after_edit(driver, lambda: Select(driver.find_element(By.ID, "ctl-fontFamily")).select_by_visible_text("Literata"),
               "choosing a font of the list")
    assert stored(token, "shared").get("fontFamily") == "Literata"
    other = driver.find_element(By.ID, "other-fontFamily")
    other.send_keys("Atkinson Hyperlegible")
    after_edit(driver, lambda: other.send_keys(Keys.TAB), "typing another font")
    assert stored(token, "shared").get("fontFamily") == "Atkinson Hyperlegible"
    names = [option.text for option in Select(driver.find_element(By.ID, "ctl-fontFamily")).options]
    assert "Atkinson Hyperlegible" in names and "Literata" in names, names
    screenshot(driver, "fonts")
    axe_check(driver, "fonts")


def scenario_dark_mode(driver):
    token = TOKENS[0]
    clear_user(token)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        open_page(driver, token, publication="book-1", language="en", title="The Time Machine", poll="0")
        body = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert body == "rgb(18, 18, 18)", body
        panel = driver.execute_script("return getComputedStyle(document.querySelector('.panel')).backgroundColor")
        assert panel == "rgb(30, 30, 30)", panel
        # The preview keeps the book's look: light, as no theme is stored.
        preview = driver.execute_script("return getComputedStyle(document.getElementById('preview')).backgroundColor")
        assert preview == "rgb(255, 255, 255)", preview
        screenshot(driver, "dark-mode")
        axe_check(driver, "dark mode")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def scenario_title_language_and_icon(driver):
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="urn:isbn:111", language="en", title="The Time Machine")
    line = driver.find_element(By.ID, "book-line").text
    assert line == "The Time Machine", line
    assert "The Time Machine" in driver.title, driver.title
    # The language box shows the language that applies, not an empty box.
    assert driver.find_element(By.ID, "ctl-language").get_attribute("value") == "en"
    with urllib.request.urlopen(BASE + "/favicon.ico") as response:
        assert response.status == 200 and response.headers["Content-Type"] == "image/x-icon"
        assert response.read()[:4] == b"\x00\x00\x01\x00"
    icon = driver.execute_script("return document.querySelector('link[rel=icon]').href")
    assert icon.endswith("/favicon.ico"), icon


def scenario_right_to_left_and_vertical(driver):
    token = TOKENS[0]
    open_page(driver, token, publication="book-ar", language="ar", readingProgression="rtl")
    preview = driver.find_element(By.ID, "preview")
    assert preview.get_attribute("dir") == "rtl" and preview.get_attribute("lang") == "ar"
    screenshot(driver, "right-to-left")
    axe_check(driver, "right-to-left")
    open_page(driver, token, publication="book-ja", language="ja", readingProgression="rtl")
    preview = driver.find_element(By.ID, "preview")
    assert "vertical" in preview.get_attribute("class")
    assert driver.execute_script("return getComputedStyle(arguments[0]).writingMode", preview) == "vertical-rl"
    screenshot(driver, "vertical-japanese")


def scenario_preview_follows_the_css_route(driver):
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="book-1", language="en")
    preview = driver.find_element(By.ID, "preview")
    before = driver.execute_script("return getComputedStyle(arguments[0]).fontSize", preview)
    after_edit(driver, lambda: driver.find_element(By.ID, "inc-fontSize").click(), "the font size edit")
    after = driver.execute_script("return getComputedStyle(arguments[0]).fontSize", preview)
    assert float(after.rstrip("px")) > float(before.rstrip("px")), (before, after)
    Select(driver.find_element(By.ID, "ctl-theme")).select_by_visible_text("Dark")
    wait(driver, lambda d: d.execute_script(
        "return getComputedStyle(arguments[0]).backgroundColor", preview) == "rgb(0, 0, 0)", "the dark preview")


def device_sets_font_size(token, value):
    """A device (the CLI) edits and syncs through the server."""
    root = tempfile.mkdtemp()
    subprocess.run([CLI, "store", "--root", root, "set", "fontSize", value], check=True, capture_output=True)
    # A new device's first sync: its value is the one the test waits for (Specs/Sync.md §5.9).
    subprocess.run([CLI, "sync", "--root", root, "--server", BASE, "--token", token, "--replica", "cli-device",
                    "--first", "keep-mine"], check=True, capture_output=True)


def form_requests(driver):
    return driver.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/form')).length")


def live_mode(driver):
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-live")


def scenario_change_from_a_device_appears(driver):
    """Through the event stream (Specs/Page.md §4): no polling while it is open."""
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="book-1")
    wait(driver, lambda d: live_mode(d) == "stream", "the event stream to open")
    before = row_text(driver, "fontSize")
    asked = form_requests(driver)
    device_sets_font_size(token, "1.7")
    started = time.monotonic()
    wait(driver, lambda d: row_text(d, "fontSize") != before and "170" in row_text(d, "fontSize"),
         "the device's change", seconds=5)
    print(f"  a device's change appeared through the stream after {time.monotonic() - started:.2f} s")
    # One conditional read per event (the device's sync may push in one or two commits), not a
    # poll every two seconds.
    assert form_requests(driver) - asked <= 3, f"{form_requests(driver) - asked} form requests for one change"
    assert live_mode(driver) == "stream"


def scenario_polling_takes_over_when_the_stream_cannot_open(driver):
    token = TOKENS[0]
    clear_user(token)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/events*"]})
    try:
        open_page(driver, token, publication="book-1")
        wait(driver, lambda d: live_mode(d) == "polling", "the page to fall back to polling")
        before = row_text(driver, "fontSize")
        device_sets_font_size(token, "1.8")
        started = time.monotonic()
        wait(driver, lambda d: row_text(d, "fontSize") != before and "180" in row_text(d, "fontSize"),
             "the device's change, by polling", seconds=5)
        print(f"  with the stream blocked, a device's change appeared after {time.monotonic() - started:.2f} s")
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    # Once the stream can open, the page takes it again and stops polling.
    wait(driver, lambda d: live_mode(d) == "stream", "the stream after the block", seconds=20)


def scenario_who_set_it_and_going_back(driver):
    token = TOKENS[0]
    clear_user(token)
    root = tempfile.mkdtemp()
    def cli(*arguments):
        subprocess.run([CLI, *arguments], check=True, capture_output=True)
    cli("store", "--root", root, "device", "--name", "Kobo Clara")
    for size in ("1.7", "1.9"):
        cli("store", "--root", root, "set", "fontSize", size)
        cli("sync", "--root", root, "--server", BASE, "--token", token)
    open_page(driver, token, publication="book-1")
    line = driver.find_element(By.ID, "provenance-fontSize").text
    assert "Set on Kobo Clara" in line, line
    assert "provenance-theme" not in driver.page_source, "a value nobody set has a provenance line"
    summary = driver.find_element(By.CSS_SELECTOR, "#history-fontSize summary")
    summary.click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-list-fontSize button[data-entry]"),
         "the earlier values of the font size")
    items = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#history-list-fontSize li")]
    assert len(items) == 1 and items[0].startswith("1.7 in all books, set on Kobo Clara"), items
    axe_check(driver, "earlier values open")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                          driver.find_element(By.ID, "history-fontSize"))
    screenshot(driver, "earlier-values")
    button = driver.find_element(By.CSS_SELECTOR, "#history-list-fontSize button[data-entry]")
    after_edit(driver, button.click, "going back to 1.7")
    assert stored(token, "shared").get("fontSize") == 1.7, stored(token, "shared")
    wait(driver, lambda d: "170" in row_text(d, "fontSize"), "the value gone back to")
    wait(driver, lambda d: "gone back" in d.find_element(By.ID, "provenance-fontSize").text,
         "the provenance of the value gone back to")
    # Gone back through the server's route: set by the server replica, which is named.
    line = driver.find_element(By.ID, "provenance-fontSize").text
    assert line.startswith("Set on the web, "), line
    # The device takes the value gone back to at its next sync.
    cli("sync", "--root", root, "--server", BASE, "--token", token)
    shown = subprocess.run([CLI, "store", "--root", root, "show", "--json"], check=True, capture_output=True, text=True)
    assert '"fontSize": 1.7' in shown.stdout or '"fontSize":1.7' in shown.stdout, shown.stdout


def scenario_earlier_values_of_devices_like_this(driver):
    # On a page told its class, a row held in the class's document lists the class's earlier
    # values, and "Use again" puts one back in the class, not in all books.
    token = TOKENS[0]
    clear_user(token)
    api("PATCH", "/v1/epub/preferences/shared", token, {"fontSize": 1.2})
    for size in (1.6, 1.8):
        status, _, _ = api("PATCH", "/v1/epub/preferences/classes/eink", token, {"fontSize": size})
        assert status < 300, status
    open_page(driver, token, publication="book-1", deviceClass="eink")
    assert "devices like this" in row_text(driver, "fontSize"), row_text(driver, "fontSize")
    driver.find_element(By.CSS_SELECTOR, "#history-fontSize summary").click()
    wait(driver, lambda d: "Loading" not in d.find_element(By.ID, "history-list-fontSize").text,
         "the earlier values of the class's font size")
    items = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#history-list-fontSize li")]
    assert len(items) == 1 and items[0].startswith("1.6 in devices like this, set on the web"), items
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                          driver.find_element(By.ID, "history-fontSize"))
    screenshot(driver, "earlier-values-class")
    button = driver.find_element(By.CSS_SELECTOR, "#history-list-fontSize button[data-entry]")
    after_edit(driver, button.click, "going back to 1.6 in the class")
    assert stored(token, "classes/eink").get("fontSize") == 1.6, stored(token, "classes/eink")
    assert stored(token, "shared").get("fontSize") == 1.2, stored(token, "shared")
    wait(driver, lambda d: "160" in row_text(d, "fontSize"), "the class's value gone back to")


def scenario_ages_on_both_sides_of_the_clock(driver):
    # The page's own function, in the browser: a change stamped by a device whose clock was ahead
    # is said to be ahead, never "in 1 hour", and every age is in English, like the page, whatever
    # the browser's language. Offsets in seconds from now.
    open_page(driver, TOKENS[0])
    cases = {
        5: "just now", -30: "just now", -(5 * 60 + 5): "5 minutes ago", -(86400 + 5): "yesterday",
        -(3 * 86400 + 5): "3 days ago", 59 * 60 + 30: "59 minutes ahead of this device's clock",
        3605: "1 hour ahead of this device's clock", 3 * 3600 + 5: "3 hours ahead of this device's clock",
    }
    told = driver.execute_async_script(
        "const [offsets, done] = arguments;"
        "import('/settings/assets/history.js')"
        ".then(m => done(offsets.map(s => m.ago(new Date(Date.now() + s * 1000).toISOString()))))"
        ".catch(e => done(String(e)));", list(cases))
    assert told == list(cases.values()), told


def scenario_keyboard_only(driver):
    token = TOKENS[0]
    clear_user(token)
    open_page(driver, token, publication="book-1")
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    target = None
    visited = []
    for _ in range(200):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused = driver.switch_to.active_element
        visited.append(focused.get_attribute("id") or focused.tag_name)
        if visited[-1] == "inc-fontSize":
            target = focused
            break
    assert target is not None, f"the font size's + button cannot be reached with Tab: {visited[:40]}"
    outline = driver.execute_script("return getComputedStyle(arguments[0]).outlineStyle", target)
    assert outline != "none", "focus is not visible"
    after_edit(driver, lambda: ActionChains(driver).send_keys(Keys.ENTER).perform(), "the keyboard edit")
    assert stored(token, "shared").get("fontSize", 1) > 1


def scenario_narrow_screen(driver):
    token = TOKENS[0]
    driver.set_window_size(320, 800)
    open_page(driver, token, publication="book-1")
    width = driver.execute_script("return document.documentElement.scrollWidth")
    inner = driver.execute_script("return window.innerWidth")
    screenshot(driver, "narrow-320")
    driver.set_window_size(1024, 900)
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"


def scenario_security_headers():
    request = urllib.request.Request(BASE + "/settings/epub")
    with urllib.request.urlopen(request) as response:
        headers = response.headers
        body = response.read().decode()
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
    assert "unsafe-inline" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "<script>" not in body and "style=" not in body
    sizes = 0
    for asset in ("settings.css", "settings.js", "page.js", "form.js", "controls.js", "edits.js",
                  "conflicts.js", "preview.js", "live.js", "history.js"):
        with urllib.request.urlopen(BASE + "/settings/assets/" + asset) as response:
            assert "javascript" in response.headers["Content-Type"] or asset.endswith(".css")
            sizes += len(response.read())
    assert sizes <= 40 * 1024, f"the page's scripts and stylesheet are {sizes} bytes"
    print(f"  the page's scripts and stylesheet: {sizes} bytes")
    assert 'type="module"' in body
    # No token in a query string: the API refuses one.
    status, _, _ = api("GET", "/v1/epub/profiles?token=" + TOKENS[0], "")
    assert status == 401


def scenario_timings(driver):
    """First render and the edit round trip, with the bare edits request beside them."""
    token = TOKENS[0]
    clear_user(token)
    renders = []
    for _ in range(10):
        open_page(driver, token, publication="book-1", poll="0")
        renders.append(driver.execute_script(
            "return performance.getEntriesByName('readingprefs-first-render')[0].duration"))
    for index in range(50):
        button = "inc-fontSize" if index % 2 == 0 else "dec-fontSize"
        after_edit(driver, lambda: driver.find_element(By.ID, button).click(), "an edit")
    edits = driver.execute_script(
        "return performance.getEntriesByName('readingprefs-edit').map(e => e.duration)")[-50:]
    bare = []
    for index in range(50):
        etag = api("GET", "/v1/epub/publications/book-1/settings", token)[2].get("ETag")
        op = "increment" if index % 2 == 0 else "decrement"
        started = time.perf_counter()
        status, _, _ = api("POST", "/v1/epub/publications/book-1/edits", token,
                           {"edits": [{"key": "fontSize", "op": op}]}, {"If-Match": etag})
        bare.append((time.perf_counter() - started) * 1000)
        assert status == 200, status

    def quantile(values, q):
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]

    report = {
        "firstRender": {"p50": statistics.median(renders), "p95": quantile(renders, 0.95)},
        "editRoundTrip": {"p50": statistics.median(edits), "p95": quantile(edits, 0.95)},
        "bareEditsRequest": {"p50": statistics.median(bare), "p95": quantile(bare, 0.95)},
    }
    with open(os.path.join(OUT, "timings.json"), "w") as file:
        json.dump(report, file, indent=2)
    print("  timings (ms): " + json.dumps(report))


def main():
    failures = []
    scenario_security_headers_ok = True
    try:
        scenario_security_headers()
        print("PASS security headers")
    except Exception:
        scenario_security_headers_ok = False
        failures.append("security headers")
        traceback.print_exc()
    driver = browser()
    try:
        for name, function in sorted(globals().items()):
            if not name.startswith("scenario_") or name == "scenario_security_headers":
                continue
            label = name[len("scenario_"):].replace("_", " ")
            try:
                function(driver)
                print(f"PASS {label}")
            except Exception:
                failures.append(label)
                print(f"FAIL {label}")
                traceback.print_exc()
                try:
                    screenshot(driver, "failed-" + name)
                except Exception:
                    pass
                # A failed scenario may leave other windows open.
                for handle in driver.window_handles[1:]:
                    driver.switch_to.window(handle)
                    driver.close()
                driver.switch_to.window(driver.window_handles[0])
    finally:
        driver.quit()
    print(f"screenshots in {OUT}")
    if failures or not scenario_security_headers_ok:
        print("FAILED: " + ", ".join(failures))
        sys.exit(1)
    print("all page scenarios passed")


if __name__ == "__main__":
    main()
