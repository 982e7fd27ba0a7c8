import Dispatch
import Foundation
import Testing

@testable import ReadingPreferencesStore

/// Blocking steps run off Swift's cooperative thread pool, each on a thread of its own, so that
/// steps that wait long never hold up the others (Specs/Store.md §6.5).
@Suite("Blocking steps")
struct BlockingIOTests {
    /// Stands for a lock another process holds: the steps wait on it until the test opens it.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
    }

    /// Runs the test's own tasks on a thread of their own: tests running beside this one can keep
    /// the cooperative pool busy for minutes, which would start some steps long after the others.
    final class OwnThread: TaskExecutor, @unchecked Sendable {
        private let queue = DispatchQueue(label: "org.readingprefs.tests.blocking-io")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    @Test("four times as many steps as processors all wait at once, and one more still runs")
    func waitsHoldUpNothing() async {
        // Fewer than the some 255 queues libdispatch runs at once, on a machine of many processors.
        let count = min(ProcessInfo.processInfo.activeProcessorCount * 4 + 4, 200)
        let gate = Gate()
        let (starts, started) = AsyncStream<Void>.makeStream()
        await withTaskExecutorPreference(OwnThread()) {
            async let opened = withTaskGroup(of: Bool.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        await BlockingIO.run { () throws(Never) -> Bool in
                            started.yield()
                            // A bounded wait: where steps queue behind each other (a concurrent
                            // queue adds a thread about once a second once its threads all wait),
                            // the first wait out their bound before the last start.
                            return gate.semaphore.wait(timeout: .now() + .seconds(5)) == .success
                        }
                    }
                }
                return await group.reduce(0) { $1 ? $0 + 1 : $0 }
            }
            var running = 0
            for await _ in starts {
                running += 1
                if running == count { break }
            }
            // Every step is on a thread now, waiting; another step runs beside them.
            let other = await BlockingIO.run { () throws(Never) -> Int in 42 }
            #expect(other == 42)
            for _ in 0..<count { gate.semaphore.signal() }
            // Each step was let go by the gate, none by its bound: they all waited at once.
            #expect(await opened == count)
        }
    }
}
