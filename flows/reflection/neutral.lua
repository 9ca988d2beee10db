-- ACT defusion, for an average mood: notice the thought, name it as a
-- thought, loosen its grip, re-orient to a value.
return flow {
  id = "reflection.neutral",
  title = "reflection.neutral.title",
  moods = { "average" },
  version = 2,
  total = 4,
  run = function(s)
    local pre = s:intensity { id = "pre", text = "intensity.pre", progress = false }
    local thought = s:ask { id = "notice", text = "reflection.neutral.q1", probe = "specificity" }
    local named = s:ask { id = "name", text = "reflection.neutral.q2", args = { thought }, fallback = "reflection.neutral.q2.static" }
    local loosened = s:ask { id = "loosen", text = "reflection.neutral.q3", args = { thought }, fallback = "reflection.neutral.q3.static" }
    -- The last question: personalised when a text provider is set (docs/generation.md).
    local final = s:generate { id = "final", purpose = "final_question", framework = "act",
                               inputs = { thought, named, loosened }, fallback = "reflection.neutral.q4" }
    local value = s:ask { id = "value", text = final }
    local post = s:intensity { id = "post", text = "intensity.post", progress = false }
    s:feedback { pre = pre, post = post, framework = "act", final = "final", inputs = { value } }
  end,
}
