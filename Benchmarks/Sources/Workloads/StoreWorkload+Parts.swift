import Dispatch
import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// An edit's cost besides its bare write, in parts measured apart (Benchmarks/README.md, "What a
/// store edit costs besides its write"): the store's own work, and the hop to a thread that may
/// block and back.
extension StoreWorkload {
    /// A thread pool of the quality of service the store's blocking I/O runs at.
    private static let blocking = DispatchQueue(
        label: "org.readingprefs.benchmarks.blocking", qos: .userInitiated, attributes: .concurrent)

    /// ``storeEdit()``'s edit through a store on memory: the store's own work (the layers read,
    /// the editor, the diff, the write step, the notification), with no file and no other thread.
    public func inMemoryEdit() async throws {
        toggle.toggle()
        let size = toggle ? 1.4 : 1.2
        try await memoryStore.edit { editor in try editor.set(.fontSize, size) }
    }

    /// ``bareDurableWrite(_:second:)`` run as a store on files runs its writes: on a thread that
    /// may block, the calling task suspended until it ends. Paired with the bare write, it is
    /// what the hop there and back costs.
    public func bareDurableWriteOnBlockingThread(_ bytes: Data) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Self.blocking.async {
                self.bareDurableWrite(bytes)
                continuation.resume()
            }
        }
    }
}
