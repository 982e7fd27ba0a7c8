-- The select-and-update baseline: the same bytes a one-key patch writes.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, string.format('{"fontSize":%s}', (n % 2 == 0) and "1.4" or "1.2"))
end
