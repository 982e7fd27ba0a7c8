import Foundation
import ReadingPreferences
import ReadingPreferencesStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `readingprefs sync --server URL --token T --watch`: the library's continuous sync
/// (`PreferencesStore.syncContinuously`), printed as it goes, until Ctrl-C (SIGINT) or SIGTERM,
/// which stop it cleanly: a sync under way finishes, then the command exits with status 0. A
/// second Ctrl-C exits at once (130).
enum SyncWatch {
    static func run(
        _ store: PreferencesStore<EPUB>, with server: ServerTransport, options: SyncOptions, json: Bool
    ) async throws(ToolError) -> Int32 {
        Console.error("readingprefs: watching \(server.url.absoluteString) for changes (Ctrl-C stops)")
        let watch = Task {
            try await store.syncContinuously(with: server, options: options) { event in
                report(event, json: json)
            }
        }
        let stops = StopSignals { watch.cancel() }
        defer { stops.cancel() }
        do {
            try await watch.value
        } catch {
            throw .failure("watching stopped: \(error)")
        }
        Console.error("readingprefs: stopped")
        return 0
    }

    /// One line (or one JSON object with `--json`) per event.
    private static func report(_ event: LiveSyncEvent, json: Bool) {
        switch event {
        case .connected:
            Console.error("readingprefs: connected")
        case .synced(let report):
            for problem in report.problems { Console.error("readingprefs: warning: \(problem)") }
            if json {
                Console.out(SyncCommand.json(report).jsonString())
            } else {
                SyncCommand.printReport(report)
            }
        case .syncFailed(let error):
            Console.error("readingprefs: sync failed: \(error)")
        case .disconnected(let reason, let retryAfter):
            Console.error("readingprefs: disconnected (\(reason)); connecting again in \(Int(retryAfter)) s")
        }
    }
}

/// SIGINT and SIGTERM, caught while it lives: the first calls `stop`, a second SIGINT exits at
/// once with status 130.
final class StopSignals: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    private let lock = NSLock()
    private var stopping = false

    init(stop: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "readingprefs.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: queue))
        }
        self.sources = sources
        for source in sources {
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let again = self.lock.withLock {
                    defer { self.stopping = true }
                    return self.stopping
                }
                if again { exit(130) }
                Console.error("readingprefs: stopping")
                stop()
            }
            source.resume()
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
