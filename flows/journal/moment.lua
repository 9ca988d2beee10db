-- A moment: words worth keeping (at most 240 characters) from a check-in or
-- a session, with its themes, feelings, intensity and what it asks of the
-- person. `reflect moments` lists them by theme, date and source.
local themes = { "work", "sleep", "family", "exercise", "stress", "food", "money", "health", "friends", "self" }
local emotions = { "joy", "calm", "gratitude", "hope", "sadness", "anxiety", "anger", "shame", "loneliness" }

local function options(prefix, ids)
  local list = {}
  for i, id in ipairs(ids) do list[i] = { id = id, text = prefix .. id } end
  return list
end

return flow {
  id = "journal.moment",
  title = "journal.moment.title",
  version = 1,
  total = 6,
  run = function(s)
    s:choose { id = "source", text = "journal.moment.source", options = {
      { id = "check-in", text = "journal.moment.source.checkin" },
      { id = "session", text = "journal.moment.source.session" } } }
    s:ask { id = "quote", text = "journal.moment.quote", max_chars = 240 }
    s:choose_many { id = "themes", text = "journal.moment.themes", options = options("theme.", themes), required = false }
    s:choose_many { id = "emotions", text = "journal.moment.emotions", options = options("emotion.", emotions), required = false }
    s:intensity { id = "intensity", text = "journal.moment.intensity" }
    s:ask { id = "asks", text = "journal.moment.asks", max_chars = 200 }
    s:message { id = "close", text = "journal.moment.close" }
  end,
}
