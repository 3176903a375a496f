/// What the running kernel offers of Landlock, the Linux security module
/// that lets an unprivileged process confine itself and its descendants to
/// a set of paths.
public enum Landlock {
    /// The ABI version the kernel implements (1 = Linux 5.13, 2 adds
    /// ``LandlockAccess/refer``, 3 ``LandlockAccess/truncate``, 4 network
    /// rules, 5 ``LandlockAccess/ioctlDevice``, 6 IPC scopes, 7 audit
    /// logging), or 0 when the kernel has none.
    public static var abiVersion: Int {
        (try? Platform.landlockABI().get()) ?? 0
    }

    /// Whether processes can be confined on this kernel.
    public static var isAvailable: Bool { abiVersion >= 1 }

    /// Why Landlock is missing, for the warning; nil when it is available.
    public static var unavailableReason: String? {
        switch Platform.landlockABI() {
        case .success: return nil
        case .failure(let failure) where failure.errno == Platform.notSupported:
            return "the kernel was built without Landlock"
        case .failure(let failure):
            return "Landlock is disabled on this kernel (\(Platform.describe(failure.errno)))"
        }
    }
}
