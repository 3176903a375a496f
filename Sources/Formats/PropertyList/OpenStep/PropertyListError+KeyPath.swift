extension PropertyListError {
    /// A writer's error about the value at the root; containers put their
    /// key or index in front as the error passes up (see ``inside(key:)``),
    /// so a successful write pays nothing for key paths.
    static func writing(_ code: Code, format: PropertyListFormat, _ message: String) -> PropertyListError {
        PropertyListError(code, format: format, location: .keyPath(""), message)
    }

    /// This error, its key path now starting with dictionary key `key`.
    func inside(key: String) -> PropertyListError {
        prefixingKeyPath(key, isIndex: false)
    }

    /// This error, its key path now starting with array index `index`.
    func inside(index: Int) -> PropertyListError {
        prefixingKeyPath("[\(index)]", isIndex: true)
    }

    private func prefixingKeyPath(_ component: String, isIndex: Bool) -> PropertyListError {
        guard case .keyPath(let rest) = location else { return self }
        var copy = self
        // Paths read `items[2].name`: a dot before a key, none before an index.
        let separator = rest.isEmpty || rest.hasPrefix("[") ? "" : "."
        copy.location = .keyPath(component + separator + rest)
        return copy
    }
}
