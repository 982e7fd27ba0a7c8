/// Reads an inline `style` back into declarations, following CSS Syntax Level 3 where it
/// matters for injection: strings end only at their unescaped quote, a raw newline inside a
/// string makes a bad string, and `;` ends a declaration only outside strings.
///
/// Tests use it to prove that what the engine writes tokenizes to exactly the declarations it
/// meant, whatever a stored value contains (issue 11, finding 2).
enum CSSDeclarationReader {
    struct Declaration: Equatable, CustomStringConvertible {
        var name: String
        var value: String
        var description: String { "\(name): \(value)" }
    }

    enum Failure: Error, Equatable {
        case badName(String)
        case badString
        case missingImportant(String)
        case unterminated
    }

    /// The declarations of an inline style written as `name: value !important;` joined by spaces.
    static func declarations(_ style: String) throws -> [Declaration] {
        var result: [Declaration] = []
        let scalars = Array(style.unicodeScalars)
        var index = 0
        while index < scalars.count {
            while index < scalars.count, scalars[index] == " " { index += 1 }
            guard index < scalars.count else { break }
            var name = ""
            while index < scalars.count, scalars[index] != ":" {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard index < scalars.count, isIdentifier(name) else { throw Failure.badName(name) }
            index += 1  // ":"
            while index < scalars.count, scalars[index] == " " { index += 1 }
            var value = ""
            var quote: Unicode.Scalar?
            var terminated = false
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                if let open = quote {
                    if scalar == "\\" {
                        guard index < scalars.count else { throw Failure.badString }
                        value.unicodeScalars.append(scalar)
                        value.unicodeScalars.append(scalars[index])
                        index += 1
                        continue
                    }
                    if scalar == "\n" || scalar == "\r" || scalar == "\u{0C}" { throw Failure.badString }
                    if scalar == open { quote = nil }
                } else if scalar == "\"" || scalar == "'" {
                    quote = scalar
                } else if scalar == ";" {
                    terminated = true
                    break
                }
                value.unicodeScalars.append(scalar)
            }
            guard terminated, quote == nil else { throw Failure.unterminated }
            guard value.hasSuffix(" !important") else { throw Failure.missingImportant(value) }
            result.append(Declaration(name: name, value: String(value.dropLast(" !important".count))))
        }
        return result
    }

    /// The text of a CSS string token (`"..."`), with its escapes decoded.
    static func decodeString(_ token: String) -> String? {
        let scalars = Array(token.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
        var result = String.UnicodeScalarView()
        var index = 1
        while index < scalars.count - 1 {
            let scalar = scalars[index]
            index += 1
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            var hex = ""
            while index < scalars.count - 1, hex.count < 6, scalars[index].properties.isASCIIHexDigit {
                hex.unicodeScalars.append(scalars[index])
                index += 1
            }
            if hex.isEmpty {
                result.append(scalars[index])
                index += 1
            } else {
                if index < scalars.count - 1, scalars[index] == " " { index += 1 }
                let value = UInt32(hex, radix: 16) ?? 0xFFFD
                result.append(value == 0 ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}")
            }
        }
        return String(result)
    }

    private static func isIdentifier(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ($0.properties.isASCIIHexDigit || $0.properties.isAlphabetic && $0.isASCII) || $0 == "-"
                    || $0 == "_"
                    || ("0"..."9").contains($0)
            }
    }
}
