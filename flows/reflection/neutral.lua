-- ACT defusion, for an average mood: notice the thought, name it as a
-- thought, loosen its grip, re-orient to a value.
return flow {
  id = "reflection.neutral",
  title = "reflection.neutral.title",
  moods = { "average" },
  version = 1,
  total = 4,
  run = function(s)
    s:intensity { id = "pre", text = "intensity.pre", progress = false }
    local thought = s:ask { id = "notice", text = "reflection.neutral.q1", probe = "specificity" }
    s:ask { id = "name", text = "reflection.neutral.q2", args = { thought }, fallback = "reflection.neutral.q2.static" }
    s:ask { id = "loosen", text = "reflection.neutral.q3", args = { thought }, fallback = "reflection.neutral.q3.static" }
    s:ask { id = "value", text = "reflection.neutral.q4" }
    s:intensity { id = "post", text = "intensity.post", progress = false }
  end,
}
