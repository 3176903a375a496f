import FileSystem
import Foundation
import PropertyList

/// The `DefaultValue`s of an app's `Settings.bundle`: the values the
/// Settings app shows before the user changes anything, which the
/// registration domain offers so the app reads the same.
public enum SettingsBundleDefaults {
    /// The defaults declared by `Settings.bundle/Root.plist` in `bundle`
    /// and the child panes it links (`PSChildPaneSpecifier` `File`), or an
    /// empty dictionary when the app has no settings bundle.
    ///
    /// - Throws: ``PreferencesError`` `.corruptFile` for a pane that is not
    ///   a property list with a `PreferenceSpecifiers` array.
    public static func values(inBundle bundle: URL) throws -> [String: PropertyListValue] {
        let settings = bundle.appendingPathComponent("Settings.bundle", isDirectory: true)
        var result: [String: PropertyListValue] = [:]
        var visited = Set<String>()
        try collect(pane: "Root", in: settings, into: &result, visited: &visited, isRoot: true)
        return result
    }

    private static func collect(pane: String, in settings: URL, into result: inout [String: PropertyListValue],
                                visited: inout Set<String>, isRoot: Bool) throws {
        // Panes may link each other in a loop; each is read once, and a
        // bundle is small, so the number of panes bounds the work.
        guard visited.insert(pane).inserted, visited.count <= 256 else { return }
        let url = settings.appendingPathComponent(pane + ".plist")
        guard let bytes = (try? FileSystemPaths.readFile(atPath: url.path)) ?? nil else {
            if isRoot { return }
            throw PreferencesError(.corruptFile, path: url.path, "the child pane \(pane) is missing")
        }
        let plist: PropertyListValue
        do {
            plist = try PropertyListValue(data: bytes)
        } catch {
            throw PreferencesError(.corruptFile, path: url.path, "not a property list").caused(by: error)
        }
        guard let specifiers = plist["PreferenceSpecifiers"]?.arrayValue else {
            throw PreferencesError(.corruptFile, path: url.path, "no PreferenceSpecifiers array")
        }
        for specifier in specifiers {
            if let key = specifier["Key"]?.stringValue, let value = specifier["DefaultValue"] {
                result[key] = value
            }
            if specifier["Type"]?.stringValue == "PSChildPaneSpecifier", let file = specifier["File"]?.stringValue,
               !file.contains("/") {
                try collect(pane: file, in: settings, into: &result, visited: &visited, isRoot: false)
            }
        }
    }
}
