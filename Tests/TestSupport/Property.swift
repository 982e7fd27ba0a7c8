import Foundation
import Testing

/// A broken law: what was expected, in words.
package struct PropertyFailure: Error, CustomStringConvertible {
    package var description: String

    package init(description: String) {
        self.description = description
    }
}

/// Throws a ``PropertyFailure`` unless `condition` holds.
package func ensure(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyFailure) {
    if !condition { throw PropertyFailure(description: message()) }
}

/// How many cases each law runs and which seed to replay, from the environment:
///
/// - `RP_PROPERTY_CASES=N`: run N cases per law (at least 1,000 by default, as CI does).
/// - `RP_PROPERTY_SEED=0x…`: run only the case with this seed (printed by a failure).
/// - `RP_PROPERTY_SEED=random`: draw the cases from a random base seed instead of the law's
///   fixed one, to explore beyond what CI runs.
package enum PropertyConfiguration {
    package static let defaultCases = 1_000

    package static var cases: Int {
        guard let text = ProcessInfo.processInfo.environment["RP_PROPERTY_CASES"], let count = Int(text),
            count > 0
        else { return defaultCases }
        return count
    }

    package static var seedSetting: String? {
        ProcessInfo.processInfo.environment["RP_PROPERTY_SEED"]
    }

    /// The seed to replay, when `RP_PROPERTY_SEED` holds one (decimal or `0x` hex).
    package static var replaySeed: UInt64? {
        guard let text = seedSetting?.lowercased() else { return nil }
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }

    package static var randomBase: Bool { seedSetting?.lowercased() == "random" }
}

/// A law's first failing case, shrunk.
package struct PropertyCounterexample<Input> {
    /// The seed of the failing case.
    package var seed: UInt64
    /// The smallest failing input found.
    package var input: Input
    /// Why it fails.
    package var failure: String
    /// Why the original input failed.
    package var originalFailure: String
    /// How many shrinking steps were taken.
    package var steps: Int

    package var seedText: String { "0x" + String(seed, radix: 16) }
}

/// Checks a law on generated inputs: runs `PropertyConfiguration.cases` cases, and on the first
/// failure shrinks the input (dropping members and edits, moving numbers toward 0 and strings
/// toward empty) and records one issue with the seed and the smallest failing input found.
///
/// ```swift
/// forAll("p + {} == p", generate: { Gen.document(for: EPUB.catalogue, &$0) }, shrink: Shrink.document) {
///     let p = try $0.preferences
///     try ensure(p.merging(Preferences()) == p, "not an identity")
/// }
/// ```
///
/// - Parameters:
///   - law: The law's name; it picks the law's stream of seeds.
///   - sourceLocation: Where to report a counterexample.
///   - generate: Builds an input from a seeded generator.
///   - shrink: Smaller variants of an input, most aggressive first.
///   - property: Throws ``PropertyFailure`` (or anything else) when the law does not hold.
package func forAll<Input: CustomStringConvertible>(
    _ law: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    generate: (inout PropertyRandom) -> Input,
    shrink: (Input) -> [Input] = { _ in [] },
    _ property: (Input) throws -> Void
) {
    guard let counterexample = findCounterexample(law, generate: generate, shrink: shrink, property) else {
        return
    }
    Issue.record(
        """
        Law broken: \(law)
        seed \(counterexample.seedText) (replay: RP_PROPERTY_SEED=\(counterexample.seedText) swift test --filter <this test>)
        smallest failing input (after \(counterexample.steps) shrinking steps):
        \(counterexample.input)
        failure: \(counterexample.failure)
        original failure: \(counterexample.originalFailure)
        """,
        sourceLocation: sourceLocation)
}

/// The seeds of a law's cases: the replayed one, or `PropertyConfiguration.cases` of them.
package func propertySeeds(_ law: String) -> [UInt64] {
    if let replay = PropertyConfiguration.replaySeed { return [replay] }
    var base = PropertyRandom.hash(law)
    if PropertyConfiguration.randomBase { base = UInt64.random(in: .min ... .max) }
    return (0..<PropertyConfiguration.cases).map { PropertyRandom.caseSeed(base: base, index: $0) }
}

/// Runs a law's cases and returns the first failing one, shrunk, or nil when the law holds.
package func findCounterexample<Input>(
    _ law: String,
    generate: (inout PropertyRandom) -> Input,
    shrink: (Input) -> [Input],
    _ property: (Input) throws -> Void
) -> PropertyCounterexample<Input>? {
    for seed in propertySeeds(law) {
        var random = PropertyRandom(seed: seed)
        let input = generate(&random)
        guard let failure = check(property, input) else { continue }
        let (smallest, smallestFailure, steps) = shrinkFailure(
            input, failure, shrink: shrink, property: property)
        return PropertyCounterexample(
            seed: seed, input: smallest, failure: smallestFailure, originalFailure: failure, steps: steps)
    }
    return nil
}

/// The failure of `property` on `input`, or nil when it holds.
private func check<Input>(_ property: (Input) throws -> Void, _ input: Input) -> String? {
    do {
        try property(input)
        return nil
    } catch {
        return "\(error)"
    }
}

/// Greedy shrinking: take the first smaller candidate that still fails, until none does.
private func shrinkFailure<Input>(
    _ input: Input, _ failure: String, shrink: (Input) -> [Input], property: (Input) throws -> Void
) -> (Input, String, Int) {
    var current = input
    var currentFailure = failure
    var steps = 0
    var improved = true
    while improved && steps < 1_000 {
        improved = false
        for candidate in shrink(current) {
            if let candidateFailure = check(property, candidate) {
                current = candidate
                currentFailure = candidateFailure
                steps += 1
                improved = true
                break
            }
        }
    }
    return (current, currentFailure, steps)
}

/// ``forAll(_:sourceLocation:generate:shrink:_:)`` for laws that await: the same seeds, the same
/// shrinking and the same report.
package func forAllAsync<Input: CustomStringConvertible>(
    _ law: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    generate: (inout PropertyRandom) -> Input,
    shrink: (Input) -> [Input] = { _ in [] },
    _ property: (Input) async throws -> Void
) async {
    func check(_ input: Input) async -> String? {
        do {
            try await property(input)
            return nil
        } catch {
            return "\(error)"
        }
    }
    for seed in propertySeeds(law) {
        var random = PropertyRandom(seed: seed)
        let input = generate(&random)
        guard let failure = await check(input) else { continue }
        var current = input
        var currentFailure = failure
        var steps = 0
        var improved = true
        while improved && steps < 200 {
            improved = false
            for candidate in shrink(current) {
                if let candidateFailure = await check(candidate) {
                    current = candidate
                    currentFailure = candidateFailure
                    steps += 1
                    improved = true
                    break
                }
            }
        }
        let seedText = "0x" + String(seed, radix: 16)
        Issue.record(
            """
            Law broken: \(law)
            seed \(seedText) (replay: RP_PROPERTY_SEED=\(seedText) swift test --filter <this test>)
            smallest failing input (after \(steps) shrinking steps):
            \(current)
            failure: \(currentFailure)
            original failure: \(failure)
            """,
            sourceLocation: sourceLocation)
        return
    }
}
