/// The write rules: where the app may change things.
extension AppContainer {
    /// Refuses a change to `path` that iOS would refuse: anything directly at
    /// the root, inside the bundle, or in a read-only directory.
    func checkWritable(_ path: ContainerPath, action: String) throws(ContainerError) {
        let first = path.firstComponent
        if first.hasSuffix(".app") || (bundleComponent.map { first == $0 } ?? false) {
            throw ContainerError(.writeInBundle, path: path.text, "cannot \(action): the app bundle is read-only")
        }
        if path.isRoot || path.isTopLevel {
            throw ContainerError(.writeAtRoot, path: path.text, "cannot \(action): apps may not write at the container root")
        }
        let directory = StorageRules.directory(forRelativePath: path.normalized)
        guard StorageRules.rules(for: directory).writable else {
            if directory == .home {
                throw ContainerError(.writeAtRoot, path: path.text,
                                     "cannot \(action): only Documents, Library and tmp are writable")
            }
            throw ContainerError(.readOnly, path: path.text, "cannot \(action): the directory is read-only")
        }
    }
}
