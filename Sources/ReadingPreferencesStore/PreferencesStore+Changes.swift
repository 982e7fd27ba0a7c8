import Foundation
import ReadingPreferences

extension PreferencesStore {
    /// A stream of the changes of a publication's effective values: the keys whose value the
    /// navigator uses changed, with old and new values and the cause (Specs/Store.md §9.1). Every call
    /// returns a stream of its own.
    ///
    /// ```swift
    /// for await change in try await store.changes(for: bookID, context: book) {
    ///     navigator.submit(try await store.preferences(for: bookID))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - publication: The publication, or `nil` for shared (or the active profile) alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: The stream; see ``PreferenceChangeStream`` for its guarantees.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func changes(for publication: String? = nil, context: PublicationContext = PublicationContext())
        async throws -> PreferenceChangeStream
    {
        await watchSyncsIfNeeded()
        let buffer = ChangeBuffer()
        let scope = ChangeSubscriber.Scope.effective(publication: publication, context: context)
        subscribers.append(
            ChangeSubscriber(scope: scope, target: .stream(buffer), last: try await snapshot(scope)))
        return PreferenceChangeStream(buffer: buffer)
    }

    /// A stream of the changes of the stored values of shared preferences, or of the active
    /// profile: what a settings screen that edits them shows.
    ///
    /// - Returns: The stream.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func storedChanges() async throws -> PreferenceChangeStream {
        await watchSyncsIfNeeded()
        let buffer = ChangeBuffer()
        subscribers.append(
            ChangeSubscriber(scope: .stored, target: .stream(buffer), last: try await snapshot(.stored)))
        return PreferenceChangeStream(buffer: buffer)
    }

    /// Posts `Notification.Name.readingPreferencesDidChange` on `center` for each
    /// change of a publication's effective values, until ``stopNotifications(_:)``.
    ///
    /// - Parameters:
    ///   - publication: The publication, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    ///   - center: The notification center.
    /// - Returns: A token for ``stopNotifications(_:)``.
    /// - Throws: ``StorageError`` when a document cannot be read.
    @discardableResult
    public func postNotifications(
        for publication: String? = nil, context: PublicationContext = PublicationContext(),
        center: NotificationCenter = .default
    ) async throws -> UUID {
        await watchSyncsIfNeeded()
        let id = UUID()
        let scope = ChangeSubscriber.Scope.effective(publication: publication, context: context)
        subscribers.append(
            ChangeSubscriber(
                scope: scope, target: .notifications(center, id: id), last: try await snapshot(scope)))
        return id
    }

    /// Stops a notification bridge.
    ///
    /// - Parameter token: What ``postNotifications(for:context:center:)`` returned.
    public func stopNotifications(_ token: UUID) {
        subscribers.removeAll {
            if case .notifications(_, let id) = $0.target { return id == token }
            return false
        }
    }

    /// Reads the documents again and reports what another process or a person changed, with
    /// cause ``ChangeCause/external``. Pending coalesced edits stay on top.
    ///
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func reload() async throws {
        try await section.run { turn in try await reload(cause: .external, turn) }
    }

    /// Reads the documents again and reports the differences with a cause.
    func reload(cause: ChangeCause, _ turn: WriteTurn) async throws {
        for layer in Array(documents.keys) {
            documents[layer] = .some(try await loadFresh(location(layer)))
        }
        if deviceLoaded { deviceDocument = try await loadFresh(.device) }
        await notify(cause: cause)
    }

    /// Returns once every change caused so far has been delivered to the streams and the
    /// notification bridges. Changes are delivered as the store's state is swapped, inside the
    /// call that caused them, so this is a barrier: call it before checking what a consumer got.
    public func settle() async {}

    // MARK: - Delivering

    /// Compares every subscriber's values with what it saw last and delivers the differences.
    func notify(cause: ChangeCause) async {
        subscribers.removeAll(where: \.isFinished)
        for index in subscribers.indices {
            let subscriber = subscribers[index]
            guard let now = try? await snapshot(subscriber.scope) else { continue }
            var changes = Self.differences(from: subscriber.last, to: now, cause: cause)
            if cause == .profileSwitch, !changes.isEmpty {
                // Specs/Store.md §9.2: a switch names the rule (or the hand) that chose the profile.
                let choice = try? await profileChoice(for: subscriber.scope)
                for index in changes.indices { changes[index].profileChoice = choice }
            }
            subscribers[index].last = now
            guard !changes.isEmpty else { continue }
            switch subscriber.target {
            case .stream(let buffer):
                buffer.deliver(changes)
            case .notifications(let center, _):
                post(changes, to: center, scope: subscriber.scope)
            }
        }
    }

    /// The values a subscriber watches, by key (compared by Unicode scalars), in JSON.
    func snapshot(_ scope: ChangeSubscriber.Scope) async throws -> [JSONScalarKey: JSONValue] {
        var values: [JSONScalarKey: JSONValue] = [:]
        switch scope {
        case .stored:
            for member in try await preferences(in: baseLayer()).withoutReservedKeys.members {
                values[JSONScalarKey(member.key)] = member.value
            }
        case .effective(let publication, let context):
            let editor = try await editor(for: publication, context: context)
            for (slot, descriptor) in Schema.catalogue.descriptors.enumerated() {
                if let value = editor.resolver.effectiveValue(ofSlot: slot, in: editor.settings) {
                    values[JSONScalarKey(descriptor.key)] = descriptor.coder.encode(value)
                }
            }
        }
        return values
    }

    static func differences(
        from old: [JSONScalarKey: JSONValue], to new: [JSONScalarKey: JSONValue], cause: ChangeCause
    ) -> [PreferenceChange] {
        var changes: [PreferenceChange] = []
        for key in Set(old.keys).union(new.keys).sorted() where old[key] != new[key] {
            changes.append(
                PreferenceChange(key: key.string, oldValue: old[key], newValue: new[key], cause: cause))
        }
        return changes
    }

    private func post(
        _ changes: [PreferenceChange], to center: NotificationCenter, scope: ChangeSubscriber.Scope
    ) {
        for change in changes {
            var info: [String: any Sendable] = [
                PreferencesStoreNotificationKey.key: change.key,
                PreferencesStoreNotificationKey.cause: change.cause.rawValue,
                PreferencesStoreNotificationKey.configurable: configurable,
            ]
            if let old = change.oldValue { info[PreferencesStoreNotificationKey.oldValue] = old }
            if let new = change.newValue { info[PreferencesStoreNotificationKey.newValue] = new }
            if case .effective(let publication?, _) = scope {
                info[PreferencesStoreNotificationKey.publication] = publication
            }
            center.post(name: .readingPreferencesDidChange, object: nil, userInfo: info)
        }
    }
}
