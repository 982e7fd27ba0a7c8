-- A one-key merge patch of shared that changes the stored value every time: a text colour
-- no earlier request of the run wrote (each wrk thread counts in its own range).
wrk.method = "PATCH"
wrk.headers["Content-Type"] = "application/merge-patch+json"
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
