import Plot
import StorageAudit

/// A device's storage audit as one self-contained HTML page: the totals,
/// a stacked bar per app as in Settings › iPhone Storage, a squarified
/// treemap in inline SVG, the findings against the storage guidelines and
/// the iCloud backup's cost.
///
/// The page has no script and loads nothing: its only style sheet is
/// inline. It is deterministic (the same audit gives the same bytes: no
/// dates, no generated ids, numbers formatted by integer arithmetic), every
/// piece of text from the device is escaped, and it is well-formed XML as
/// well as HTML.
public struct StorageReportPage: Sendable {
    /// The audit shown.
    public var audit: DeviceStorageAudit

    public init(audit: DeviceStorageAudit) {
        self.audit = audit
    }

    /// The page's HTML, UTF-8 text ending with a newline.
    public func render() -> String {
        let html = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .element(named: "title", nodes: [.safeText("Storage audit: \(audit.device)")]),
                .style(ReportStyleSheet.css)
            ),
            .body(
                .div(
                    .class("page"),
                    ReportHeader(audit: audit).node,
                    StorageBars(audit: audit).node,
                    TreemapFigure(audit: audit).node,
                    FindingsSection(audit: audit).node,
                    ICloudSection(cost: audit.iCloud).node,
                    AppDetailsSection(audit: audit).node
                )
            )
        )
        // Not indented: indentation puts white space between inline
        // elements, which a browser shows.
        return html.render() + "\n"
    }
}
