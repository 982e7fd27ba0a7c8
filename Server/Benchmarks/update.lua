-- The select-and-update baseline: the same bytes a one-key patch sends, written every time.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end
local n = 0
request = function()
  n = n + 1
  local colour = ((id or 0) * 8388608 + n) % 16777216
  return wrk.format(nil, nil, nil, string.format('{"textColor":"#%06x"}', colour))
end
