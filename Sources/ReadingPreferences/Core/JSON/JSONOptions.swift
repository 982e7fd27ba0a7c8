/// Limits applied while parsing JSON.
///
/// ```swift
/// let options = JSONParsingOptions(maxDepth: 32, maxSize: 64 * 1024)
/// let value = try JSONValue(json: #"{"theme":"dark"}"#, options: options)
/// ```
public struct JSONParsingOptions: Sendable, Hashable {
    /// The hard ceiling applied to ``maxDepth``.
    ///
    /// Parsing, comparing, hashing and writing never recurse, but releasing a value does: the
    /// runtime frees nested arrays and objects one stack frame per level. Measured on Linux
    /// x86-64 with Swift 6.3, that costs about 150 bytes per level in an optimized build and
    /// about 230 bytes in a debug build, so 1,024 levels need under 240 KiB: well inside the
    /// 512 KiB stack of a secondary thread on Apple platforms (tested on such a thread).
    static let depthCeiling = 1024

    /// The deepest nesting of arrays and objects accepted; deeper input throws `tooDeep`.
    ///
    /// The top-level array or object is at depth 1. The default is 512. Values above 1,024 are
    /// treated as 1,024, the ceiling measured to be safe when a value that deep is released on a
    /// secondary thread's 512 KiB stack (releasing nested values is recursive in the Swift
    /// runtime). The parser itself never recurses, so deeper input (even 100,000 levels)
    /// throws `tooDeep` and never overflows the stack.
    public var maxDepth: Int = 512

    /// The largest accepted input, in bytes; larger input throws `tooLarge` before any parsing.
    ///
    /// The default is 16 MiB.
    public var maxSize: Int = 16 * 1024 * 1024

    /// Creates parsing options.
    ///
    /// - Parameters:
    ///   - maxDepth: The deepest nesting accepted (default 512, at most 1,024 is honoured).
    ///   - maxSize: The largest input accepted, in bytes (default 16 MiB).
    public init(maxDepth: Int = 512, maxSize: Int = 16 * 1024 * 1024) {
        self.maxDepth = maxDepth
        self.maxSize = maxSize
    }

    /// The depth limit actually enforced: ``maxDepth`` clamped to `0...depthCeiling`.
    var effectiveMaxDepth: Int { Swift.min(Swift.max(maxDepth, 0), Self.depthCeiling) }
}

/// How JSON is written.
///
/// ```swift
/// let value: JSONValue = ["b": 1, "a": [true, nil]]
/// value.jsonString()                                    // {"b":1,"a":[true,null]}
/// value.jsonString(options: .init(sortedKeys: true))    // {"a":[true,null],"b":1}
/// ```
public struct JSONEncodingOptions: Sendable, Hashable {
    /// Writes object members sorted by the UTF-8 bytes of their keys, at every level.
    ///
    /// Without it, members are written in their stored (insertion) order.
    public var sortedKeys: Bool = false

    /// Writes one member or element per line, indented by two spaces, with `"key": value`.
    ///
    /// Without it, the output is compact, with no whitespace at all.
    public var prettyPrinted: Bool = false

    /// Creates encoding options.
    ///
    /// - Parameters:
    ///   - sortedKeys: Sort object keys by UTF-8 bytes (default `false`: insertion order).
    ///   - prettyPrinted: Indent with two spaces (default `false`: compact).
    public init(sortedKeys: Bool = false, prettyPrinted: Bool = false) {
        self.sortedKeys = sortedKeys
        self.prettyPrinted = prettyPrinted
    }
}

extension JSONEncodingOptions {
    /// Options that keep the layout of an existing document: pretty-printed when it spans several
    /// lines, compact when it fits on one, so editing a hand-written file keeps its style.
    ///
    /// ```swift
    /// let options = JSONEncodingOptions(matchingLayoutOf: Data(#"{"theme":"dark"}"#.utf8))
    /// options.prettyPrinted   // false
    /// ```
    ///
    /// - Parameter document: The existing document's bytes.
    public init(matchingLayoutOf document: some BidirectionalCollection<UInt8>) {
        var content = document[...]
        while let last = content.last, last == 0x0A || last == 0x0D || last == 0x20 || last == 0x09 {
            content = content.dropLast()
        }
        self.init(prettyPrinted: content.contains(0x0A))
    }

    /// Whether a document ends with a line break, so a rewrite can keep it.
    ///
    /// - Parameter document: The document's bytes.
    /// - Returns: `true` when the last byte is a line feed.
    public static func endsWithNewline(_ document: some BidirectionalCollection<UInt8>) -> Bool {
        document.last == 0x0A
    }
}
