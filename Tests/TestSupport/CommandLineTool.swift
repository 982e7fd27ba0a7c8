import Foundation

/// The built `readingprefs` executable, run as a user would, for the command-line tests.
///
/// It is found in the build products folder that holds the test bundle: `swift build
/// --build-tests` and `swift test` build it there with the tests.
package enum CommandLineTool {
    /// The executable, or `nil` when it is not built next to the tests.
    package static let executable: URL? = {
        var folders: [URL] = []
        if let url = Bundle.main.executableURL { folders.append(url.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        folders.append(contentsOf: Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() })
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        return folders.lazy.map { $0.appendingPathComponent("readingprefs") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// What a run printed and how it ended.
    package struct Outcome: Sendable {
        package var status: Int32
        package var output: String
        package var error: String
    }

    /// The program that runs a command as another user (util-linux's `setpriv`), where there is one.
    package static let switchUser: URL? = ["/usr/bin/setpriv", "/bin/setpriv"].lazy
        .filter { FileManager.default.isExecutableFile(atPath: $0) }.first.map { URL(fileURLWithPath: $0) }

    /// Runs the tool with arguments; returns its exit status, standard output and standard error.
    /// With `user`, it runs as that user and group (through ``switchUser``, which only an
    /// administrator may do): for what an administrator's own run would never meet, such as a
    /// file it may not write.
    package static func run(
        _ arguments: [String], in folder: URL? = nil, as user: (uid: UInt32, gid: UInt32)? = nil
    )
        throws -> Outcome
    {
        guard let executable else { throw MissingTool() }
        let process = Process()
        var copy: TemporaryFolder?
        defer { _ = copy }
        if let user {
            guard let switchUser else { throw MissingTool() }
            // A copy the other user can reach: the build folder may sit in a private one.
            let folder = try TemporaryFolder()
            copy = folder
            chmod(folder.url.path, 0o755)
            let reachable = folder.path("readingprefs")
            try FileManager.default.copyItem(atPath: executable.path, toPath: reachable)
            process.executableURL = switchUser
            process.arguments =
                ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--", reachable] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes at once, so a full pipe never blocks the tool.
        let errorData = LockedData()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData.set(error.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData.value, as: UTF8.self))
    }

    package struct MissingTool: Error, CustomStringConvertible {
        package var description: String { "readingprefs is not built next to the test bundle" }
    }
}

/// Data set once by another thread.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    var value: Data { lock.withLock { data ?? Data() } }
}

/// A temporary folder, removed when the value is released.
package final class TemporaryFolder: @unchecked Sendable {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
