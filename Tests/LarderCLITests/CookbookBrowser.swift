import Foundation
import LarderTestSupport

/// Debian's headless Chromium, driven from the cookbook tests: directly for screenshots and
/// PDFs, and through chromedriver and python3-selenium (`make browser-deps`) for the rendered text.
enum CookbookBrowser {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"
    static let python = "/usr/bin/python3"

    /// Whether Chromium, chromedriver and Python's selenium are all installed.
    static let isAvailable: Bool = {
        let files = FileManager.default
        guard [chromium, chromedriver, python].allSatisfy(files.isExecutableFile(atPath:)) else { return false }
        return (try? run(python, ["-c", "import selenium"], timeout: 60).status) == 0
    }()

    /// Runs `executable`; ends it when it outlives `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval) throws -> CLIResult {
        try CLI.runProgram(executable, arguments, timeout: timeout)
    }

    /// Headless Chromium's own flags, with a fresh profile in `profile` (helpers may run browsers side by side).
    static func headless(profile: String) -> [String] {
        ["--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage", "--user-data-dir=\(profile)"]
    }

    /// The selenium script: loads a recipe page and the index, prints what they show as JSON.
    static let seleniumScript = #"""
        import json, sys
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service

        page, index, profile = sys.argv[1:4]
        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--user-data-dir=" + profile]:
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.set_page_load_timeout(60)
            driver.get(page)
            shown = driver.execute_script("""
              const img = document.querySelector('article img');
              const texts = (selector) => [...document.querySelectorAll(selector)].map(e => e.innerText.trim());
              return {
                title: document.querySelector('h1').innerText,
                ingredients: texts('.ingredients li'),
                steps: texts('.steps li'),
                image: img ? {complete: img.complete, naturalWidth: img.naturalWidth, src: img.src} : null,
                text: document.body.innerText
              };""")
            driver.get(index)
            shown["index"] = driver.execute_script(
                "return [...document.querySelectorAll('.index li a')].map(a => a.innerText)")
            print(json.dumps(shown))
        finally:
            driver.quit()
        """#
}
