import Foundation
import TestSupport
import Testing

/// The worked examples of `readingprefs help store` and `help sync` run as written, in order, on
/// fresh roots: every command succeeds, and every line of output the help shows is printed.
@Suite("readingprefs help: the worked examples run as written")
struct HelpExampleTests {
    /// One command of an example, and the output lines the help shows under it.
    struct Step: CustomStringConvertible {
        var arguments: [String]
        var shown: [String] = []

        var description: String { "readingprefs " + arguments.joined(separator: " ") }
    }

    /// The example of a help topic: each `  readingprefs …` line after `Example`, without its
    /// trailing `# comment`, and the more indented lines under it.
    static func example(_ topic: String) throws -> [Step] {
        let help = try CommandLineTool.run(["help", topic])
        #expect(help.status == 0)
        let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Example") }) else { return [] }
        var steps: [Step] = []
        for line in lines[(start + 1)...] {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("readingprefs ") {
                let command = text.split(separator: "#", maxSplits: 1)[0]
                steps.append(Step(arguments: command.split(separator: " ").dropFirst().map(String.init)))
            } else if line.hasPrefix("      "), !steps.isEmpty {
                steps[steps.count - 1].shown.append(text)
            } else if !text.isEmpty, !steps.isEmpty {
                break
            }
        }
        return steps
    }

    @Test("each example command exits 0 and prints what the help shows", arguments: ["store", "sync"])
    func runsAsWritten(topic: String) throws {
        let steps = try Self.example(topic)
        #expect(steps.count >= 5, "help \(topic) has no worked example")
        let folder = try TemporaryFolder()
        for step in steps {
            let outcome = try CommandLineTool.run(step.arguments, in: folder.url)
            #expect(outcome.status == 0, "\(step): \(outcome.error)")
            for line in step.shown {
                #expect(outcome.output.contains(line), "\(step) printed \(outcome.output), not \(line)")
            }
        }
    }
}
