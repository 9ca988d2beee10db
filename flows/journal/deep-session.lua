-- A deep session: a short setup (a title, how intense it feels, where and
-- with whom, themes, notes), then Capture → Meaning → Next step, one text
-- answer each. `reflect letter` and `reflect digest` take `next_step` as the
-- week's commitment (docs/journal.md): keep the step ids.
local themes = { "work", "sleep", "family", "exercise", "stress", "food", "money", "health", "friends", "self" }

local function options(prefix, ids)
  local list = {}
  for i, id in ipairs(ids) do list[i] = { id = id, text = prefix .. id } end
  return list
end

return flow {
  id = "journal.deep-session",
  title = "journal.deep.title",
  version = 1,
  total = 9,
  run = function(s)
    -- Setup
    s:ask { id = "title", text = "journal.deep.name", max_chars = 80 }
    s:intensity { id = "intensity", text = "journal.deep.intensity" }
    s:choose { id = "environment", text = "journal.deep.environment",
               options = options("journal.deep.environment.", { "home", "outdoors", "quiet", "other" }) }
    s:choose { id = "support", text = "journal.deep.support",
               options = options("journal.deep.support.", { "solo", "trusted", "professional" }) }
    s:choose_many { id = "themes", text = "journal.deep.themes", options = options("theme.", themes), required = false }
    s:ask { id = "notes", text = "journal.deep.notes", required = false }
    -- Capture → Meaning → Next step
    s:ask { id = "capture", text = "journal.deep.capture", hint = "journal.deep.capture.hint" }
    s:ask { id = "meaning", text = "journal.deep.meaning", hint = "journal.deep.meaning.hint" }
    s:ask { id = "next_step", text = "journal.deep.next_step", hint = "journal.deep.next_step.hint" }
    s:message { id = "close", text = "journal.deep.close" }
  end,
}
