-- Test stand-in for the coach morning check-in (spec coach §2): the steps
-- and ids the celebration rules read, literal texts. Tests copy it to
-- flows/coach/morning.lua beside the repository's flows/coach/celebrations.lua.
return flow {
  id = "coach.morning", version = 1, total = 5,
  run = function(s)
    s:action { id = "reset", text = "Take 3 slow breaths." }
    s:ask { id = "identity", text = "I am someone who…" }
    s:ask { id = "focus", text = "Today I will care for myself by…" }
    s:ask { id = "stress_response", text = "If I feel stressed or want comfort, I will…" }
    s:action { id = "start_day", text = "Picture yourself doing your care action calmly." }
  end,
}
