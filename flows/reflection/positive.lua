-- Behavioral activation, for a good or great mood: savour what went well,
-- what made it possible, and a plan to repeat it.
return flow {
  id = "reflection.positive",
  title = "reflection.positive.title",
  moods = { "good", "great" },
  version = 1,
  total = 3,
  run = function(s)
    s:intensity { id = "pre", text = "intensity.pre", progress = false }
    local moment = s:ask { id = "savour", text = "reflection.positive.q1", probe = "specificity" }
    s:ask { id = "possible", text = "reflection.positive.q2", args = { moment }, fallback = "reflection.positive.q2.static" }
    s:ask { id = "repeat", text = "reflection.positive.q3", args = { moment }, fallback = "reflection.positive.q3.static" }
    s:intensity { id = "post", text = "intensity.post", progress = false }
  end,
}
