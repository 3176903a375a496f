/// How much of a value one emitter writes, so it can size its output,
/// offset list and scalar table once instead of growing them.
struct EmitterShare {
    /// Objects, counting repeats.
    var objects: Int
    /// References held by containers.
    var references: Int
    /// An estimate of the bytes scalars take when encoded.
    var scalarBytes: Int
    /// A guess at the number of distinct scalars (the table grows if it is low).
    var distinctScalars: Int
    /// The most objects the whole value can have; object numbers stay below it.
    var maximumObjects: Int

    /// All of the value the census counted.
    init(census: PropertyListCensus) {
        objects = census.objects
        references = census.references
        scalarBytes = census.scalarBytes
        // Dictionary keys repeat far more than other scalars, so they are left
        // out of the guess at the number of distinct scalars.
        distinctScalars = census.scalars - census.keys + 512
        maximumObjects = census.objects
    }

    /// The share of the parallel writer's front half, which holds about
    /// `1 − backFraction` of the objects. Its buffers are sized for the whole
    /// value because the back half's bytes and offsets are appended to them.
    static func front(_ census: PropertyListCensus, backFraction: Double) -> EmitterShare {
        var share = EmitterShare(census: census)
        share.distinctScalars = Self.scaled(share.distinctScalars, by: 1 - backFraction) + 512
        return share
    }

    /// The share of the parallel writer's back half, which holds about
    /// `backFraction` of the objects.
    static func back(_ census: PropertyListCensus, backFraction: Double) -> EmitterShare {
        var share = EmitterShare(census: census)
        share.objects = Self.scaled(share.objects, by: backFraction)
        share.references = Self.scaled(share.references, by: backFraction)
        share.scalarBytes = Self.scaled(share.scalarBytes, by: backFraction)
        share.distinctScalars = Self.scaled(share.distinctScalars, by: backFraction) + 512
        return share
    }

    private static func scaled(_ count: Int, by fraction: Double) -> Int {
        Int((Double(count) * fraction).rounded(.up))
    }
}
