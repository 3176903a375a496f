import Plot
import StorageAudit

/// The findings against the storage guidelines, app by app (largest app
/// first), then the rules they cite: each rule's id links to its entry,
/// which names its section of `docs/STORAGE-RULES.md`.
struct FindingsSection {
    var audit: DeviceStorageAudit

    var node: Node<HTML.BodyContext> {
        let rows = audit.apps.flatMap { app in app.findings.map { (app.bundleID, $0) } }
        let table: Node<HTML.BodyContext> = rows.isEmpty
            ? .p(.class("none"), .safeText("No findings: every app keeps its data where the guidelines say."))
            : .table(
                .thead(.tr(.th(.safeText("App")), .th(.safeText("Rule")), .th(.safeText("Path")), .th(.class("num"), .safeText("Size")),
                           .th(.safeText("Detail")), .th(.safeText("Suggested fix")))),
                .tbody(.group(rows.map { Self.row(app: $0.0, $0.1) }))
            )
        return .div(
            .class("panel"), .id("findings"),
            .h2(.safeText("Findings against the storage guidelines (\(rows.count))")),
            table,
            .ul(.class("rules"), .group(AuditRule.allCases.map(Self.entry)))
        )
    }

    private static func row(app: String, _ finding: StorageFinding) -> Node<HTML.TableContext> {
        .tr(
            .td(.safeText(app)),
            .td(.a(.class("rule"), .safeAttribute("href", "#rule-\(finding.rule.rawValue.lowercased())"),
                   .safeAttribute("title", "\(finding.section): \(finding.rule.title)"), .safeText(finding.rule.rawValue))),
            .td(.class("path"), .code(.safeText(finding.path))),
            .td(.class("num"), .safeAttribute("title", "\(ReportNumbers.grouped(finding.bytes)) bytes"),
                .safeText(ReportNumbers.bytes(finding.bytes))),
            .td(.safeText(finding.detail)),
            .td(.safeText(finding.suggestedFix))
        )
    }

    /// A rule's entry, the target of the findings' links.
    private static func entry(_ rule: AuditRule) -> Node<HTML.ListContext> {
        .li(.safeAttribute("id", "rule-\(rule.rawValue.lowercased())"),
            .strong(.safeText(rule.rawValue)), .safeText(": \(rule.title) ("), .code(.safeText(rule.section)), .safeText(")"))
    }
}
