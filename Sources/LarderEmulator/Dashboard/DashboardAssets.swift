/// The dashboard's stylesheet and script, compiled into the binary as string literals.
///
/// No CDN and no build step; `Bundle.module` resources are not used because a moved binary could
/// not find them. The script only fills the live request log, keeps the hub's request rate
/// current, hides asset previews the browser cannot draw and reads files for import; it writes
/// every value with `textContent`, never `innerHTML`.
///
/// Text wraps between words only (`overflow-wrap: break-word`, not `anywhere`): a cell is as wide
/// as its longest word, and only a word longer than the table is wide (a token, a UUID) is broken.
enum DashboardAssets {
    static let stylesheet = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
        header { background: #1d3557; color: #fff; padding: 8px 16px; display: flex; gap: 16px; align-items: center; }
        header a { color: #fff; text-decoration: none; } header a:hover { text-decoration: underline; }
        header strong { margin-right: 16px; }
        main { padding: 12px 16px; }
        table { border-collapse: collapse; width: 100%; background: #fff; margin: 8px 0; }
        th, td { border: 1px solid #ddd; padding: 4px 6px; text-align: left; vertical-align: top; }
        th { background: #eef1f5; }
        td { max-width: 420px; overflow-wrap: break-word; word-break: normal; hyphens: manual; }
        td code { word-break: break-all; }
        time[title] { text-decoration: underline dotted #999; cursor: help; white-space: nowrap; }
        details.json summary, details.edit summary { cursor: pointer; color: #1d3557; }
        details.json pre { margin: 4px 0; max-height: 480px; overflow: auto; }
        textarea { font: 13px/1.3 ui-monospace, monospace; max-width: 100%; }
        .user { font-weight: 600; }
        p.rate { font-size: 16px; }
        tr.failed td { background: #fde8e8; }
        form.inline { display: inline; }
        fieldset { border: 1px solid #ccc; margin: 8px 0; }
        .error { background: #fde8e8; border: 1px solid #e0a0a0; padding: 6px; }
        .notice { background: #e8f5e8; border: 1px solid #a0d0a0; padding: 6px; }
        .muted { color: #666; }
        pre { background: #f3f3f3; padding: 6px; white-space: pre-wrap; overflow-wrap: break-word; }
        img.asset { display: block; max-width: 240px; max-height: 240px; border: 1px solid #ccc; }
        nav.pager a { margin-right: 12px; }
        """

    static let script = #"""
        "use strict";
        (function () {
          const log = document.getElementById("live-log");
          if (log) { startLiveLog(log); }
          const importForm = document.getElementById("import-form");
          if (importForm) { importForm.addEventListener("submit", importState); }
          const rate = document.getElementById("request-rate");
          if (rate) { startRate(rate); }
          for (const image of document.querySelectorAll("img.asset")) {
            // Not an image the browser can draw (the download endpoint sends anything else as an
            // octet-stream attachment): hide the broken picture, the asset's JSON stays.
            const hide = () => { image.hidden = true; };
            if (image.complete && image.naturalWidth === 0) { hide(); } else { image.addEventListener("error", hide); }
          }

          function startRate(line) {
            const windowMs = 60000;
            async function poll() {
              try {
                const answer = await fetch("/_emulator/requests?limit=1000", { credentials: "same-origin" });
                const entries = (await answer.json()).requests || [];
                const since = Date.now() - windowMs;
                const recent = entries.filter((entry) => entry.timestamp > since);
                const errors = recent.filter((entry) => entry.status >= 400).length;
                line.textContent = recent.length + " requests in the last minute ("
                  + (recent.length / 60).toFixed(1) + "/s), " + errors + " errors";
                line.dataset.updated = String(Date.now());
              } catch (error) {
                line.dataset.error = String(error);
              }
              setTimeout(poll, 2000);
            }
            poll();
          }

          function cell(row, text) {
            const td = document.createElement("td");
            td.textContent = text === undefined || text === null ? "" : String(text);
            row.appendChild(td);
            return td;
          }

          function pretty(text) {
            if (!text) { return "(none)"; }
            try { return JSON.stringify(JSON.parse(text), null, 2); } catch (error) { return text; }
          }

          function describe(entry) {
            const summary = Object.assign({}, entry);
            delete summary.requestBody;
            delete summary.answerBody;
            return JSON.stringify(summary, null, 2) + "\n\nRequest body:\n" + pretty(entry.requestBody)
              + "\n\nAnswer:\n" + pretty(entry.answerBody);
          }

          function startLiveLog(table) {
            const body = table.querySelector("tbody");
            const detail = document.getElementById("request-detail");
            let lastSeen = 0;
            async function poll() {
              try {
                const answer = await fetch("/_emulator/requests?limit=200", { credentials: "same-origin" });
                const json = await answer.json();
                for (const entry of json.requests || []) {
                  if (entry.id <= lastSeen) { continue; }
                  lastSeen = entry.id;
                  const row = document.createElement("tr");
                  row.dataset.id = entry.id;
                  if (entry.status >= 400) { row.className = "failed"; }
                  cell(row, entry.id);
                  cell(row, new Date(entry.timestamp).toISOString());
                  cell(row, entry.method);
                  cell(row, entry.operation || entry.path);
                  cell(row, entry.database);
                  cell(row, [entry.auth, entry.user].filter(Boolean).join(" "));
                  cell(row, entry.status);
                  cell(row, entry.serverErrorCode);
                  cell(row, entry.durationMs.toFixed(1) + " ms");
                  cell(row, entry.faultRule);
                  row.addEventListener("click", () => { detail.textContent = describe(entry); });
                  body.insertBefore(row, body.firstChild);
                }
                while (body.rows.length > 500) { body.deleteRow(body.rows.length - 1); }
                table.dataset.lastSeen = String(lastSeen);
              } catch (error) {
                table.dataset.error = String(error);
              }
              setTimeout(poll, 700);
            }
            poll();
          }

          async function importState(event) {
            event.preventDefault();
            const status = document.getElementById("import-status");
            const file = document.getElementById("import-file").files[0];
            const confirmText = document.getElementById("import-confirm").value;
            if (confirmText !== "import") { status.textContent = "type import to confirm"; return; }
            if (!file) { status.textContent = "choose an exported JSON file"; return; }
            const answer = await fetch("/_emulator/import", {
              method: "POST", credentials: "same-origin",
              headers: { "Content-Type": "application/json" }, body: await file.text()
            });
            status.textContent = answer.ok ? "imported" : "import failed: " + (await answer.text());
          }
        })();
        """#
}
