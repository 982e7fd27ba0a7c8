import ReadingPreferences

// Each command's own help text: what `readingprefs help COMMAND` and a usage error print.
extension Usage {
    static func text(for command: ReadingPrefsTool.Command) -> String {
        let inputs =
            "[--preferences FILE | --root DIR] [--defaults FILE] [--publication FILE] [--environment FILE]"
            + " [--appearance light|dark] [--time HH:MM] [--device-class CLASS] [--collection NAME[,NAME...]]"
        switch command {
        case .inspect:
            return """
                Usage: readingprefs inspect [--configurable NAME] [--json] [--dialect DIALECT] \(inputs)

                Prints the settings form of the configurable (epub by default; pdf, audio, tts) as a
                table, one row per user-facing setting: its KEY, its CONTROL (toggle, stepper or
                slider with range and step, picker with its values, color, text, custom), the
                STORED value (JSON, or -), the EFFECTIVE VALUE, its FORMATTED label, whether it is
                EFFECTIVE and, when not, WHY NOT. Then the diagnostics of the preferences file.
                With --json, prints the form as JSON (pretty, keys sorted) and the diagnostics on
                standard error.
                With --dialect DIALECT, the preferences file is a Readium toolkit's JSON
                (\(DialectOptions.accepted)), read into ours first; what could not be
                translated is said on standard error.
                With no arguments at all, readingprefs inspects a built-in sample publication
                (readingprefs --configurable pdf shows the PDF sample).
                With --root DIR (here and on resolve and css), the preferences are the store's in
                DIR: shared, or the profile chosen by hand or by the rules (readingprefs help
                rules), with the overrides. --appearance, --time, --device-class and --collection
                give the context the rules are evaluated in (the book's languages come from
                --publication FILE); --appearance is also the environment's, --collection the
                publication context's collections.
                """
        case .resolve:
            return """
                Usage: readingprefs resolve \(inputs) [--dialect DIALECT]

                Prints the resolved settings as JSON, in catalogue order; null means the setting
                resolved to none (the publisher's style shows).
                With --dialect DIALECT, the preferences file is a Readium toolkit's JSON, read into
                ours, and the settings that resolved to a value are written in that dialect (what
                it has no member for is said on standard error). DIALECT: \(DialectOptions.accepted).
                """
        case .convert:
            return """
                Usage: readingprefs convert FILE [--from DIALECT] [--to DIALECT] [--compact] [--configurable NAME]

                Converts a JSON object of preferences between ours and a Readium toolkit's
                (Specs/CSS.md §2): --from DIALECT reads FILE as that toolkit's and prints ours;
                --to DIALECT reads FILE as ours and prints the toolkit's; both convert from one
                toolkit to another through ours. What was dropped, changed, or kept untranslated
                (kept under readium-ts: keys, so it comes back on the way out) goes to standard
                error. DIALECT: \(DialectOptions.accepted).

                Examples:
                  readingprefs convert prefs.json --to readium-ts
                  readingprefs convert thorium.json --from ts
                  readingprefs convert swift.json --from swift --to kotlin
                """
        case .edit:
            return """
                Usage: readingprefs edit FILE OP [KEY] [VALUE] [--no-activate] [--defaults FILE] [--publication FILE] [--environment FILE]

                Applies one edit to the preferences FILE (a missing file is empty preferences) and
                writes it back atomically, keeping key order and unknown keys; prints the result.
                OP is one of: \(PreferenceEdit.Operation.allNames.joined(separator: ", ")).
                clearAll takes no KEY; set and toggleValue take a VALUE (JSON, or a plain string when
                it is not JSON; null clears); adjustBy takes a number. --no-activate makes set write
                only its own key. A failing edit prints its error code and exits 1, leaving FILE as it was.

                Examples:
                  readingprefs edit prefs.json set theme dark
                  readingprefs edit prefs.json set wordSpacing 0.3 --no-activate
                  readingprefs edit prefs.json increment fontSize
                  readingprefs edit prefs.json clearAll
                """
        case .css:
            return """
                Usage: readingprefs css \(inputs) [--json]

                Prints the Readium CSS inline style and the page layout (stylesheets, dir, lang).
                With --json, prints the property map as a JSON object.
                """
        case .validate:
            return """
                Usage: readingprefs validate FILE

                Prints each diagnostic of the preferences FILE on one line (key: code: message), or
                'valid'. Exits 1 when FILE is not a JSON object or has a diagnostic other than unknownKey.
                """
        case .migrateLegacy:
            return """
                Usage: readingprefs migrate-legacy FILE

                Reads a JSON object of Readium's legacy --USER__* settings, prints the new preferences
                on standard output and the migration's diagnostics on standard error.
                """
        case .migrate:
            return """
                Usage: readingprefs migrate FILE [--to NAME | --from NAME]

                Writes the EPUB preferences in FILE (ours) in a Readium key set, by default
                readium-css2: the keys of Readium's toolkits on Readium CSS 2 (columnCount an integer,
                imageFilter as darkenImages / invertImages with the dark theme, no publisherStyles nor
                typeScale; Specs/CSS.md §5). With --from NAME, reads FILE in that key set into ours.
                NAME is one of \(ReadiumDialect.names.joined(separator: ", ")).
                Prints the result on standard output; what was dropped, changed or kept aside on
                standard error, one line each.
                """
        case .conformance:
            return """
                Usage: readingprefs conformance PATH...

                Runs the conformance vectors in the given files and folders (recursively, *.json,
                sorted). Prints PASS name or FAIL name: what differed per case, then
                'N passed, N failed'. Exits 1 when any case failed or could not be read.
                """
        case .catalogue:
            return """
                Usage: readingprefs catalogue [FILE] [--configurable NAME]

                With FILE, reads a catalogue document (the format of Specs/Settings/*.json, described
                in Specs/README.md) and reports every declaration problem: a key declared twice, a
                fallback outside its values or its range, an increment of 0 or below, empty or
                unordered steps, an activator naming an unknown key. Exits 1 on problems.
                Without FILE, prints the configurable's catalogue in that format and checks it.
                """
        case .store:
            return """
                Usage: readingprefs store --root DIR [--configurable NAME] COMMAND [OPTIONS]

                The preferences store in a folder of plain JSON files: DIR/<configurable>/shared.json,
                profiles/<id>.json, classes/<class>.json (what devices of a class want; synced),
                this-device.json (what this device wants; never synced), publications/<safe-name>.json,
                overrides.json; the store's own files (this device's state, sync's, the change journals,
                the locks) are in DIR/.readingprefs/.

                Commands:
                  show [--publication ID] [--metadata FILE] [--defaults FILE] [--json]
                      every setting with its effective value and where it came from (SOURCE:
                      override, publication, device, deviceClass(CLASS), profile(NAME), shared,
                      default, publicationMetadata, derived(KEYS), forced(BY), fallback); --json prints
                      {"preferences": ..., "settings": {KEY: {"value", "source", "from"?, "effective"}}}
                  set KEY VALUE [--publication ID] [--layer LAYER] [--unknown] [--json]
                      through the publication's editor: validated, kept within its range, and
                      activating (wordSpacing also writes publisherStyles: false); VALUE is JSON, or a
                      plain string (set theme dark)
                  remove KEY [--publication ID] [--layer LAYER] [--unknown] [--json]
                  move KEY --to base|class|device|book [--publication ID] [--json]
                      keeps the value that resolves: set in the target and removed from the layers
                      below it (base < class < device < book), in one batch; layers above keep theirs
                      (base: all devices; class: devices like this; device: this device; book: this book)
                  profile list [--json] | create NAME | rename PROFILE NAME | duplicate PROFILE NAME
                        | activate PROFILE | activate --auto | deactivate | delete PROFILE
                      PROFILE is an id, or a display name only one profile has; a profile (or
                      shared, with deactivate) chosen by hand beats the rules on this device until
                      activate --auto returns it to the rules (see 'readingprefs help rules')
                  device [--name NAME | --no-name] [--history] [--class ID | --no-class]
                         [--policy default|formFactor] [--json]
                      this device's replica id and display name ("Kobo Clara"), carried in its
                      replica file and pushes; naming it (or --history) makes it keep history and
                      stamp its edits when made, before its first sync. --class sets its class (eink,
                      phone, tablet, desktop, web or your own): it then resolves classes/<class>.json;
                      --policy sets where new keys go (below). Both stay on this device.
                  restore FILE
                      puts back the documents of an export (the file a first sync with
                      --first take-theirs set aside), as this device's edits

                Where set and remove write: each key goes back to the highest layer holding it of
                the book's, this device's, its class's and the base (shared, or the active profile);
                a key none holds goes by the device's scope policy: default sends publication-specific
                keys (readingProgression, language...) to the publication, the rest to the base;
                formFactor also sends the screen's keys (fontSize, lineHeight, pageMargins...) to the
                device's class. --layer LAYER writes every key the edit changes to one layer instead:
                base, shared, profile (the active one), class, device, book or publication (needs
                --publication) or overrides (a debug layer; --override is the same).
                --unknown stores a key no setting knows (a newer app's key) as it is.

                Each change prints one line: KEY: OLD → NEW in LAYER (FILE), and why a value differs
                from the one asked (kept within its range) or a key was written too (activation).
                --json prints {"changes": [{"layer", "file", "key", "old", "new", "note"?}], "message"?}.
                A corrupt file is set aside (.corrupt-<timestamp>) and reported on stderr; the command
                still works on the rest.

                Exit status: 0 success, 1 failure (a rejected value, an unknown profile), 2 usage error.

                Example: two devices, their stores in phone/ and tablet/, sharing the folder mirror/
                  readingprefs store --root phone set fontSize 1.4
                  readingprefs store --root phone set readingProgression rtl --publication urn:isbn:978-0
                  readingprefs store --root phone profile create Night
                  readingprefs store --root phone profile activate Night
                  readingprefs store --root phone set theme dark --layer profile
                  readingprefs sync --root phone --mirror mirror --replica phone
                  readingprefs sync --root tablet --mirror mirror --replica tablet   # the tablet gets all of it
                  readingprefs store --root tablet show --publication urn:isbn:978-0
                """
        case .sync:
            return """
                Usage: readingprefs sync --root DIR --mirror DIR [--replica ID [--new-replica]]
                                         [--first keep-mine|take-theirs|merge] [--json]
                       readingprefs sync --root DIR --server URL --token TOKEN [--replica ID [--new-replica]]
                                         [--first keep-mine|take-theirs|merge]
                                         [--register NAME [--class CLASS]] [--watch] [--json]

                Runs one sync of the store in DIR with a mirror folder that several devices share
                (iCloud Drive, a network share, Syncthing), for every configurable in DIR: edits
                keep the stamps they took when they were made (so the later edit wins, not the
                later sync); what changed otherwise since the last sync (hand edits, compared value
                by value) is stamped now; reads every other device's file in the mirror, keeps per
                key the change with the latest stamp, writes the winners to DIR, and writes this
                device's own file (mirror/ID.json). Prints what it sends (sent scope key old → new;
                a deleted file by name: epub/shared: 5 keys removed (the file was deleted)), then one
                line per key changed here (scope key old → new), and the counts; --json prints the
                same as one JSON object. What was skipped or ignored (a damaged file, a stamp from
                the future) goes to stderr. A missing mirror folder is created, and said.

                --server URL --token TOKEN syncs with a reading back end instead (readingprefs-server,
                Specs/Server.md §6): the server is one more replica, whose state is read and to which this
                device's entries are pushed; the token is the account's (readingprefs-server add-user
                prints one).

                --watch (with --server) keeps syncing until Ctrl-C: it syncs at once, keeps the server's
                event stream open, and syncs again each time the server announces a change (made by
                another device or a settings page; at most once a second) and each time the stream
                opens again after it was lost (after 1 s, then 2, 4... up to a minute). Ctrl-C (or
                SIGTERM) stops it once a sync under way has finished, with exit status 0; a second
                Ctrl-C stops it at once. With --json, one JSON object per sync, one per line.

                --register NAME (with --server and the account's --token) first makes a device of this
                name on the server with a token of its own (POST /v1/devices; --class CLASS gives its
                class: phone, tablet, eink, desktop, web...), prints "device ID" and "token TOKEN" (the
                token is shown once: use it as --token from now on; the reader can revoke this device
                alone), then syncs with that token. With --json the device is in the JSON object.

                The first sync of DIR, when the mirror or server already holds documents that differ
                from DIR's own, writes nothing: it names the keys that differ in each document and
                exits with status 1, until --first says what to do: keep-mine (DIR's documents win
                on every device), take-theirs (the synced documents replace DIR's, which are set
                aside first in DIR/first-join-ID-TIME.json, an export that `store restore` puts back)
                or merge (key by key, the later change wins). Later syncs never ask.

                --replica ID names this device the first time DIR syncs (1 to 64 lower-case letters,
                digits and hyphens; a random id otherwise); later it is reported and not used if it
                differs, unless --new-replica is given: then DIR takes that id (or a random one) and
                retires its old one, keeping every edit (what to do when a server refuses the id).
                The mirror and DIR must not contain each other. Which profile is active,
                the overrides and the app defaults never sync.

                Exit status: 0 success (--watch: stopped by Ctrl-C), 1 failure (the mirror cannot be
                written, the server cannot be reached or refuses the token, a watched device was
                revoked, another sync of DIR holds its lock, a first sync that needs --first), 2 usage
                error.

                Example: two devices sharing the folder mirror/
                  readingprefs store --root phone set fontSize 1.4
                  readingprefs sync --root phone --mirror mirror --replica phone
                      sent epub/shared fontSize (none) → 1.4
                      1 key(s) sent
                      0 key(s) changed (replica phone)
                  readingprefs sync --root tablet --mirror mirror --replica tablet
                      epub/shared fontSize (none) → 1.4
                      1 key(s) changed (replica tablet)
                  readingprefs store --root tablet remove fontSize
                  readingprefs sync --root tablet --mirror mirror
                  readingprefs sync --root phone --mirror mirror
                      epub/shared fontSize 1.4 → (removed)
                      1 key(s) changed (replica phone)
                """
        case .rules: return RulesCommand.help
        case .why:
            return """
                Usage: readingprefs why KEY --root DIR [--configurable NAME] [--publication ID] [--metadata FILE] [--defaults FILE] [--appearance light|dark] [--time HH:MM] [--device-class CLASS] [--collection NAME[,NAME...]] [--json]

                Says why a setting has the value it has: its effective value, formatted, and whether
                it takes effect (and why not); every layer that holds KEY, highest first (overrides,
                this book, the active profile or all books), with its value and where that value
                came from: the device that set it (its name, or its replica id), when, and why
                (edit, handEdit, sync, import, revert, move, firstJoin), or "provenance unknown" for
                a value stored before this version or written by hand and not synced yet; the layer
                that wins; then the app default (--defaults) and the fallback.
                --json prints {"key", "value", "formatted", "effective", "reasons", "source",
                "layers": [{"layer", "id"?, "name", "value", "provenance": {"device": {"id", "name"?},
                "time", "cause"} | null, "wins"}], "default", "fallback"}.

                Example:
                  readingprefs why fontSize --root phone --publication urn:isbn:978-0
                      fontSize 1.4 (140%) — this book, set on Kobo Clara, 3 days ago (sync)
                        all books: 1 (set on iPhone, on 2026-11-02 (edit))
                """
        case .history:
            return """
                Usage: readingprefs history [KEY] --root DIR [--configurable NAME] [--layer LAYER] [--publication ID] [--json]

                Lists the changes recorded for the documents a publication resolves from (its own,
                the active profile or shared, the overrides; --layer LAYER for one of them: \(StoreLayerName.all)),
                oldest first, each on one line: its ID, the document, KEY: OLD → NEW, the device,
                the time and the cause. Changes brought by a sync are listed with the device that
                made them. History is kept once a device is a replica (it synced, or was named with
                'store device --name'): per key at least its last 20 changes and every change of the
                last 30 days, at most 1 MiB per document.
                --json prints {"entries": [{"id", "layer", "layerID"?, "key", "old", "new", "removed",
                "device": {"id", "name"?}, "time", "cause"}]}.
                """
        case .revert:
            return """
                Usage: readingprefs \(RevertCommand.usage)

                Restores KEY to its value at a point of history: --to ENTRY (an ID 'history' lists:
                the value just after that change) or --to TIME (ISO 8601, such as
                2026-11-25T18:00:00Z: the value at that moment). --all restores every key: of one
                document with --layer, else of every document of the configurable. Without --layer,
                KEY is restored in the layer that holds it (the book's, with --publication, else the
                active profile or shared). A revert is an edit made now (cause revert): it syncs
                and wins over older values, and is itself in history, so it can be reverted.
                """
        case .help:
            return full
        }
    }
}
