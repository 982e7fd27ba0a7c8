/// Where an edit goes, named as a reader chooses it (Specs/Store.md §3.6): the layers an edit may
/// write, lowest first. ``PreferencesStore/layer(for:publication:)`` names the layer it is on this
/// device.
///
/// ```swift
/// let layer = try await store.layer(for: .deviceClass, publication: bookID)   // .deviceClass("eink")
/// try await store.apply(.set(key: "fontSize", value: 1.6), publication: bookID, to: layer)
/// try await store.move("fontSize", to: .base, publication: bookID)            // on every device
/// ```
public enum EditTarget: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Shared, or the active profile: every device.
    case base
    /// This device's class: every device of the class (`devices like this`).
    case deviceClass = "class"
    /// This device only.
    case device
    /// The publication's own preferences: this book only.
    case book

    /// The code, as the command line and HTTP spell it: `base`, `class`, `device` or `book`.
    public var description: String { rawValue }
}

/// An edit or a move named a layer this device does not resolve: the class of a device that has
/// none, or the book of an edit of no publication.
public struct EditTargetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The target that names no layer.
    public var target: EditTarget

    /// Creates the error.
    ///
    /// - Parameter target: The target that names no layer.
    public init(target: EditTarget) {
        self.target = target
    }

    /// Why the target names no layer.
    public var description: String {
        switch target {
        case .deviceClass:
            return "this device has no class: set one first (readingprefs store device --class ID)"
        case .book: return "the book layer needs a publication"
        case .base, .device: return "the \(target) layer is not available"
        }
    }
}
