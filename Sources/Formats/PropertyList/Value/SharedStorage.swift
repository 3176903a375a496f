import OrderedCollections

/// The identity of a container's element storage, for walks that must
/// visit a shared container once: a decoded file's shared objects are one
/// storage however often they are referenced, so a "bomb" of a few hundred
/// bytes is walked in as many steps as it has distinct containers.
///
/// An identity is only meaningful while the container is alive, so a walk
/// compares identities only among values it holds. Empty containers have
/// none: every empty array shares one storage, whatever it stands for.
public enum SharedStorage {
    /// The identity of a non-empty array's storage; nil for an empty one.
    public static func identity<Element>(of array: [Element]) -> UnsafeRawPointer? {
        guard !array.isEmpty else { return nil }
        return array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// The identity of a non-empty dictionary's value storage; nil for an empty one.
    public static func identity<Key, Value>(of dictionary: OrderedDictionary<Key, Value>) -> UnsafeRawPointer? {
        identity(of: dictionary.values.elements)
    }
}
