import Foundation
import ReadingPreferences

extension PreferencesStore {
    /// The profiles, sorted by name (Specs/Store.md §4.3).
    ///
    /// - Returns: Every profile of this configurable.
    /// - Throws: ``StorageError``.
    public func profiles() async throws -> [Profile] {
        var result: [Profile] = []
        for id in try await storage.names(of: .profiles, configurable: configurable) {
            guard try await document(.profile(id)) != nil else { continue }
            result.append(Profile(id: id, name: try await profileName(id)))
        }
        return result.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    /// Creates an empty profile.
    ///
    /// - Parameter name: Its display name.
    /// - Returns: The profile, with a new stable id.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func createProfile(named name: String) async throws -> Profile {
        try await section.run { turn in try await createProfile(named: name, preferences: Preferences(), turn)
        }
    }

    /// Creates a profile holding a copy of another's preferences.
    ///
    /// - Parameters:
    ///   - id: The profile to copy.
    ///   - name: The new profile's display name.
    /// - Returns: The new profile.
    /// - Throws: ``ProfileError`` when `id` does not exist, or ``StorageError``.
    @discardableResult
    public func duplicateProfile(_ id: String, named name: String) async throws -> Profile {
        try await section.run { turn in
            guard try await document(.profile(id)) != nil else { throw ProfileError.unknownProfile(id) }
            let copy = try await preferences(in: .profile(id)).withoutReservedKeys
            return try await createProfile(named: name, preferences: copy, turn)
        }
    }

    /// Renames a profile; its id does not change.
    ///
    /// - Parameters:
    ///   - id: The profile.
    ///   - name: The new display name.
    /// - Throws: ``ProfileError`` when it does not exist, or ``StorageError``.
    public func renameProfile(_ id: String, to name: String) async throws {
        try await section.run { turn in
            guard try await document(.profile(id)) != nil else { throw ProfileError.unknownProfile(id) }
            var changes = KeyChanges()
            changes[Profile.nameKey] = .some(.string(name))
            try await write([.profile(id): changes], turn, recording: recording(.edit))
        }
    }

    /// Deletes a profile; when it was active, shared preferences apply again.
    ///
    /// - Parameter id: The profile.
    /// - Throws: ``ProfileError`` when it does not exist, or ``StorageError``.
    public func deleteProfile(_ id: String) async throws {
        try await section.run { turn in
            // The profile's removal and, when it is active, this device's switch back to shared,
            // in one batch of the document-write step.
            let configurable = configurable
            let writes = try await storage.write(
                [
                    DocumentEdit(location(.profile(id))) { current in
                        guard current != nil else { throw ProfileError.unknownProfile(id) }
                        return Preferences()
                    },
                    DocumentEdit(.device) { current in
                        Self.deviceState(
                            current?.preferences, choosing: .automatic, ifActive: id, of: configurable)
                    },
                ], recording: recording(.edit))
            problems += writes.problems
            let device = writes.documents[.device] ?? nil
            self.deviceDocument = device
            deviceLoaded = true
            documents[.profile(id)] = .some(nil)
            pendingWrites[.profile(id)] = nil
            await notify(cause: .profileSwitch)
        }
    }

    /// Makes a profile active on this device (it replaces shared), or none, by hand: the choice
    /// beats the rules (Specs/Store.md §4.5) until ``activateAutomatically()``. Which profile is
    /// active is this device's choice: it is kept apart and never synced.
    ///
    /// - Parameter id: The profile, or `nil` for shared.
    /// - Throws: ``ProfileError`` when it does not exist, or ``StorageError``.
    public func activateProfile(_ id: String?) async throws {
        try await section.run { turn in try await activate(id, turn) }
    }

    /// ``activateProfile(_:)`` inside the write section.
    func activate(_ id: String?, _ turn: WriteTurn) async throws {
        if let id, try await document(.profile(id)) == nil { throw ProfileError.unknownProfile(id) }
        try await choose(id.map(DeviceProfileChoice.profile) ?? .shared, turn)
    }

    /// The active profile on this device, or `nil` when shared preferences apply: the one chosen
    /// by hand, or by the first rule that holds for a publication with no languages or
    /// collections (``profileSelection(context:)`` for a publication's).
    ///
    /// - Returns: The profile with its id and display name, or `nil`.
    /// - Throws: ``StorageError``.
    public func activeProfile() async throws -> Profile? {
        guard let id = try await activeProfileID() else { return nil }
        return Profile(id: id, name: try await profileName(id))
    }

    // MARK: - Internals

    /// The device document's member that maps each configurable to its active profile.
    static var activeProfilesKey: String { DeviceProfileChoice.key }

    /// This device's state with a configurable's choice set (a profile or shared by hand, or
    /// automatic), or, with `ifActive`, set only when that profile is the one chosen by hand.
    static func deviceState(
        _ state: Preferences?, choosing choice: DeviceProfileChoice, ifActive removed: String?,
        of configurable: String
    ) -> Preferences {
        var state = state ?? Preferences()
        var active = state[activeProfilesKey]?.objectValue ?? JSONObject()
        if let removed, active[configurable]?.stringValue != removed { return state }
        active[configurable] = choice.stored
        state[activeProfilesKey] = active.isEmpty ? nil : .object(active)
        return state
    }

    func activeProfileID() async throws -> String? {
        try await baseChoice(PublicationContext()).layer.profileID
    }

    func profileName(_ id: String) async throws -> String {
        try await preferences(in: .profile(id))[Profile.nameKey]?.stringValue ?? id
    }

    private func createProfile(named name: String, preferences: Preferences, _ turn: WriteTurn) async throws
        -> Profile
    {
        let id = Self.newProfileID()
        var document = Preferences()
        document[Profile.nameKey] = .string(name)
        document.merge(preferences)
        let location = location(.profile(id))
        let writes = try await storage.write(
            [
                DocumentEdit(location) { current in
                    // A new id names no document: one there means another writer took it.
                    guard current == nil else { throw StorageError.conflict(location) }
                    return document
                }
            ], recording: recording(.edit))
        problems += writes.problems
        documents[.profile(id)] = writes.documents[location] ?? .some(nil)
        return Profile(id: id, name: name)
    }

    /// A new profile id: 12 lower-case hex digits, unique in practice.
    static func newProfileID() -> String {
        ReplicaID.random().rawValue
    }
}

/// Why a profile operation failed.
public enum ProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No profile has this id.
    case unknownProfile(String)

    /// `no profile with id …`.
    public var description: String {
        switch self {
        case .unknownProfile(let id): return "no profile with id \(id)"
        }
    }
}
