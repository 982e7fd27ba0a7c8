import Foundation
import ReadingPreferences

extension PreferencesStore.Device {
    /// This device's class (`eink`, `phone`, `tablet`, `desktop`, `web`, or the app's own), or
    /// `nil` when it has none (Specs/Store.md §1.4). A device of a class resolves the class's
    /// document (``StoreLayer/deviceClass(_:)``) between the base and its own.
    ///
    /// - Returns: The class's id, or `nil`.
    /// - Throws: ``StorageError`` when the device's state cannot be read.
    public func deviceClass() async throws -> String? {
        try await store.deviceClassID()
    }

    /// Sets this device's class, kept with the device's state (never synced). The class's
    /// document syncs to every device, so a new device of a class gets its values at its first
    /// sync. Effective values that change are reported with cause
    /// ``ChangeCause/profileSwitch``: the layers this device resolves changed.
    ///
    /// ```swift
    /// try await store.device.setClass("eink")
    /// ```
    ///
    /// - Parameter id: The class's id, replica-style (`[a-z0-9][a-z0-9-]{0,63}`), or `nil` for
    ///   none.
    /// - Throws: ``StorageError`` with ``StorageError/Code/invalidIdentifier`` for an id that is
    ///   not replica-style (nothing changes), or another ``StorageError``.
    public func setClass(_ id: String?) async throws {
        if let id { try StorageLocation.layer(configurable: store.configurable, .deviceClass(id)).checked() }
        try await store.changeDeviceState(
            member: PreferencesStore.deviceClassKey, to: id.map(JSONValue.string))
    }

    /// The scope policy this device keeps (Specs/Store.md §3.1): ``ScopePolicy/Name/default``
    /// unless set. An app's own policy (``PreferencesStore/Options/scopePolicy``) wins over it.
    ///
    /// - Returns: The policy's name.
    /// - Throws: ``StorageError`` when the device's state cannot be read.
    public func scopePolicy() async throws -> ScopePolicy.Name {
        try await store.scopePolicyName()
    }

    /// Sets the scope policy this device keeps, with its state (never synced).
    ///
    /// ```swift
    /// try await store.device.setScopePolicy(.formFactor)
    /// ```
    ///
    /// - Parameter name: The shipped policy.
    /// - Throws: ``StorageError``.
    public func setScopePolicy(_ name: ScopePolicy.Name) async throws {
        try await store.changeDeviceState(
            member: PreferencesStore.scopePolicyKey, to: name == .default ? nil : .string(name.rawValue))
    }
}

extension PreferencesStore {
    /// The layer an edit target names on this device (Specs/Store.md §3.6): shared or the active
    /// profile for ``EditTarget/base``, this device's class, this device, or the publication.
    ///
    /// ```swift
    /// let layer = try await store.layer(for: .deviceClass)   // .deviceClass("eink")
    /// ```
    ///
    /// - Parameters:
    ///   - target: The target.
    ///   - publication: The publication an edit is of, or `nil` for none.
    /// - Returns: The layer.
    /// - Throws: ``EditTargetError`` for the class of a device that has none, or the book
    ///   without a publication; ``StorageError`` when the device's state cannot be read.
    public func layer(for target: EditTarget, publication: String? = nil) async throws -> StoreLayer {
        switch target {
        case .base: return try await baseLayer()
        case .device: return .device
        case .deviceClass:
            guard let id = try await deviceClassID() else { throw EditTargetError(target: target) }
            return .deviceClass(id)
        case .book:
            guard let publication else { throw EditTargetError(target: target) }
            return .publication(publication)
        }
    }

    // MARK: - Internals

    /// The device state's member holding this device's class.
    static var deviceClassKey: String { "deviceClass" }
    /// The device state's member holding this device's scope policy.
    static var scopePolicyKey: String { "scopePolicy" }

    /// The class a device state names, when it is a valid class id.
    static func deviceClass(in state: Preferences?) -> String? {
        guard let id = state?[deviceClassKey]?.stringValue, ReplicaID.isValid(id) else { return nil }
        return id
    }

    /// This device's state, loaded once.
    func deviceState() async throws -> Preferences? {
        if !deviceLoaded {
            deviceDocument = try await loadFresh(.device)
            deviceLoaded = true
        }
        return deviceDocument?.preferences
    }

    /// This device's class, or `nil`.
    func deviceClassID() async throws -> String? {
        Self.deviceClass(in: try await deviceState())
    }

    /// The name of this device's scope policy; an unknown name is the default.
    func scopePolicyName() async throws -> ScopePolicy.Name {
        try await deviceState()?[Self.scopePolicyKey]?.stringValue.flatMap(ScopePolicy.Name.init) ?? .default
    }

    /// The policy the save rule follows: the app's own, else this device's.
    func scopePolicy() async throws -> ScopePolicy {
        if let policy = options.scopePolicy { return policy }
        return ScopePolicy.shipped(try await scopePolicyName(), catalogue: Schema.catalogue)
    }

    /// Sets (or, with `nil`, removes) one member of this device's state, in the write section.
    func changeDeviceState(member: String, to value: JSONValue?) async throws {
        try await section.run { _ in
            let writes = try await storage.write([
                DocumentEdit(.device) { current in
                    var state = current?.preferences ?? Preferences()
                    state[member] = value
                    return state
                }
            ])
            problems += writes.problems
            deviceDocument = writes.documents[.device] ?? nil
            deviceLoaded = true
            await notify(cause: .profileSwitch)
        }
    }
}
