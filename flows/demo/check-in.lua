-- A short check-in: how strong the feeling is, what is on your mind, one
-- kinder look at it, and how strong it is now. The demo flow of the quick
-- start until the reflection flows land.
return flow {
  id = "demo.check-in",
  title = "demo.checkin.title",
  version = 1,
  total = 4,
  run = function(s)
    local before = s:intensity { id = "pre", text = "How strong is the feeling right now?" }
    local what = s:ask { id = "situation", text = "What is on your mind?" }
    -- The answer is quoted through args: the engine shows an excerpt, and
    -- the fallback when there is nothing to quote (docs/flow-api.md).
    s:ask { id = "friend", text = "If a friend told you \"%@\", what would you say to them?", args = { what },
            fallback = "If a friend told you this, what would you say to them?" }
    local after = s:intensity { id = "post", text = "And how strong is the feeling now?" }
    if after < before then
      s:message { id = "close", text = "It eased from " .. before .. " to " .. after .. ". Well done for taking the time." }
    end
  end,
}
