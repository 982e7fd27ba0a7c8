import Foundation
import Hummingbird
import ReadingPreferencesStore

/// The device class a request reads for (Specs/Server.md §5.3): the query member `deviceClass`,
/// a replica-style id (`eink`, `phone`), whose class document resolves between the base and the
/// publication. The server keeps no device's state: the client names its class on each request.
extension Request {
    /// The `deviceClass` query member, or `nil` when absent (an empty one names no class: 400).
    ///
    /// - Returns: The class's id.
    /// - Throws: A 400 `invalidIdentifier` problem for an id that is not replica-style, as a
    ///   class in a document route is.
    func deviceClass() throws -> String? {
        guard let id = uri.queryParameters.get("deviceClass").map({ String($0) }) else { return nil }
        guard ReplicaID.isValid(id) else {
            throw Problem(
                .badRequest, "invalidIdentifier",
                "deviceClass \(id) is not a class id: lowercase letters, digits and '-', at most 64, "
                    + "starting with a letter or digit")
        }
        return id
    }
}

/// Why the server refuses this device's layer (Specs/Server.md §5.2): it holds no device's own
/// documents, which never sync.
enum DeviceLayerRefusal {
    /// The problem's code.
    static let code = "deviceLayer"

    /// The 422 for an edit, move or document route naming this device's layer.
    ///
    /// - Parameter member: The member that named it (`layer`, `to`, or the path's `layer`).
    /// - Returns: The problem.
    static func problem(member: String) -> Problem {
        Problem.unprocessable(
            code, member: member,
            "the device layer is kept on the device only and never syncs, so the server holds no "
                + "device documents: edit it in the app, or choose base, class or book")
    }
}
