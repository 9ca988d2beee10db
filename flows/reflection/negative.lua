-- CBT thought record, for a bad or horrible mood: what happened, the
-- thought, a question matched to the thought's distortion, the evidence,
-- and a more balanced view, between two intensity ratings.
return flow {
  id = "reflection.negative",
  title = "reflection.negative.title",
  moods = { "horrible", "bad" },
  version = 2,
  total = 5,
  run = function(s)
    s:intensity { id = "pre", text = "intensity.pre", progress = false }
    local situation = s:ask { id = "situation", text = "reflection.negative.q1", probe = "specificity" }
    local thought = s:ask { id = "thought", text = "reflection.negative.q2", args = { situation },
                            fallback = "reflection.negative.q2.static" }
    local kind = s:distortion(thought)
    s:ask { id = "perspective", text = "reflection.negative.q3." .. kind, args = { thought },
            fallback = "reflection.negative.q3.static" }
    s:ask { id = "evidence", text = "reflection.negative.q4", args = { thought },
            fallback = "reflection.negative.q4.static" }
    s:ask { id = "reframe", text = "reflection.negative.q5", args = { thought },
            fallback = "reflection.negative.q5.static" }
    s:intensity { id = "post", text = "intensity.post", progress = false }
  end,
}
