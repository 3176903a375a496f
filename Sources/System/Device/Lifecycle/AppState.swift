/// An app's lifecycle state, as UIKit's.
public enum AppState: String, Codable, Sendable, Hashable, CaseIterable {
    /// Not launched, or terminated.
    case notRunning
    /// In the foreground, not receiving events (launching, or interrupted).
    case inactive
    /// In the foreground, receiving events.
    case active
    /// Running in the background.
    case background
    /// In memory but not executing; may be terminated without notice.
    case suspended
}
