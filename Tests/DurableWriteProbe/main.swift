// Writes a deterministic document per iteration k through the store's own path (a
// `PreferencesStore` over a `FileStorage` rooted at its argument: the storage's durable write,
// with its lock and its retry), and prints "k" (unbuffered) after each write returns. The
// crash-safety test kills it at random and checks the file is always iteration k or k + 1,
// never torn. With a second argument `batch`, each iteration writes two documents (shared and
// a book's) in one batch of the storage, as an edit of both does; the test checks that both
// always hold the same iteration once the batch is finished.
import Foundation
import ReadingPreferences
import ReadingPreferencesStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

guard (2...3).contains(CommandLine.arguments.count) else {
    FileHandle.standardError.write(Data("usage: DurableWriteProbe ROOT [batch]\n".utf8))
    exit(2)
}
let storage = FileStorage(root: URL(fileURLWithPath: CommandLine.arguments[1]))
let store = PreferencesStore<EPUB>(storage: storage)
let batch = CommandLine.arguments.count == 3 && CommandLine.arguments[2] == "batch"
let shared = StorageLocation.layer(configurable: "epub", .shared)
let book = StorageLocation.layer(configurable: "epub", .publication("urn:isbn:978-0"))
var k = 0
while true {
    let payload = String(repeating: "abcdefghij", count: 1 + k % 300)
    let document: Preferences = ["iteration": .number(JSONNumber(k)), "payload": .string(payload)]
    do {
        if batch {
            let versions = (try await storage.load(shared)?.version, try await storage.load(book)?.version)
            _ = try await storage.commit([
                .save(document, to: shared, expecting: versions.0),
                .save(document, to: book, expecting: versions.1),
            ])
        } else {
            try await store.write(
                ["iteration": .number(JSONNumber(k)), "payload": .string(payload)], to: .shared)
        }
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
    let line = Array("\(k)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    k += 1
}
