import OrderedCollections

extension OrderedSet {
    /// The address of the set's element storage: equal for copies that share
    /// it, such as the keys of records the binary reader decoded with one
    /// keys array. Only meaningful while the set is alive, so callers compare
    /// it only among values one operation holds.
    var storageIdentity: UnsafeRawPointer? {
        elements.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { UnsafeRawPointer($0) } }
    }
}
