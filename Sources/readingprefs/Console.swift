import Foundation

/// Writes to standard output and standard error.
enum Console {
    /// Writes a line to standard output.
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes a line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Why a command stopped; each case has its exit status.
enum ToolError: Error {
    /// The command line is wrong: a one-line message and a usage hint, exit status 2.
    case usage(String)
    /// The input is wrong or the work failed: a one-line message, exit status 1.
    case failure(String)
}
