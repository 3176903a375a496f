import Foundation
import FuzzSupport
import KeyedArchive
import PropertyList

/// libFuzzer entry point: reads the input as a keyed archive, every way the
/// module offers, then writes what it read and reads that back.
///
/// Reading may fail with a `KeyedArchiveError`; anything else — a trap, a
/// sanitizer report, a hang — is a bug libFuzzer reports by itself. An
/// archive that was read generically must also be writable and read back;
/// a broken round trip stops the run with `fatalError` (in the harness
/// only, never in the library).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: bytes, count: count)
    guard let table = try? KeyedArchiveTable(data: input, limits: FuzzOracle.limits) else { return 0 }

    // Typed readers, each on a fresh unarchiver; errors are the expected outcome.
    _ = try? KeyedUnarchiver(table: table).decodeRoot(PropertyListValue.self)
    _ = try? KeyedUnarchiver(table: table).decodeRoot([String: [Int]].self)
    _ = try? KeyedUnarchiver(table: table).decodeRoot(Set<String>.self)
    _ = try? KeyedUnarchiver(table: table).decodeRoot(KeyedArchiveCountedSet<Int>.self)
    _ = try? KeyedUnarchiver(table: table).decodeRoot(KeyedArchiveSpecialValue.self)
    _ = try? KeyedUnarchiver(table: table).decodeRoot([URL].self)
    _ = try? KeyedUnarchiver(table: table).decodeRoot([UUID: Date].self)
    let secure = KeyedUnarchiver(table: table)
    secure.requireSecureDecoding(allowing: [[String].self])
    _ = try? secure.decodeRootGraph()
    secure.discardGraph()

    // The generic reader, and a write and read back of what it found.
    // Cyclic graphs are emptied at the end so LeakSanitizer sees no leak.
    let reader = KeyedUnarchiver(table: table)
    defer { reader.discardGraph() }
    guard let top = try? reader.decodeTopLevelGraph() else { return 0 }
    let archiver = KeyedArchiver()
    do {
        for (key, value) in top {
            switch value {
            case .object(let object): try archiver.encode(object, forKey: key)
            default: break
            }
        }
    } catch let error as KeyedArchiveError where error.code == .depthLimitExceeded {
        return 0
    } catch {
        fatalError("a graph that was read could not be written: \(error)")
    }
    let written: Data
    do {
        written = try archiver.encodedData()
    } catch let error as KeyedArchiveError where error.code == .unsupportedValue {
        return 0 // e.g. a depth the property-list writer refuses
    } catch {
        fatalError("the archive could not be serialized: \(error)")
    }
    do {
        let again = try KeyedUnarchiver(data: written)
        _ = try again.decodeTopLevelGraph()
        again.discardGraph()
    } catch {
        fatalError("an archive we wrote could not be read back: \(error)")
    }
    return 0
}
