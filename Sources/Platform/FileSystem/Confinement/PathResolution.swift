/// How a directory handle resolves paths beneath itself.
public enum PathResolution: Sendable, Equatable {
    /// `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` when the kernel
    /// has it (Linux 5.6+), else the component walk.
    case automatic
    /// The user-space walk only (what older kernels and other systems get).
    case componentWalk
}
