/// An axis-aligned rectangle of a treemap, in the units of its bounds
/// (SVG user units in the report).
public struct TreemapRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `width × height`.
    public var area: Double { width * height }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }

    /// A rectangle of no size at this one's origin: where a tile of zero
    /// weight goes, so it is inside the bounds and overlaps nothing.
    var emptyAtOrigin: TreemapRect { TreemapRect(x: x, y: y, width: 0, height: 0) }
}
