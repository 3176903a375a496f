/// An owned directory descriptor, closed when the last copy of the value
/// holding it goes away. The descriptor itself never changes, so sharing it
/// across threads is safe.
final class DescriptorBox: Sendable {
    let fd: Platform.Descriptor

    init(_ fd: Platform.Descriptor) { self.fd = fd }

    deinit { Platform.close(fd) }
}
