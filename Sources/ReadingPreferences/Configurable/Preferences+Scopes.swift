extension Preferences {
    /// Keeps only the publication-specific keys of a schema (Specs/Resolution.md §6), such as EPUB's
    /// `language`, `offsetFirstPage`, `readingProgression`, `spread` and `verticalText`.
    ///
    /// ```swift
    /// let perBook = preferences.filterPublicationPreferences(of: EPUB.self)
    /// let shared = preferences.filterSharedPreferences(of: EPUB.self)
    /// // perBook.merging(shared) has the same entries as preferences
    /// ```
    public func filterPublicationPreferences<Schema: SettingsSchema>(of schema: Schema.Type) -> Preferences {
        filter(keys: Self.publicationKeys(of: schema))
    }

    /// Drops the publication-specific keys of a schema; unknown keys are kept (Specs/Resolution.md §6).
    public func filterSharedPreferences<Schema: SettingsSchema>(of schema: Schema.Type) -> Preferences {
        filterNot(keys: Self.publicationKeys(of: schema))
    }

    private static func publicationKeys<Schema: SettingsSchema>(of schema: Schema.Type) -> [String] {
        Schema.catalogue.descriptors.filter { $0.scope == .publication }.flatMap { [$0.key] + $0.renamedFrom }
    }
}
