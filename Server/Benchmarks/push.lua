-- A 20-entry push of one device: the same entries each time, so after the first request the
-- server merges and finds nothing newer (the steady state of a device that syncs often).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local now = os.time() * 1000
local entries = {}
for i = 1, 20 do
  entries[#entries + 1] = string.format(
    '{"scope":"epub/publication/book-%d","key":"fontSize","value":1.%d,"stamp":{"time":%d,"counter":%d,"replica":"%s"}}',
    i % 4, i % 10, now, i, os.getenv("REPLICA") or "bench-device")
end
wrk.body = '{"replica":"' .. (os.getenv("REPLICA") or "bench-device") .. '","entries":[' .. table.concat(entries, ",") .. ']}'
