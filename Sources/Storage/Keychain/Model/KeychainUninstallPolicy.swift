/// What uninstalling an app does to its keychain items.
///
/// iOS has never documented this. Items have always survived uninstall in
/// practice (a 10.3 beta deleted them and the change was rolled back before
/// release), so ``retain`` is the default; ``delete`` is the behaviour some
/// early documentation and many developers expect.
public enum KeychainUninstallPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Keep every item (iOS's observed behaviour). Reinstalling the app finds them again.
    case retain
    /// Delete the items in the app's access groups that no remaining
    /// installed app is entitled to. Shared groups go only with their last app.
    case delete
}
