extension ResolvedSettings {
    /// A fingerprint of these settings that is stable across processes, machines, runs and
    /// versions of Swift (unlike `hashValue`): 32 lower-case hex digits of the SHA-256 of the
    /// schema's identifier, the layout and the resolved settings as JSON with sorted keys. Equal
    /// settings have equal fingerprints, so a server can use it as an HTTP ETag.
    ///
    /// ```swift
    /// let settings = EPUB.Resolver(publication: context).resolve(uploaded)
    /// response.headers["ETag"] = "\"\(settings.fingerprint)\""
    /// ```
    public var fingerprint: String {
        var hasher = SHA256()
        hasher.update(Schema.identifier.utf8)
        hasher.update([0])
        hasher.update(layout.rawValue.utf8)
        hasher.update([0])
        hasher.update(JSONValue.object(jsonObject).jsonData(options: .init(sortedKeys: true)))
        return hasher.finalize().hexString(digits: 32)
    }
}
