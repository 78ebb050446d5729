import Foundation
import HTTPTypes
import Hummingbird
import LarderCloudKit

/// `/_emulator/ui/…`: the browser dashboard (see docs/emulator.md, "Dashboard").
///
/// It sits inside the control plane, so ``RequestGuard`` applies first (loopback `Host` and
/// `Origin`, the admin token off loopback). Every state-changing action is a form POST that must
/// carry ``csrfToken``, a secret made per run and only ever written into the dashboard's own pages.
struct DashboardController: Sendable {
    let services: EmulatorServices
    let csrfToken: String

    func register(on router: Router<EmulatorRequestContext>) {
        let group = router.group("_emulator/ui")
        let root = DashboardPage.root
        router.get("_emulator/ui") { _, _ in try await self.zonesPage() }
        group.get("assets/dashboard.css") { _, _ in
            DashboardPage.make(DashboardAssets.stylesheet, contentType: "text/css; charset=utf-8")
        }
        group.get("assets/dashboard.js") { _, _ in
            DashboardPage.make(DashboardAssets.script, contentType: "text/javascript; charset=utf-8")
        }
        group.get("zone") { request, _ in try await self.recordsPage(DashboardForm.query(request)) }
        group.get("record") { request, _ in try await self.recordPage(DashboardForm.query(request)) }
        group.get("changes") { request, _ in try await self.changesPage(DashboardForm.query(request)) }
        group.get("export") { request, _ in
            try await DashboardExport(services: self.services).response(DashboardForm.query(request))
        }
        group.get("requests") { _, _ in DashboardPage.render(title: "Requests", body: DashboardRequestsPage.render()) }
        group.get("faults") { _, _ in
            DashboardPage.render(
                title: "Fault rules",
                body: DashboardFaultsPage.render(rules: self.services.faults.all, csrf: self.csrfToken))
        }
        group.get("admin") { request, _ in
            let notice = DashboardForm.query(request)["done"].map { "Done: \($0)." }
            return DashboardPage.render(
                title: "Users & data",
                body: DashboardAdminPage.render(
                    configuration: self.services.configuration, csrf: self.csrfToken, notice: notice))
        }
        group.post("faults/add") { request, _ in
            let form = try await self.checkedForm(request)
            do {
                _ = try self.services.faults.add(try DashboardFaultsPage.rule(from: form))
            } catch let error as CloudKitServerError {
                return DashboardPage.failure(title: "Fault rules", message: "Not added: \(error.reason)")
            }
            return DashboardPage.redirect(root + "/faults")
        }
        group.post("faults/remove") { request, _ in
            let form = try await self.checkedForm(request)
            if let id = form["id"], !id.isEmpty { self.services.faults.remove(id: id) }
            return DashboardPage.redirect(root + "/faults")
        }
        group.post("reset") { request, _ in
            let form = try await self.checkedForm(request)
            guard form["confirm"]?.trimmingCharacters(in: .whitespaces).lowercased() == "reset" else {
                return DashboardPage.failure(title: "Reset", message: "Not reset: type reset in the box to confirm.")
            }
            try await self.services.resetState()
            return DashboardPage.redirect(root + "/admin?done=reset")
        }
        registerEditing(on: group)
        DashboardLogin(adminToken: services.configuration.adminToken ?? "").register(on: group)
    }
}
