# Turns `swift package benchmark --no-progress` text output into the Markdown tables of
# README.md (medians, p50), in the order of issue 7's goals table:
#
#   swift package benchmark --no-progress | tee run.txt | awk -f summarize.awk
#
# Paired benchmarks give A and the operation in ns per call (the median iteration's
# averages) and the median of the per-iteration ratios; allocation benchmarks give the malloc
# count and the unpaired wall-clock median of one call.
BEGIN {
    FS = "│"
    n = split("decode decode+resolve decode+resolve+css css edit resolve values+resolve encode A", ops, " ")
    split("12-key 2-key", docs, " ")
    goal["decode"] = 0.2; goal["decode+resolve"] = 0.3; goal["decode+resolve+css"] = 0.5
    goal["edit"] = 0.03; goal["encode"] = 0.2
    allocGoal["decode+resolve+css/12-key"] = 12; allocGoal["edit/12-key"] = 0
    allocGoal["resolve/12-key"] = 0; allocGoal["resolve/2-key"] = 0;
}
/^(paired|allocations)\./ { name = $0; sub(/[ \t]+$/, "", name); next }
name != "" && NF >= 10 && $2 !~ /Metric/ {
    metric = $2; gsub(/^ +| +$/, "", metric); p50 = $5; gsub(/ /, "", p50)
    if (metric ~ /^Time \(wall clock\)/) { unit = metric; sub(/.*\(/, "", unit); sub(/\).*/, "", unit); p50 = p50 " " unit; metric = "time" }
    value[name, metric] = p50
}
END {
    print "| operation | document | A (ns/call) | operation (ns/call) | ratio to A | goal | met |"
    print "|---|---|---:|---:|---:|---:|:---:|"
    for (i = 1; i <= n; i++) for (j = 1; j <= 2; j++) {
        key = "paired." ops[i] "." docs[j]
        if (!((key, "ratio to A (x1000)") in value)) continue
        r = value[key, "ratio to A (x1000)"] / 1000
        g = (ops[i] in goal) && (ops[i] != "edit" || docs[j] == "12-key") ? goal[ops[i]] : ""
        met = g == "" ? "" : (r <= g ? "yes" : sprintf("no (%.1f× over)", r / g))
        printf "| %s | %s | %s | %s | %.3f× | %s | %s |\n", ops[i], docs[j], value[key, "A (ns/call)"], \
            value[key, "operation (ns/call)"], r, g == "" ? "" : "≤ " g "×", met
    }
    print ""
    print "| operation | document | allocations | goal | wall clock, one call (unpaired) |"
    print "|---|---|---:|---:|---:|"
    for (i = 1; i <= n; i++) for (j = 1; j <= 2; j++) {
        key = "allocations." ops[i] "." docs[j]
        if (!((key, "Malloc (total) *") in value)) continue
        a = value[key, "Malloc (total) *"]; k = ops[i] "/" docs[j]
        g = (k in allocGoal) ? "≤ " allocGoal[k] (a + 0 <= allocGoal[k] ? " (met)" : " (missed)") : ""
        printf "| %s | %s | %s | %s | %s |\n", ops[i], docs[j], a, g, value[key, "time"]
    }
}
