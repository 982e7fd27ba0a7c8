#!/usr/bin/env bash
# Type-checks every ```swift code block of README.md and of the DocC catalogs against the
# package's built modules, so documentation examples compile (issue 11). Each block is checked
# on its own, as a main file (top-level statements allowed), after the package's imports.
# ```swift-nocompile marks a block that needs types an app has (UIKit, SwiftUI, Readium).
#
# Usage: .ci/check-snippets.sh   (after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/.."

modules="$(swift build --show-bin-path)/Modules"
out=.build/snippets
rm -rf "$out"
mkdir -p "$out"

documents=(README.md $(find Sources -path '*.docc/*' -name '*.md' | sort))
count=0
for document in "${documents[@]}"; do
    # Writes each block to $out/NNNN.swift, and its origin (file:line) to $out/NNNN.origin.
    count=$(awk -v out="$out" -v start="$count" -v doc="$document" '
        BEGIN { n = start; inside = 0 }
        /^[ \t]*```swift[ \t]*$/ && !inside {
            inside = 1; n++; file = sprintf("%s/%04d.swift", out, n)
            printf "%s:%d\n", doc, NR + 1 > sprintf("%s/%04d.origin", out, n)
            print "import Foundation\nimport ReadingPreferences\nimport ReadingPreferencesConformance\nimport ReadingPreferencesSQL\nimport ReadingPreferencesStore\n" > file
            next
        }
        /^[ \t]*```[ \t]*$/ && inside { inside = 0; close(file); next }
        inside { sub(/^    /, ""); print > file }
        END { print n }
    ' "$document")
done

failed=0
for snippet in "$out"/*.swift; do
    origin=$(cat "${snippet%.swift}.origin")
    if ! swiftc -typecheck -I "$modules" -module-cache-path "$out/cache" "$snippet" >"${snippet%.swift}.log" 2>&1; then
        echo "FAIL $origin"
        sed -n '1,12p' "${snippet%.swift}.log"
        failed=$((failed + 1))
    fi
done
echo "$count code blocks checked, $failed failed"
[ "$failed" -eq 0 ]
