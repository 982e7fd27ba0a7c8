import ReadingPreferences

extension ProfileRuleContext {
    /// The context a task gave with ``evaluating(_:)``, in place of the stores' own.
    @TaskLocal static var scoped: ProfileRuleContext?

    /// Runs `operation` with this context as the device's part of the rule context
    /// (Specs/Store.md §4.5) of every store call it makes, in place of each store's own
    /// (``PreferencesStore/setRuleContext(_:)``): what a server does for one request, whose
    /// query gives the appearance, the time and the device's class, while other requests on the
    /// same store give others.
    ///
    /// ```swift
    /// let context = ProfileRuleContext(appearance: .dark, minuteOfDay: 22 * 60, deviceClass: "eink")
    /// let state = try await context.evaluating {
    ///     try await store.state(for: bookID, context: book)
    /// }
    /// ```
    ///
    /// - Parameter operation: The calls to make in this context.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func evaluating<Result>(_ operation: () async throws -> Result) async rethrows -> Result {
        try await Self.$scoped.withValue(with(publication: PublicationContext()), operation: operation)
    }
}
