import FileSystem
import SystemPackage
import Foundation
import PropertyList

/// A migration's journal, in `Library/Application Support/.com.apple.sandbox.migration/`
/// (a directory the app may write even when confined, flagged
/// do-not-back-up):
///
/// ```
/// plan.plist    the plan, written once, before anything moves
/// state.plist   the plan's identifier and how many of its items are done;
///               written after the plan, so its presence commits the plan
/// .migration.lock   held while a job runs (one job per container at a time)
/// ```
///
/// Both files are replaced atomically with ``Durability/full``. The state
/// is rewritten after each batch of moves, once the directories they
/// changed are flushed, so it never counts a move that is not durable; the
/// items after it are reconciled with the disk when the job resumes.
struct MigrationJournal {
    static let directoryName = ".com.apple.sandbox.migration"
    /// The container-relative path of the journal's directory.
    static let directoryPath = ContainerDirectory.applicationSupport.relativePath + "/" + directoryName
    static let planName = "plan.plist"
    static let stateName = "state.plist"
    static let lockSubject = "migration"

    /// What the state file holds.
    struct State: Codable, Sendable, Equatable {
        var plan: String
        var completed: Int
    }

    /// The journal's directory (held open).
    let directory: FileDescriptor
    let durability: Durability

    /// The plan and state of an interrupted job, if there is one. A plan
    /// without a state (killed before the commit) is discarded when
    /// `discardingUncommitted` (only the job, under its lock, does that):
    /// nothing had moved yet.
    func load(discardingUncommitted: Bool = false) throws(MigrationError) -> (MigrationPlan, State)? {
        guard let stateData = try read(Self.stateName) else {
            if discardingUncommitted { try? directory.removeIfPresent(Self.planName) }
            return nil
        }
        let state: State = try decode(State.self, stateData, Self.stateName)
        guard let planData = try read(Self.planName) else {
            throw MigrationError(.corruptJournal, path: Self.path(Self.planName), "the migration journal has a state but no plan")
        }
        let plan: MigrationPlan = try decode(MigrationPlan.self, planData, Self.planName)
        guard plan.identifier == state.plan, plan.version == MigrationPlan.currentVersion,
              (0...plan.entries.count).contains(state.completed) else {
            throw MigrationError(.corruptJournal, path: Self.path(Self.stateName), "the migration journal's state does not match its plan")
        }
        return (plan, state)
    }

    /// Writes the plan, then the state that commits it.
    func begin(_ plan: MigrationPlan) throws(MigrationError) {
        try write(plan, Self.planName)
        try record(State(plan: plan.identifier, completed: 0))
    }

    /// Records how many items are done.
    func record(_ state: State) throws(MigrationError) {
        try write(state, Self.stateName)
    }

    /// Removes the state (which ends the job), then the plan.
    func finish() throws(MigrationError) {
        do {
            try directory.removeIfPresent(Self.stateName)
            try directory.removeIfPresent(Self.planName)
            if durability == .full { try directory.sync() }
        } catch {
            throw MigrationError(ContainerError(error, path: Self.path(Self.stateName), "finish the migration journal"))
        }
    }

    // MARK: Files

    static func path(_ name: String) -> String {
        directoryPath + "/" + name
    }

    private func read(_ name: String) throws(MigrationError) -> Data? {
        do {
            let fd = try directory.open(name, .readOnly, options: .noFollow)
            defer { fd.closeQuietly() }
            return try fd.readAll()
        } catch {
            if error.isNotFound { return nil }
            throw MigrationError(ContainerError(error, path: Self.path(name), "read the migration journal"))
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ name: String) throws(MigrationError) -> T {
        do { return try PropertyListValueDecoder().decode(type, from: data) } catch {
            throw MigrationError(.corruptJournal, path: Self.path(name), "the migration journal is unreadable").caused(by: error)
        }
    }

    private func write<T: Encodable>(_ value: T, _ name: String) throws(MigrationError) {
        let data: Data
        do { data = try PropertyListValueEncoder().encode(value, as: .binary) } catch {
            throw MigrationError(.corruptJournal, path: Self.path(name), "cannot encode the migration journal").caused(by: error)
        }
        do {
            try directory.writeAtomically(data, to: name, options: AtomicWriteOptions(durability: durability, permissions: 0o600))
        } catch {
            throw MigrationError(ContainerError(error, path: Self.path(name), "write the migration journal"))
        }
    }
}
