import Plot
import StorageAudit

/// What the apps' data costs in iCloud backup: each app's footprint, its
/// share of the quota and what turning its iCloud Backup toggle off saves.
struct ICloudSection {
    var cost: ICloudCost

    var node: Node<HTML.BodyContext> {
        let quota = ReportNumbers.quota(cost.quotaBytes)
        let totalPermille = ReportNumbers.permille(cost.backupBytes, of: cost.quotaBytes)
        return .div(
            .class("panel"), .id("icloud"),
            .h2(.safeText("iCloud backup: \(ReportNumbers.bytes(cost.backupBytes)) of the \(quota) quota")),
            .table(
                .thead(.tr(.th(.safeText("App")), .th(.class("num"), .safeText("Backup")), .th(.safeText("Share of the \(quota) quota")),
                           .th(.class("num"), .safeText("Turning its iCloud Backup off saves")))),
                .tbody(.group(cost.apps.map { app in
                    .tr(.td(.safeText(app.bundleID)), Self.bytesCell(app.backupBytes), Self.shareCell(permille: app.quotaPermille),
                        Self.bytesCell(app.backupBytes))
                }), .if(cost.groupBackupBytes > 0, .tr(
                    // No toggle turns a group off: a backup takes it for any of its apps.
                    .td(.safeText("App groups' shared containers")), Self.bytesCell(cost.groupBackupBytes),
                    Self.shareCell(permille: ReportNumbers.permille(cost.groupBackupBytes, of: cost.quotaBytes)),
                    .td(.class("num"), .safeText("no toggle"))))),
                .tfoot(.tr(
                    .td(.safeText(cost.groupBackupBytes > 0 ? "All apps and groups" : "All apps")), Self.bytesCell(cost.backupBytes), Self.shareCell(permille: totalPermille),
                    .td(.class(cost.fitsInQuota ? "num" : "num over"),
                        .safeText(cost.fitsInQuota ? "fits in the quota"
                                  : "over the quota by \(ReportNumbers.bytes(cost.backupBytes - cost.quotaBytes))"))
                ))
            )
        )
    }

    private static func bytesCell(_ bytes: UInt64) -> Node<HTML.TableRowContext> {
        .td(.class("num"), .safeAttribute("title", "\(ReportNumbers.grouped(bytes)) bytes"), .safeText(ReportNumbers.bytes(bytes)))
    }

    /// The share as a figure and a meter (full at the whole quota).
    private static func shareCell(permille: UInt64) -> Node<HTML.TableRowContext> {
        .td(.span(.class("meter"), .span(.safeAttribute("style", "width:\(ReportNumbers.fixed(Double(min(permille, 1000)) / 10))%"))),
            .safeText(ReportNumbers.percent(permille: permille)))
    }
}
