/// An index the model asks the store to keep (`NSFetchIndexDescription`):
/// Core Data creates it as `Z_<Entity>_<name>` over the elements' columns.
/// Not part of the version hash.
public struct FetchIndexDescription: Sendable, Hashable {
    public struct Element: Sendable, Hashable {
        public enum Kind: Int, Sendable, Hashable {
            /// An ordinary B-tree index (`NSFetchIndexElementTypeBinary`).
            case binary = 0
            /// A spatial index (`NSFetchIndexElementTypeRTree`).
            case rTree = 1
        }

        /// The attribute (or to-one relationship) indexed.
        public var propertyName: String
        public var kind: Kind
        public var isAscending: Bool

        public init(propertyName: String, kind: Kind = .binary, isAscending: Bool = true) {
            self.propertyName = propertyName
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    public var name: String
    public var elements: [Element]

    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
