import StorageAuditReport
import TestSupport
import Testing

/// The treemap layout's promises, on random and degenerate inputs: each
/// tile's area is its share of the bounds (within 1 %), tiles lie inside the
/// bounds and never overlap, and the same input gives the same layout.
@Suite struct SquarifiedTreemapTests {
    static let bounds = TreemapRect(x: 10, y: 20, width: 1000, height: 560)

    /// Checks every promise for one input; returns the tiles.
    @discardableResult
    static func checkLayout(_ weights: [UInt64], in bounds: TreemapRect = bounds,
                            sourceLocation: SourceLocation = #_sourceLocation) -> [TreemapRect] {
        let treemap = SquarifiedTreemap(bounds: bounds)
        let tiles = treemap.tiles(for: weights)
        #expect(tiles.count == weights.count, sourceLocation: sourceLocation)
        #expect(treemap.tiles(for: weights) == tiles, "the same input gives the same layout", sourceLocation: sourceLocation)
        let total = weights.reduce(0.0) { $0 + Double($1) }
        let slack = 1e-9 * max(bounds.width, bounds.height)
        for (weight, tile) in zip(weights, tiles) {
            let share = total == 0 ? 0 : Double(weight) / total * bounds.area
            #expect(abs(tile.area - share) <= 0.01 * share + 1e-12 * bounds.area,
                    "weight \(weight): area \(tile.area), share \(share)", sourceLocation: sourceLocation)
            #expect(tile.width >= 0 && tile.height >= 0, sourceLocation: sourceLocation)
            #expect(tile.x >= bounds.x - slack && tile.y >= bounds.y - slack
                    && tile.maxX <= bounds.maxX + slack && tile.maxY <= bounds.maxY + slack,
                    "\(tile) lies inside \(bounds)", sourceLocation: sourceLocation)
        }
        let overlap = largestOverlap(tiles)
        #expect(overlap <= 1e-9 * bounds.area, "tiles overlap by \(overlap)", sourceLocation: sourceLocation)
        return tiles
    }

    /// The largest area two tiles share.
    static func largestOverlap(_ tiles: [TreemapRect]) -> Double {
        var largest = 0.0
        for first in tiles.indices where tiles[first].area > 0 {
            for second in tiles.indices where second > first && tiles[second].area > 0 {
                let a = tiles[first], b = tiles[second]
                let width = min(a.maxX, b.maxX) - max(a.x, b.x)
                let height = min(a.maxY, b.maxY) - max(a.y, b.y)
                if width > 0 && height > 0 { largest = max(largest, width * height) }
            }
        }
        return largest
    }

    @Test(arguments: 0..<200)
    func randomWeights(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...60, using: &generator)
        // Sizes from bytes to gigabytes, some of them zero.
        let weights = (0..<count).map { _ -> UInt64 in
            Bool.random(using: &generator) && seed % 3 == 0 ? 0 : UInt64.random(in: 0...(1 << Int.random(in: 0...32, using: &generator)),
                                                                               using: &generator)
        }
        let bounds = TreemapRect(x: 0, y: 0, width: Double.random(in: 1...2000, using: &generator),
                                 height: Double.random(in: 1...2000, using: &generator))
        Self.checkLayout(weights, in: bounds)
    }

    @Test func oneTileFillsTheBounds() {
        let tiles = Self.checkLayout([42])
        #expect(tiles == [Self.bounds])
    }

    @Test func zeroWeightsGetNoArea() {
        #expect(Self.checkLayout([]).isEmpty)
        #expect(Self.checkLayout([0, 0, 0]).allSatisfy { $0.area == 0 })
        let tiles = Self.checkLayout([0, 5, 0, 5, 0])
        #expect(tiles[0].area == 0 && tiles[2].area == 0 && tiles[4].area == 0)
        #expect(abs(tiles[1].area - Self.bounds.area / 2) < 1e-6)
        // Bounds with no area: every tile is empty.
        #expect(Self.checkLayout([3, 4], in: TreemapRect(x: 5, y: 5, width: 0, height: 100)).allSatisfy { $0.area == 0 })
    }

    @Test func verySkewedSizes() {
        Self.checkLayout([1 << 40, 1, 1, 2, 1 << 20])
        Self.checkLayout([1, 1 << 50])
        Self.checkLayout([UInt64.max / 2, UInt64.max / 4, 1_000, 1])
        Self.checkLayout((0..<64).map { 1 << UInt64($0) })
        Self.checkLayout([5, 5, 5, 5, 5, 5, 5, 5], in: TreemapRect(x: 0, y: 0, width: 10_000, height: 1))
    }

    @Test func aThousandTiles() {
        var generator = SeededGenerator(seed: 1000)
        let weights = (0..<1000).map { _ in UInt64.random(in: 1...10_000_000, using: &generator) }
        Self.checkLayout(weights)
        Self.checkLayout(Array(repeating: 7, count: 1000))
    }

    @Test func squarerThanSlices() {
        // The point of squarifying: equal tiles come out near square (a
        // slice-and-dice layout would give 1:100 strips here).
        let tiles = Self.checkLayout(Array(repeating: 1, count: 100), in: TreemapRect(x: 0, y: 0, width: 100, height: 100))
        let worst = tiles.map { max($0.width / $0.height, $0.height / $0.width) }.max() ?? 0
        #expect(worst < 2, "worst aspect ratio \(worst)")
    }

    @Test func equalWeightsKeepTheirOrder() {
        // Ties are laid out in input order, whatever the sort does.
        let tiles = SquarifiedTreemap(bounds: TreemapRect(x: 0, y: 0, width: 400, height: 100)).tiles(for: [1, 1, 1, 1])
        #expect(tiles.map(\.x) == tiles.map(\.x).sorted())
    }

    @Test(arguments: 0..<50)
    func groupsHoldTheirMembersShares(seed: UInt64) {
        var generator = SeededGenerator(seed: seed + 10_000)
        let groups = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
            (0..<7).map { _ in Bool.random(using: &generator) ? 0 : UInt64.random(in: 1...(1 << 30), using: &generator) }
        }
        let layout = SquarifiedTreemap(bounds: Self.bounds).layout(groups: groups)
        let total = groups.joined().reduce(0.0) { $0 + Double($1) }
        let slack = 1e-6
        for (index, members) in groups.enumerated() {
            let rect = layout.groups[index]
            for (weight, tile) in zip(members, layout.tiles[index]) {
                let share = Double(weight) / total * Self.bounds.area
                #expect(abs(tile.area - share) <= 0.01 * share + 1e-9)
                #expect(tile.area == 0 || (tile.x >= rect.x - slack && tile.y >= rect.y - slack
                                           && tile.maxX <= rect.maxX + slack && tile.maxY <= rect.maxY + slack))
            }
        }
        #expect(Self.largestOverlap(Array(layout.tiles.joined())) <= 1e-9 * Self.bounds.area)
        #expect(Self.largestOverlap(layout.groups) <= 1e-9 * Self.bounds.area)
    }
}
