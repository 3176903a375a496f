@testable import Device
import Foundation
import PropertyList

/// A delegate that records every callback and can save state.
final class RecordingDelegate: AppDelegate {
    var calls: [String] = []
    var launchOptions: LaunchOptions?
    var stateToSave: PropertyListValue?
    var lowDiskWarnings: [DiskSpace] = []
    var onBackground: ((AppContext) throws -> Void)?

    func application(_ app: AppContext, didFinishLaunchingWithOptions options: LaunchOptions) throws -> Bool {
        calls.append("didFinishLaunching")
        launchOptions = options
        return true
    }
    func applicationDidBecomeActive(_ app: AppContext) throws { calls.append("didBecomeActive") }
    func applicationWillResignActive(_ app: AppContext) throws { calls.append("willResignActive") }
    func applicationDidEnterBackground(_ app: AppContext) throws {
        calls.append("didEnterBackground")
        try onBackground?(app)
    }
    func applicationWillEnterForeground(_ app: AppContext) throws { calls.append("willEnterForeground") }
    func applicationWillTerminate(_ app: AppContext) throws { calls.append("willTerminate") }
    func applicationStateForPreservation(_ app: AppContext) throws -> PropertyListValue? { stateToSave }
    func applicationDidReceiveLowDiskWarning(_ app: AppContext, space: DiskSpace) throws {
        calls.append("lowDiskWarning")
        lowDiskWarnings.append(space)
    }
}

/// A delegate that implements nothing: every default is a no-op.
final class EmptyDelegate: AppDelegate {}
