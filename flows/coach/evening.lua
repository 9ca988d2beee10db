-- End-of-day check-in of the care-first coach (docs/coach.md): showing up,
-- a gentle reflection, tomorrow's prep from the person's Prep Library, and
-- a line of self-compassion. Quotes the morning's stress plan back.

-- The latest stress plan of today's morning check-in, or nil.
local function morning_plan(facts)
  local plan
  for _, a in ipairs(facts.earlier) do
    if a.flow == "coach.morning" and a.step == "stress_response" and type(a.value) == "string" and a.value ~= "" then
      plan = a.value
    end
  end
  return plan
end

return flow {
  id = "coach.evening",
  title = "coach.evening.title",
  version = 1,
  total = 4,
  run = function(s)
    local facts = s:facts()
    s:yesno { id = "care_done", text = "coach.evening.care_done", args = { morning_plan(facts) },
              fallback = "coach.evening.care_done.static", hint = "coach.evening.care_done.hint" }
    s:ask { id = "calm_helped", text = "coach.evening.calm_helped" }
    s:ask { id = "pulled_toward", text = "coach.evening.pulled_toward", hint = "coach.evening.pulled_toward.hint",
            progress = false }

    -- Tomorrow's prep: today's active Prep Library items, in order. A
    -- person's own items are their words: shown literally, never as keys.
    local items = {}
    for _, item in ipairs(facts.prep) do
      items[#items + 1] = { id = item.id, text = item.text, literal = item.literal }
    end
    local new
    if #items > 0 then
      local marks = s:checklist { id = "prep", text = "coach.evening.prep", hint = "coach.evening.prep.hint", items = items }
      s:prep_marks(marks)
      new = s:ask { id = "prep_new", text = "coach.evening.prep_new", required = false, progress = false }
    else
      -- Nothing on today's list (all archived or hidden): the new item is the prep screen.
      new = s:ask { id = "prep_new", text = "coach.evening.prep.empty", hint = "coach.evening.prep.hint", required = false }
    end
    if new ~= nil and new ~= "" then
      if not s:prep_add(new) then
        s:message { id = "prep_new_refused", text = "coach.evening.prep_new.refused" }
      end
    end

    s:action { id = "day_complete", text = "coach.evening.day_complete", button = "coach.evening.day_complete.button" }
  end,
}
