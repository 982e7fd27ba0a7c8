import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where ``FileStorage`` keeps each document: the one folder layout of a store's root (Specs/Store.md §5.1).
///
/// ```text
/// <root>/<configurable>/shared.json
/// <root>/<configurable>/overrides.json
/// <root>/<configurable>/profiles/<id>.json             "$name": the display name
/// <root>/<configurable>/classes/<class>.json           a device class's preferences
/// <root>/<configurable>/this-device.json               this device's own, never synced
/// <root>/<configurable>/publications/<safe-name>.json  "$id": the publication's identifier
/// <root>/.readingprefs/                                the store's own files:
///     device.json  replica.json  sync-lease.json  clock.json  batches/
///     <configurable>/shared.json.lock  .sync  .journal  (and so for every document)
/// ```
///
/// The folder a person reads holds documents only; everything the store keeps for itself (this
/// device's state, sync's state and sidecars, the change journals, the lock files and the records
/// of batches in progress) is in one hidden folder, `.readingprefs`, at the same relative paths.
/// A publication's file is named by ``SafeName``, so its document carries the identifier in
/// `$id`, written first; so do its sidecar and the files of the rare profile whose id is not a
/// plain name. A configurable's folder is its identifier when that is a plain name, else its
/// safe name with a `configurable.json` holding the identifier. Listing reads only what it
/// needs: folder entries, and the `$id` at the start of each publication's file.
struct FileLayout: Sendable {
    /// The root's path without a trailing separator.
    let rootPath: String
    /// The hidden folder of the store's own files.
    let hiddenPath: String
    /// The root's path with one trailing separator: what a path under the root starts with.
    private let rootPrefix: String
    /// The hidden folder's path with a trailing separator.
    private let hiddenPrefix: String
    /// The replica clock (Specs/Sync.md §8).
    let clockPath: String
    /// The folder of the records of batches in progress (Specs/Store.md §6.3).
    let batchesPath: String
    /// The replica's sync state (Specs/Sync.md §5.1).
    let syncStatePath: String

    init(rootPath: String) {
        self.rootPath = rootPath
        rootPrefix = rootPath == "/" ? "/" : rootPath + "/"
        hiddenPath = (rootPath == "/" ? "" : rootPath) + "/" + Self.hiddenFolder
        hiddenPrefix = hiddenPath + "/"
        clockPath = hiddenPrefix + "clock.json"
        batchesPath = hiddenPrefix + "batches"
        syncStatePath = hiddenPrefix + "replica.json"
    }

    /// The name of the store's hidden folder under the root.
    static let hiddenFolder = ".readingprefs"
    /// The name of the sync snapshot beside a document: `<document>.sync`.
    static let snapshotSuffix = ".sync"
    /// The name of a document's change journal: `<document>.journal`.
    static let journalSuffix = ".journal"
    /// The file in a configurable's folder that names it, when the folder's name does not.
    static let configurableMarker = "configurable.json"

    // MARK: - Paths

    /// The file of a location.
    func path(of location: StorageLocation) -> String {
        switch location {
        case .device: return hidden("device.json")
        case .syncState: return syncStatePath
        case .syncLease: return hidden("sync-lease.json")
        case .replicaClock: return clockPath
        case .layer(let configurable, let layer): return path(of: layer, in: configurable)
        case .syncSnapshot(let configurable, let layer):
            return companion(of: path(of: layer, in: configurable)) + Self.snapshotSuffix
        }
    }

    /// Where the store keeps its own files for a file: the same relative path in the hidden
    /// folder for a file of the root's documents; the file itself for one already in it or
    /// outside the root (a document linked elsewhere keeps them beside its target).
    func companion(of target: String) -> String {
        // Compared byte for byte, as the file system compares paths.
        guard PathText.hasPrefix(target, rootPrefix), !PathText.hasPrefix(target, hiddenPrefix) else {
            return target
        }
        var companion = hiddenPrefix
        companion.reserveCapacity(hiddenPrefix.utf8.count + target.utf8.count - rootPrefix.utf8.count + 16)
        companion +=
            target.utf8.dropFirst(rootPrefix.utf8.count).withContiguousStorageIfAvailable {
                String(decoding: $0, as: UTF8.self)
            } ?? String(decoding: target.utf8.dropFirst(rootPrefix.utf8.count), as: UTF8.self)
        return companion
    }

    /// The lock file of a file.
    func lockPath(of target: String) -> String { companion(of: target) + DurableFile.lockSuffix }

    /// The change journal of a layer document's file.
    func journalPath(of target: String) -> String { companion(of: target) + Self.journalSuffix }

    /// Where every file of this root takes its lock.
    var locks: DurableFile.LockPlacement {
        let layout = self
        return .mapped { layout.lockPath(of: $0) }
    }

    private func hidden(_ name: String) -> String { hiddenPath + "/" + name }

    private func path(of layer: StoreLayer, in configurable: String) -> String {
        let folder = Self.folderName(of: configurable)
        switch layer {
        case .shared: return file(folder, "shared.json")
        case .overrides: return file(folder, "overrides.json")
        case .rules: return file(folder, "rules.json")
        case .profile(let id): return file(folder, "profiles", Self.profileFileName(id))
        case .deviceClass(let id): return file(folder, "classes", Self.profileFileName(id))
        case .device: return file(folder, "this-device.json")
        case .publication(let id): return file(folder, "publications", SafeName.fileName(for: id))
        }
    }

    /// The folder of a configurable, and the marker file it needs (`nil` when its name is the
    /// identifier itself).
    func folder(of configurable: String) -> (path: String, marker: String?) {
        let name = Self.folderName(of: configurable)
        return (
            file(name), Self.isPlainConfigurable(configurable) ? nil : file(name, Self.configurableMarker)
        )
    }

    /// The identifier a location's document carries in `$id`, when its file name does not say it.
    static func identifier(of location: StorageLocation) -> String? {
        switch location {
        case .layer(_, .publication(let id)), .syncSnapshot(_, .publication(let id)): return id
        case .layer(_, .profile(let id)), .syncSnapshot(_, .profile(let id)),
            .layer(_, .deviceClass(let id)), .syncSnapshot(_, .deviceClass(let id)):
            return isPlainProfile(id) ? nil : id
        default: return nil
        }
    }

    /// A path under the root, joined as text: `URL.appendingPathComponent(_:)` asks the file
    /// system whether each result is a folder, one system call per component on every read.
    private func file(_ first: String, _ second: String? = nil, _ third: String? = nil) -> String {
        var path = rootPath
        path.reserveCapacity(
            rootPath.utf8.count + first.utf8.count + (second?.utf8.count ?? 0) + (third?.utf8.count ?? 0) + 3)
        func append(_ component: String) {
            if path != "/" { path += "/" }
            path += component
        }
        append(first)
        if let second { append(second) }
        if let third { append(third) }
        return path
    }

    // MARK: - Names

    /// A configurable's folder name: its identifier when plain, else its safe name.
    static func folderName(of configurable: String) -> String {
        isPlainConfigurable(configurable)
            ? configurable : String(SafeName.fileName(for: configurable).dropLast(".json".count))
    }

    /// A profile's file: its id when it is a plain name, else its safe name.
    static func profileFileName(_ id: String) -> String {
        isPlainProfile(id) ? id + ".json" : SafeName.fileName(for: id)
    }

    /// `[a-z0-9][a-z0-9._-]{0,63}`: a configurable identifier used as a folder name as is.
    static func isPlainConfigurable(_ name: String) -> Bool {
        isPlain(name, extra: [UInt8(ascii: "."), UInt8(ascii: "_")])
    }

    /// `[a-z0-9][a-z0-9-]{0,63}`: a profile id used as a file name as is (the replica-id grammar).
    static func isPlainProfile(_ name: String) -> Bool {
        isPlain(name, extra: [])
    }

    private static func isPlain(_ name: String, extra: [UInt8]) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= 64, isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") || extra.contains($0) }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
    }

    // MARK: - Listing

    /// The configurables with a document under the root, or a sync snapshot in the hidden folder
    /// (a configurable whose documents are all removed still syncs their removals).
    func configurables() throws(StorageError) -> [String] {
        var result: [String] = []
        var seen = Set<String>()
        for base in [rootPath, hiddenPath] {
            for name in try entries(of: base) where !name.hasPrefix(".") && !seen.contains(name) {
                let folder = (base == "/" ? "" : base) + "/" + name
                // A folder whose documents were all removed (a marker may stay) is no
                // configurable of the storage's any more.
                guard isFolder(folder), try hasDocument(folder, snapshots: base == hiddenPath) else {
                    continue
                }
                if let marked = Self.identifierAtStart(of: file(name, Self.configurableMarker)) {
                    if Self.folderName(of: marked) == name {
                        result.append(marked)
                        seen.insert(name)
                    }
                } else if Self.isPlainConfigurable(name) {
                    result.append(name)
                    seen.insert(name)
                }
            }
        }
        return result.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether a configurable's folder holds a document (its layers, a profile's, a
    /// publication's) or, in the hidden folder, a sync snapshot of one.
    private func hasDocument(_ folder: String, snapshots: Bool) throws(StorageError) -> Bool {
        let suffixes = snapshots ? [".json" + Self.snapshotSuffix, ".json" + Self.journalSuffix] : [".json"]
        func isDocument(_ name: String) -> Bool {
            !name.hasPrefix(".") && suffixes.contains(where: name.hasSuffix)
                && name != Self.configurableMarker
        }
        let entries = try entries(of: folder)
        if entries.contains(where: isDocument) { return true }
        for kind in ["profiles", "classes", "publications"] where entries.contains(kind) {
            if try self.entries(of: folder + "/" + kind).contains(where: isDocument) { return true }
        }
        return false
    }

    /// The identifiers of the profiles, classes or publications of a configurable with a document
    /// of `kind`.
    func names(of kind: StorageKind, configurable: String) throws(StorageError) -> [String] {
        // Profiles and classes are named alike: by their id when plain.
        let isProfile = kind != .publications && kind != .publicationSnapshots
        let isSnapshot = kind.isSnapshot
        let subfolder: String
        switch kind.layer("").kind {
        case .profile: subfolder = "profiles"
        case .deviceClass: subfolder = "classes"
        default: subfolder = "publications"
        }
        // Sync's records of a document: its sidecar, or its journal alone (a document removed
        // before it ever synced still has a removal to send).
        let suffixes = isSnapshot ? [".json" + Self.snapshotSuffix, ".json" + Self.journalSuffix] : [".json"]
        let documents = file(Self.folderName(of: configurable), subfolder)
        let folder = isSnapshot ? companion(of: documents) : documents
        var result: [String] = []
        for name in try entries(of: folder) where !name.hasPrefix(".") {
            guard let suffix = suffixes.first(where: name.hasSuffix) else { continue }
            let fileName = String(name.dropLast(suffix.count - ".json".count))
            let stem = String(fileName.dropLast(".json".count))
            // A profile file named by its id holds no `$id`; one named by a safe name (which
            // may look like a plain id too) holds it first.
            var identifier = Self.identifierAtStart(of: folder + "/" + name)
            if identifier == nil, isProfile, Self.isPlainProfile(stem) { identifier = stem }
            // A file whose name is not its identifier's (copied under another name) is not a
            // document of that identifier: the store would never find it there.
            guard let identifier,
                (isProfile ? Self.profileFileName(identifier) : SafeName.fileName(for: identifier))
                    == fileName
            else { continue }
            result.append(identifier)
        }
        let sorted = result.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // A sidecar and a journal of one document name it once.
        return zip(sorted, sorted.dropFirst().map(Optional.some) + [nil]).compactMap { name, next in
            next.map { name.utf8.elementsEqual($0.utf8) } == true ? nil : name
        }
    }

    private func entries(of folder: String) throws(StorageError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            if (error as NSError).code == NSFileReadNoSuchFileError
                || ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ENOENT)
                || !FileManager.default.fileExists(atPath: folder)
            {
                return []
            }
            throw StorageError(
                .io, location: nil, message: "cannot list \(folder): \(error.localizedDescription)")
        }
    }

    private func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The `$id` a document starts with: read from its first 4 KiB when it is its first member,
    /// else from the whole document.
    static func identifierAtStart(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard count > 0 else { return nil }
        let fromHead: String?? = head.withUnsafeBufferPointer { buffer in
            try? JSONPullReader.read(
                UnsafeBufferPointer(rebasing: buffer[..<count]), maxDepth: 512, maxSize: .max
            ) { reader -> String? in
                try reader.beginObject()
                guard try reader.nextKey() == "$id" else { return nil }
                return try reader.readValue().stringValue
            }
        }
        if let fromHead, let identifier = fromHead { return identifier }
        guard let whole = try? DurableFile.readWithStatus(path),
            let document = try? Preferences(json: whole.data)
        else { return nil }
        return document["$id"]?.stringValue
    }
}
