/// A checked container-relative path: its components, none empty, `.` or
/// `..`, no NUL byte, within the system's length limits.
///
/// The check is lexical and happens before any system call, so the common
/// mistakes (`../x`, `/etc/passwd`) fail fast with a clear error; symbolic
/// links are the kernel's (or the walk's) business at open time.
///
/// The path is kept as one normalized string (components joined by `/`),
/// which is what `openat2` takes: a path that is already normalized, the
/// usual case, is checked in one pass over its bytes and stored without a
/// copy. Components are split off only where a walk needs them.
struct ContainerPath: Sendable, Hashable {
    /// The path as the caller wrote it (for error messages).
    let text: String
    /// The canonical form: the components joined with "/" (`""` for the root).
    let normalized: String

    static let maximumLength = 4095
    static let maximumComponentLength = 255

    init(_ text: String) throws(ContainerError) {
        self.text = text
        let bytes = text.utf8
        if bytes.count > Self.maximumLength {
            throw ContainerError(.invalidPath, path: text, "the path is longer than \(Self.maximumLength) bytes")
        }
        if bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "~") {
            throw ContainerError(.escapesContainer, path: text, "the path must be relative to the container")
        }
        // One pass: find NULs, over-long components, and whether any
        // component is empty or "." (then the string must be rebuilt).
        var componentLength = 0
        var dots = 0  // leading dots of the current component, while it is only dots
        var needsRebuild = false
        for byte in bytes {
            switch byte {
            case 0:
                throw ContainerError(.invalidPath, path: text, "the path contains a NUL byte")
            case UInt8(ascii: "/"):
                if componentLength == 0 || (componentLength == 1 && dots == 1) { needsRebuild = true }
                if componentLength == 2 && dots == 2 {
                    throw ContainerError(.escapesContainer, path: text, "the path may not contain '..'")
                }
                componentLength = 0
                dots = 0
            default:
                if byte == UInt8(ascii: ".") && dots == componentLength { dots += 1 }
                componentLength += 1
                if componentLength > Self.maximumComponentLength {
                    throw ContainerError(.invalidPath, path: text,
                                         "a path component is longer than \(Self.maximumComponentLength) bytes")
                }
            }
        }
        if componentLength == 2 && dots == 2 {
            throw ContainerError(.escapesContainer, path: text, "the path may not contain '..'")
        }
        if (componentLength == 0 && !bytes.isEmpty) || (componentLength == 1 && dots == 1) { needsRebuild = true }
        normalized = needsRebuild
            ? text.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(separator: "/")
            : text
    }

    private init(text: String, normalized: String) {
        self.text = text
        self.normalized = normalized
    }

    /// A path from components already known to be single valid names (taken
    /// from a directory listing or from another checked path).
    init(validComponents: [String]) {
        let joined = validComponents.joined(separator: "/")
        self.init(text: joined, normalized: joined)
    }

    /// The container root.
    static let root = ContainerPath(validComponents: [])

    /// The components, in order.
    var components: [String] {
        normalized.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
    var isRoot: Bool { normalized.isEmpty }
    /// Whether the path is a single name directly in the root.
    var isTopLevel: Bool { !normalized.isEmpty && !normalized.utf8.contains(UInt8(ascii: "/")) }
    /// The first component (`""` for the root).
    var firstComponent: Substring {
        normalized.firstIndex(of: "/").map { normalized[..<$0] } ?? normalized[...]
    }
    /// The last component (`""` for the root).
    var name: String {
        normalized.lastIndex(of: "/").map { String(normalized[normalized.index(after: $0)...]) } ?? normalized
    }
    /// The normalized path of the parent directory (`""` for the root or a top-level name).
    var parentNormalized: String {
        normalized.lastIndex(of: "/").map { String(normalized[..<$0]) } ?? ""
    }

    /// The path of `name` in the same directory as this one.
    func sibling(_ name: String) -> ContainerPath {
        let parent = parentNormalized
        let joined = parent.isEmpty ? name : parent + "/" + name
        return ContainerPath(text: joined, normalized: joined)
    }

    /// A path below this one.
    func appending(_ name: String) -> ContainerPath {
        ContainerPath(text: text.isEmpty ? name : text + "/" + name,
                      normalized: normalized.isEmpty ? name : normalized + "/" + name)
    }
}
