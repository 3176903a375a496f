import Plot
import StorageAudit

/// Settings › iPhone Storage: one bar for the whole device split by
/// category, its legend, then each app (largest first) with its own bar,
/// scaled to the largest app.
struct StorageBars {
    var audit: DeviceStorageAudit

    var node: Node<HTML.BodyContext> {
        let totals = StorageCategory.allCases.map { category in
            (category, audit.apps.reduce(UInt64(0)) { $0 + $1.usage(of: category).allocatedBytes })
        }
        let deviceTotal = totals.reduce(UInt64(0)) { $0 + $1.1 }
        let largest = audit.apps.first?.total.allocatedBytes ?? 0
        return .div(
            .class("panel"), .id("storage"),
            .h2(.safeText("Storage by app")),
            .div(.class("device-bar"), .group(totals.map { Self.segment($0.0, bytes: $0.1, of: deviceTotal, owner: audit.device) })),
            Self.legend,
            .group(audit.apps.map { row($0, largest: largest) })
        )
    }

    private func row(_ app: AppStorageAudit, largest: UInt64) -> Node<HTML.BodyContext> {
        let total = app.total.allocatedBytes
        let width = largest == 0 ? 0 : Double(total) / Double(largest) * 100
        return .div(
            .class("app-row"),
            .div(.class("app-name"), .safeAttribute("title", app.bundleID), .safeText(app.bundleID)),
            .div(.class("app-track"),
                 .div(.class("bar"), .safeAttribute("style", "width:\(ReportNumbers.fixed(width))%"),
                      .group(app.categories.map { Self.segment($0.category, bytes: $0.usage.allocatedBytes, of: total, owner: app.bundleID) }))),
            .div(.class("app-size"), .safeText(ReportNumbers.bytes(total)))
        )
    }

    /// One category's part of a bar; nothing for an empty category.
    private static func segment(_ category: StorageCategory, bytes: UInt64, of total: UInt64,
                                owner: String) -> Node<HTML.BodyContext> {
        guard bytes > 0, total > 0 else { return .empty }
        let share = Double(bytes) / Double(total) * 100
        let permille = ReportNumbers.permille(bytes, of: total)
        return .span(.class("seg c-\(category.rawValue)"),
                     .safeAttribute("style", "width:\(ReportNumbers.fixed(share))%"),
                     .safeAttribute("title", "\(owner): \(category.style.name) \(ReportNumbers.bytes(bytes)) "
                                    + "(\(ReportNumbers.percent(permille: permille)))"))
    }

    /// The categories' colours and names.
    static var legend: Node<HTML.BodyContext> {
        .div(.class("legend"), .group(StorageCategory.allCases.map { category in
            .span(.span(.class("swatch c-\(category.rawValue)")), .safeText(category.style.name))
        }))
    }
}
