import Device
import Foundation
import StorageAudit
import StorageAuditReport

/// The demo's last step: what Possessions costs the disk and the backup,
/// checked against the storage guidelines, and the report as a page.
extension DemoScript {
    /// The HTML report, beside the demo's devices.
    var auditReportURL: URL { devicesRoot.appendingPathComponent("possessions-audit.html") }

    mutating func auditPossessions() throws {
        narrator.begin("Audit what Possessions costs the disk and the backup")
        let device = try Device.open(at: firstDeviceURL)
        var auditor = StorageAuditor()
        let audit = try auditor.audit(device: device, bundleID: PossessionsApp.bundleID)
        narrator.show(AuditText(colour: false).render(audit).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "   " + $0 })
        let app = try auditedApp(audit)
        try narrator.check(app.usage(of: .documents).backupBytes > 0 && app.usage(of: .caches).backupBytes == 0,
                           "Documents counts towards the iCloud backup, the re-fetched pictures in Caches do not")
        let purgeable = app.usage(of: .caches).purgeableBytes + app.usage(of: .tmp).purgeableBytes
        try narrator.check(purgeable > 0 && purgeable == app.total.purgeableBytes,
                           "a purge would free \(ByteText.format(purgeable)): the pictures again, nothing outside Caches and tmp")
        try narrator.check(app.cacheManifest.map { $0.entries == self.app.possessions.count } == true,
                           "the cache manifest lists the \(self.app.possessions.count) pictures, so none is flagged as unknown (rule A2)")
        let page = Data(StorageReportPage(audit: audit).render().utf8)
        try FileOutput.writeAtomically(page, to: auditReportURL.path)
        let again = try auditor.audit(device: device, bundleID: PossessionsApp.bundleID)
        try narrator.check(Data(StorageReportPage(audit: again).render().utf8) == page,
                           "auditing again gives the same HTML report, byte for byte")
        narrator.say("HTML report (stacked bars, treemap, findings, iCloud cost; no JavaScript): \(auditReportURL.path)")
    }

    private func auditedApp(_ audit: DeviceStorageAudit) throws -> AppStorageAudit {
        guard let app = audit.apps.first, app.bundleID == PossessionsApp.bundleID else {
            throw DemoError(step: narrator.step, claim: "the audit covers \(PossessionsApp.bundleID)")
        }
        return app
    }
}
