-- An ordinary flow: every prompt kind, helpers, a finished run.
-- expect: finished
-- deterministic
return flow {
  id = "case.smoke", version = 1,
  run = function(s)
    local a = s:ask { id = "a", text = "What happened?" }
    local n = s:intensity { id = "n", text = "How strong?" }
    local y = s:yesno { id = "y", text = "Sure?" }
    local c = s:choose { id = "c", text = "Pick", options = { { id = "one", text = "One" }, { id = "two", text = "Two" } } }
    local m = s:choose_many { id = "m", text = "Pick", options = { { id = "x", text = "X" } } }
    s:message { id = "bye", text = s:quote(a) .. n .. tostring(y) .. c .. m[1] .. s:now().iso .. s:locale() }
    local e1, e2, e3, e4 = host.echo(1, 2.5, "three", { four = 4, { 5 } })
    print(e1, e2, e3, e4.four, e4[1][1])
  end,
}
