#!/usr/bin/env bash
# Checks that every guide code block marked `<!-- guide-code: PATH -->` is, line for line, the
# file PATH from its first doc comment (`///`) on: the file is compiled and tested in the
# package, so the guide's code is real (issue 21).
#
# Usage: .ci/check-guide-code.sh
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0
checked=0
while IFS= read -r document; do
    while IFS= read -r path; do
        checked=$((checked + 1))
        block=$(awk -v path="$path" '
            $0 == "<!-- guide-code: " path " -->" { found = 1; next }
            found && /^```swift[ \t]*$/ && !inside { inside = 1; next }
            inside && /^```[ \t]*$/ { exit }
            inside { print }
        ' "$document")
        code=$(awk '/^\/\/\// { started = 1 } started { print }' "$path")
        if [ "$block" != "$code" ]; then
            echo "FAIL $document: its block differs from $path"
            diff <(printf '%s\n' "$code") <(printf '%s\n' "$block") | head -20 || true
            failed=$((failed + 1))
        fi
    done < <(sed -n 's/^<!-- guide-code: \(.*\) -->$/\1/p' "$document")
done < <(find Sources -path '*.docc/*' -name '*.md' | sort)
echo "$checked guide code blocks checked, $failed differ"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]
