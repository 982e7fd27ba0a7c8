/// The operations of the goals table (issue 7), plus the baseline A they are measured against.
public enum MeasuredOperation: String, CaseIterable, Sendable {
    /// A: `JSONSerialization.jsonObject(with:)` of the document's bytes.
    case jsonSerialization = "A"
    /// `Preferences(json:)`: lossless, ordered decode.
    case decode
    /// Decode, then `EPUB.Resolver().resolve(preferences)`.
    case decodeResolve = "decode+resolve"
    /// Decode, resolve, then `settings.readiumCSS().inlineStyle`: the full back-end pipeline.
    case decodeResolveCSS = "decode+resolve+css"
    /// `settings.readiumCSS().inlineStyle` from settings resolved beforehand (Readium's row 4).
    case css
    /// One `editor.increment(.fontSize)` or `decrement(.fontSize)`, alternately, on an existing
    /// editor: the slider tick. Each edit re-resolves.
    case edit
    /// `resolver.resolve(values, into: &settings)` from decoded values, into reused settings.
    case resolve
    /// `SettingValueTable(preferences)` then `resolve(_:into:)`: resolution starting from `Preferences`.
    case valuesResolve = "values+resolve"
    /// `preferences.jsonData()`.
    case encode
    /// `EPUB.catalogue.decode(json:)`: decode with diagnostics (duplicates included), what a
    /// back end does with an upload.
    case validate
    /// Decode, then an editor's settings form written as JSON: what the back end's form route
    /// does with a stored document (issue 29: at most 3× A on a 1 MiB document).
    case form

    /// The operations measured against A, in the order of the goals table.
    public static let measured: [MeasuredOperation] = [
        .decode, .decodeResolve, .decodeResolveCSS, .css, .edit, .resolve, .valuesResolve, .encode,
    ]

    /// Whether the operation resolves, so that the publication changes what it does.
    public var resolves: Bool {
        switch self {
        case .decodeResolve, .decodeResolveCSS, .css, .edit, .resolve, .valuesResolve, .form: true
        case .jsonSerialization, .decode, .encode, .validate: false
        }
    }

    /// The goal as a ratio to A, where issue 14 sets one (for the 12-key and 2-key documents).
    public var ratioGoal: Double? {
        switch self {
        case .decode: 0.12
        case .encode: 0.15
        case .decodeResolve: 0.25
        case .decodeResolveCSS: 0.4
        case .edit: 0.03
        case .form: 3
        case .jsonSerialization, .css, .resolve, .valuesResolve, .validate: nil
        }
    }

    /// How many calls make one timed block: cheap operations run more calls per block so that
    /// reading the clock stays small next to the work it times.
    public var batch: Int {
        switch self {
        case .edit, .resolve: 64
        case .valuesResolve: 32
        case .encode, .css: 8
        case .jsonSerialization, .decode, .decodeResolve, .decodeResolveCSS, .validate, .form: 4
        }
    }
}
