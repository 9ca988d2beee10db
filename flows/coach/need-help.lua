-- I Need Help (docs/coach.md): what kind of craving this is, a short branch
-- with one concrete thing to do, and an optional note. Every run is stored
-- as a craving note (type stress / habit / physical / other).

local function morning_plan(facts)
  local plan
  for _, a in ipairs(facts.earlier) do
    if a.flow == "coach.morning" and a.step == "stress_response" and type(a.value) == "string" and a.value ~= "" then
      plan = a.value
    end
  end
  return plan
end

local function options(prefix, ids)
  local list = {}
  for _, id in ipairs(ids) do list[#list + 1] = { id = id, text = prefix .. id } end
  return list
end

return flow {
  id = "coach.need-help",
  title = "coach.help.title",
  version = 1,
  total = 2,
  run = function(s)
    local category = s:choose { id = "category", text = "coach.help.category", hint = "coach.disclaimer",
                                options = options("coach.help.category.", { "stress", "habit", "physical", "other" }) }
    local detail, words
    if category == "stress" then
      local plan = morning_plan(s:facts())
      if plan then
        s:message { id = "stress_plan", text = "coach.help.stress.plan", args = { plan } }
      end
      detail = s:choose { id = "stress_tool", text = "coach.help.stress.tool",
                          options = options("coach.help.stress.tool.", { "grounding", "journal", "urge_surf" }) }
      if detail == "grounding" then
        s:action { id = "grounding", text = "coach.help.stress.grounding", button = "coach.button.done", progress = false }
      elseif detail == "journal" then
        words = s:ask { id = "journal", text = "coach.help.stress.journal", progress = false }
      else
        s:action { id = "urge_surf", text = "coach.help.stress.urge_surf", button = "coach.help.stress.urge_surf.button",
                   progress = false }
      end
    elseif category == "habit" then
      s:message { id = "habit_swaps", text = "coach.help.habit.swaps" }
      detail = s:choose { id = "habit_trigger", text = "coach.help.habit.trigger",
                          options = options("coach.help.habit.trigger.", { "time", "place", "both", "not_sure" }) }
    elseif category == "physical" then
      detail = s:choose { id = "physical_need", text = "coach.help.physical.need",
                          options = options("coach.help.physical.need.", { "water", "protein", "stretch", "meal" }) }
      s:action { id = "physical_done", text = "coach.help.physical.go", button = "coach.button.done", progress = false }
    else
      words = s:ask { id = "other_note", text = "coach.help.other.note" }
    end

    local note = s:ask { id = "note", text = "coach.help.note", required = false, progress = false }
    local parts = {}
    for _, w in ipairs({ words or "", note or "" }) do
      if w ~= "" then parts[#parts + 1] = w end
    end
    s:craving_note { type = category, detail = detail, text = table.concat(parts, "\n") }
  end,
}
