// Writes a deterministic document per iteration k through the store's own path (a
// `PreferencesStore` over a `FileStorage` rooted at its argument: the storage's durable write,
// with its lock and its retry), and prints "k" (unbuffered) after each write returns. The
// crash-safety test kills it at random and checks the file is always iteration k or k + 1,
// never torn.
import Foundation
import ReadingPreferences
import ReadingPreferencesStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: DurableWriteProbe ROOT\n".utf8))
    exit(2)
}
let store = PreferencesStore<EPUB>(storage: FileStorage(root: URL(fileURLWithPath: CommandLine.arguments[1])))
var k = 0
while true {
    let payload = String(repeating: "abcdefghij", count: 1 + k % 300)
    do {
        try await store.write(
            ["iteration": .number(JSONNumber(k)), "payload": .string(payload)], to: .shared)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
    let line = Array("\(k)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    k += 1
}
