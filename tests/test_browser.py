"""The site as a person sees it: a real headless Chromium driving the real server.

Selenium drives Debian's Chromium through its chromedriver; the app runs behind waitress on a
free loopback port. Every answer the pages are expected to show is worked out independently
on the embedded store (the ``store`` fixture), never written down here. A screenshot of the
last page of each test is saved in ``build/screenshots/`` (not committed) for a person to look at.

Needs ``chromium`` and ``chromedriver`` (Debian: ``apt-get install chromium chromium-driver
fonts-noto-cjk``); without them the tests are skipped.
"""

from __future__ import annotations

import os
import shutil
import urllib.parse
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ID = "https://w3id.org/yili/id/"
WAIT = 20  # seconds a page may take to show what is expected


def _find(*names: str, extra: tuple[str, ...] = ()) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return next((path for path in extra if Path(path).exists()), None)


CHROMIUM = _find("chromium", "chromium-browser", "google-chrome", extra=("/usr/bin/chromium",))
CHROMEDRIVER = _find("chromedriver", extra=("/usr/bin/chromedriver",))

pytestmark = [
    # a real Chromium: slow (on the mini build; the answers are the store's, never written here)
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or CHROMEDRIVER is None,
        reason="headless Chromium is not installed (Debian: apt-get install chromium "
        "chromium-driver fonts-noto-cjk); .ci/run installs it",
    ),
]


@pytest.fixture(scope="module")
def built(request) -> Path:
    """The session's build, or (to iterate quickly) the finished build named by
    ``YILI_TEST_BUILD``."""
    found = os.environ.get("YILI_TEST_BUILD")
    return Path(found) if found else request.getfixturevalue("build_dir")


@pytest.fixture(scope="module")
def store(built):
    from yili_kg.service.store import open_store

    return open_store(built)


@pytest.fixture(scope="module")
def server(built, serve_app):
    """The app behind a real waitress server on a free loopback port; its base URL."""
    config = {"BUILD_DIR": str(built), "QUERY_TIMEOUT": 10.0, "WORKERS": 2}
    with serve_app(config, threads=4) as base:
        yield base


@pytest.fixture(scope="module")
def driver():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root in a container
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-proxy-server",  # loopback only
        "--window-size=1280,1800",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(60)
    yield browser
    browser.quit()


SCREENSHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"


@pytest.fixture
def browser(driver, request):
    """The module's browser; after the test, a screenshot of what it shows in build/screenshots."""
    driver.get_log("browser")  # start each test with an empty console
    yield driver
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{request.node.name}.png"))


def wait(driver, condition, message: str):
    try:
        return WebDriverWait(driver, WAIT).until(condition)
    except TimeoutException:
        pytest.fail(f"{message} (page {driver.current_url!r}: {driver.title!r})")


def column(table, name: str) -> list[str]:
    """The texts of one column of a results table, found by its heading."""
    headings = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
    index = headings.index(name)
    return [
        row.find_elements(By.TAG_NAME, "td")[index].text
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]


def canned(store, name: str, values: dict[str, str]):
    """A canned query answered on the store directly, not through the site."""
    from yili_kg.service.queries import bindings_for, get_query

    query = get_query(name)
    return store.query(query.sparql, bindings_for(query, values, store))


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


# ---------------------------------------------------------------- home and canned queries


def test_home_page_shows_real_answers(browser, server, store):
    answer = canned(store, "bows", {"role": "賓"})
    recipients = {row["recipient"].value for row in answer.rows if "recipient" in row}
    assert "主人" in recipients  # the text: 賓 bows to 主人

    browser.get(server + "/")
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("儀禮·鄉射禮")
    example = browser.find_element(
        By.XPATH, "//article[h3[contains(., 'To whom does the guest bow')]]"
    )
    shown = column(example.find_element(By.CSS_SELECTOR, "table.results"), "recipient")
    assert shown, "the example shows no rows"
    assert "主人" in shown
    assert {r for r in shown if r} <= recipients
    # the counts at the top are the graph's own
    counts = canned(store, "counts", {})
    listed = browser.find_element(By.CSS_SELECTOR, "ul.counts").text
    for row in counts.rows:
        assert f"{row['n'].value} {row['what'].value}" in listed
    # the example's title leads to the whole answer
    example.find_element(By.CSS_SELECTOR, "p > a[href^='/queries/bows']").click()
    wait(browser, EC.url_contains("/queries/bows"), "the example's link did not lead to bows")
    rows = browser.find_elements(By.CSS_SELECTOR, "table.results tbody tr")
    assert len(rows) == len(answer.rows)
    assert console_errors(browser) == []


def test_canned_query_form_shows_the_table(browser, server, store):
    expected = canned(store, "bows", {"role": "賓"})
    browser.get(server + "/queries/bows")
    field = browser.find_element(By.NAME, "role")
    field.clear()
    field.send_keys("賓")
    browser.find_element(By.CSS_SELECTOR, "form.params button[type=submit]").click()
    wait(browser, EC.url_contains("role="), "the form was not submitted")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(browser.current_url).query)
    assert query["role"] == ["賓"]
    assert browser.find_element(By.NAME, "role").get_attribute("value") == "賓"
    table = browser.find_element(By.CSS_SELECTOR, "table.results")
    recipients = column(table, "recipient")
    assert "主人" in recipients
    assert len(recipients) == len(expected.rows)
    assert sorted(column(table, "times"), key=int) == sorted(
        (row["times"].value for row in expected.rows), key=int
    )
    assert browser.find_element(By.CSS_SELECTOR, "p.count").text.startswith(
        f"{len(expected.rows)} row"
    )


def test_canned_query_with_a_wrong_value_says_why(browser, server):
    browser.get(server + "/queries/bows?role=" + urllib.parse.quote("無此人"))
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("400")
    assert "無此人" in browser.find_element(By.CSS_SELECTOR, "p.error").text
    assert browser.find_elements(By.CSS_SELECTOR, "table.results") == []


# ---------------------------------------------------------------- the SPARQL editor

EDITOR_QUERY = """PREFIX yl: <https://w3id.org/yili/ontology#>
SELECT ?event ?kind WHERE {
  ?event yl:agent <https://w3id.org/yili/id/role/bin> ; yl:kind ?kind .
} ORDER BY ?event"""


def run_in_editor(browser) -> tuple[list, str]:
    """Press Ctrl+Enter in Yasgui's editor; the rows of the table that appears (its first page)
    and the line that says how many results there are, or the error shown instead."""
    browser.find_element(By.CSS_SELECTOR, ".yasqe .CodeMirror textarea").send_keys(
        Keys.CONTROL, Keys.ENTER
    )
    wait(
        browser,
        lambda d: d.find_elements(
            By.CSS_SELECTOR, ".yasr table.dataTable tbody tr, .yasr .errorResult"
        ),
        "no results table appeared",
    )
    errors = browser.find_elements(By.CSS_SELECTOR, ".yasr .errorResult")
    if errors:
        return [], errors[0].text
    status = browser.find_element(By.CSS_SELECTOR, ".yasr_response_chip").text
    rows = browser.find_elements(By.CSS_SELECTOR, ".yasr table.dataTable tbody tr")
    return rows, status


def set_editor(browser, text: str) -> None:
    browser.execute_script("yasgui.getTab().getYasqe().setValue(arguments[0])", text)


def editor_text(browser) -> str:
    return browser.execute_script("return yasgui.getTab().getQuery()")


def test_editor_runs_a_typed_query(browser, server, store):
    expected = store.query(EDITOR_QUERY)
    assert expected.rows  # 賓 does things

    browser.get(server + "/editor")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".yasqe .CodeMirror"), "no editor")
    set_editor(browser, EDITOR_QUERY.replace(" ORDER BY ?event", ""))
    box = browser.find_element(By.CSS_SELECTOR, ".yasqe .CodeMirror textarea")
    box.send_keys(Keys.CONTROL, Keys.END)
    box.send_keys(" ORDER BY ?event")  # typed into the editor (CodeMirror)
    assert editor_text(browser) == EDITOR_QUERY
    rows, status = run_in_editor(browser)
    assert status.startswith(f"{len(expected.rows)} results"), status
    assert len(rows) == min(len(expected.rows), 50)  # the table's first page
    headings = browser.find_elements(By.CSS_SELECTOR, ".yasr table.dataTable thead th")
    assert [h.text for h in headings if h.text] == ["event", "kind"]
    # the events open our own pages, in the order the store gives
    first = rows[0].find_element(By.CSS_SELECTOR, "a[href*='/id/']")
    assert first.get_attribute("href") == (
        server + "/id/" + expected.rows[0]["event"].value[len(ID) :]
    )
    # the address keeps the query: a permalink
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(browser.current_url).query)
    assert query["query"] == [EDITOR_QUERY]
    assert console_errors(browser) == []


def test_editor_runs_a_chosen_example(browser, server, store):
    from yili_kg.service.queries import bindings_for, get_query
    from yili_kg.service.store import bind_values

    query = get_query("bows")  # OPTIONAL values: some cells are empty
    source = bind_values(query.sparql, bindings_for(query, {}, store))
    expected = store.query(source)

    browser.get(server + "/editor")
    browser.find_element(By.CSS_SELECTOR, "a[data-example='bows']").click()
    wait(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, ".yasr table.dataTable tbody tr"),
        "the example did not run",
    )
    assert editor_text(browser) == source
    status = browser.find_element(By.CSS_SELECTOR, ".yasr_response_chip").text
    assert status.startswith(f"{len(expected.rows)} results"), status
    recipients = browser.execute_script(
        "return yasgui.getTab().getYasr().results.getBindings()"
        ".map(b => b.recipient ? b.recipient.value : '')"
    )
    assert sorted(recipients) == sorted(
        row["recipient"].value if "recipient" in row else "" for row in expected.rows
    )
    assert console_errors(browser) == []


def test_editor_opens_a_permalink(browser, server, store):
    text = "PREFIX yl: <https://w3id.org/yili/ontology#>\nASK { ?e yl:agent ?who }"
    browser.get(server + "/editor?query=" + urllib.parse.quote(text))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".yasqe .CodeMirror"), "no editor")
    assert editor_text(browser) == text
    # each canned query page opens its question in the editor
    browser.get(server + "/queries/bows")
    browser.find_element(By.LINK_TEXT, "Open it in the SPARQL editor").click()
    wait(browser, EC.url_contains("/editor?example=bows"), "no link to the editor")
    wait(browser, lambda d: "#+ title: 拜于何人" in editor_text(d), "the example is not shown")
    assert console_errors(browser) == []


def test_editor_shows_a_syntax_error(browser, server):
    browser.get(server + "/editor")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".yasqe .CodeMirror"), "no editor")
    set_editor(browser, "SELECT * WHERE { ?s ?p }")
    rows, status = run_in_editor(browser)
    assert rows == []
    message = [line for line in status.splitlines() if "syntax" in line.lower()]
    assert len(message) == 1 and "1:25" in message[0], status  # one line, with the position
    # nothing but the 400 itself in the console
    assert all("status of 400" in e for e in console_errors(browser))


# ---------------------------------------------------------------- entity pages


def test_entity_page_links_to_other_entities(browser, server, store):
    browser.get(server + "/id/role/zhuren")
    assert browser.find_element(By.TAG_NAME, "h1").text == "主人"
    links = browser.execute_script(  # one round trip for the hundreds of links
        "return Array.from(document.querySelectorAll(\"main a[href*='/id/']\"), a => a.href)"
    )
    targets = sorted({h for h in links if urllib.parse.urlsplit(h).path != "/id/role/zhuren"})
    assert targets, "the page links to no other entity"
    # the acts of 主人 are folded away: unfold them and follow one, as a person would
    performs = browser.find_element(
        By.XPATH, "//table[contains(@class,'facts')]//tr[th[contains(., 'yl:performs')]]"
    )
    performs.find_element(By.TAG_NAME, "summary").click()
    act = performs.find_element(By.CSS_SELECTOR, "a[href*='/id/']")
    wait(browser, EC.visibility_of(act), "unfolding did not show the acts")
    target = act.get_attribute("href")
    act.click()
    wait(browser, EC.url_to_be(target), "the link was not followed")
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert heading and not heading.startswith("404")
    back = [
        a
        for a in browser.find_elements(By.CSS_SELECTOR, "table.facts a[href$='/id/role/zhuren']")
        if a.is_displayed()
    ]
    assert back and "主人" in back[0].find_element(By.XPATH, "..").text, "no way back to 主人"
    # and a few more of the linked entities resolve to pages
    for href in targets[:: max(1, len(targets) // 4)][:4]:
        browser.get(href)
        assert not browser.find_element(By.TAG_NAME, "h1").text.startswith("404"), href
    assert console_errors(browser) == []


def test_unknown_pages_say_so(browser, server):
    browser.get(server + "/id/role/no-such-role")
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("404")
    assert "no-such-role" in browser.find_element(By.CSS_SELECTOR, "p.error").text
    browser.get(server + "/no/such/page")
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("404")
    browser.find_element(By.LINK_TEXT, "the home page").click()
    wait(browser, EC.url_to_be(server + "/"), "the 404 page's link did not lead home")


def test_navigation_reaches_every_section(browser, server):
    browser.get(server + "/")
    expected = {
        "/queries": "問",
        "/editor": "SPARQL",
        "/pictures": "圖",
        "/downloads": "下載",
    }
    for path, heading in expected.items():
        browser.find_element(By.CSS_SELECTOR, f"header nav a[href='{path}']").click()
        wait(browser, EC.url_to_be(server + path), f"the menu did not lead to {path}")
        assert browser.find_element(By.TAG_NAME, "h1").text.startswith(heading)
    browser.find_element(By.CSS_SELECTOR, "header a.brand").click()
    wait(browser, EC.url_to_be(server + "/"), "the brand did not lead home")
    assert console_errors(browser) == []


# ---------------------------------------------------------------- pictures


def roles_in_phase(store, index: int) -> set[str]:
    from rdflib import URIRef

    from yili_kg.service.queries import service_query

    iri = URIRef(f"{ID}xiangshe/phase/{index:02d}")
    return {r["role"].value for r in store.query(service_query("plan-phase"), {"phase": iri}).rows}


def test_pictures_plan_follows_the_chosen_phase(browser, server, store):
    browser.get(server + "/pictures")
    network = browser.find_element(By.CSS_SELECTOR, "#network svg")
    assert network.find_elements(By.CSS_SELECTOR, "g.node")
    assert network.find_elements(By.CSS_SELECTOR, "line.edge")
    chooser = Select(browser.find_element(By.ID, "phase"))
    current = int(chooser.first_selected_option.get_attribute("value"))
    before = {t.text for t in browser.find_elements(By.CSS_SELECTOR, "#plan g.legend text")}
    assert before == roles_in_phase(store, current)
    # a phase whose roles differ from the one shown
    options = [int(o.get_attribute("value")) for o in chooser.options]
    other = next(i for i in options if roles_in_phase(store, i) - before)
    old_plan = browser.find_element(By.CSS_SELECTOR, "#plan svg")
    chooser.select_by_value(str(other))  # choosing submits the form
    wait(browser, EC.staleness_of(old_plan), "choosing a phase did not redraw the plan")
    assert f"phase={other}" in browser.current_url
    chosen = Select(browser.find_element(By.ID, "phase")).first_selected_option
    assert chosen.get_attribute("value") == str(other)
    after = {t.text for t in browser.find_elements(By.CSS_SELECTOR, "#plan g.legend text")}
    assert after == roles_in_phase(store, other)
    assert after != before
    discs = browser.find_elements(By.CSS_SELECTOR, "#plan g.role")
    assert discs and all(d.is_displayed() for d in discs)
    assert console_errors(browser) == []


def test_screenshots_of_the_home_page_a_query_and_both_pictures(browser, server):
    """The pictures a person looks at, saved in build/screenshots/ (checked by eye, not here)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = {
        "home.png": ("/", "ul.counts"),
        "query-bows.png": ("/queries/bows?role=" + urllib.parse.quote("賓"), "table.results"),
    }
    for name, (path, shown) in shots.items():
        browser.get(server + path)
        wait(browser, EC.visibility_of_element_located((By.CSS_SELECTOR, shown)), path)
        browser.save_screenshot(str(SCREENSHOTS / name))
    browser.get(server + "/pictures")
    for name, selector in (("network.png", "#network svg"), ("plan.png", "#plan svg")):
        picture = wait(
            browser, EC.visibility_of_element_located((By.CSS_SELECTOR, selector)), selector
        )
        assert picture.size["width"] > 300 and picture.size["height"] > 300, picture.size
        browser.execute_script("arguments[0].scrollIntoView()", picture)
        picture.screenshot(str(SCREENSHOTS / name))
    for name in (*shots, "network.png", "plan.png"):
        # a picture, not a blank (a one-colour PNG compresses to little; the mini
        # dataset's network of roles, fewer than the book's, is 7.7 KB)
        assert (SCREENSHOTS / name).stat().st_size > 5_000, name
    assert console_errors(browser) == []


# ---------------------------------------------------------------- reading, search, step-through


def shoot(browser, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / name))


def test_a_scholar_reads_xianbin_and_jumps_to_the_parallel_rite(browser, server):
    browser.get(server + "/")
    browser.find_element(By.LINK_TEXT, "讀 Read").click()
    browser.find_element(By.CSS_SELECTOR, "a[href='/read/xiangshe']").click()
    browser.find_element(By.LINK_TEXT, "獻賓").click()
    wait(browser, EC.url_contains("/read/xiangshe/6"), "獻賓 did not open")
    first = browser.find_element(By.CSS_SELECTOR, "section.clause")
    assert first.find_element(By.CSS_SELECTOR, "p.text").text.endswith("主人坐取爵于上篚")
    assert "主人 → 取 → " not in first.text and "主人 → 取" in first.text  # no recipient
    shu = browser.find_element(By.CSS_SELECTOR, "details.note.疏")
    assert not shu.get_attribute("open")
    shu.find_element(By.TAG_NAME, "summary").click()  # unfold the 疏 on demand
    assert shu.get_attribute("open") and shu.find_element(By.CSS_SELECTOR, "p").is_displayed()
    shoot(browser, "read-xianbin.png")
    # the parallel step of 鄉飲酒禮, clause to clause
    link = first.find_element(By.CSS_SELECTOR, ".parallel a")
    assert link.text.startswith("鄉飲酒禮")
    target = link.get_attribute("href").split("#")[1]
    link.click()
    wait(browser, EC.url_contains("/read/xiangyinjiu/"), "the parallel link did not lead there")
    landed = browser.find_element(By.ID, target)
    assert "主人坐取爵" in landed.text
    assert browser.execute_script("return document.querySelector(':target').id") == target
    assert console_errors(browser) == []


@pytest.mark.parametrize("q", ["献宾", "xianbin", "offer"])
def test_search_lands_on_the_same_clause(browser, server, q):
    browser.get(server + "/read/xiangshe/6")
    box = browser.find_element(By.CSS_SELECTOR, "header input[name=q]")
    box.send_keys(q, Keys.ENTER)
    wait(browser, EC.url_contains("/search?q="), "the search box did not search")
    hit = browser.find_element(
        By.XPATH,
        "//section[h2[starts-with(., '鄉射禮')]]//a[contains(@href, '/read/xiangshe/6#')]"
        "[.//mark or following-sibling::span//mark]",
    )
    shoot(browser, f"search-{q}.png")
    anchor = hit.get_attribute("href").split("#")[1]
    hit.click()
    wait(browser, EC.url_contains("/read/xiangshe/6#"), "the hit did not open the reading")
    clause = browser.find_element(By.ID, anchor)
    assert "獻賓" in clause.find_element(By.CSS_SELECTOR, "p.text").text
    assert console_errors(browser) == []


def test_the_step_through_steps_and_plays(browser, server):
    browser.get(server + "/pictures?rite=xiangshe&phase=6")
    browser.find_element(By.PARTIAL_LINK_TEXT, "step through this phase").click()
    wait(browser, EC.url_contains("/pictures/steps/xiangshe/6"), "no step-through")
    counter = browser.find_element(By.ID, "counter")
    total = int(counter.text.split("/")[1])
    assert counter.text.startswith("1 /") and total > 50
    first = browser.find_element(By.ID, "caption").text
    browser.find_element(By.ID, "forward").click()
    assert counter.text.startswith("2 /")
    assert browser.find_element(By.ID, "caption").text != first
    # the acting role is ringed and stands on the plan (not waiting at the side)
    for _ in range(10):
        browser.find_element(By.ID, "forward").click()
    acting = browser.find_elements(By.CSS_SELECTOR, "#stage g.actor.acting")
    assert acting
    browser.find_element(By.ID, "play").click()
    wait(browser, lambda d: int(d.find_element(By.ID, "counter").text.split(" /")[0]) > 12, "play")
    browser.find_element(By.ID, "play").click()  # pause
    paused = counter.text
    import time

    time.sleep(1.5)
    assert counter.text == paused
    shoot(browser, "steps-xianbin.png")
    # each step links to its clause in the reading view
    link = browser.find_element(By.CSS_SELECTOR, "#caption a")
    href = link.get_attribute("href")
    assert "/read/xiangshe/6#" in href
    link.click()
    wait(browser, EC.url_contains("/read/xiangshe/6#"), "the step's link did not open it")
    assert browser.find_element(By.ID, href.split("#")[1]).is_displayed()
    assert console_errors(browser) == []
