import Foundation
import ReadingPreferences

/// A device as provenance names it: its replica id and, when it has one, its display name
/// ("Kobo Clara"), which a device sets for itself and carries in its replica file and its pushes
/// (Specs/Sync.md §2).
public struct DeviceIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The device's replica id.
    public var id: ReplicaID
    /// Its display name, when it has one.
    public var name: String?

    /// Creates an identity.
    ///
    /// - Parameters:
    ///   - id: The replica id.
    ///   - name: The display name, or `nil`.
    public init(id: ReplicaID, name: String? = nil) {
        self.id = id
        self.name = name
    }

    /// The name, or the id when the device has none.
    public var description: String { name ?? id.rawValue }

    /// `{"id": …, "name": …}` (`name` only when known).
    public var jsonValue: JSONValue {
        var members = [JSONObject.Member(key: "id", value: .string(id.rawValue))]
        if let name { members.append(.init(key: "name", value: .string(name))) }
        return .object(JSONObject(members: members))
    }

    /// The longest display name kept, in UTF-8 bytes; a longer one is cut at a character boundary.
    public static let maximumNameLength = 200

    /// A display name as a device keeps it: trimmed, without control characters or U+0000, at
    /// most ``maximumNameLength`` bytes; `nil` when nothing is left.
    ///
    /// - Parameter name: The name given.
    /// - Returns: The name to keep.
    public static func normalizedName(_ name: String) -> String? {
        var kept = ""
        for scalar in name.unicodeScalars where !scalar.properties.generalCategory.isControl {
            guard kept.utf8.count + String(scalar).utf8.count <= maximumNameLength else { break }
            kept.unicodeScalars.append(scalar)
        }
        let trimmed = kept.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControl: Bool {
        switch self {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: return true
        default: return false
        }
    }
}
