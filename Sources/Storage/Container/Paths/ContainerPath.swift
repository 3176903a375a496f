/// A checked container-relative path: its components, none empty, `.` or
/// `..`, no NUL byte, within the system's length limits.
///
/// The check is lexical and happens before any system call, so the common
/// mistakes (`../x`, `/etc/passwd`) fail fast with a clear error; symbolic
/// links are the kernel's (or the walk's) business at open time.
struct ContainerPath: Sendable, Hashable {
    /// The path as the caller wrote it (for error messages).
    let text: String
    /// The components, in order.
    let components: [String]

    static let maximumLength = 4095
    static let maximumComponentLength = 255

    init(_ text: String) throws(ContainerError) {
        self.text = text
        if text.utf8.contains(0) {
            throw ContainerError(.invalidPath, path: text, "the path contains a NUL byte")
        }
        if text.hasPrefix("/") || text.hasPrefix("~") {
            throw ContainerError(.escapesContainer, path: text, "the path must be relative to the container")
        }
        if text.utf8.count > Self.maximumLength {
            throw ContainerError(.invalidPath, path: text, "the path is longer than \(Self.maximumLength) bytes")
        }
        var components: [String] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                throw ContainerError(.escapesContainer, path: text, "the path may not contain '..'")
            }
            if part.utf8.count > Self.maximumComponentLength {
                throw ContainerError(.invalidPath, path: text, "a path component is longer than \(Self.maximumComponentLength) bytes")
            }
            components.append(String(part))
        }
        self.components = components
    }

    private init(text: String, components: [String]) {
        self.text = text
        self.components = components
    }

    /// A path from components already known to be single valid names (taken
    /// from a directory listing or from another checked path).
    init(validComponents: [String]) {
        self.init(text: validComponents.joined(separator: "/"), components: validComponents)
    }

    /// The container root.
    static let root = ContainerPath(validComponents: [])

    /// The canonical form: components joined with "/".
    var normalized: String { components.joined(separator: "/") }
    var isRoot: Bool { components.isEmpty }
    var name: String { components.last ?? "" }
    var parentComponents: ArraySlice<String> { components.dropLast() }

    /// A path below this one.
    func appending(_ name: String) -> ContainerPath {
        ContainerPath(text: text.isEmpty ? name : text + "/" + name, components: components + [name])
    }
}
