import Foundation
import PropertyList

/// What every harness checks for one input.
///
/// Reading arbitrary bytes must end in a value or a thrown error; a trap,
/// sanitizer report, hang or runaway allocation is a bug that libFuzzer
/// catches by itself. For a value that was read, this oracle adds:
/// - the binary writer accepts it, and the binary reader gives back exactly
///   the same value (binary can hold every `PropertyListValue`);
/// - if the XML writer accepts it, the XML reader reads the output back to
///   an equivalent value (XML's documented losses allowed, see
///   ``ValueComparison/xmlText``);
/// - if the writer of the format the input was in accepts the value, its
///   reader reads that output back without error.
///
/// A broken invariant stops the run with `fatalError`, which libFuzzer
/// records as a crash with the input that caused it. The trap lives here in
/// the harness only; the library itself never traps on input.
public enum FuzzOracle {
    /// The limits every harness reads with: CF's depth, and object and
    /// input budgets far above anything a 64 KiB input needs, so they only
    /// stop runaway decoding.
    public static let limits = PropertyListLimits(maximumDepth: 512, maximumObjectCount: 1 << 20, maximumInputSize: 1 << 20)

    /// The largest value, in ``ValueWeight`` units, that is re-encoded.
    ///
    /// A binary file may reference one sub-tree many times; the value shares
    /// it in memory but writers expand it, so a small input can stand for a
    /// huge document. Those are read (which must stay cheap) but not
    /// re-encoded, so the harness never times out on its own work. At 2^20
    /// a shared-reference input just under the budget took 2.5 s to write,
    /// read back and compare in both formats with sanitizers, and 12 s under
    /// load (over `run.sh`'s 10 s timeout); reading it takes milliseconds.
    public static let maximumWeight = 1 << 18

    /// The limits a writer's output is read back with. Text is larger than
    /// the input it came from (a binary input of 64 KiB can become several
    /// MiB of XML), so only the library's defaults apply.
    static let readBackLimits = PropertyListLimits.default

    /// Runs one fuzz input through `read` and the round-trip checks.
    ///
    /// - Parameters:
    ///   - bytes: the input, as libFuzzer passes it.
    ///   - count: its length.
    ///   - format: the format the input was read as, whose writer is also
    ///     exercised; `nil` to take it from ``PropertyListFormat/detect(_:)``.
    ///   - read: the reader under test.
    /// - Returns: 0, as libFuzzer requires.
    public static func check(_ bytes: UnsafePointer<UInt8>, _ count: Int, format: PropertyListFormat?,
                             read: (Data) throws -> PropertyListValue) -> CInt {
        let input = Data(bytes: bytes, count: count)
        let value: PropertyListValue
        do {
            value = try read(input)
        } catch {
            return 0 // refused input: the expected outcome for most mutations
        }
        guard ValueWeight.isAtMost(value, maximumWeight) else { return 0 }
        // Binary holds every value, so its writer may not refuse one. The
        // XML writer refuses some strings by design (control characters,
        // non-characters). OpenStep and JSON cannot carry every type, so
        // their read-back is not compared; it only has to succeed.
        checkRoundTrip(value, as: .binary, writerMayRefuse: false, comparison: .exact)
        checkRoundTrip(value, as: .xml, writerMayRefuse: true, comparison: .xmlText)
        let source = format ?? PropertyListFormat.detect(input)
        if source == .openStep || source == .json {
            checkRoundTrip(value, as: source, writerMayRefuse: true, comparison: nil)
        }
        return 0
    }

    /// Writes `value` as `format` and reads it back with the same format's
    /// reader, which must accept it and, given a comparison, return a value
    /// that matches.
    static func checkRoundTrip(_ value: PropertyListValue, as format: PropertyListFormat, writerMayRefuse: Bool,
                               comparison: ValueComparison?) {
        let name = format.displayName
        let encoded: Data
        do {
            encoded = try value.encoded(as: format)
        } catch {
            if writerMayRefuse { return }
            fail("the \(name) writer refused a value a reader produced: \(error)", value)
        }
        let decoded: PropertyListValue
        do {
            decoded = try PropertyListValue.decode(encoded, as: format, limits: readBackLimits)
        } catch {
            fail("the \(name) reader refused the \(name) writer's output: \(error)", value)
        }
        if let comparison, !comparison.matches(value, decoded) {
            fail("\(name) round trip changed the value to \(brief(decoded))", value)
        }
    }

    static func fail(_ message: String, _ value: PropertyListValue) -> Never {
        fatalError("fuzz oracle: \(message)\nvalue read: \(brief(value))")
    }

    /// A value's description cut to a size a crash log can hold.
    static func brief(_ value: PropertyListValue) -> String {
        let text = String(describing: value)
        return text.count <= 2000 ? text : String(text.prefix(2000)) + "…"
    }
}
