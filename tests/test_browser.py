"""The site as a person sees it: a real headless Chromium driving the real server.

Selenium drives Debian's Chromium through its chromedriver; the app runs behind waitress on a
free loopback port. Every answer the pages are expected to show is worked out independently
on the embedded store (the ``store`` fixture), never written down here. A screenshot of the
last page of each test is saved in ``build/screenshots/`` (not committed) for a person to look at.

Needs ``chromium`` and ``chromedriver`` (Debian: ``apt-get install chromium chromium-driver
fonts-noto-cjk``); without them the tests are skipped.
"""

from __future__ import annotations

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

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="headless Chromium is not installed (Debian: apt-get install chromium "
    "chromium-driver fonts-noto-cjk); .ci/run installs it",
)


@pytest.fixture(scope="module")
def server(build_dir, serve_app):
    """The app behind a real waitress server on a free loopback port; its base URL."""
    config = {"BUILD_DIR": str(build_dir), "QUERY_TIMEOUT": 10.0, "WORKERS": 2}
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
    """Press Run; the rows of the table that appears and the status line."""
    browser.find_element(By.ID, "run").click()
    wait(
        browser,
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#results table.results")
            or "error" in (d.find_element(By.ID, "status").get_attribute("class") or "")
        ),
        "no results table appeared",
    )
    status = browser.find_element(By.ID, "status").text
    rows = browser.find_elements(By.CSS_SELECTOR, "#results table.results tbody tr")
    return rows, status


def test_editor_runs_a_typed_query(browser, server, store):
    expected = store.query(EDITOR_QUERY)
    assert expected.rows  # 賓 does things

    browser.get(server + "/editor")
    box = browser.find_element(By.ID, "query")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    box.send_keys(EDITOR_QUERY)
    assert browser.find_element(By.ID, "query").get_attribute("value") == EDITOR_QUERY
    rows, status = run_in_editor(browser)
    assert len(rows) == len(expected.rows), status
    assert status.startswith(f"{len(expected.rows)} rows")
    headings = browser.find_elements(By.CSS_SELECTOR, "#results thead th")
    assert [h.text for h in headings] == ["event", "kind"]
    # the events link to their own pages, in the order the store gives
    first = rows[0].find_element(By.TAG_NAME, "a")
    assert first.get_attribute("href").endswith("/id/" + expected.rows[0]["event"].value[len(ID) :])
    # the download links follow the text in the box
    csv = browser.find_element(By.ID, "csv").get_attribute("href")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(csv).query)["query"] == [EDITOR_QUERY]
    assert console_errors(browser) == []


def test_editor_runs_a_chosen_example(browser, server, store):
    from yili_kg.service.queries import bindings_for, get_query
    from yili_kg.service.store import bind_values

    query = get_query("bows")  # OPTIONAL values: some cells are empty
    source = bind_values(query.sparql, bindings_for(query, {}, store))
    expected = store.query(source)

    browser.get(server + "/editor")
    Select(browser.find_element(By.ID, "examples")).select_by_value("bows")
    assert browser.find_element(By.ID, "query").get_attribute("value") == source
    browser.find_element(By.ID, "query").send_keys(Keys.CONTROL, Keys.ENTER)  # Ctrl+Enter runs
    wait(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#results table.results"),
        "Ctrl+Enter did not run the query",
    )
    rows = browser.find_elements(By.CSS_SELECTOR, "#results table.results tbody tr")
    assert len(rows) == len(expected.rows)
    table = browser.find_element(By.CSS_SELECTOR, "#results table.results")
    assert sorted(column(table, "recipient")) == sorted(
        row["recipient"].value if "recipient" in row else "" for row in expected.rows
    )
    assert console_errors(browser) == []


def test_editor_shows_a_syntax_error(browser, server):
    browser.get(server + "/editor")
    box = browser.find_element(By.ID, "query")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    box.send_keys("SELECT * WHERE { ?s ?p }")
    rows, status = run_in_editor(browser)
    assert rows == []
    assert status.startswith("400") and "syntax" in status.lower()
    assert browser.find_element(By.ID, "run").is_enabled()  # ready for the next try


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
        assert (SCREENSHOTS / name).stat().st_size > 10_000, name  # a picture, not a blank
    assert console_errors(browser) == []
