import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// What `why`, `history` and `revert` share with `store`: a store in `--root DIR`, opened for the
/// configurable `--configurable` names, its errors made one line each.
enum RootCommand {
    /// The options of a command on a store's folder.
    static let spec = OptionSpec(
        valued: ["root", "publication", "metadata", "defaults", "layer", "to"],
        flags: ["json", "all"],
        placeholders: [
            "root": "DIR", "publication": "ID: the publication's identifier", "metadata": "FILE",
            "defaults": "FILE", "layer": "one of \(StoreLayerName.all)", "to": "ENTRY or TIME",
        ]
    ).adding(RuleContextOptions.spec)

    /// Parses a command's arguments and runs `body` on the store of `--root`.
    static func run(
        _ tokens: [String], command: ReadingPrefsTool.Command,
        _ body: @escaping (Arguments, any ConfigurableRun) async throws -> Int32
    ) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: command.rawValue, spec: spec)
        if arguments.wantsHelp {
            Console.out(Usage.text(for: command))
            return 0
        }
        let root = try arguments.root(of: command.rawValue)
        if arguments.positionals.first?.isEmpty == true {
            throw .usage("\(command.rawValue): KEY is empty; name a setting's key, such as fontSize")
        }
        let kind = try arguments.configurable()
        return try await run(kind.schema, root: root, arguments: arguments, body)
    }

    private static func run<Schema: ResolvableSchema>(
        _ schema: Schema.Type, root: String, arguments: Arguments,
        _ body: (Arguments, any ConfigurableRun) async throws -> Int32
    ) async throws(ToolError) -> Int32 {
        let invocation = try await StoreInvocation<Schema>.opened(root: root, arguments: arguments)
        let status: Int32
        do {
            status = try await body(arguments, Run(invocation: invocation))
        } catch let error as ToolError {
            throw error
        } catch let error as HistoryError {
            throw .failure("\(error)")
        } catch {
            throw .failure("\(error)")
        }
        for problem in await invocation.store.problems {
            Console.error("readingprefs: warning: \(problem.message)")
        }
        return status
    }

    /// A store of some configurable, for the commands' bodies.
    struct Run<Schema: ResolvableSchema>: ConfigurableRun {
        let invocation: StoreInvocation<Schema>
        var store: PreferencesStore<Schema> { invocation.store }

        func explanation(of key: String) async throws -> SettingExplanation? {
            try await store.explanation(of: key, for: invocation.publication, context: invocation.context)
        }

        func history(key: String?, layer: StoreLayer?) async throws -> [HistoryEntry] {
            if let layer { return try await store.history.entries(in: layer, key: key) }
            return try await store.history.entries(for: invocation.publication, key: key)
        }

        func revert(key: String?, layer: StoreLayer?, to point: RevertPoint) async throws -> [StoredChange] {
            if key == nil, layer == nil { return try await store.history.revertAll(to: point) }
            let target: StoreLayer
            if let layer {
                target = layer
            } else if let key, let publication = invocation.publication,
                try await store.storedPreferences(in: .publication(publication))[key] != nil
            {
                target = .publication(publication)
            } else {
                target =
                    try await store.profileSelection(context: invocation.context).profile.map {
                        .profile($0.id)
                    }
                    ?? .shared
            }
            return try await store.history.revert(key, in: target, to: point)
        }

        func layer() async throws -> StoreLayer? { try await invocation.explicitLayer() }

        func describe(_ layer: StoreLayer) async -> String { await invocation.describe(layer) }
    }
}

/// What a command on a store's folder does, whatever its configurable.
protocol ConfigurableRun {
    func explanation(of key: String) async throws -> SettingExplanation?
    func history(key: String?, layer: StoreLayer?) async throws -> [HistoryEntry]
    func revert(key: String?, layer: StoreLayer?, to point: RevertPoint) async throws -> [StoredChange]
    func layer() async throws -> StoreLayer?
    func describe(_ layer: StoreLayer) async -> String
}
