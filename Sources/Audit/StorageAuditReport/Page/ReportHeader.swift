import Plot
import StorageAudit

/// The heading: the device, and the totals of all its apps.
struct ReportHeader {
    var audit: DeviceStorageAudit

    var node: Node<HTML.BodyContext> {
        let totals = audit.apps.reduce(into: StorageUsage()) { $0.add($1.total) }
        let findings = audit.apps.reduce(0) { $0 + $1.findings.count }
        let apps = audit.apps.count
        let parts = [
            "\(apps) app\(apps == 1 ? "" : "s")",
            "\(ReportNumbers.bytes(totals.allocatedBytes)) on disk (\(ReportNumbers.bytes(totals.apparentBytes)) apparent)",
            "\(ReportNumbers.bytes(totals.backupBytes)) backed up",
            "a purge would free \(ReportNumbers.bytes(totals.purgeableBytes))",
            "\(findings) finding\(findings == 1 ? "" : "s")",
        ]
        return .div(
            .class("header"),
            .h1(.safeText("Storage audit: \(audit.device)")),
            .p(.class("totals"), .safeText(parts.joined(separator: " · ")))
        )
    }
}
