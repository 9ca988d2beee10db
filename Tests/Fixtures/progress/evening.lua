-- Test stand-in for the coach evening check-in (spec coach §3).
return flow {
  id = "coach.evening", version = 1, total = 5,
  run = function(s)
    s:yesno { id = "care_done", text = "Did you do your care action at least once today?" }
    s:ask { id = "calm_helped", text = "What helped you feel calm or cared for today?", required = false }
    s:ask { id = "pulled_toward", text = "Was there a moment you felt pulled toward comfort eating?", required = false }
    s:checklist { id = "prep", text = "What's one small thing you can set up for Future You?", items = {
      { id = "produce", text = "Wash/cut veggies or fruit and place them at eye level" },
      { id = "water", text = "Put water bottle in fridge or by my bed" },
      { id = "breakfast", text = "Prep quick breakfast/snack" } } }
    s:action { id = "day_complete", text = "This is hard, and I'm not alone. I can be kind to myself as I grow." }
  end,
}
