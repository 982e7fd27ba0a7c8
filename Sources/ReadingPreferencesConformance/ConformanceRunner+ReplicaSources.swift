import Foundation
import ReadingPreferences

extension ConformanceRunner {
    /// The bytes of every replica state of a vector document's sync cases, per case in the
    /// document's order (`nil` for a case that has none).
    ///
    /// Cases are read through `JSONValue`, where a key repeated in one object keeps its last
    /// value. A replica state is read from its own bytes instead, as sync reads a replica file,
    /// so a key or a scope repeated in one state merges like two files would (Specs/Sync.md §2).
    ///
    /// - Parameter data: The document: one case object or an array of cases.
    /// - Returns: Per case, the bytes of each member of its `replicas`; empty when the document
    ///   cannot be read (its cases then fail with that error).
    static func replicaSources(in data: Data) -> [[Data]?] {
        data.withUnsafeBytes { raw -> [[Data]?] in
            let bytes = raw.bindMemory(to: UInt8.self)
            return
                (try? JSONPullReader.read(bytes, maxDepth: 1024, maxSize: Int.max) { reader in
                    switch reader.peek() {
                    case .object: return [try replicas(of: &reader, in: data)]
                    case .array:
                        var cases: [[Data]?] = []
                        try reader.beginArray()
                        while try reader.nextElement(isFirst: cases.isEmpty) {
                            guard reader.peek() == .object else {
                                try reader.skipValue()
                                cases.append(nil)
                                continue
                            }
                            cases.append(try replicas(of: &reader, in: data))
                        }
                        return cases
                    default: return []
                    }
                }) ?? []
        }
    }

    /// The bytes of each replica state of the case object at the cursor.
    private static func replicas(of reader: inout JSONPullReader, in data: Data) throws -> [Data]? {
        var sources: [Data]?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            guard key == "replicas", reader.peek() == .array else {
                try reader.skipValue()
                continue
            }
            var found: [Data] = []
            try reader.beginArray()
            while try reader.nextElement(isFirst: found.isEmpty) {
                let start = reader.offset
                try reader.skipValue()
                found.append(data.subdata(in: data.startIndex + start..<data.startIndex + reader.offset))
            }
            sources = found
        }
        return sources
    }
}
