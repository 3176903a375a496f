import Foundation

extension PathRule {
    /// Creates a rule for a file URL.
    public init(_ url: URL, _ access: LandlockAccess, optional: Bool = false) {
        self.init(url.standardizedFileURL.path, access, optional: optional)
    }
}
