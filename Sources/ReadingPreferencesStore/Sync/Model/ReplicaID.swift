import Foundation

/// A replica's id (Specs/Sync.md §1): one device, or one server account, taking part in sync.
///
/// Ids match `[a-z0-9][a-z0-9-]{0,63}`, so they are safe as file names on every file system and
/// compare the same way in every language (they are ASCII: bytes, scalars and characters agree).
///
/// ```swift
/// let phone = ReplicaID("phone")            // a valid id
/// ReplicaID("Phone")                        // nil: upper case
/// let fresh = ReplicaID.random()            // 12 lower-case hex digits
/// ```
public struct ReplicaID: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The id's text.
    public let rawValue: String

    /// The id, or `nil` when `text` does not match `[a-z0-9][a-z0-9-]{0,63}`.
    ///
    /// - Parameter text: The candidate id.
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        rawValue = text
    }

    /// Whether a text is a valid id.
    ///
    /// - Parameter text: The candidate.
    /// - Returns: `true` when it matches `[a-z0-9][a-z0-9-]{0,63}`.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= 64, first != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-")
        }
    }

    /// A new random id: 12 lower-case hex digits, after `prefix-` when a valid prefix is given
    /// (cut so the whole stays within 64 characters).
    ///
    /// - Parameter prefix: A readable start, such as the device's chosen name.
    /// - Returns: The id.
    public static func random(prefix: String? = nil) -> ReplicaID {
        let random = String(UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(12))
        if let prefix, isValid(prefix) {
            let text = String(prefix.prefix(64 - 13)) + "-" + random
            if let id = ReplicaID(text) { return id }
        }
        return ReplicaID(unchecked: random)
    }

    /// An id known to be valid.
    init(unchecked text: String) { rawValue = text }

    /// Orders ids by their bytes (for ASCII text, `String`'s order is the bytes' order, and it
    /// compares them in one step).
    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The id's text.
    public var description: String { rawValue }

    /// Decodes an id from a string, refusing an invalid one.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` for an invalid id.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ReplicaID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(text) is not a replica id"))
        }
        self = id
    }

    /// Encodes the id as its text.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
