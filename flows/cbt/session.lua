-- The CBT coach session (docs/journal.md, "The CBT coach session"): goal,
-- situation, thoughts, feelings, the distortion detected in the thoughts
-- with its matching question and a CBT card, reframe, a tiny step, and how
-- it feels now. After the situation, up to three related past entries of
-- the person's own ("You wrote about something similar on …"), found by the
-- host (s:related) and kept in the save.

-- CBT cards: one per distortion. Their texts are locale keys
-- (cbt.card.<id>.title / .technique / .example), translated like every string.
local cards = {
  catastrophizing = "decatastrophize",
  overgeneralization = "find_exceptions",
  should_statement = "rules_to_preferences",
  labeling = "behavior_not_identity",
  personalization = "responsibility_pie",
  mind_reading = "check_the_guess",
  unknown = "friends_view",
}

-- The closing line follows the person's tone (personalization profile).
local tones = { warm = true, direct = true, cheerful = true, neutral = true }

return flow {
  id = "cbt.session",
  title = "cbt.session.title",
  version = 1,
  total = 8,
  run = function(s)
    local profile = s:facts().profile or {}
    local goal = s:ask { id = "goal", text = "cbt.goal" }
    local situation = s:ask { id = "situation", text = "cbt.situation", probe = "specificity" }

    local related = s:related { id = "related", text = { goal, situation } }
    if #related > 0 then
      local args = {}
      for _, e in ipairs(related) do
        args[#args + 1] = e.day
        args[#args + 1] = e.text
      end
      s:message { id = "related", text = "cbt.related." .. #related, args = args, fallback = "cbt.related.static" }
    end

    local thoughts = s:ask { id = "thoughts", text = "cbt.thoughts" }
    -- Detected on the thoughts' answer (its distortion row and event).
    local kind = s:distortion(thoughts)
    s:ask { id = "feelings", text = "cbt.feelings" }

    s:ask { id = "distortions", text = "reflection.negative.q3." .. kind, args = { thoughts },
            fallback = "reflection.negative.q3.static" }
    local card = cards[kind]
    s:message { id = "card", text = s:text("cbt.card", s:text("cbt.card." .. card .. ".title"),
                                           s:text("cbt.card." .. card .. ".technique"),
                                           s:text("cbt.card." .. card .. ".example")) }

    s:ask { id = "reframe", text = "cbt.reframe" }
    local hint
    if profile.preferred_actions and #profile.preferred_actions > 0 then
      local names = {}
      for _, theme in ipairs(profile.preferred_actions) do names[#names + 1] = s:text("theme." .. theme) end
      hint = s:text("cbt.action.preferred", table.concat(names, ", "))
    end
    s:ask { id = "action", text = "cbt.action", hint = hint }
    s:ask { id = "reflect", text = "cbt.reflect" }
    local tone = tones[profile.tone] and profile.tone or "warm"
    s:message { id = "close", text = "cbt.close." .. tone }
  end,
}
