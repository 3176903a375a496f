import Plot
import StorageAudit

/// The treemap: every app a group, its categories tiles, each tile's area
/// its share of all the apps' bytes on disk (``SquarifiedTreemap``). Every
/// tile and group has a `<title>` (the tooltip); labels are drawn only
/// where they fit.
struct TreemapFigure {
    var audit: DeviceStorageAudit
    static let width = 1000.0
    static let height = 560.0
    /// The labels' font size, and a generous width per character for it
    /// (wide fonts such as DejaVu Sans included), to decide what fits.
    static let fontSize = 12.0
    static let characterWidth = 7.4

    var node: Node<HTML.BodyContext> {
        let layout = SquarifiedTreemap(bounds: TreemapRect(x: 0, y: 0, width: Self.width, height: Self.height))
            .layout(groups: audit.apps.map { app in app.categories.map(\.usage.allocatedBytes) })
        let total = audit.apps.reduce(UInt64(0)) { $0 + $1.total.allocatedBytes }
        var groups: [Node<HTML.BodyContext>] = []
        for (index, app) in audit.apps.enumerated() where layout.groups[index].area > 0 {
            groups.append(group(app, rect: layout.groups[index], tiles: layout.tiles[index], total: total))
        }
        let size = "\(Int(Self.width)) \(Int(Self.height))"
        let backdrop: [Node<HTML.BodyContext>] = [
            .markup("title", [], [.safeText("Treemap of \(audit.device): \(ReportNumbers.bytes(total)) on disk")]),
            .emptyMarkup("rect", [("x", "0"), ("y", "0"), ("width", "\(Int(Self.width))"), ("height", "\(Int(Self.height))"),
                                  ("fill", "#e5e5ea")]),
        ]
        return .div(
            .class("panel"), .id("treemap"),
            .h2(.safeText("Treemap: bytes on disk")),
            .markup("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("class", "treemap"), ("viewBox", "0 0 \(size)"),
                            ("width", "\(Int(Self.width))"), ("height", "\(Int(Self.height))"), ("role", "img")],
                    backdrop + groups),
            StorageBars.legend
        )
    }

    private func group(_ app: AppStorageAudit, rect: TreemapRect, tiles: [TreemapRect], total: UInt64) -> Node<HTML.BodyContext> {
        var children: [Node<HTML.BodyContext>] = [
            .markup("title", [], [.safeText("\(app.bundleID): \(ReportNumbers.bytes(app.total.allocatedBytes)) "
                                             + "(\(ReportNumbers.percent(permille: ReportNumbers.permille(app.total.allocatedBytes, of: total))))")]),
        ]
        let groupLabelFits = fits(app.bundleID, in: rect, bold: true)
        for (part, tile) in zip(app.categories, tiles) where tile.area > 0 {
            let bytes = part.usage.allocatedBytes
            let style = part.category.style
            let tooltip = "\(app.bundleID): \(style.name) \(ReportNumbers.bytes(bytes)) "
                + "(\(ReportNumbers.percent(permille: ReportNumbers.permille(bytes, of: total))) of all apps)"
            children.append(.markup("rect", position(tile) + [("fill", style.htmlColour), ("stroke", "#ffffff"), ("stroke-width", "1")],
                                    [.markup("title", [], [.safeText(tooltip)])]))
            // Bottom-left, below the app's name when that is drawn in the same tile.
            let sharesTop = groupLabelFits && abs(tile.y - rect.y) < 0.01 && abs(tile.x - rect.x) < 0.01
            let label = ["\(style.name) \(ReportNumbers.bytes(bytes))", style.name].first { text in
                fits(text, in: tile, bold: false) && tile.height >= (sharesTop ? 2 * Self.fontSize + 14 : Self.fontSize + 6)
            }
            if let label {
                children.append(text(label, x: tile.x + 4, y: tile.maxY - 5, colour: style.labelColour, bold: false))
            }
        }
        // The group's outline over its tiles, and its name at the top left.
        children.append(.emptyMarkup("rect", position(rect) + [("fill", "none"), ("stroke", "#ffffff"), ("stroke-width", "3")]))
        if groupLabelFits {
            children.append(text(app.bundleID, x: rect.x + 5, y: rect.y + Self.fontSize + 5, colour: "#1c1c1e", bold: true))
        }
        return .markup("g", [], children)
    }

    private func fits(_ text: String, in rect: TreemapRect, bold: Bool) -> Bool {
        let width = Double(text.count) * Self.characterWidth * (bold ? 1.1 : 1) + 10
        return rect.width >= width && rect.height >= Self.fontSize + 8
    }

    private func position(_ rect: TreemapRect) -> [MarkupAttribute] {
        [("x", ReportNumbers.fixed(rect.x)), ("y", ReportNumbers.fixed(rect.y)),
         ("width", ReportNumbers.fixed(rect.width)), ("height", ReportNumbers.fixed(rect.height))]
    }

    /// A label; an app's name (bold) gets a white halo, legible on any tile.
    private func text(_ text: String, x: Double, y: Double, colour: String, bold: Bool) -> Node<HTML.BodyContext> {
        let halo: [MarkupAttribute] = bold ? [("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke")] : []
        return .markup("text", [("x", ReportNumbers.fixed(x)), ("y", ReportNumbers.fixed(y)), ("font-size", "\(Int(Self.fontSize))"),
                                ("font-weight", bold ? "700" : "400"), ("fill", colour)] + halo,
                       [.safeText(text)])
    }
}
