/// The squarified treemap layout of Bruls, Huizing and van Wijk ("Squarified
/// Treemaps", 2000): tiles whose areas are proportional to their weights,
/// laid in rows along the shorter side of the space left, each row grown
/// while that does not make its worst aspect ratio worse.
///
/// A pure value: the same bounds and weights always give the same tiles
/// (ties in weight keep the input order). Each tile's area is its weight's
/// share of the bounds' area, up to floating-point rounding; a zero weight
/// gets a tile of no size at the bounds' origin.
public struct SquarifiedTreemap: Sendable, Hashable {
    /// The rectangle the tiles fill.
    public var bounds: TreemapRect

    public init(bounds: TreemapRect) {
        self.bounds = bounds
    }

    /// One tile per weight, in the order of `weights`.
    public func tiles(for weights: [UInt64]) -> [TreemapRect] {
        Self.layout(weights.map { Double($0) }, in: bounds)
    }

    /// A two-level layout: one rectangle per group, sized by the group's
    /// total, and its members' tiles inside it. A member's area is its
    /// weight's share of the grand total (the group rectangles are not
    /// padded, so the shares hold at both levels).
    public func layout(groups: [[UInt64]]) -> TreemapLayout {
        let groupRects = Self.layout(groups.map { $0.reduce(0.0) { $0 + Double($1) } }, in: bounds)
        let tiles = zip(groups, groupRects).map { members, rect in Self.layout(members.map { Double($0) }, in: rect) }
        return TreemapLayout(groups: groupRects, tiles: tiles)
    }

    /// Lays `weights` out in `rect`: returns the tiles in the order of `weights`.
    static func layout(_ weights: [Double], in rect: TreemapRect) -> [TreemapRect] {
        var tiles = Array(repeating: rect.emptyAtOrigin, count: weights.count)
        // Largest first (the algorithm's premise); equal weights by position,
        // so the layout never depends on the sort's stability.
        let order = weights.indices.filter { weights[$0] > 0 }
            .sorted { (weights[$0], $1) > (weights[$1], $0) }
        // What is left after each position, summed from the smallest up: a
        // remaining area is never a difference of two large ones, which
        // would lose a tiny tile's share to rounding.
        var remainingAfter = Array(repeating: 0.0, count: order.count + 1)
        for position in order.indices.reversed() {
            remainingAfter[position] = remainingAfter[position + 1] + weights[order[position]]
        }
        let total = remainingAfter[0]
        guard total > 0, rect.area > 0 else { return tiles }
        let scale = rect.area / total

        var free = rect
        var start = 0
        while start < order.count {
            // The row runs along the shorter side of the free space.
            let side = min(free.width, free.height)
            var end = start + 1
            var rowArea = weights[order[start]] * scale
            var worst = worstAspectRatio(largest: rowArea, smallest: rowArea, sum: rowArea, side: side)
            while end < order.count {
                let area = weights[order[end]] * scale
                let candidate = worstAspectRatio(largest: weights[order[start]] * scale, smallest: area,
                                                 sum: rowArea + area, side: side)
                guard candidate <= worst else { break }
                worst = candidate
                rowArea += area
                end += 1
            }
            let leftArea = remainingAfter[end] * scale
            let thickness = rowArea / side
            var offset = 0.0
            for index in order[start..<end] {
                let length = weights[index] * scale / thickness
                if free.width >= free.height {
                    // A column at the left, tiles stacked downwards.
                    tiles[index] = TreemapRect(x: free.x, y: free.y + offset, width: thickness, height: length)
                } else {
                    // A row at the top, tiles side by side.
                    tiles[index] = TreemapRect(x: free.x + offset, y: free.y, width: length, height: thickness)
                }
                offset += length
            }
            if free.width >= free.height {
                free = TreemapRect(x: free.x + thickness, y: free.y, width: leftArea / free.height, height: free.height)
            } else {
                free = TreemapRect(x: free.x, y: free.y + thickness, width: free.width, height: leftArea / free.width)
            }
            start = end
        }
        return tiles
    }

    /// The paper's `worst`: the largest aspect ratio (≥ 1) of a row of
    /// tiles with these areas laid along `side`.
    private static func worstAspectRatio(largest: Double, smallest: Double, sum: Double, side: Double) -> Double {
        let sideSquared = side * side
        let sumSquared = sum * sum
        return max(sideSquared * largest / sumSquared, sumSquared / (sideSquared * smallest))
    }
}

/// A two-level treemap: the groups' rectangles and, inside each, its
/// members' tiles (in the order the groups and members were given).
public struct TreemapLayout: Sendable, Hashable {
    public var groups: [TreemapRect]
    public var tiles: [[TreemapRect]]
}
