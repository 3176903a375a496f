import Foundation
import Testing
@testable import PropertyList

/// Issue 14, finding 12: a few hundred bytes of shared references stand for
/// gigabytes once written in a format that repeats them. Every writer
/// measures the least its output can be before it allocates, and refuses a
/// value over the limit with one typed error.
@Suite struct OutputLimitTests {
    /// 2^30 leaves in a 163-byte file, decoded as one shared value.
    static let bomb: PropertyListValue = {
        (try? BinaryPropertyListReader().read(BinaryPlistBuilder.sharedReferenceBomb(levels: 30))) ?? .array([])
    }()

    @Test(arguments: PropertyListFormat.allCases)
    func aSharedReferenceBombIsRefusedByEveryWriter(format: PropertyListFormat) throws {
        let started = ContinuousClock.now
        let error = #expect(throws: PropertyListError.self) {
            try Self.bomb.encoded(as: format, options: PropertyListWriteOptions(maximumOutputSize: 1 << 18))
        }
        #expect(error?.code == .outputLimitExceeded)
        #expect(error?.format == format)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test(arguments: PropertyListFormat.allCases)
    func sortingKeysKeepsSharingSoTheLimitStillApplies(format: PropertyListFormat) throws {
        let shared: PropertyListValue = ["b": Self.bomb, "a": Self.bomb]
        let error = #expect(throws: PropertyListError.self) {
            try shared.encoded(as: format, options: PropertyListWriteOptions(sortsKeys: true, maximumOutputSize: 1 << 18))
        }
        #expect(error?.code == .outputLimitExceeded)
    }

    @Test func theLimitIsOnTheOutputNotOnWhatTheValueShares() throws {
        // 2^10 leaves: 1,024 integers written out, well within 64 KiB in
        // every format; the same value with a limit below its least size is refused.
        let value = try BinaryPropertyListReader().read(BinaryPlistBuilder.sharedReferenceBomb(levels: 10))
        for format in PropertyListFormat.allCases {
            let data = try value.encoded(as: format, options: PropertyListWriteOptions(maximumOutputSize: 1 << 16))
            // OpenStep has no integers: they read back as strings.
            if format != .openStep { #expect(try PropertyListValue.decode(data, as: format) == value) }
            #expect(throws: PropertyListError.self) {
                try value.encoded(as: format, options: PropertyListWriteOptions(maximumOutputSize: 512))
            }
        }
    }

    @Test func aWideBombDoesNotReserveItsExpandedSize() throws {
        // 200,000 references to one 4 KiB string: 800 MB if each were written,
        // 200 KB as binary, where the string is stored once.
        let text = PropertyListValue.string(String(repeating: "x", count: 4096))
        let wide = PropertyListValue.array(Array(repeating: text, count: 200_000))
        let binary = try wide.encoded(as: .binary)
        #expect(binary.count < 1 << 20)
        let error = #expect(throws: PropertyListError.self) { try wide.encoded(as: .xml) }
        #expect(error?.code == .outputLimitExceeded)
    }

    @Test func theDefaultLimitLeavesOrdinaryDocumentsAlone() {
        #expect(PropertyListLimits.default.maximumOutputSize == 1 << 28)
        #expect(PropertyListWriteOptions().maximumOutputSize == PropertyListLimits.default.maximumOutputSize)
    }
}
