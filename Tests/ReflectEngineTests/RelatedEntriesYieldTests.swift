import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// `s:related`: a read-only request the host fulfils, recorded in the save
/// and never fulfilled twice for the same text (docs/engine.md).
@Suite("Related entries (s:related)")
struct RelatedEntriesYieldTests {
    /// A host's search that counts how often it is asked, and what for.
    final class CountingSource: RelatedEntrySource, @unchecked Sendable {
        let lock = NSLock()
        var asked: [String] = []
        var entries: [RelatedEntry]
        init(_ entries: [RelatedEntry]) { self.entries = entries }
        func relatedEntries(to text: String, now: String, excluding: String, limit: Int) throws -> [RelatedEntry] {
            lock.withLock {
                asked.append(text)
                return Array(entries.prefix(limit))
            }
        }
    }

    static let flow = """
        return flow {
          id = "test.related", version = 1,
          run = function(s)
            local situation = s:ask { id = "situation", text = "What happened?" }
            local found = s:related { id = "related", text = { situation } }
            if #found > 0 then
              s:message { id = "shown", text = "Similar on %1$@: '%2$@'", args = { found[1].day, found[1].text } }
            end
            s:ask { id = "last", text = "Anything else?" }
          end,
        }
        """

    func entry(_ text: String, day: String = "2026-10-02") -> RelatedEntry {
        RelatedEntry(day: day, text: text, flow: "journal.check-in", session: "s-\(day)", step: "note", score: 0.9)
    }

    @Test("the entries reach the flow and the save; back, resume and replay never search again; an edited answer does")
    func replayDeterminism() throws {
        let source = CountingSource([entry("The deadline scared me")])
        var opts = options()
        opts.relatedEntries = source
        let session = try FlowSession.open(ReflectEngineTests.source("related.lua", Self.flow), options: opts)
        try session.answer(.text("A deadline at work"))
        #expect(session.current?.step == "shown")
        #expect(session.current?.text == "Similar on 2026-10-02: 'The deadline scared me'")
        #expect(session.save.recalled.map(\.entries) == [[entry("The deadline scared me")]])
        #expect(source.asked == ["A deadline at work"])
        // Back and forth: replayed from the save.
        try session.answer(.acknowledge, .command(.back))
        #expect(session.current?.step == "shown")
        #expect(source.asked.count == 1)
        // Resuming from the save (what a store gives back), with a host whose
        // search would now find something else: the same entries are shown.
        source.entries = [entry("Something else entirely", day: "2026-11-01")]
        let resumed = try FlowSession.open(ReflectEngineTests.source("related.lua", Self.flow), options: opts, resuming: session.save)
        #expect(resumed.current?.text == "Similar on 2026-10-02: 'The deadline scared me'")
        #expect(source.asked.count == 1, "replay reuses the recorded entries")
        // An edited situation is searched anew.
        try resumed.answer(.command(.back))
        #expect(resumed.current?.step == "situation")
        try resumed.answer(.text("A quarrel at home"))
        #expect(source.asked == ["A deadline at work", "A quarrel at home"])
        #expect(resumed.current?.text == "Similar on 2026-11-01: 'Something else entirely'")
    }

    @Test("a flagged answer is never searched for, and a found entry the gate flags now is dropped")
    func safety() throws {
        let language = try english()
        let source = CountingSource([entry("I want to end it all"), entry("A calm walk helped")])
        var opts = options()
        opts.relatedEntries = source
        let session = try FlowSession.open(ReflectEngineTests.source("related.lua", Self.flow), language: language, options: opts)
        try session.answer(.text("I want to kill myself"))
        #expect(source.asked.isEmpty, "nothing is searched for a flagged answer")
        #expect(session.current?.step == "last")
        let other = try FlowSession.open(ReflectEngineTests.source("related.lua", Self.flow), language: language, options: opts)
        try other.answer(.text("A long week"))
        #expect(other.save.recalled.first?.entries.map(\.text) == ["A calm walk helped"], "a flagged past entry is never quoted back")
    }

    @Test("without a host, nothing is found and the flow goes on")
    func noHost() throws {
        let session = try FlowSession.open(ReflectEngineTests.source("related.lua", Self.flow), options: options())
        try session.answer(.text("A deadline at work"))
        #expect(session.current?.step == "last")
        #expect(session.save.recalled.first?.entries == [])
    }

    @Test("a save's recalled entries survive encoding, and a tampered one is refused")
    func saveCoding() throws {
        var save = SessionSave(flow: "test.related", flowVersion: 1, seed: 1, now: "2026-11-22T08:15:00+01:00",
                               recalled: [RecalledEntries(id: "related", basis: "b", entries: [entry("x")])])
        let data = try JSONEncoder().encode(save)
        #expect(try SessionSave.decodeValidated(from: data) == save)
        save.recalled.append(RecalledEntries(id: "related", basis: "c", entries: []))
        #expect(throws: SaveValidationError.self) { try SessionSave.decodeValidated(from: try JSONEncoder().encode(save)) }
    }
}
