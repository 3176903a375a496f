import FuzzSupport
import PropertyList

/// libFuzzer entry point: reads the input as a JSON property list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzOracle.check(data, size, format: .json) { try JSONPropertyListReader(limits: FuzzOracle.limits).read($0) }
}
