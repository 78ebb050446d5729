#!/usr/bin/python3
"""Real-browser tests of the emulator dashboard (issue 16), run by LarderCLITests/DashboardBrowserTests.

Loads sample data into a running `larder serve` through records/modify (samples/recipes.json as
`Recipe`, 10,000 generated `Batch` records, one record whose title is a <script>), then drives
headless Chromium with selenium: the hub (records by type, live request rate), zone -> record ->
history, filter, paging through the 10k records, the title column with no word broken mid-word,
JSON-in-STRING folds and readable times, an uploaded photo previewed, a field edited and a record
deleted from the page, a zone exported as Larder JSON (the hub's link, fetched by the page), a fault rule seen failing the next request in the live log, CSRF refusal,
stored markup shown as text, reset with confirmation. Prints `PASS name` / `FAIL name: why` per check, writes a screenshot
of each view to --out, and exits 1 when any check failed.

Usage: dashboard_test.py --base URL --container C --api-token T --web-auth-token W --owner _user --admin-token A
                         --samples samples/recipes.json --out DIR
"""
import argparse
import json
import os
import struct
import sys
import time
import zlib
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import (NoAlertPresentException, StaleElementReferenceException, TimeoutException,
                                        WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

BATCH_COUNT = 10_000
SCRIPT_TITLE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
COOKED_AT = 1609951945000
results = []


def check(name, condition, why=""):
    results.append((name, bool(condition), why))
    print(("PASS " if condition else "FAIL ") + name + ("" if condition else ": " + why), flush=True)
    return condition


class Emulator:
    def __init__(self, args):
        self.base = args.base.rstrip("/")
        query = urllib.parse.urlencode({"ckAPIToken": args.api_token, "ckWebAuthToken": args.web_auth_token})
        self.database = "%s/database/1/%s/development/private/" % (self.base, args.container)
        self.query = "?" + query

    def call(self, operation, body):
        request = urllib.request.Request(
            self.database + operation + self.query, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def modify(self, records):
        for start in range(0, len(records), 200):
            operations = [{"operationType": "forceReplace", "record": r} for r in records[start:start + 200]]
            status, answer = self.call("records/modify", {"operations": operations})
            if status != 200:
                raise RuntimeError("records/modify answered %d: %s" % (status, answer))


def sample_records(path):
    records = []
    for index, recipe in enumerate(json.load(open(path)).get("records", [])):
        fields = {"title": {"value": recipe.get("title", "untitled")}}
        for key in ("difficulty", "description", "language"):
            if isinstance(recipe.get(key), str):
                fields[key] = {"value": recipe[key]}
        for key in ("servings", "prepTime", "cookTime"):
            if isinstance(recipe.get(key), int):
                fields[key] = {"value": recipe[key]}
        if recipe.get("cuisines"):
            fields["cuisines"] = {"value": [str(c) for c in recipe["cuisines"]]}
        if recipe.get("ingredients"):
            # As an app stores a nested list: JSON text in a STRING field.
            fields["ingredients"] = {"value": json.dumps(recipe["ingredients"])}
        fields["cookedAt"] = {"value": COOKED_AT + index * 60_000, "type": "TIMESTAMP"}
        records.append({"recordName": recipe.get("id", "recipe-%d" % index), "recordType": "Recipe", "fields": fields})
    return records


def load(emulator, samples):
    started = time.time()
    recipes = sample_records(samples)
    emulator.modify(recipes)
    batch = [{"recordName": "batch-%05d" % i, "recordType": "Batch",
              "fields": {"title": {"value": "Batch item %05d" % i}, "rank": {"value": i}}} for i in range(BATCH_COUNT)]
    emulator.modify(batch)
    emulator.modify([{"recordName": "xss", "recordType": "Recipe", "fields": {"title": {"value": SCRIPT_TITLE}}}])
    # An update and a delete, so the change feed shows all three kinds.
    emulator.modify([{"recordName": "batch-00001", "recordType": "Batch",
                      "fields": {"title": {"value": "Batch item 1, edited"}, "rank": {"value": 1}}}])
    status, _ = emulator.call("records/modify", {"operations": [
        {"operationType": "forceDelete", "record": {"recordName": "batch-00002"}}]})
    print("loaded %d sample recipes and %d batch records in %.1f s (delete: %d)"
          % (len(recipes), BATCH_COUNT, time.time() - started, status), flush=True)
    return len(recipes)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Session:
    def __init__(self, driver, base, out):
        self.driver, self.base, self.out = driver, base, out

    def open(self, path):
        self.driver.get(self.base + path)

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(self.out, name + ".png"))

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def finds(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def follow(self, element):
        """Clicks a link or submit button and waits until the next page replaced this one."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        element.click()
        WebDriverWait(self.driver, 30).until(expected_conditions.staleness_of(page))

    def record_names(self):
        """The record names on a records page, in one round trip (one per link would take minutes)."""
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#records tbody tr td:first-child a'), a => a.textContent)")

    def no_alert(self):
        try:
            self.driver.switch_to.alert
            return False
        except NoAlertPresentException:
            return True


def navigate(session, owner, recipes):
    session.open("/_emulator/ui/")
    counts = session.driver.execute_script(
        "return Array.from(document.querySelectorAll('table[id^=zones] td a'), a => a.textContent)")
    check("the hub counts the zone's records by type", "Batch %d" % (BATCH_COUNT - 1) in counts
          and "Recipe %d" % (recipes + 1) in counts, str(counts))
    check("the hub lists the latest changes", "batch-" in session.find("#latest-changes").text,
          session.find("#latest-changes").text[:200])
    try:
        WebDriverWait(session.driver, 10, poll_frequency=0.2).until(
            lambda driver: driver.find_element(By.ID, "request-rate").get_attribute("data-updated"))
        check("the hub's request rate is live", "requests in the last minute" in session.find("#request-rate").text,
              session.find("#request-rate").text)
    except TimeoutException:
        check("the hub's request rate is live", False, session.find("#request-rate").text)
    session.shot("01-hub")
    xpath = ("//h2[contains(., '/ development')]/following-sibling::table[1]//tr[contains(td[2], '%s')]"
             "//a[starts-with(@id, 'zone-')]" % owner)
    links = session.driver.find_elements(By.XPATH, xpath)
    if not check("zones page lists the owner's private zone", links, "no zone link for %s" % owner):
        return None
    session.follow(links[0])
    zone_url = session.driver.current_url
    check("zone page lists records by name", "batch-00000" in session.record_names(), str(session.record_names()[:5]))
    titles = session.driver.execute_script(
        "return Array.from(document.querySelectorAll('#records .display'), span => span.textContent)")
    check("the records list shows each record's title", "Batch item 00000" in titles, str(titles[:5]))
    session.shot("02-records")
    session.follow(session.driver.find_element(By.LINK_TEXT, "batch-00001"))
    properties = session.find("#record-properties").text
    check("record page shows the change tag and stamps", "Change tag" in properties and "Modified" in properties,
          properties)
    hover = session.driver.execute_script(
        "const t = document.querySelector('#record-properties time'); return t && [t.textContent, t.title]")
    check("times read as ISO-8601 with the epoch milliseconds on hover",
          hover and hover[0].startswith("20") and "ms since 1970" in hover[1], str(hover))
    check("users are shown by name", "Alice" in properties, properties)
    check("record page shows fields with their CloudKit types",
          "INT64" in session.find("#record-fields").text and "edited" in session.find("#record-fields").text,
          session.find("#record-fields").text)
    check("record history shows the update", "update" in session.find("#record-history").text,
          session.find("#record-history").text)
    session.shot("03-record")
    session.follow(session.find("#feed-link"))
    check("the feed link shows the record's change",
          "batch-00001" in session.find("#changes").text.split("\n")[1], session.find("#changes").text[:200])
    session.driver.get(zone_url.replace("/zone?", "/changes?"))
    feed = session.find("#changes").text
    check("change feed timeline shows create, update and delete",
          all(kind in feed for kind in ("create", "update", "delete")), feed[:300])
    session.shot("04-changes")
    return zone_url


def filter_and_page(session, zone_url):
    session.driver.get(zone_url)
    Select(session.find("#type")).select_by_value("Batch")
    session.follow(session.find("#apply"))
    Select(session.find("#field")).select_by_value("rank")
    Select(session.find("#cmp")).select_by_value("LESS_THAN")
    session.find("#value").send_keys("3")
    Select(session.find("#sort")).select_by_value("rank")
    session.follow(session.find("#apply"))
    names = session.record_names()
    check("filter rank LESS_THAN 3 finds batch-00000 and batch-00001 (00002 is deleted)",
          names == ["batch-00000", "batch-00001"], str(names))
    session.shot("05-filtered")
    Select(session.find("#field")).select_by_value("")
    session.find("#value").clear()
    Select(session.find("#size")).select_by_value("200")
    session.follow(session.find("#apply"))
    started, seen, pages = time.time(), [], 0
    while True:
        seen += session.record_names()
        pages += 1
        nexts = session.finds("#next-page")
        if not nexts or pages > 400:
            break
        session.follow(nexts[0])
    elapsed = time.time() - started
    expected = BATCH_COUNT - 1
    check("paging through the Batch records sees each of the %d once (%d pages, %.1f s)" % (expected, pages, elapsed),
          len(seen) == expected and len(set(seen)) == expected, "saw %d, %d distinct" % (len(seen), len(set(seen))))
    check("the last page says so", session.finds("#last-page"), "no last-page marker")


def fault_in_live_log(session, emulator):
    session.open("/_emulator/ui/faults")
    Select(session.find("#operation")).select_by_value("records/lookup")
    Select(session.find("#error")).select_by_value("THROTTLED")
    session.find("#remaining").send_keys("1")
    session.follow(session.find("#add-fault-button"))
    rules = session.find("#faults").text
    check("the fault rule is listed", "records/lookup" in rules and "THROTTLED" in rules, rules)
    session.shot("06-faults")
    session.open("/_emulator/ui/requests")
    status, answer = emulator.call("records/lookup", {"records": [{"recordName": "batch-00000"}]})
    check("the next records/lookup fails with THROTTLED", status == 429 and answer.get("serverErrorCode") == "THROTTLED",
          "%d %s" % (status, answer))

    def failed_row(driver):
        for row in driver.find_elements(By.CSS_SELECTOR, "#live-log tbody tr.failed"):
            if "THROTTLED" in row.text and "records/lookup" in row.text and "fault-" in row.text:
                return row
        return False
    try:
        row = WebDriverWait(session.driver, 10, poll_frequency=0.2).until(failed_row)
        row.click()
        detail = session.find("#request-detail").text
        check("the live log shows the failed request with its fault rule", "faultRule" in detail, detail)
        check("a click shows the request body and the answer",
              "batch-00000" in detail.split("Answer:")[0] and "THROTTLED" in detail.split("Answer:")[-1], detail)
    except TimeoutException:
        check("the live log shows the failed request with its fault rule", False,
              session.find("#live-log").text[:500])
    session.shot("07-requests")


def stored_markup_is_text(session, zone_url):
    session.driver.get(zone_url.split("&")[0].replace("/zone?", "/record?") + "&name=xss")
    cell = session.driver.find_element(By.XPATH, "//table[@id='record-fields']//tr[td[1]='title']/td[3]")
    check("a stored <script> title is shown as text", cell.text == SCRIPT_TITLE, repr(cell.text))
    injected = session.driver.execute_script(
        "return [document.querySelectorAll('#record-fields script, #record-fields img').length, window.pwned]")
    check("the stored markup made no element and ran nothing", injected == [0, None] and session.no_alert(),
          str(injected))
    session.shot("08-xss-as-text")


def admin_needs_sign_in(session, admin_token):
    # Signed out first: a browser race after the sign-in of an interrupted try (see step) would
    # otherwise leave this try signed in already.
    session.driver.delete_all_cookies()
    session.open("/_emulator/ui/admin")
    check("the admin page (every token) sends an unsigned browser to the sign-in form, even on loopback",
          session.driver.current_url.endswith("/_emulator/ui/login") and not session.finds("#reset-form"),
          session.driver.current_url)
    session.find("#token").send_keys(admin_token)
    session.follow(session.find("#login-button"))
    session.open("/_emulator/ui/admin")
    check("signed in with the admin token, the admin page opens", bool(session.finds("#reset-form")),
          session.driver.page_source[:300])


def csrf_refused(session):
    session.open("/_emulator/ui/admin")
    status = session.driver.execute_script("""
        return fetch('/_emulator/ui/reset', {method: 'POST',
            headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'confirm=reset'})
          .then(r => r.status);""")
    check("a dashboard POST without the CSRF token is refused (403)", status == 403, str(status))


def reset_with_confirmation(session, emulator):
    session.open("/_emulator/ui/admin")
    session.shot("09-admin")
    session.find("#reset-confirm").send_keys("yes")
    session.follow(session.find("#reset-button"))
    check("reset without typing 'reset' is refused", session.finds("#page-error"), session.driver.page_source[:300])
    status, answer = emulator.call("records/lookup", {"records": [{"recordName": "batch-00000"}]})
    check("the data is still there after the refused reset", status == 200 and "fields" in json.dumps(answer),
          str(answer)[:200])
    session.open("/_emulator/ui/admin")
    session.find("#reset-confirm").send_keys("reset")
    session.follow(session.find("#reset-button"))
    notice = session.finds("#notice")
    check("reset with confirmation reports done", notice and "reset" in notice[0].text, session.driver.current_url)
    status, answer = emulator.call("records/lookup", {"records": [{"recordName": "batch-00000"}]})
    check("after the reset the records are gone", status == 200 and "NOT_FOUND" in json.dumps(answer),
          str(answer)[:200])
    session.shot("10-after-reset")


BROKEN_WORDS = """
    const broken = [];
    for (const cell of document.querySelectorAll(arguments[0])) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        // Tokens in <code> may break; a closed fold's content is not shown.
        if (parent.closest('code') || (parent.closest('details:not([open])') && !parent.closest('summary'))) {
          continue;
        }
        for (const match of node.textContent.matchAll(/\\S+/g)) {
          if (match[0].length > 24) { continue; }
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top)));
          if (lines.size > 1) { broken.push(match[0]); }
        }
      }
    }
    return broken;"""


def readable_recipes(session, zone_url):
    session.driver.set_window_size(1000, 1000)
    try:
        session.driver.get(zone_url + "&type=Recipe")
        headers = session.find("#records thead").text
        check("a typed list's first column after the name is the type's title field", "title (title)" in headers,
              headers)
        check("the list's default columns are filled ones, not the first fields by name",
              "cookedAt" in headers and "categories" not in headers, headers)
        broken = session.driver.execute_script(BROKEN_WORDS, "#records td")
        check("no word in the records list is broken mid-word", not broken, str(broken[:10]))
        session.shot("11-recipes")
        session.follow(session.finds("#records tbody tr td:first-child a")[0])
        fold = session.finds("#record-fields details.json")
        check("JSON in a STRING field is pretty-printed in a fold", fold and "\n  " in fold[0].find_element(
            By.TAG_NAME, "pre").get_attribute("textContent"), session.find("#record-fields").text[:300])
        cooked = session.driver.execute_script(
            "return Array.from(document.querySelectorAll('#record-fields time'), t => [t.textContent, t.title])")
        check("a TIMESTAMP field reads as a time, milliseconds on hover",
              cooked and cooked[0][0].startswith("2021-01-06T") and str(COOKED_AT)[:6] in cooked[0][1], str(cooked))
        broken = session.driver.execute_script(BROKEN_WORDS, "#record-fields td")
        check("no word on the record page is broken mid-word", not broken, str(broken[:10]))
        session.shot("12-recipe")
    finally:
        session.driver.set_window_size(1400, 1000)


def png(width=96, height=64):
    rows = b"".join(b"\x00" + b"".join(bytes([(x * 2) % 256, 140, (y * 3) % 256]) for x in range(width))
                    for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def photo_preview(session, emulator, zone_url):
    status, answer = emulator.call("assets/upload", {"tokens": [
        {"recordName": "photo-recipe", "recordType": "Recipe", "fieldName": "photo"}]})
    upload = urllib.request.Request(answer["tokens"][0]["url"], data=png(), method="POST",
                                    headers={"Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(upload, timeout=30) as reply:
        receipt = json.load(reply)["singleFile"]
    emulator.modify([{"recordName": "photo-recipe", "recordType": "Recipe", "fields": {
        "title": {"value": "Focaccia, with a photo"}, "photo": {"value": receipt, "type": "ASSETID"}}}])
    session.driver.get(zone_url.split("&")[0].replace("/zone?", "/record?") + "&name=photo-recipe")
    try:
        WebDriverWait(session.driver, 10, poll_frequency=0.2).until(lambda driver: driver.execute_script(
            "const i = document.querySelector('img.asset'); return i && i.complete && i.naturalWidth > 0"))
        source = session.find("img.asset").get_attribute("src")
        check("an uploaded photo is previewed from the emulator's own download URL",
              source.startswith(session.base + "/_assets/download/"), source)
    except TimeoutException:
        check("an uploaded photo is previewed from the emulator's own download URL", False,
              session.find("#record-fields").text[:300])
    session.shot("13-photo")


def edit_and_delete(session, emulator, zone_url):
    session.driver.get(zone_url.split("&")[0].replace("/zone?", "/record?") + "&name=batch-00003")
    form = session.find("#edit-title")
    form.find_element(By.XPATH, "..").find_element(By.TAG_NAME, "summary").click()
    area = form.find_element(By.NAME, "value")
    area.clear()
    area.send_keys("Edited in the browser")
    session.shot("14-edit")
    session.follow(form.find_element(By.TAG_NAME, "button"))
    check("an edited field is saved and the page says so",
          session.finds("#notice") and "Edited in the browser" in session.find("#record-fields").text,
          session.driver.page_source[:300])
    status, answer = emulator.call("records/lookup", {"records": [{"recordName": "batch-00003"}]})
    check("the edit went through records/modify (a client sees it)", "Edited in the browser" in json.dumps(answer),
          str(answer)[:300])
    session.find("#delete-confirm").click()
    session.follow(session.find("#delete-button"))
    check("a deleted record shows as a tombstone", "yes (tombstone)" in session.find("#record-properties").text,
          session.find("#record-properties").text)
    status, answer = emulator.call("records/lookup", {"records": [{"recordName": "batch-00003"}]})
    check("the delete went through records/modify (a client sees NOT_FOUND)", "NOT_FOUND" in json.dumps(answer),
          str(answer)[:300])
    session.shot("15-deleted")


def export_as_larder_json(session, emulator):
    # Two records of Larder's own type `recipe`, as `larder upload` maps them (strings stay STRING).
    emulator.modify([{"recordName": "recipe-export-%d" % i, "recordType": "recipe",
                      "fields": {"id": {"value": "export-%d" % i}, "title": {"value": "Exported %d" % i}}}
                     for i in (1, 2)])
    session.open("/_emulator/ui/")
    links = session.finds("a.export[id$='-recipe']")
    if not check("the hub links an export per Larder record type", links, "no export link for recipe"):
        return
    href = links[0].get_attribute("href")
    # What the download holds, fetched by the page itself (same origin, the dashboard session).
    answer = session.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(r => r.text().then(t => done([r.status,"
        " r.headers.get('content-disposition'), t]))).catch(e => done([0, '', String(e)]));", href)
    status, disposition, text = answer
    try:
        envelope = json.loads(text)
    except ValueError:
        envelope = {}
    titles = sorted(r.get("title", "") for r in envelope.get("records", []))
    check("Export as Larder JSON downloads the envelope larder reads",
          status == 200 and "attachment" in (disposition or "") and envelope.get("schema") == "recipe"
          and titles == ["Exported 1", "Exported 2"], "%s %s %s" % (status, disposition, text[:200]))


def is_browser_race(error):
    """ChromeDriver losing an element to a document that replaced it while it was used: seen on a
    loaded 2-core machine ("Node with given id does not belong to the document"), never a dashboard
    answer."""
    return isinstance(error, StaleElementReferenceException) or "does not belong to the document" in str(error)


def step(function, *args):
    """Runs one step; a browser race (see is_browser_race) runs it once more, from its own first page
    load, with the checks of the interrupted try dropped. Any other error, or a second race, stands."""
    checked = len(results)
    try:
        return function(*args)
    except WebDriverException as error:
        if not is_browser_race(error):
            raise
        print("NOTE %s met a browser race (%s); running it once more" % (function.__name__, str(error).splitlines()[0]),
              flush=True)
        del results[checked:]
        return function(*args)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--base", "--container", "--api-token", "--web-auth-token", "--owner", "--samples", "--out",
                 "--admin-token"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    emulator = Emulator(args)
    recipes = load(emulator, args.samples)
    driver = browser()
    try:
        driver.set_page_load_timeout(30)
        session = Session(driver, args.base.rstrip("/"), args.out)
        zone_url = step(navigate, session, args.owner, recipes)
        if zone_url:
            step(filter_and_page, session, zone_url)
            step(stored_markup_is_text, session, zone_url)
            step(readable_recipes, session, zone_url)
            step(photo_preview, session, emulator, zone_url)
            step(edit_and_delete, session, emulator, zone_url)
        step(export_as_larder_json, session, emulator)
        step(fault_in_live_log, session, emulator)
        step(admin_needs_sign_in, session, args.admin_token)
        step(csrf_refused, session)
        step(reset_with_confirmation, session, emulator)
    except Exception as error:  # a crash in a step is a failure, reported with its type
        check("the browser run finished", False, "%s: %s" % (type(error).__name__, error))
    finally:
        driver.quit()
    failed = [name for name, ok, _ in results if not ok]
    print("%d checks, %d failed" % (len(results), len(failed)), flush=True)
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
