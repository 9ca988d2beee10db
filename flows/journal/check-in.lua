-- The daily check-in: mood, energy and stress (1–10), last night's sleep
-- (hours in quarter hours, and its quality 1–10), and an optional note.
-- `reflect insights` reads these steps by id (docs/journal.md): keep them.
local function scale(s, id, low, high)
  return s:number { id = id, text = "journal.checkin." .. id, min = 1, max = 10,
                    min_label = "journal.scale." .. low, max_label = "journal.scale." .. high }
end

return flow {
  id = "journal.check-in",
  title = "journal.checkin.title",
  version = 1,
  total = 6,
  run = function(s)
    scale(s, "mood", "mood_low", "mood_high")
    scale(s, "energy", "energy_low", "energy_high")
    scale(s, "stress", "stress_low", "stress_high")
    s:number { id = "sleep_hours", text = "journal.checkin.sleep_hours", min = 0, max = 24, step = 0.25 }
    scale(s, "sleep_quality", "sleep_low", "sleep_high")
    s:ask { id = "note", text = "journal.checkin.note", required = false }
    s:message { id = "close", text = "journal.checkin.close" }
  end,
}
