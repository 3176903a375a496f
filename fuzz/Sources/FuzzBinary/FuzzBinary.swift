import FuzzSupport
import PropertyList

/// libFuzzer entry point: reads the input as a binary property list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzOracle.check(data, size, format: .binary) { try BinaryPropertyListReader(limits: FuzzOracle.limits).read($0) }
}
