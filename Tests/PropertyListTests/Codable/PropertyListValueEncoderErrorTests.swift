import Foundation
import Testing
@testable import PropertyList

@Suite struct PropertyListValueEncoderErrorTests {
    let encoder = PropertyListValueEncoder()

    /// Nests `levels` arrays through recursive `encode(to:)` calls.
    struct Deep: Encodable {
        var levels: Int
        func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            if levels > 1 { try container.encode(Deep(levels: levels - 1)) }
        }
    }

    @Test func depthUpToTheLimitIsWritten() throws {
        let depth = PropertyListLimits.default.maximumDepth
        let value = try encoder.encode(Deep(levels: depth))
        #expect(value.arrayValue?.count == 1)
        // The binary writer has the same limit, so the value can be written.
        let data = try encoder.encode(Deep(levels: depth), as: .binary)
        #expect(try PropertyListValue(data: data).arrayValue?.count == 1)
    }

    @Test func deeperThanTheLimitThrows() {
        do {
            _ = try encoder.encode(Deep(levels: PropertyListLimits.default.maximumDepth + 1))
            Issue.record("expected an error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.count == PropertyListLimits.default.maximumDepth)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: EncodingError.self) { try encoder.encode(Deep(levels: 100_000)) }
        #expect(throws: EncodingError.self) { try PropertyListValueEncoder(maximumDepth: 3).encode(Deep(levels: 4)) }
    }

    @Test func nestedContainersInALoopThrowWithoutGrowing() {
        /// Nests containers without recursion, so only the containers track depth.
        struct Burrow: Encodable {
            func encode(to encoder: Encoder) throws {
                var container = encoder.unkeyedContainer()
                for _ in 0..<100_000 { container = container.nestedUnkeyedContainer() }
                try container.encode(1)
            }
        }
        #expect(throws: EncodingError.self) { try encoder.encode(Burrow()) }
    }

    @Test func selfRecursiveSingleValueTypeStops() {
        /// Encodes a copy of itself through its single-value container forever.
        struct Ouroboros: Encodable {
            func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(Ouroboros())
            }
        }
        #expect(throws: EncodingError.self) { try encoder.encode(Ouroboros()) }
    }

    @Test func conflictingContainersThrow() {
        struct Confused: Encodable {
            enum Keys: CodingKey { case a }
            func encode(to encoder: Encoder) throws {
                var list = encoder.unkeyedContainer()
                try list.encode(1)
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(2, forKey: .a)
            }
        }
        #expect(throws: EncodingError.self) { try encoder.encode(Confused()) }

        struct TwoValues: Encodable {
            func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            }
        }
        #expect(throws: EncodingError.self) { try encoder.encode(TwoValues()) }
    }

    @Test func emptyTopLevelThrowsAndEmptyNestedIsAnEmptyDictionary() throws {
        struct Silent: Encodable { func encode(to encoder: Encoder) throws {} }
        struct Holder: Encodable { var silent = Silent() }
        #expect(throws: EncodingError.self) { try encoder.encode(Silent()) }
        #expect(try encoder.encode(Holder()) == ["silent": [:]])
    }

    @Test func int128OutOfRangeThrows() {
        guard #available(macOS 15.0, iOS 18.0, *) else { return }
        struct Huge: Encodable { var value = Int128(UInt64.max) + 1 }
        do {
            _ = try encoder.encode(Huge())
            Issue.record("expected an error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["value"])
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: EncodingError.self) { try encoder.encode([Int128(Int64.min) - 1]) }
    }

    @Test func writerErrorsBecomeEncodingErrors() {
        do {
            _ = try encoder.encode(Deep(levels: 3), as: .binary, options: .init(maximumDepth: 2))
            Issue.record("expected an error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect((context.underlyingError as? PropertyListError)?.code == .depthLimitExceeded)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

extension PropertyListValueEncoderErrorTests {
    @Test func superEncodersInALoopThrowWithoutGrowing() {
        /// Nests super encoders without recursion.
        struct Matryoshka: Encodable {
            enum Keys: CodingKey { case doll }
            func encode(to encoder: Encoder) throws {
                var current = encoder
                for _ in 0..<100_000 {
                    var container = current.container(keyedBy: Keys.self)
                    current = container.superEncoder()
                }
                var container = current.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .doll)
            }
        }
        #expect(throws: EncodingError.self) { try encoder.encode(Matryoshka()) }
    }
}
