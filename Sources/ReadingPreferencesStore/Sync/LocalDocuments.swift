import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The synced documents of a root and their sidecars of stamps (SPEC 10): every shared,
/// profile and publication document of every configurable, each `<name>.json` with its
/// `<name>.json.sync` beside it, so the JSON stays clean for people.
struct LocalDocuments {
    /// Where a scope's files are, and the document's version when the sidecar was written.
    struct Files {
        var path: String
        var sidecar: String { path + ".sync" }
    }

    var files: [SyncScope: Files] = [:]
    var values: [SyncScope: Preferences] = [:]
    var stamps: [SyncScope: [String: SyncEntry]] = [:]
    /// The documents' versions recorded in their sidecars.
    var sidecarVersions: [SyncScope: String] = [:]

    /// Loads every document of a root with its sidecar. A document unchanged since its sidecar
    /// was written is not even read: the sidecar holds its values.
    static func load(root: URL, storage: FileStorage, report: inout SyncReport) async throws -> LocalDocuments
    {
        var result = LocalDocuments()
        let manager = FileManager.default
        let configurables = ((try? manager.contentsOfDirectory(atPath: root.path)) ?? []).sorted().filter {
            name in
            var isFolder: ObjCBool = false
            return manager.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue && !name.hasPrefix(".")
        }
        for configurable in configurables {
            let folder = root.appendingPathComponent(configurable)
            try await result.add(
                SyncScope(configurable: configurable, layer: .shared),
                path: folder.appendingPathComponent("shared.json").path,
                storage: storage, report: &report)
            for kind in ["profiles", "publications"] {
                let subfolder = folder.appendingPathComponent(kind)
                let names = ((try? manager.contentsOfDirectory(atPath: subfolder.path)) ?? []).sorted()
                var documents = Set<String>()
                for name in names {
                    if name.hasSuffix(".json") && !DurableFile.isTemporary(name) {
                        documents.insert(name)
                    } else if name.hasSuffix(".json.sync") {
                        documents.insert(String(name.dropLast(".sync".count)))
                    }
                }
                for name in documents.sorted() {
                    let path = subfolder.appendingPathComponent(name).path
                    guard
                        let scope = try result.scope(
                            of: path, kind: kind, configurable: configurable, report: &report)
                    else { continue }
                    try await result.add(scope, path: path, storage: storage, report: &report)
                }
            }
        }
        return result
    }

    /// The scope of a profile or publication file: from its sidecar, or from the file itself.
    private func scope(of path: String, kind: String, configurable: String, report: inout SyncReport) throws
        -> SyncScope?
    {
        if let sidecar = try? Data(contentsOf: URL(fileURLWithPath: path + ".sync")),
            let text = (try? JSONValue(json: sidecar))?.objectValue?["scope"]?.stringValue,
            let scope = SyncScope(text)
        {
            return scope
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        if kind == "profiles" { return SyncScope(configurable: configurable, layer: .profile(name)) }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
            let id = (try? Preferences(json: data))?["$id"]?.stringValue
        else {
            report.problems.append(.skippedDocument(path, "a publication file without \"$id\""))
            return nil
        }
        return SyncScope(configurable: configurable, layer: .publication(id))
    }

    private mutating func add(
        _ scope: SyncScope, path: String, storage: FileStorage, report: inout SyncReport
    ) async throws {
        files[scope] = Files(path: path)
        var sidecarKeys: [String: SyncEntry]?
        if let data = try? Data(contentsOf: URL(fileURLWithPath: path + ".sync")) {
            do {
                let reader = try JSONMemberReader(try JSONValue(json: data), path: path + ".sync")
                var entries: [String: SyncEntry] = [:]
                for member in try reader.object("keys")?.members ?? [] {
                    entries[member.key] = try SyncEntry(json: member.value, path: "keys.\(member.key)")
                }
                sidecarKeys = entries
                sidecarVersions[scope] = try reader.string("version")
            } catch {
                report.problems.append(
                    .skippedDocument(path + ".sync", "damaged sidecar; its stamps start again"))
            }
        }
        stamps[scope] = sidecarKeys
        let version = Self.version(of: path)
        if let sidecarKeys, let version, sidecarVersions[scope] == version {
            values[scope] = Self.values(of: sidecarKeys)
            return
        }
        let location = Self.location(of: scope)
        do throws(StorageError) {
            if let document = try await storage.load(location) {
                var preferences = document.preferences
                preferences["$id"] = nil
                values[scope] = preferences
            }
        } catch {
            guard error.code == .corruptDocument else { throw error }
            // A damaged local file is not a removal: keep what was last synced.
            report.problems.append(.skippedDocument(path, error.message))
            values[scope] = sidecarKeys.map(Self.values)
        }
    }

    /// The synced keys that differ (reserved keys such as a profile's `$name` included; `$id`
    /// aside).
    static func changedKeys(from old: Preferences, to new: Preferences) -> [String] {
        var keys: [String] = []
        for member in new.members where LocalReplica.isSynced(member.key) && old[member.key] != member.value {
            keys.append(member.key)
        }
        for member in old.members where LocalReplica.isSynced(member.key) && new[member.key] == nil {
            keys.append(member.key)
        }
        return keys
    }

    static func values(of entries: [String: SyncEntry]) -> Preferences {
        var preferences = Preferences()
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) { preferences[key] = entry.value }
        return preferences
    }

    static func location(of scope: SyncScope) -> StorageLocation {
        .layer(configurable: scope.configurable, scope.layer)
    }

    /// A file's version as ``FileStorage`` computes it, or `nil` when it does not exist.
    static func version(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStorage.version(of: info).rawValue
    }

    /// Writes what a reconciliation changed: the keys of each document that changed (under the
    /// file's lock, re-reading it first), then the sidecars.
    mutating func write(_ local: LocalReplica, before: [SyncScope: Preferences], storage: FileStorage)
        async throws
    {
        let scopes = Set(local.documents.keys).union(before.keys).union(local.stamps.keys).union(stamps.keys)
        for scope in scopes.sorted() {
            let path = files[scope]?.path ?? storage.path(of: Self.location(of: scope))
            let new = local.documents[scope] ?? Preferences()
            let old = before[scope] ?? Preferences()
            if new != old {
                try await apply(
                    changes: Self.changedKeys(from: old, to: new), of: new, to: scope, storage: storage)
            }
            let entries = local.stamps[scope] ?? [:]
            let version = Self.version(of: path)
            let sidecar = path + ".sync"
            if entries.isEmpty && version == nil {
                unlink(sidecar)
                continue
            }
            guard entries != (stamps[scope] ?? [:]) || version != sidecarVersions[scope] else { continue }
            var keys = JSONObject()
            for (key, entry) in entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                keys[key] = entry.jsonValue
            }
            var object: JSONObject = ["scope": .string(scope.description)]
            if let version { object["version"] = .string(version) }
            object["keys"] = .object(keys)
            do {
                try FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: sidecar).deletingLastPathComponent(),
                    withIntermediateDirectories: true)
                try DurableFile.write(
                    JSONValue.object(object).jsonData(options: .init(prettyPrinted: true)), to: sidecar)
            } catch {
                throw StorageError(.io, location: Self.location(of: scope), message: "\(error)")
            }
        }
    }

    /// Applies changed keys to a document: load it fresh, set or remove the keys, save at that
    /// version (again on a conflict); a document left with no keys is removed.
    private func apply(changes keys: [String], of new: Preferences, to scope: SyncScope, storage: FileStorage)
        async throws
    {
        let location = Self.location(of: scope)
        for _ in 0..<32 {
            var current: StoredDocument?
            do throws(StorageError) {
                current = try await storage.load(location)
            } catch {
                guard error.code == .corruptDocument else { throw error }
                current = nil
            }
            var document = current?.preferences ?? Preferences()
            for key in keys { document[key] = new[key] }
            let remaining = document.members.filter { $0.key != "$id" }
            do throws(StorageError) {
                if remaining.isEmpty {
                    if let current { try await storage.remove(location, expecting: current.version) }
                } else {
                    _ = try await storage.save(document, to: location, expecting: current?.version)
                }
                return
            } catch {
                guard error.code == .conflict else { throw error }
                continue
            }
        }
        throw StorageError(.conflict, location: location, message: "too many concurrent writers")
    }
}
