/// Times an operation against A on the same input, alternately, and accumulates both.
///
/// Each round times one block of A and one block of the operation, swapping which runs first
/// every round, so a change of machine speed (up to 1.5× for seconds here) affects both sides
/// alike. The ratio of the two totals is the paired ratio.
public struct PairedTimer {
    /// Total nanoseconds spent in A.
    public private(set) var baselineNanoseconds: UInt64 = 0
    /// A calls made.
    public private(set) var baselineCalls = 0
    /// Total nanoseconds spent in the operation.
    public private(set) var operationNanoseconds: UInt64 = 0
    /// Operation calls made.
    public private(set) var operationCalls = 0

    /// Creates a timer with nothing accumulated.
    public init() {}

    /// Runs `rounds` rounds on `workload`.
    public mutating func measure(_ operation: MeasuredOperation, on workload: inout Workload, rounds: Int) {
        let baselineBatch = MeasuredOperation.jsonSerialization.batch
        let batch = operation.batch
        for round in 0..<rounds {
            if round & 1 == 0 {
                let t0 = monotonicNanoseconds()
                workload.run(.jsonSerialization, count: baselineBatch)
                let t1 = monotonicNanoseconds()
                workload.run(operation, count: batch)
                let t2 = monotonicNanoseconds()
                baselineNanoseconds += t1 - t0
                operationNanoseconds += t2 - t1
            } else {
                let t0 = monotonicNanoseconds()
                workload.run(operation, count: batch)
                let t1 = monotonicNanoseconds()
                workload.run(.jsonSerialization, count: baselineBatch)
                let t2 = monotonicNanoseconds()
                operationNanoseconds += t1 - t0
                baselineNanoseconds += t2 - t1
            }
        }
        baselineCalls += rounds * baselineBatch
        operationCalls += rounds * batch
    }

    /// Nanoseconds per A call.
    public var baselinePerCall: Double { Double(baselineNanoseconds) / Double(max(baselineCalls, 1)) }
    /// Nanoseconds per operation call.
    public var operationPerCall: Double { Double(operationNanoseconds) / Double(max(operationCalls, 1)) }
    /// The operation's time as a multiple of A's.
    public var ratio: Double { operationPerCall / baselinePerCall }
}
