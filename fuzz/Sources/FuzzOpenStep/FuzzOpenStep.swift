import FuzzSupport
import PropertyList

/// libFuzzer entry point: reads the input as an OpenStep (old-style ASCII) property list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzOracle.check(data, size, format: .openStep) { try OpenStepPropertyListReader(limits: FuzzOracle.limits).read($0) }
}
