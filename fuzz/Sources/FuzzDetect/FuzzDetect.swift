import FuzzSupport
import PropertyList

/// libFuzzer entry point: reads the input through the façade, which picks
/// the reader from the input's first bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzOracle.check(data, size, format: nil) { try PropertyListValue(data: $0, limits: FuzzOracle.limits) }
}
