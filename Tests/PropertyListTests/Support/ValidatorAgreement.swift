import Foundation
@testable import PropertyList
import TestSupport
import Testing

/// A decoder and the validator behind `sandbox plist -lint` that must agree
/// with it: the same verdict on every input, and when they refuse it the
/// same error (type, code, message, place).
struct ValidatorAgreement: Sendable {
    var decode: @Sendable (Data, PropertyListLimits) throws -> Void
    var validate: @Sendable (Data, PropertyListLimits) throws -> Void

    static let openStep = ValidatorAgreement(decode: { _ = try OpenStepPropertyListReader(limits: $1).read($0) },
                                             validate: { try OpenStepPropertyListReader(limits: $1).validate($0) })
    static let json = ValidatorAgreement(decode: { _ = try JSONPropertyListReader(limits: $1).read($0) },
                                         validate: { try JSONPropertyListReader(limits: $1).validate($0) })

    /// The decoder's and the validator's verdicts on `data`: nil when it is
    /// accepted, else the error's full text.
    func verdicts(_ data: Data, limits: PropertyListLimits = .default) -> (decoder: String?, validator: String?) {
        func verdict(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch { return "\(type(of: error)): \(error)" }
        }
        return (verdict { try decode(data, limits) }, verdict { try validate(data, limits) })
    }

    /// Checks agreement; returns whether the decoder accepted `data`.
    @discardableResult
    func expect(_ data: Data, limits: PropertyListLimits = .default, _ name: String,
                sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (decoder, validator) = verdicts(data, limits: limits)
        #expect(decoder == validator, "\(name): decoder \(decoder ?? "accepts"), validator \(validator ?? "accepts")",
                sourceLocation: sourceLocation)
        return decoder == nil
    }

    /// Every truncation and single-byte corruption of `data` (see
    /// ``DamagedCopies``), with `bytes` as the replacements.
    func expectOnDamagedCopies(of data: Data, named name: String, bytes: [UInt8]) {
        DamagedCopies.forEach(of: data, named: name, replacements: { byte in
            (bytes + [byte ^ 0x01, byte &+ 1]).filter { $0 != byte }
        }) { expect($0, $1) }
    }

    /// Random documents of `profile` written as `format`, each checked whole,
    /// with 1–4 random bytes changed, cut at a random place and with a byte
    /// removed.
    func expectOnRandomDocuments(_ format: PropertyListFormat, profile: RandomPropertyList.Profile, count: Int) throws {
        var generator = SeededGenerator(seed: 14)
        var written = 0
        for round in 0..<count {
            var random = RandomPropertyList(seed: UInt64(round), profile: profile)
            guard var data = try? random.value().encoded(as: format), !data.isEmpty else { continue }
            written += 1
            #expect(expect(data, "random document \(round)"))
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                data[Int.random(in: 0..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            expect(data, "random document \(round), damaged")
            let cut = Int.random(in: 0..<data.count, using: &generator)
            expect(data.prefix(cut), "random document \(round), cut at \(cut)")
            var shorter = data
            shorter.remove(at: Int.random(in: 0..<data.count, using: &generator))
            expect(shorter, "random document \(round), a byte removed")
        }
        #expect(written >= count / 2, "only \(written) of \(count) random documents could be written as \(format)")
    }
}
