import StorageAudit
import StorageAuditReport
import TerminalText

/// The audit for people: one stacked bar per app, like Settings › iPhone
/// Storage, the app's figures, its findings, and the iCloud cost. Every
/// name an app chose (its files, its bundle's strings) goes through
/// ``TerminalText``, so it shows on one line and never acts on the terminal.
struct AuditText {
    /// Whether to colour the bars (ANSI), only on a terminal.
    var colour: Bool
    /// Characters in the largest app's bar.
    var barWidth = 40

    func render(_ audit: DeviceStorageAudit) -> String {
        let largest = audit.apps.first?.total.allocatedBytes ?? 0
        let disk = audit.apps.reduce(UInt64(0)) { $0 + $1.total.allocatedBytes }
        var lines = ["Device \(TerminalText.escape(audit.device)): \(audit.apps.count) app\(audit.apps.count == 1 ? "" : "s"), "
                        + "\(ByteText.format(disk)) on disk"]
        lines.append(legend())
        for app in audit.apps {
            lines.append("")
            lines += render(app, largest: largest)
        }
        for group in audit.groups {
            lines.append("")
            lines += render(group)
        }
        lines.append("")
        lines += render(audit.iCloud)
        return lines.joined(separator: "\n")
    }

    private func render(_ app: AppStorageAudit, largest: UInt64) -> [String] {
        var lines = ["\(TerminalText.escape(app.bundleID))  \(ByteText.format(app.total.allocatedBytes))  \(bar(app, largest: largest))"]
        lines.append("  app \(ByteText.format(app.appBytes)), documents & data \(ByteText.format(app.dataBytes)); "
                     + "apparent \(ByteText.format(app.total.apparentBytes))")
        let parts = app.categories.filter { $0.usage.allocatedBytes > 0 && $0.category != .home }
            .map { "\($0.category.style.name) \(ByteText.format($0.usage.allocatedBytes))" }
        lines.append("  " + parts.joined(separator: " · "))
        var extras = ["backup \(ByteText.format(app.total.backupBytes))", "purge frees \(ByteText.format(app.total.purgeableBytes))",
                      "update keeps \(ByteText.format(app.total.keptByUpdateBytes))"]
        if let items = app.keychainItems { extras.append("\(items) keychain item\(items == 1 ? "" : "s")") }
        if let manifest = app.cacheManifest {
            extras.append("cache manifest \(manifest.entries) entries, \(ByteText.format(manifest.bytes))")
        }
        for store in app.stores { extras.append("store \(TerminalText.escape(store.path)) \(ByteText.format(store.bytes))") }
        lines.append("  " + extras.joined(separator: " · "))
        for finding in app.findings {
            lines.append("  \(finding.rule.rawValue) \(TerminalText.escape(finding.path)) (\(ByteText.format(finding.bytes))): "
                         + TerminalText.escape(finding.detail))
            lines.append("     fix: \(TerminalText.escape(finding.suggestedFix))")
        }
        for note in app.notes { lines.append("  note: \(TerminalText.escape(note))") }
        return lines
    }

    private func render(_ group: GroupStorageAudit) -> [String] {
        let usage = group.usage
        return ["group \(TerminalText.escape(group.identifier))  \(ByteText.format(usage.allocatedBytes))  (shared by "
                    + group.apps.map(TerminalText.escape).joined(separator: ", ") + ")",
                "  backup \(ByteText.format(usage.backupBytes)) · purge frees \(ByteText.format(usage.purgeableBytes)) · "
                    + "update keeps \(ByteText.format(usage.keptByUpdateBytes)) · \(usage.files) files"]
    }

    private func render(_ cost: ICloudCost) -> [String] {
        var lines = ["iCloud backup: \(ByteText.format(cost.backupBytes)) of the \(ReportNumbers.quota(cost.quotaBytes)) quota"
                        + (cost.fitsInQuota ? "" : " (over the quota)")]
        if cost.groupBackupBytes > 0 { lines.append("  app groups' shared containers: \(ByteText.format(cost.groupBackupBytes))") }
        for app in cost.apps {
            lines.append("  \(TerminalText.escape(app.bundleID)): \(ByteText.format(app.backupBytes)) (\(ReportNumbers.percent(permille: app.quotaPermille)) of the quota); "
                         + "turning its iCloud Backup off saves \(ByteText.format(app.backupBytes))")
        }
        return lines
    }

    /// The stacked bar, scaled to the largest app as iOS scales to the device.
    private func bar(_ app: AppStorageAudit, largest: UInt64) -> String {
        guard largest > 0 else { return "[" + String(repeating: " ", count: barWidth) + "]" }
        var text = ""
        var used = 0
        for part in app.categories where part.usage.allocatedBytes > 0 {
            let cells = Int(part.usage.allocatedBytes * UInt64(barWidth) / largest)
            guard cells > 0 else { continue }
            used += cells
            text += cell(part.category, count: cells)
        }
        return "[" + text + String(repeating: " ", count: max(0, barWidth - used)) + "]"
    }

    private func cell(_ category: StorageCategory, count: Int) -> String {
        guard colour else { return String(repeating: category.style.letter, count: count) }
        return "\u{1B}[\(category.style.terminalColour)m" + String(repeating: "█", count: count) + "\u{1B}[0m"
    }

    private func legend() -> String {
        "Bars: " + StorageCategory.allCases.map { "\(cell($0, count: 1)) \($0.style.name)" }.joined(separator: "  ")
    }
}
