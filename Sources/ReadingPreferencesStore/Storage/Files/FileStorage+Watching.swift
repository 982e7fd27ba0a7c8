import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileStorage {
    /// A signal each time a file of the store's hidden folder is replaced, such as the sync state
    /// at the end of a sync run by another process (Specs/Store.md §9.7: every store hears a sync, whichever
    /// process ran it). The root is watched by the system (inotify on Linux, a dispatch source on
    /// Apple platforms), never polled; the watch ends when the stream is released.
    ///
    /// - Returns: The signals, or `nil` when the root cannot be watched.
    public func syncSignals() -> AsyncStream<Void>? {
        LayoutMigration.ensure(layout)
        let root = layout.hiddenPath
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        #if canImport(Glibc) || canImport(Musl)
            let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard descriptor >= 0 else { return nil }
            guard inotify_add_watch(descriptor, root, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE)) >= 0 else {
                close(descriptor)
                return nil
            }
            let source = SourceBox(
                DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: Self.watchQueue))
        #elseif canImport(Darwin)
            let descriptor = open(root, O_EVTONLY)
            guard descriptor >= 0 else { return nil }
            let source = SourceBox(
                DispatchSource.makeFileSystemObjectSource(
                    fileDescriptor: descriptor, eventMask: .write, queue: Self.watchQueue))
        #else
            return nil
        #endif
        return AsyncStream(Void.self, bufferingPolicy: .bufferingNewest(1)) { continuation in
            source.source.setEventHandler {
                #if canImport(Glibc) || canImport(Musl)
                    // Drain the events: one signal stands for all of them.
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
                #endif
                continuation.yield()
            }
            source.source.setCancelHandler { close(descriptor) }
            continuation.onTermination = { _ in source.source.cancel() }
            source.source.resume()
        }
    }

    private static let watchQueue = DispatchQueue(label: "org.readingprefs.store.watch")
}

/// A dispatch source handed to the stream's handlers, which run on its queue.
private final class SourceBox: @unchecked Sendable {
    let source: any DispatchSourceProtocol
    init(_ source: any DispatchSourceProtocol) { self.source = source }
}
