-- Behavioral activation, for a good or great mood: savour what went well,
-- what made it possible, and a plan to repeat it.
return flow {
  id = "reflection.positive",
  title = "reflection.positive.title",
  moods = { "good", "great" },
  version = 2,
  total = 3,
  run = function(s)
    local pre = s:intensity { id = "pre", text = "intensity.pre", progress = false }
    local moment = s:ask { id = "savour", text = "reflection.positive.q1", probe = "specificity" }
    local possible = s:ask { id = "possible", text = "reflection.positive.q2", args = { moment }, fallback = "reflection.positive.q2.static" }
    -- The last question: personalised when a text provider is set (docs/generation.md).
    local final = s:generate { id = "final", purpose = "final_question", framework = "ba", inputs = { moment, possible },
                               fallback = "reflection.positive.q3", args = { moment }, static = "reflection.positive.q3.static" }
    local again = s:ask { id = "repeat", text = final }
    local post = s:intensity { id = "post", text = "intensity.post", progress = false }
    s:feedback { pre = pre, post = post, framework = "ba", final = "final", inputs = { again } }
  end,
}
