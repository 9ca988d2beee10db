-- Celebration rules of the coach flows (spec coach §7, the shipped rules).
--
-- Content decides which answer earns which tier; the engine applies the
-- per-session rate limit (at most one medium and one big, the rest become
-- tiny), drops everything when the person turned celebrations off, and
-- never fires one twice (replay, back, resume). See docs/progress.md.
--
-- `after(s, step, answer)` runs after each answer, before the flow goes on;
-- `finish(s)` when the flow ends. `s:facts()` is the snapshot taken when the
-- session started ("first time" facts are read as they were then).

local saved = {} -- this session's answers by step (rebuilt by every replay)

local none = { streak = 0, days = 0, today = false, yes_days = 0, yes_today = false, yes_week = 0 }

local function history(facts, step)
  return (facts.steps or {})[step] or none
end

local function count_done(marks)
  local n = 0
  for _, mark in pairs(marks) do
    if mark == "done" then n = n + 1 end
  end
  return n
end

-- The ids of the items marked Done, in the checklist's order (today's
-- Prep Library), any others after them by id.
local function done_items(facts, marks)
  local ids, seen = {}, {}
  for _, item in ipairs(facts.prep or {}) do
    if marks[item.id] == "done" then ids[#ids + 1] = item.id; seen[item.id] = true end
  end
  local rest = {}
  for id, mark in pairs(marks) do
    if mark == "done" and not seen[id] then rest[#rest + 1] = id end
  end
  table.sort(rest)
  for _, id in ipairs(rest) do ids[#ids + 1] = id end
  return ids
end

-- Evening (c): every screen answered and nothing skipped: the reflection
-- answered, and on the prep screen every item marked and none marked Skip
-- (with no items on the list, a new item written instead).
local function answered(value)
  return value ~= nil and not (type(value) == "string" and value:match("^%s*$"))
end

local function nothing_skipped()
  if saved.care_done == nil or not answered(saved.calm_helped) or not answered(saved.pulled_toward) then
    return false
  end
  if type(saved.prep) == "table" then
    for _, mark in pairs(saved.prep) do
      if mark == "skip" then return false end
    end
    return true
  end
  return answered(saved.prep_new)
end

local rules = {}

function rules.after(s, step, answer)
  saved[step] = answer
  local facts = s:facts()
  local past = history(facts, step)
  if step == "reset" then
    -- morning 1: the reset, first time today (later the same day: none)
    if not past.today then s:celebrate { tier = "tiny", reason = "reset_done" } end
  elseif step == "identity" and answer ~= nil then
    -- morning 2: the identity step streak, today included, is 3 days or more
    local streak = past.today and past.streak or past.streak + 1
    if streak >= 3 then s:celebrate { tier = "tiny", reason = "identity_streak" } end
  elseif step == "focus" and answer ~= nil then
    -- morning 3: focus saved with identity also saved this morning
    if saved.identity ~= nil or history(facts, "identity").today then
      s:celebrate { tier = "tiny", reason = "focus_with_identity" }
    end
  elseif step == "stress_response" and answer ~= nil then
    -- morning 4: the first plan ever is big; the first of the day otherwise tiny
    if past.days == 0 then
      s:celebrate { tier = "big", reason = "first_stress_response" }
    elseif not past.today then
      s:celebrate { tier = "tiny", reason = "stress_response" }
    end
  elseif step == "care_done" then
    -- evening 1: Yes is medium in the first 3 Yes evenings, else tiny, with
    -- a mini-celebration line; No is a warm-validation line, no confetti
    if answer == true then
      s:celebrate { tier = past.yes_days < 3 and "medium" or "tiny", reason = "care_done", pool = "mini_celebration" }
    elseif answer == false then
      s:celebrate { reason = "care_done", pool = "warm_validation" }
    end
  elseif step == "prep" and type(answer) == "table" then
    -- evening 3: each item marked Done a tiny one (in the checklist's
    -- order); two or more medium; a new weekly consistency achievement
    -- (5 evenings this week with a Done) big
    for _, id in ipairs(done_items(facts, answer)) do
      s:celebrate { tier = "tiny", reason = "prep_done", item = id }
    end
    local done = count_done(answer)
    if done >= 2 then s:celebrate { tier = "medium", reason = "prep_two_done" } end
    local week = "weekly_consistency:" .. (facts.week or "")
    if done >= 1 and not past.yes_today and past.yes_week + 1 >= 5 and not (facts.achievements or {})[week] then
      s:celebrate { tier = "big", reason = "weekly_consistency" }
    end
  elseif step == "day_complete" then
    -- evening 4: (a) care action Yes, or (b) a prep Done, or (c) every screen
    -- answered with nothing skipped: medium; otherwise a gentle checkmark
    -- (no tier). "Nothing skipped" (docs/coach.md): no screen left without
    -- an answer and no prep item marked Skip; with nothing on today's list,
    -- the prep screen is answered by writing a new item.
    local prep_done = type(saved.prep) == "table" and count_done(saved.prep) >= 1
    if saved.care_done == true or prep_done or nothing_skipped() then
      s:celebrate { tier = "medium", reason = "day_complete" }
    else
      s:celebrate { reason = "day_complete" }
    end
  end
end

function rules.finish(s)
  local facts = s:facts()
  if saved.start_day ~= nil then
    -- morning 5: morning completed
    s:celebrate { tier = "medium", reason = "morning_complete" }
    local mornings = facts.completed or none
    local streak = mornings.today and mornings.streak or mornings.streak + 1
    if streak >= 7 and not (facts.achievements or {}).first_week_morning then
      s:celebrate { tier = "medium", reason = "first_week_morning" }
    end
  end
  -- any flow end: a streak milestone reached today, first flow completed that day
  local streak = facts.streak
  if streak ~= nil and not facts.completed_today then
    local n = streak.including_today
    if n == 7 or n == 14 or n == 30 then
      s:celebrate { tier = "big", reason = "streak_milestone" }
    elseif n == 3 then
      s:celebrate { tier = "medium", reason = "streak_3" }
    end
  end
end

return rules
