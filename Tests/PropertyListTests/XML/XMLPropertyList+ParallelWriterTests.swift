import Foundation
import Testing
@testable import PropertyList

/// The two-thread XML writer writes exactly the one-thread writer's bytes
/// and throws its errors (small values are forced onto the parallel path).
@Suite struct XMLPropertyListParallelWriterTests {
    func bytes(_ value: PropertyListValue, parallel: Bool, maximumDepth: Int = 512) throws -> Data {
        try XMLPropertyListWriter(limits: PropertyListLimits(maximumDepth: maximumDepth)).write(value, parallelThreshold: parallel ? 0 : .max)
    }

    func errors(_ value: PropertyListValue, maximumDepth: Int = 512) -> (serial: PropertyListError?, parallel: PropertyListError?) {
        let serial = #expect(throws: PropertyListError.self) { try bytes(value, parallel: false, maximumDepth: maximumDepth) }
        let parallel = #expect(throws: PropertyListError.self) { try bytes(value, parallel: true, maximumDepth: maximumDepth) }
        return (serial, parallel)
    }

    @Test(arguments: 1...12)
    func halvesWriteWhatOneThreadWrites(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .xml)
        for root in random.splittableRoots(count: 30) + [["a": 1, "b": [2]], [1, 2, 3]] {
            let parallel = try bytes(root, parallel: true)
            #expect(parallel == (try bytes(root, parallel: false)))
            #expect(try XMLPropertyListReader().read(parallel).isIdentical(to: root.normalizedForXML()))
        }
    }

    @Test func theFrontHalfsErrorComesFirstWithItsKeyPath() {
        let bad = PropertyListValue.string("bell \u{7}")
        let (serial, parallel) = errors(["a": ["x": bad], "b": 1, "c": 2, "d": [bad]])
        #expect(serial?.location == .keyPath("a.x"))
        #expect(parallel?.location == serial?.location)
        #expect(parallel?.message == serial?.message)
    }

    @Test func anErrorOnlyInTheBackHalfIsReportedAsOneThreadReportsIt() {
        let unwritable = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: .infinity))
        let (serial, parallel) = errors([1, 2, 3, ["deep": [unwritable]]])
        #expect(serial?.code == .unsupportedValue)
        #expect(serial?.location == .keyPath("3.deep.0"))
        #expect(parallel?.location == serial?.location)
    }

    @Test func depthLimitsHoldOnBothPaths() {
        let (serial, parallel) = errors([1, [[[2]]]], maximumDepth: 2)
        #expect(serial?.code == .depthLimitExceeded)
        #expect(parallel?.code == serial?.code)
        #expect(parallel?.location == serial?.location)
        let (rootSerial, rootParallel) = errors([1, 2], maximumDepth: 0)
        #expect(rootSerial?.code == .depthLimitExceeded)
        #expect(rootParallel?.location == rootSerial?.location)
    }
}
