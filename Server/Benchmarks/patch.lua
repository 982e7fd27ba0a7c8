-- A one-key merge patch of shared, alternating two values so every request writes.
wrk.method = "PATCH"
wrk.headers["Content-Type"] = "application/merge-patch+json"
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, string.format('{"fontSize":%s}', (n % 2 == 0) and "1.4" or "1.2"))
end
