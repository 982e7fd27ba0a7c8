// Writes a deterministic document per iteration k to the file named by its argument, with the
// package's durable write, and prints "k" (unbuffered) after each rename. The crash-safety test
// kills it at random and checks the file is always iteration k or k + 1, never torn.
import Foundation
import ReadingPreferencesStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The document of iteration k: its number and a payload whose length varies with k.
func document(_ k: Int) -> Data {
    let payload = String(repeating: "abcdefghij", count: 1 + k % 300)
    return Data("{\"iteration\":\(k),\"payload\":\"\(payload)\"}\n".utf8)
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: DurableWriteProbe FILE\n".utf8))
    exit(2)
}
let path = CommandLine.arguments[1]
var k = 0
while true {
    do {
        try DurableFile.write(document(k), to: path)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
    let line = Array("\(k)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    k += 1
}
