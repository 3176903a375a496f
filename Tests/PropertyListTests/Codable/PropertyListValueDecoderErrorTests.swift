import Foundation
import Testing
@testable import PropertyList

@Suite struct PropertyListValueDecoderErrorTests {
    let decoder = PropertyListValueDecoder()

    /// The sample possession as a value, for breaking one part of it.
    func possessionValue() throws -> PropertyListValue {
        try PropertyListValueEncoder().encode(Possession.sample())
    }

    /// Decodes `value` as `T`, expecting a failure, and returns it.
    func failure<T: Decodable>(_ type: T.Type, from value: PropertyListValue) -> DecodingError? {
        do {
            _ = try decoder.decode(type, from: value)
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            Issue.record("not a DecodingError: \(error)")
            return nil
        }
    }

    func path(_ context: DecodingError.Context) -> [String] {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    }

    @Test func typeMismatchNamesThePath() throws {
        var value = try possessionValue()
        if case .dictionary(var entries) = value {
            entries["location"] = ["room": "Hall", "shelf": "three"]
            value = .dictionary(entries)
        }
        guard case .typeMismatch(let type, let context) = failure(Possession.self, from: value) else {
            Issue.record("expected typeMismatch")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(path(context) == ["location", "shelf"])
        #expect(context.debugDescription.contains("string"))
    }

    @Test func missingKey() throws {
        var value = try possessionValue()
        if case .dictionary(var entries) = value {
            entries.removeValue(forKey: "valueInDollars")
            value = .dictionary(entries)
        }
        guard case .keyNotFound(let key, let context) = failure(Possession.self, from: value) else {
            Issue.record("expected keyNotFound")
            return
        }
        #expect(key.stringValue == "valueInDollars")
        #expect(context.codingPath.isEmpty)
    }

    @Test func outOfRangeIntegers() {
        struct Small: Decodable { var level: Int8 }
        guard case .dataCorrupted(let context) = failure(Small.self, from: ["level": .integer(PropertyListInteger(UInt64.max))]) else {
            Issue.record("expected dataCorrupted")
            return
        }
        #expect(path(context) == ["level"])
        #expect(context.debugDescription.contains("18446744073709551615"))

        guard case .dataCorrupted(let arrayContext) = failure([UInt8].self, from: [1, 2, 256]) else {
            Issue.record("expected dataCorrupted")
            return
        }
        #expect(path(arrayContext) == ["[2]"])
        #expect(failure(UInt.self, from: -1) != nil)
        #expect(failure(Int64.self, from: .integer(PropertyListInteger(UInt64(Int64.max) + 1))) != nil)
    }

    @Test func inexactNumbersAreRefused() {
        #expect(failure(Int.self, from: 3.5) != nil)
        #expect(failure(Int.self, from: .real(.nan)) != nil)
        #expect(failure(Double.self, from: .integer(PropertyListInteger(UInt64.max))) != nil)
        #expect(failure(Float.self, from: 1e300) != nil)
        #expect(failure(PropertyListInteger.self, from: 1e30) != nil)
    }

    @Test func strictTypes() {
        #expect(failure(Bool.self, from: 1) != nil)
        #expect(failure(String.self, from: 1) != nil)
        #expect(failure(Date.self, from: 1.0) != nil)
        #expect(failure(Data.self, from: "AAEC") != nil)
        #expect(failure(URL.self, from: "") != nil)
        #expect(failure(PropertyListUID.self, from: 3) != nil)
        guard case .typeMismatch(_, let context) = failure(Possession.self, from: [1, 2]) else {
            Issue.record("expected typeMismatch for an array read as a struct")
            return
        }
        #expect(context.codingPath.isEmpty)
        #expect(failure([Int].self, from: ["a": 1]) != nil)
    }

    @Test func nullWhereAValueIsRequired() {
        struct Required: Decodable { var count: Int }
        guard case .valueNotFound(_, let context) = failure(Required.self, from: ["count": "$null"]) else {
            Issue.record("expected valueNotFound")
            return
        }
        #expect(path(context) == ["count"])
        guard case .valueNotFound(_, let arrayContext) = failure([Int].self, from: [1, "$null"]) else {
            Issue.record("expected valueNotFound")
            return
        }
        #expect(path(arrayContext) == ["[1]"])
    }

    @Test func unkeyedContainerAtEnd() {
        struct Pair: Decodable {
            init(from decoder: Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decode(Int.self)
            }
        }
        guard case .valueNotFound(_, let context) = failure(Pair.self, from: [1]) else {
            Issue.record("expected valueNotFound")
            return
        }
        #expect(path(context) == ["[1]"])

        struct Exhausted: Decodable {
            init(from decoder: Decoder) throws {
                var container = try decoder.unkeyedContainer()
                #expect(container.isAtEnd)
                #expect(container.count == 0)
                #expect(throws: DecodingError.self) { try container.decodeNil() }
                #expect(throws: DecodingError.self) { try container.nestedUnkeyedContainer() }
                #expect(throws: DecodingError.self) { try container.nestedContainer(keyedBy: PropertyListCodingKey.self) }
                #expect(throws: DecodingError.self) { try container.superDecoder() }
                #expect(try container.decodeIfPresent(Int.self) == nil)
            }
        }
        #expect(throws: Never.self) { try decoder.decode(Exhausted.self, from: []) }
    }

    @Test func missingSuperAndNestedContainers() {
        struct NeedsSuper: Decodable {
            enum Keys: CodingKey { case inner }
            init(from decoder: Decoder) throws {
                _ = try decoder.container(keyedBy: Keys.self).superDecoder()
            }
        }
        guard case .keyNotFound(let key, _) = failure(NeedsSuper.self, from: [:]) else {
            Issue.record("expected keyNotFound")
            return
        }
        #expect(key.stringValue == "super")

        struct NeedsNested: Decodable {
            enum Keys: CodingKey { case inner }
            init(from decoder: Decoder) throws {
                _ = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: Keys.self, forKey: .inner)
            }
        }
        #expect(failure(NeedsNested.self, from: [:]) != nil)
        guard case .typeMismatch(_, let context) = failure(NeedsNested.self, from: ["inner": [1]]) else {
            Issue.record("expected typeMismatch")
            return
        }
        #expect(path(context) == ["inner"])
    }

    @Test func failedDecodeDoesNotAdvance() throws {
        struct Retry: Decodable {
            var text: String
            init(from decoder: Decoder) throws {
                var container = try decoder.unkeyedContainer()
                #expect(throws: DecodingError.self) { try container.decode(Int.self) }
                #expect(try container.decodeNil() == false)
                text = try container.decode(String.self)
            }
        }
        #expect(try decoder.decode(Retry.self, from: ["x"]).text == "x")
    }

    @Test func invalidBytesAreDataCorrupted() {
        do {
            _ = try decoder.decode(Possession.self, from: Data("bplist00 broken".utf8))
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.underlyingError is PropertyListError)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// A type that recurses once per array level.
    struct Nest: Decodable {
        var inner: [Nest]
        init(from decoder: Decoder) throws { inner = try [Nest](from: decoder) }
    }

    /// A synthesized recursive enum: `{"link": {"_0": …}}` per level.
    indirect enum Chain: Decodable {
        case end
        case link(Chain)
    }

    @Test func hostileDeepArrayThrowsInsteadOfOverflowing() {
        var value: PropertyListValue = []
        for _ in 0..<100_000 { value = [value] }
        guard case .dataCorrupted(let context) = failure(Nest.self, from: value) else {
            Issue.record("expected dataCorrupted")
            dismantle(&value)
            return
        }
        #expect(context.codingPath.count == PropertyListLimits.default.maximumDepth)
        // A value decoded as itself is passed through, not walked.
        #expect((try? decoder.decode(PropertyListValue.self, from: value))?.arrayValue?.count == 1)
        dismantle(&value)
    }

    @Test func hostileDeepDictionaryThrowsInsteadOfOverflowing() {
        var value: PropertyListValue = ["end": [:]]
        for _ in 0..<100_000 { value = ["link": ["_0": value]] }
        guard case .dataCorrupted = failure(Chain.self, from: value) else {
            Issue.record("expected dataCorrupted")
            dismantle(&value)
            return
        }
        dismantle(&value)
    }

    @Test func depthLimitIsConfigurable() throws {
        var value: PropertyListValue = []
        for _ in 0..<9 { value = [value] } // ten arrays
        let shallow = PropertyListValueDecoder(maximumDepth: 10)
        #expect(try shallow.decode(Nest.self, from: value).inner.count == 1)
        #expect(throws: DecodingError.self) { try shallow.decode(Nest.self, from: [value]) }
    }

    @Test func selfRecursiveSingleValueTypeStops() {
        /// Decodes itself from its own decoder forever, whatever the data.
        struct Ouroboros: Decodable {
            init(from decoder: Decoder) throws { _ = try decoder.singleValueContainer().decode(Ouroboros.self) }
        }
        #expect(throws: DecodingError.self) { try decoder.decode(Ouroboros.self, from: 1) }
    }
}
