import Foundation
import Testing
@testable import PropertyList

/// Property: for every generated value, writing then reading gives the value
/// back (exactly for binary; for XML, up to what XML cannot hold).
@Suite struct PropertyListRoundTripPropertyTests {
    static let seeds: [UInt64] = Array(1...200)

    @Test(arguments: seeds)
    func binaryRoundTripIsExact(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .binary)
        let value = random.value()
        let decoded = try PropertyListValue(data: try value.encoded(as: .binary))
        #expect(decoded.isIdentical(to: value), "seed \(seed): \(decoded.firstDifference(from: value) ?? "")")
    }

    @Test(arguments: seeds)
    func xmlRoundTripKeepsEverythingXMLCanHold(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .xml)
        let value = random.value()
        let decoded = try PropertyListValue(data: try value.encoded(as: .xml))
        #expect(decoded.isIdentical(to: value.normalizedForXML()), "seed \(seed): \(decoded.firstDifference(from: value.normalizedForXML()) ?? "")")
    }

    @Test(arguments: seeds)
    func typedOpenStepRoundTripIsExact(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .binary)
        let value = random.value()
        let decoded = try OpenStepPropertyListReader().read(OpenStepPropertyListWriter(typedScalars: true).write(value))
        let expected = value.normalized(floorsDates: false, readsUIDDictionaries: true)
        #expect(decoded.isIdentical(to: expected), "seed \(seed): \(decoded.firstDifference(from: expected) ?? "")")
    }

    @Test(arguments: seeds)
    func jsonRoundTripKeepsEverythingJSONCanHold(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .json)
        let value = random.value()
        // Read as JSON explicitly: a top-level JSON scalar is also valid OpenStep text.
        let decoded = try JSONPropertyListReader().read(try value.encoded(as: .json))
        let expected = value.normalized(floorsDates: false, readsUIDDictionaries: true)
        #expect(decoded.isIdentical(to: expected), "seed \(seed): \(decoded.firstDifference(from: expected) ?? "")")
    }

    @Test(arguments: seeds)
    func binaryOutputIsDeterministicAndStable(seed: UInt64) throws {
        var random = RandomPropertyList(seed: seed, profile: .binary)
        let value = random.value()
        let once = try value.encoded(as: .binary)
        let twice = try PropertyListValue(data: once).encoded(as: .binary)
        #expect(once == twice, "seed \(seed)")
    }
}
