-- Morning check-in of the care-first coach (docs/coach.md): five short
-- screens, about 30 seconds. The step ids are the product's: the evening,
-- I Need Help and the celebration rules read them.
return flow {
  id = "coach.morning",
  title = "coach.morning.title",
  version = 1,
  total = 5,
  run = function(s)
    s:action { id = "reset", text = "coach.morning.reset", button = "coach.button.done" }
    s:ask { id = "identity", text = "coach.morning.identity", hint = "coach.morning.identity.hint" }
    s:ask { id = "focus", text = "coach.morning.focus", hint = "coach.morning.focus.hint" }
    s:ask { id = "stress_response", text = "coach.morning.stress_response", hint = "coach.morning.stress_response.hint" }
    -- Same screen as the stress plan: optional, not counted in "4/5".
    s:ask { id = "snack", text = "coach.morning.snack", required = false, progress = false }
    s:action { id = "start_day", text = "coach.morning.start_day", button = "coach.morning.start_day.button" }
  end,
}
