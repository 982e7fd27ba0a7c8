import Foundation
import ReadingPreferences

extension ServerTransport {
    /// A device registered with a reading back end: its id, and the token made for it alone.
    public struct RegisteredDevice: Sendable, Equatable {
        /// The device's id, which `DELETE /v1/devices/{id}` revokes.
        public var id: String
        /// The device's own token, shown once: keep it (in the keychain), and sync with it.
        public var token: String
    }

    /// Registers this device with the server (`POST /v1/devices`, Specs/Server.md §3.4) and
    /// answers the token made for it alone, which the reader can see and revoke (on the server's
    /// device list) without signing out their other devices. This transport's own token (the
    /// account's, or another device's) authorizes the request.
    ///
    /// ```swift
    /// let device = try await ServerTransport(url: url, token: accountToken)
    ///     .registerDevice(named: "Kobo Clara", deviceClass: "eink")
    /// try await store.sync(with: .server(url, token: device.token))
    /// ```
    ///
    /// - Parameters:
    ///   - name: A name for people ("Kobo Clara").
    ///   - deviceClass: The device's class (`phone`, `tablet`, `eink`, `desktop`, `web`, or the
    ///     app's own), a replica-style id.
    ///   - replica: The replica id it syncs as, when known; otherwise its first push binds it.
    /// - Returns: The device's id and token.
    /// - Throws: ``SyncError/transport(_:)`` when the server cannot be reached or refuses.
    public func registerDevice(named name: String, deviceClass: String? = nil, replica: ReplicaID? = nil)
        async throws(SyncError) -> RegisteredDevice
    {
        var body: JSONObject = ["name": .string(name)]
        if let deviceClass { body["class"] = .string(deviceClass) }
        if let replica { body["replica"] = .string(replica.rawValue) }
        let (data, status) = try await send("POST", "v1/devices", body: JSONValue.object(body).jsonData())
        guard status == 201 else { throw Self.refused(status, data, "registering the device") }
        guard let answer = try? JSONValue(json: data).objectValue, let id = answer["id"]?.stringValue,
            let token = answer["token"]?.stringValue
        else { throw .transport("registering the device: the server's answer has no id and token") }
        return RegisteredDevice(id: id, token: token)
    }
}
