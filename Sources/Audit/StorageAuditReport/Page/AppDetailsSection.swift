import Plot
import StorageAudit

/// Each app's figures: on disk and apparent, what a backup takes, what a
/// purge frees and an update keeps, its keychain items, cache manifest and
/// stores; then the checks the audit could not make.
struct AppDetailsSection {
    var audit: DeviceStorageAudit

    var node: Node<HTML.BodyContext> {
        let notes = audit.apps.flatMap { app in app.notes.map { "\(app.bundleID): \($0)" } }
        return .div(
            .class("panel"), .id("apps"),
            .h2(.safeText("Per app")),
            .table(
                .thead(.tr(.th(.safeText("App")), .th(.class("num"), .safeText("On disk")), .th(.class("num"), .safeText("Apparent")),
                           .th(.class("num"), .safeText("Backup")), .th(.class("num"), .safeText("Purge frees")),
                           .th(.class("num"), .safeText("Update keeps")), .th(.class("num"), .safeText("Keychain items")),
                           .th(.safeText("Cache manifest and stores")))),
                .tbody(.group(audit.apps.map(Self.row)))
            ),
            .if(!notes.isEmpty, .ul(.class("rules"), .group(notes.map { .li(.safeText("Note: " + $0)) })))
        )
    }

    private static func row(_ app: AppStorageAudit) -> Node<HTML.TableContext> {
        var databases: [String] = []
        if let manifest = app.cacheManifest {
            databases.append("\(manifest.path): \(manifest.entries) entries, \(ReportNumbers.bytes(manifest.bytes))")
        }
        databases += app.stores.map { "\($0.path): \(ReportNumbers.bytes($0.bytes))" }
        let usage = app.total
        return .tr(
            .td(.safeText(app.bundleID)),
            number(usage.allocatedBytes), number(usage.apparentBytes), number(usage.backupBytes),
            number(usage.purgeableBytes), number(usage.keptByUpdateBytes),
            .td(.class("num"), .safeText(app.keychainItems.map { "\($0)" } ?? "not read")),
            .td(.group(databases.enumerated().map { index, text -> Node<HTML.BodyContext> in
                .group(.if(index > 0, .safeText("; ")), .code(.safeText(text)))
            }))
        )
    }

    private static func number(_ bytes: UInt64) -> Node<HTML.TableRowContext> {
        .td(.class("num"), .safeAttribute("title", "\(ReportNumbers.grouped(bytes)) bytes"), .safeText(ReportNumbers.bytes(bytes)))
    }
}
