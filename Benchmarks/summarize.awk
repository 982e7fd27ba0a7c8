# Turns `swift package benchmark --no-progress` text output into the Markdown tables of
# README.md (medians, p50), one row per benchmark in the order they ran:
#
#   swift package benchmark --no-progress | tee run.txt | awk -f summarize.awk
#
# Paired benchmarks give A (or the bare operation) and the operation in ns per call (the median
# iteration's averages) and the median of the per-iteration ratios, with issue 14's goal where
# it sets one; allocation benchmarks give the malloc count and the unpaired wall-clock median of
# one call.
BEGIN { FS = "│" }
/^(paired|allocations|store)\./ {
    name = $0; sub(/[ \t]+$/, "", name)
    if (!(name in seen)) { seen[name] = 1; order[++count] = name }
    next
}
name != "" && NF >= 10 && $2 !~ /Metric/ {
    metric = $2; gsub(/^ +| +$/, "", metric); p50 = $5; gsub(/ /, "", p50)
    if (metric ~ /^Time \(wall clock\)/) { unit = metric; sub(/.*\(/, "", unit); sub(/\).*/, "", unit); p50 = p50 " " unit; metric = "time" }
    if (metric ~ /^Malloc \(total\)/) metric = "malloc"
    value[name, metric] = p50
}
# Issue 14's goals, as a ratio to A, for an operation on a row (document.publication).
function goal(op, row,    doc, lang) {
    doc = row; sub(/\..*/, "", doc); lang = (row ~ /\.(en|ar-rtl|ja-rtl)$/)
    if (doc == "12-key" || doc == "2-key") {
        if (op == "decode") return 0.12
        if (op == "encode") return 0.15
        if (op == "decode+resolve" && lang) return 0.25
        if (op == "decode+resolve+css" && lang) return 0.4
        if (op == "edit" && doc == "12-key") return 0.03
    }
    if (doc ~ /^27\+/ && op == "decode") return 0.35
    if (op == "store-edit") return 1.3
    if (op == "store-open-resolve") return 2
    if (op == "sync-reconcile" || op == "sync-large") return 3
    return 0
}
END {
    print "| operation | row | A or bare (ns/call) | operation (ns/call) | ratio | goal | met |"
    print "|---|---|---:|---:|---:|---:|:---:|"
    for (i = 1; i <= count; i++) {
        key = order[i]
        if (key !~ /^paired\./ || !((key, "ratio to A (x1000)") in value)) continue
        rest = substr(key, 8); op = rest; sub(/\..*/, "", op); row = substr(rest, length(op) + 2)
        r = value[key, "ratio to A (x1000)"] / 1000
        g = goal(op, row)
        met = g == 0 ? "" : (r <= g ? "yes" : sprintf("no (%.1f× over)", r / g))
        printf "| %s | %s | %s | %s | %.3f× | %s | %s |\n", op, row, value[key, "A (ns/call)"], \
            value[key, "operation (ns/call)"], r, g == 0 ? "" : "≤ " g "×", met
    }
    print ""
    print "| operation | row | allocations | wall clock, one call (unpaired) |"
    print "|---|---|---:|---:|"
    for (i = 1; i <= count; i++) {
        key = order[i]
        if (key !~ /^allocations\./) continue
        rest = substr(key, 13); op = rest; sub(/\..*/, "", op); row = substr(rest, length(op) + 2)
        printf "| %s | %s | %s | %s |\n", op, row, value[key, "malloc"], value[key, "time"]
    }
    for (i = 1; i <= count; i++) {
        key = order[i]
        if (key !~ /^store\./) continue
        printf "\n%s: %s writes for 10,000 edits, %s\n", key, value[key, "writes for 10,000 edits"], value[key, "time"]
    }
}
