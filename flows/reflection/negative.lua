-- CBT thought record, for a bad or horrible mood: what happened, the
-- thought, a question matched to the thought's distortion, the evidence,
-- and a more balanced view, between two intensity ratings. The last
-- question is personalised when a text provider is set (docs/generation.md),
-- and feedback follows the end.
return flow {
  id = "reflection.negative",
  title = "reflection.negative.title",
  moods = { "horrible", "bad" },
  version = 3,
  total = 5,
  run = function(s)
    local pre = s:intensity { id = "pre", text = "intensity.pre", progress = false }
    local situation = s:ask { id = "situation", text = "reflection.negative.q1", probe = "specificity" }
    local thought = s:ask { id = "thought", text = "reflection.negative.q2", args = { situation },
                            fallback = "reflection.negative.q2.static" }
    local kind = s:distortion(thought)
    local perspective = s:ask { id = "perspective", text = "reflection.negative.q3." .. kind, args = { thought },
                                fallback = "reflection.negative.q3.static" }
    local evidence = s:ask { id = "evidence", text = "reflection.negative.q4", args = { thought },
                             fallback = "reflection.negative.q4.static" }
    local final = s:generate { id = "final", purpose = "final_question", framework = "cbt", distortion = kind,
                               inputs = { thought, situation, perspective, evidence },
                               fallback = "reflection.negative.q5", args = { thought }, static = "reflection.negative.q5.static" }
    local reframe = s:ask { id = "reframe", text = final }
    local post = s:intensity { id = "post", text = "intensity.post", progress = false }
    s:feedback { pre = pre, post = post, distortion = kind, framework = "cbt", final = "final", inputs = { reframe } }
  end,
}
