import Observation
import ReadingPreferences
import ReadingPreferencesStore

/// An `@Observable` model of one publication's preferences for SwiftUI (Specs/Store.md §10.1): reading a
/// handle tracks it, and editing changes the handle at once and saves through the store.
///
/// ```swift
/// @State var model: ObservablePreferences<EPUB>
///
/// var body: some View {
///     Stepper(model[.fontSize].formattedValue(), onIncrement: { model.edit { try $0.increment(.fontSize) } },
///             onDecrement: { model.edit { try $0.decrement(.fontSize) } })
/// }
/// ```
///
/// Changes made elsewhere (another window, a sync, a person editing the files and a
/// ``PreferencesStore/reload()``) reach the model through the store's change stream, so the
/// view follows them too. The model lives on the main actor, like the views that read it.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@Observable
public final class ObservablePreferences<Schema: ResolvableSchema> {
    /// The editor the views read: its handles, settings and preferences.
    public private(set) var editor: PreferencesEditor<Schema>
    /// The last error an edit or a save met, or `nil`.
    public private(set) var lastError: (any Error)?

    /// The store edits are saved through.
    @ObservationIgnored public let store: PreferencesStore<Schema>
    /// The publication, or `nil` for shared preferences alone.
    @ObservationIgnored public let publication: String?
    /// What the configurable knows of the publication.
    @ObservationIgnored public let context: PublicationContext

    /// The preferences the store last held, so a save writes only the keys edited here.
    @ObservationIgnored private var savedPreferences: Preferences
    /// Saves run one after another.
    @ObservationIgnored private var saving: Task<Void, Never>?
    @ObservationIgnored private var following: Task<Void, Never>?

    /// Loads a publication's preferences from a store and follows its changes.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - publication: The publication, or `nil` for shared preferences alone.
    ///   - context: What the configurable knows of the publication.
    /// - Throws: ``ReadingPreferencesStore/StorageError`` when a document cannot be read.
    public init(
        store: PreferencesStore<Schema>, publication: String? = nil,
        context: PublicationContext = PublicationContext()
    ) async throws {
        self.store = store
        self.publication = publication
        self.context = context
        // Subscribe first, then read: an edit made in between reaches the stream and refreshes
        // the model, instead of slipping between the read and the subscription.
        let changes = try await store.changes(for: publication, context: context)
        let editor = try await store.editor(for: publication, context: context)
        self.editor = editor
        self.savedPreferences = editor.preferences
        following = Task { [weak self] in
            for await _ in changes {
                await self?.refresh()
            }
        }
    }

    isolated deinit {
        following?.cancel()
    }

    /// A read-only view of one setting; reading it in a view's body tracks it.
    ///
    /// - Parameter setting: The setting.
    public subscript<Value>(setting: Setting<Schema, Value>) -> PreferenceHandle<Schema, Value> {
        editor[setting]
    }

    /// Edits the preferences: the change shows at once, and is saved through the store in the
    /// background (each changed key back to the layer it came from). A failing edit changes
    /// nothing and is kept in ``lastError``.
    ///
    /// - Parameter body: The edits.
    public func edit(_ body: (inout PreferencesEditor<Schema>) throws -> Void) {
        var copy = editor
        do {
            try body(&copy)
        } catch {
            lastError = error
            return
        }
        editor = copy
        lastError = nil
        let preferences = copy.preferences
        let original = savedPreferences
        savedPreferences = preferences
        let previous = saving
        let store = store
        let publication = publication
        saving = Task { [weak self] in
            await previous?.value
            do {
                try await store.save(preferences, original: original, publication: publication)
            } catch {
                self?.lastError = error
            }
        }
    }

    /// Waits until every edit made so far is saved.
    public func waitUntilSaved() async {
        await saving?.value
    }

    /// Reads the store again after a change made elsewhere.
    private func refresh() async {
        await saving?.value
        do {
            let fresh = try await store.editor(for: publication, context: context)
            guard fresh.preferences != editor.preferences || fresh.settings != editor.settings else { return }
            editor = fresh
            savedPreferences = fresh.preferences
        } catch {
            lastError = error
        }
    }
}
