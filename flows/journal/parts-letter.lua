-- The weekly parts letter (optional, once a week): write as the part of you
-- that wants comfort food (what is it afraid of, what does it need), then
-- answer it from your adult self. Neutral words: no food, wish or part is
-- called good or bad. The answer quotes the part's need back (or asks
-- without it when it is empty or was flagged).
return flow {
  id = "journal.parts-letter",
  title = "journal.parts.title",
  version = 1,
  total = 3,
  run = function(s)
    s:message { id = "intro", text = "journal.parts.intro" }
    s:ask { id = "afraid", text = "journal.parts.afraid", hint = "journal.parts.afraid.hint" }
    local needs = s:ask { id = "needs", text = "journal.parts.needs" }
    s:ask { id = "reply", text = "journal.parts.reply", args = { needs }, fallback = "journal.parts.reply.static",
            hint = "journal.parts.reply.hint" }
    s:message { id = "close", text = "journal.parts.close" }
  end,
}
